//go:build linux

// Command measure (Linux: it reads /proc) runs a command as a fresh process several times and
// reports what a user pays for it: wall time, CPU time, peak RSS (the
// kernel's high-water mark) and peak private memory (RssAnon of
// /proc/PID/status, sampled every millisecond: the anonymous pages the
// process owns, without the page-cache pages of files it maps read-only).
//
//	measure [-runs 5] [-warm 1] [-stdin FILE] [-label NAME] [-tsv FILE] -- CMD ARGS...
//
// It prints one line: the label, the median and spread [min–max] of the
// wall time, the median CPU time, the largest peak RSS, and the median and
// largest of the runs' peak private memory. With -tsv it also appends the
// figures to FILE as one tab-separated record: label, wall median/min/max
// (s), CPU median (s), peak RSS (MiB), peak private median/max (MiB). A
// run that exits non-zero stops it.
//
// With -node-ms the command is a Node script that prints its in-process
// time in milliseconds as the first field of its output; that time is
// reported instead of the wall time (the Pi side of the comparison).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type run struct {
	wall, cpu     time.Duration
	peakRSS, anon int64 // KiB
	firstField    string
}

func main() {
	runs := flag.Int("runs", 5, "measured runs")
	warm := flag.Int("warm", 1, "unmeasured runs first (page cache, binary)")
	stdin := flag.String("stdin", "", "file fed to the command's standard input")
	label := flag.String("label", "", "name printed for the command (default: the command line)")
	tsv := flag.String("tsv", "", "append the figures to this file")
	nodeMs := flag.Bool("node-ms", false, "report the first output field (milliseconds) as the time")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "measure: no command")
		os.Exit(2)
	}
	if *label == "" {
		*label = strings.Join(args, " ")
	}
	var rs []run
	for i := 0; i < *warm+*runs; i++ {
		r, err := once(args, *stdin)
		if err != nil {
			fmt.Fprintf(os.Stderr, "measure: %s: %v\n", *label, err)
			os.Exit(1)
		}
		if *nodeMs {
			ms, err := strconv.ParseFloat(r.firstField, 64)
			if err != nil {
				fmt.Fprintf(os.Stderr, "measure: %s printed %q, not milliseconds\n", *label, r.firstField)
				os.Exit(1)
			}
			r.wall = time.Duration(ms * float64(time.Millisecond))
		}
		if i >= *warm {
			rs = append(rs, r)
		}
	}
	walls := make([]float64, len(rs))
	cpus := make([]float64, len(rs))
	anons := make([]float64, len(rs))
	var rss int64
	for i, r := range rs {
		walls[i], cpus[i], anons[i] = r.wall.Seconds(), r.cpu.Seconds(), float64(r.anon>>10)
		rss = max(rss, r.peakRSS)
	}
	sort.Float64s(walls)
	sort.Float64s(cpus)
	sort.Float64s(anons)
	med := func(v []float64) float64 { return v[len(v)/2] }
	what := "wall"
	if *nodeMs {
		what = "in-process"
	}
	fmt.Printf("%-44s %s %s [%s–%s]  cpu %s  peak RSS %4d MiB  private %4.0f MiB [max %.0f]  (%d runs)\n",
		*label, what, seconds(med(walls)), seconds(walls[0]), seconds(walls[len(walls)-1]), seconds(med(cpus)),
		rss>>10, med(anons), anons[len(anons)-1], len(rs))
	if *tsv != "" {
		f, err := os.OpenFile(*tsv, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%s\t%.6f\t%.6f\t%.6f\t%.6f\t%d\t%.0f\t%.0f\n", *label, med(walls), walls[0], walls[len(walls)-1], med(cpus), rss>>10, med(anons), anons[len(anons)-1])
			err = f.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "measure:", err)
			os.Exit(1)
		}
	}
}

// seconds prints a duration in seconds, or in milliseconds below 0.1 s
// (a start-up is a few milliseconds; three decimals of a second hide it).
func seconds(s float64) string {
	if s < 0.1 {
		return fmt.Sprintf("%.1f ms", s*1000)
	}
	return fmt.Sprintf("%.3f s", s)
}

// once runs the command, sampling its private memory until it exits.
func once(args []string, stdin string) (run, error) {
	cmd := exec.Command(args[0], args[1:]...)
	var out headWriter
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			return run{}, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return run{}, err
	}
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	done := make(chan struct{})
	peak := make(chan int64, 1)
	go func() {
		var top int64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if kb, ok := rssAnon(status); ok {
				top = max(top, kb)
			}
			select {
			case <-done:
				peak <- top
				return
			case <-tick.C:
			}
		}
	}()
	err := cmd.Wait()
	wall := time.Since(start)
	close(done)
	r := run{wall: wall, anon: <-peak}
	if err != nil {
		return r, fmt.Errorf("%v\n%s", err, errb.String())
	}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakRSS = ru.Maxrss // KiB on Linux
	}
	if fields := strings.Fields(string(out.head)); len(fields) > 0 {
		r.firstField = fields[0]
	}
	return r, nil
}

// headWriter keeps the first 4 KB written to it and counts the rest: a
// command's output is read as a pipe reader would (a tree prints tens of
// MB), without the measuring process growing a buffer beside it.
type headWriter struct {
	head []byte
	n    int64
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := 4096 - len(w.head); room > 0 {
		w.head = append(w.head, p[:min(room, len(p))]...)
	}
	w.n += int64(len(p))
	return len(p), nil
}

// rssAnon reads RssAnon (KiB) from a /proc/PID/status file.
func rssAnon(path string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "RssAnon:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb, err == nil
		}
	}
	return 0, false
}
