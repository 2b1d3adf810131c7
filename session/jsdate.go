package session

import (
	"math"
	"time"

	"github.com/forgebench/forgebench/session/internal/scan"
)

// DateMs returns new Date(v).getTime() for an entry timestamp field: a
// string in the ECMAScript date-time format (the format toISOString writes,
// and its shorter forms), or a number of milliseconds; null and booleans
// become numbers first (null and false: 0, true: 1). Anything else is NaN.
func DateMs(r RawValue) float64 {
	if f, ok := r.Number(); ok {
		return timeClip(f)
	}
	switch string(r) {
	case "null", "false":
		return 0
	case "true":
		return 1
	}
	s, ok := r.Str()
	if !ok {
		return math.NaN()
	}
	return parseJSDate(s)
}

// parseJSDate parses the ECMAScript date-time string format:
// YYYY[-MM[-DD]][THH:mm[:ss[.sss]][Z|±HH:mm]] with ±YYYYYY extended years.
// Date-only forms are UTC; date-time forms without an offset are local time.
func parseJSDate(s string) float64 {
	p := dateParser{s: s}
	year, ok := p.year()
	if !ok {
		return math.NaN()
	}
	month, day := 1, 1
	if p.eat('-') {
		if month, ok = p.digits(2); !ok || month < 1 || month > 12 {
			return math.NaN()
		}
		if p.eat('-') {
			if day, ok = p.digits(2); !ok || day < 1 || day > 31 {
				return math.NaN()
			}
		}
	}
	hour, minute, sec, msec := 0, 0, 0, 0
	utc := true
	if p.eat('T') || p.eat('t') {
		utc = false
		if hour, ok = p.digits(2); !ok || !p.eat(':') {
			return math.NaN()
		}
		if minute, ok = p.digits(2); !ok {
			return math.NaN()
		}
		if p.eat(':') {
			if sec, ok = p.digits(2); !ok {
				return math.NaN()
			}
			if p.eat('.') {
				start := p.i
				frac := 0
				for p.i < len(p.s) && scan.IsDigit(p.s[p.i]) {
					if p.i-start < 3 {
						frac = frac*10 + int(p.s[p.i]-'0')
					}
					p.i++
				}
				if p.i == start {
					return math.NaN()
				}
				for k := p.i - start; k < 3; k++ {
					frac *= 10
				}
				msec = frac
			}
		}
		if hour > 24 || minute > 59 || sec > 59 || (hour == 24 && (minute|sec|msec) != 0) {
			return math.NaN()
		}
		switch {
		case p.eat('Z') || p.eat('z'):
			utc = true
		case p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-'):
			sign := 1
			if p.s[p.i] == '-' {
				sign = -1
			}
			p.i++
			oh, ok1 := p.digits(2)
			if !ok1 || !p.eat(':') {
				return math.NaN()
			}
			om, ok2 := p.digits(2)
			if !ok2 || oh > 23 || om > 59 {
				return math.NaN()
			}
			utc = true
			minute -= sign * (oh*60 + om)
		}
	}
	if p.i != len(p.s) {
		return math.NaN()
	}
	if day > daysIn(year, month) {
		return math.NaN()
	}
	loc := time.UTC
	if !utc {
		loc = time.Local
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, msec*int(time.Millisecond), loc)
	return timeClip(float64(t.UnixMilli()))
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func timeClip(f float64) float64 {
	if math.IsNaN(f) || math.Abs(f) > 8.64e15 {
		return math.NaN()
	}
	return math.Trunc(f) + 0 // +0 turns -0 into 0
}

type dateParser struct {
	s string
	i int
}

func (p *dateParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *dateParser) digits(n int) (int, bool) {
	if p.i+n > len(p.s) {
		return 0, false
	}
	v := 0
	for k := 0; k < n; k++ {
		c := p.s[p.i+k]
		if !scan.IsDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	p.i += n
	return v, true
}

func (p *dateParser) year() (int, bool) {
	if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		neg := p.s[p.i] == '-'
		p.i++
		y, ok := p.digits(6)
		if !ok || (neg && y == 0) {
			return 0, false
		}
		if neg {
			y = -y
		}
		return y, true
	}
	return p.digits(4)
}
