package turndiff

import (
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Kinds of Loss: what the display rendering replaced.
const (
	LossSecret    = "secret"   // a secret value became "[redacted]"
	LossDepth     = "depth"    // a value nested deeper than 8 levels
	LossItems     = "items"    // array items after the 80th
	LossKeys      = "keys"     // object keys after the 120th
	LossImage     = "image"    // a data:image/… string
	LossBase64    = "base64"   // a base64-like string over 8,000 characters
	LossString    = "string"   // a string cut after 12,000 characters
	LossCircular  = "circular" // a circular reference (faithful serialization only)
	lossPathLimit = MaxDisplayDepth + 4
)

// Loss is one place where a saved payload holds a marker instead of the
// request's data.
type Loss struct {
	Kind string
	// Path locates the marker: `messages[3].content`, `tools[0]`, ….
	Path string
	// Count is how many items, or how many characters the original string
	// had (0 when the marker does not say).
	Count int
}

// Losses walks a display payload and lists every redaction marker in it,
// in document order.
func Losses(v any) []Loss {
	var out []Loss
	walkLosses(v, "", 0, &out)
	return out
}

func walkLosses(v any, path string, depth int, out *[]Loss) {
	if depth > lossPathLimit {
		return
	}
	switch t := v.(type) {
	case string:
		if l, ok := stringLoss(t); ok {
			l.Path = path
			*out = append(*out, l)
		}
	case []any:
		for i, item := range t {
			walkLosses(item, path+"["+itoa(i)+"]", depth+1, out)
		}
	case *jsonv.Object:
		t.Range(func(key string, item any) bool {
			memberLosses(key, item, path, depth, out)
			return true
		})
	}
}

// MemberLosses appends the losses of one member of a top-level payload
// object, as Losses lists them walking the object in its key order.
func MemberLosses(out []Loss, key string, item any) []Loss {
	memberLosses(key, item, "", 0, &out)
	return out
}

// memberLosses is the walk of one member of an object at path.
func memberLosses(key string, item any, path string, depth int, out *[]Loss) {
	p := joinPath(path, key)
	switch {
	case key == MarkerOmittedKey && item == markerOmittedVal:
		*out = append(*out, Loss{Kind: LossKeys, Path: path})
	case item == MarkerRedacted && IsSecretKey(key):
		*out = append(*out, Loss{Kind: LossSecret, Path: p})
	default:
		walkLosses(item, p, depth+1, out)
	}
}

func joinPath(path, key string) string {
	if isIdentifier(key) {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return path + "[" + jsonv.Quote(key) + "]"
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// stringLoss recognises the marker strings of the display rendering.
func stringLoss(s string) (Loss, bool) {
	switch s {
	case MarkerMaxDepth:
		return Loss{Kind: LossDepth}, true
	case MarkerImage:
		return Loss{Kind: LossImage}, true
	case MarkerCircular:
		return Loss{Kind: LossCircular}, true
	}
	if n, ok := between(s, "[pi-forge: ", " more items omitted]"); ok {
		return Loss{Kind: LossItems, Count: n}, true
	}
	if n, ok := between(s, "[base64-like data omitted: ", " chars]"); ok {
		return Loss{Kind: LossBase64, Count: n}, true
	}
	const cut = "\n[pi-forge: string truncated from "
	if k := strings.LastIndex(s, cut); k >= 0 {
		if n, ok := between(s[k:], cut, " chars]"); ok {
			return Loss{Kind: LossString, Count: n}, true
		}
	}
	return Loss{}, false
}

// between parses "<prefix><digits><suffix>" and returns the number.
func between(s, prefix, suffix string) (int, bool) {
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) || len(s) < len(prefix)+len(suffix)+1 {
		return 0, false
	}
	digits := s[len(prefix) : len(s)-len(suffix)]
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || strconv.Itoa(n) != digits {
		return 0, false
	}
	return n, true
}
