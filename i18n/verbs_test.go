package i18n

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// formatVerbs reads a fmt format string and returns, sorted by argument,
// which verb formats each argument ("1:d 2:s"), as fmt numbers them:
// explicit indexes ([n]) and the arguments * consumes included.
func formatVerbs(format string) (string, error) {
	type use struct {
		arg  int
		verb string
	}
	var uses []use
	arg := 1
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++
		}
		index := func() error {
			if i < len(format) && format[i] == '[' {
				end := strings.IndexByte(format[i:], ']')
				if end < 0 {
					return fmt.Errorf("unclosed [ at %d", i)
				}
				var n int
				if _, err := fmt.Sscanf(format[i+1:i+end], "%d", &n); err != nil || n < 1 {
					return fmt.Errorf("bad index %q", format[i:i+end+1])
				}
				arg = n
				i += end + 1
			}
			return nil
		}
		number := func() error {
			if err := index(); err != nil {
				return err
			}
			if i < len(format) && format[i] == '*' {
				uses = append(uses, use{arg, "*"})
				arg++
				i++
				return nil
			}
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				i++
			}
			return nil
		}
		if err := number(); err != nil {
			return "", err
		}
		if i < len(format) && format[i] == '.' {
			i++
			if err := number(); err != nil {
				return "", err
			}
		}
		if err := index(); err != nil {
			return "", err
		}
		if i >= len(format) {
			return "", fmt.Errorf("a %% without a verb at the end")
		}
		r := []rune(format[i:])[0]
		uses = append(uses, use{arg, string(r)})
		arg++
		i += len(string(r)) - 1
	}
	sort.SliceStable(uses, func(a, b int) bool { return uses[a].arg < uses[b].arg })
	parts := make([]string, len(uses))
	for k, u := range uses {
		parts[k] = fmt.Sprintf("%d:%s", u.arg, u.verb)
	}
	return strings.Join(parts, " "), nil
}

func TestFormatVerbs(t *testing.T) {
	for format, want := range map[string]string{
		"plain":                 "",
		"100%% done":            "",
		"%d sessions in %s":     "1:d 2:s",
		"在 %[2]s 中有 %[1]d 个会话":  "1:d 2:s",
		"%-*s|%.2f":             "1:* 2:s 3:f",
		"%q then %v then %5.1f": "1:q 2:v 3:f",
		"%[1]s and %[1]s":       "1:s 1:s",
	} {
		got, err := formatVerbs(format)
		if err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", format, got, err, want)
		}
	}
	for _, bad := range []string{"ends with %", "%[x]d", "%[1d"} {
		if _, err := formatVerbs(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}
