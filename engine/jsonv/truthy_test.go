package jsonv

import (
	"math"
	"testing"
)

func TestTruthyIsJavaScriptToBoolean(t *testing.T) {
	cases := []struct {
		json string
		want bool
	}{
		{`null`, false}, {`false`, false}, {`true`, true},
		{`0`, false}, {`-0`, false}, {`0.0`, false}, {`1`, true}, {`-1e-300`, true},
		{`""`, false}, {`" "`, true}, {`"0"`, true}, {`"false"`, true},
		{`[]`, true}, {`[0]`, true}, {`{}`, true}, {`{"a":0}`, true},
	}
	for _, c := range cases {
		v, err := Parse([]byte(c.json))
		if err != nil {
			t.Fatalf("parse %s: %v", c.json, err)
		}
		if got := Truthy(v); got != c.want {
			t.Errorf("Truthy(%s) = %v, want %v", c.json, got, c.want)
		}
	}
	if Truthy(math.NaN()) {
		t.Error("NaN is falsy in JavaScript")
	}
	if !Truthy(math.Inf(-1)) {
		t.Error("-Infinity is truthy in JavaScript")
	}
}

func TestEscapeXMLEscapesExactlyFiveCharacters(t *testing.T) {
	cases := map[string]string{
		`a & b < c > d " e ' f`: `a &amp; b &lt; c &gt; d &quot; e &apos; f`,
		"&amp;":                 "&amp;amp;", // no entity is recognised: everything is escaped again
		"plain ünïcode\t\x01":   "plain ünïcode\t\x01",
		"":                      "",
	}
	for in, want := range cases {
		if got := EscapeXML(in); got != want {
			t.Errorf("EscapeXML(%q) = %q, want %q", in, got, want)
		}
	}
}
