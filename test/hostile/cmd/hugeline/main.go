// Command hugeline writes the hostile corpus's huge-line session (one tool
// result of -bytes bytes between ordinary entries) for the measurements in
// test/hostile/measure-hugeline.sh.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/forgebench/forgebench/test/hostile"
)

func main() {
	out := flag.String("o", "huge.jsonl", "file to write")
	size := flag.Int64("bytes", 300_000_000, "length of the huge line's text")
	flag.Parse()
	if err := hostile.WriteHugeLineSession(*out, *size); err != nil {
		fmt.Fprintln(os.Stderr, "hugeline:", err)
		os.Exit(1)
	}
}
