package compare

import (
	"testing"

	"github.com/forgebench/forgebench/session/internal/rawjson"
)

func isErrorByMember(msg []byte) bool { return string(rawjson.Member(msg, "isError")) == "true" }

func TestToolResultIsError(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want bool
	}{
		{`{"role":"toolResult","content":[{"type":"text","text":"x"}],"isError":true,"timestamp":1}`, true},
		{`{"role":"toolResult","content":[],"isError":false}`, false},
		{`{"role":"toolResult","isError":true,"content":[{"type":"text","text":"\"isError\":false"}]}`, true},
		{`{"role":"toolResult","isError":true,"details":{"isError":false}}`, true},
		{`{"role":"toolResult","details":{"isError":true},"timestamp":2}`, false},
		{`{"role":"toolResult","isError":false,"isError":true}`, true},
		{`{"role":"toolResult","isError":true,"x\"isError":false}`, true},
		{`{"role":"toolResult"}`, false},
		{`{"isError" : true }`, true},
	} {
		if got := toolResultIsError([]byte(c.msg)); got != c.want || got != isErrorByMember([]byte(c.msg)) {
			t.Errorf("%s: %v, want %v", c.msg, got, c.want)
		}
	}
}

// FuzzToolResultIsError holds the fast read from the end to the full walk
// from the start on every well-formed message.
func FuzzToolResultIsError(f *testing.F) {
	for _, s := range []string{
		`{"role":"toolResult","content":[],"isError":true,"timestamp":1}`,
		`{"isError":true,"details":{"isError":false}}`,
		`{"a":"\\","isError":true}`,
		`{"a":"x\"isError\":true"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		msg := []byte(s)
		if end := rawjson.SkipValue(msg, 0); end != len(msg) || len(msg) == 0 || msg[0] != '{' {
			return // the reader only hands over well-formed messages
		}
		if got, want := toolResultIsError(msg), isErrorByMember(msg); got != want {
			t.Fatalf("%s: fast %v, full walk %v", s, got, want)
		}
	})
}
