package demo

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
)

func TestJSNumber(t *testing.T) {
	cases := map[float64]string{
		5e-324: "5e-324", 1e21: "1e+21", 123456789012345680000: "123456789012345680000", 1e-7: "1e-7",
		0.000001: "0.000001", 0.1: "0.1", math.Copysign(0, -1): "0", 0.0012000000000000001: "0.0012000000000000001",
		1.5e300: "1.5e+300", -2.5e-9: "-2.5e-9", 42: "42", -7.25: "-7.25",
	}
	for in, want := range cases {
		if got := jsNumber(in); got != want {
			t.Errorf("jsNumber(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestJSStringifyMatchesJavaScript(t *testing.T) {
	v := obj("b", []any{1, "x\n\"<&>\u2028\x01", nil, obj()}, "a", jsObject{}, "e", []any{})
	if got, want := jsStringify(v), `{"b":[1,"x\n\"<&>`+"\u2028"+`\u0001",null,{}],"a":{},"e":[]}`; got != want {
		t.Errorf("jsStringify = %s\nwant          %s", got, want)
	}
	if got, want := jsStringifyIndent(obj("k", []any{true, obj("n", 0.5)}), "  "), "{\n  \"k\": [\n    true,\n    {\n      \"n\": 0.5\n    }\n  ]\n}"; got != want {
		t.Errorf("jsStringifyIndent = %q, want %q", got, want)
	}
}

// The expected canonical text and hash were computed with Node's JSON.stringify
// and crypto; the keys "😀" and "\uffff" order differently in UTF-16 and UTF-8.
func TestFingerprintOwnVector(t *testing.T) {
	var v map[string]any
	if err := json.Unmarshal([]byte(`{"z":true,"\uffff":3,"b":null,"a":[1,0.1,1e21,"\u0001<&>\u2028"],"\ud83d\ude00":2}`), &v); err != nil {
		t.Fatalf("parse: %v", err)
	}
	canonical, err := canonicalJSON(v)
	if err != nil {
		t.Fatalf("canonicalJSON: %v", err)
	}
	if want := "{\"a\":[1,0.1,1e+21,\"\\u0001<&>\u2028\"],\"b\":null,\"z\":true,\"😀\":2,\"\uffff\":3}"; canonical != want {
		t.Errorf("canonical = %s, want %s", canonical, want)
	}
	fp, err := fingerprintJSON(v)
	if err != nil || fp != "sha256:v1:67bac9637719af956c7257abd60f787a1ca57c9352502ce48f00a7ac0665874e" {
		t.Errorf("fingerprint = %s (%v)", fp, err)
	}
	if _, err := fingerprintJSON([]any{math.Inf(1)}); err == nil {
		t.Error("fingerprint of Infinity succeeded")
	}
}

// TestFingerprintFixtureVectors checks the fingerprint helper against the
// vectors computed by pi-forge itself.
func TestFingerprintFixtureVectors(t *testing.T) {
	data := fixtures.Read(t, "pi-forge/fingerprint-vectors.json")
	var file struct {
		Vectors []struct {
			Name        string `json:"name"`
			Value       any    `json:"value"`
			Canonical   string `json:"canonical"`
			Fingerprint string `json:"fingerprint"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("parse fingerprint vectors: %v", err)
	}
	if len(file.Vectors) == 0 {
		t.Fatal("no fingerprint vectors")
	}
	for _, v := range file.Vectors {
		canonical, err := canonicalJSON(v.Value)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		fp, _ := fingerprintJSON(v.Value)
		if canonical != v.Canonical || fp != v.Fingerprint {
			t.Errorf("%s: canonical %s / %s, want %s / %s", v.Name, canonical, fp, v.Canonical, v.Fingerprint)
		}
	}
}

// TestCatalogPrices checks the generator's model prices against the pi-ai
// 1.6.0 catalog, so demo costs match what Pi would compute.
func TestCatalogPrices(t *testing.T) {
	for _, m := range []modelRef{modelSonnet, modelHaiku, modelGPT54} {
		data := fixtures.Read(t, "pi-sessions/model-catalog-pi-ai-1.6.0/"+m.provider+".json")
		var catalog map[string]map[string]struct {
			Cost struct{ Input, Output, CacheRead, CacheWrite float64 } `json:"cost"`
		}
		if err := json.Unmarshal(data, &catalog); err != nil {
			t.Fatalf("parse catalog: %v", err)
		}
		entry, ok := catalog[m.api]["chat:"+m.id]
		if !ok {
			t.Errorf("%s/%s not in the catalog", m.provider, m.id)
			continue
		}
		c := entry.Cost
		if c.Input != m.input || c.Output != m.output || c.CacheRead != m.cacheRead || c.CacheWrite != m.cacheWrite {
			t.Errorf("%s prices %+v, catalog %+v", m.id, m, c)
		}
	}
}
