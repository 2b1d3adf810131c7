package turndiff

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Limits of pi-forge's display rendering (spec §12.2).
const (
	MaxDisplayDepth     = 8
	MaxDisplayItems     = 80
	MaxDisplayKeys      = 120
	MaxDisplayChars     = 200_000
	maxBase64LikeChars  = 8_000
	maxDisplayStringLen = 12_000
)

// Marker texts the display rendering writes in place of what it dropped.
const (
	MarkerRedacted   = "[redacted]"
	MarkerMaxDepth   = "[pi-forge: max depth reached]"
	MarkerOmittedKey = "[pi-forge: omitted]"
	markerOmittedVal = "object has more than 120 keys"
	MarkerImage      = "[image data omitted]"
	MarkerCircular   = "[pi-forge: circular reference]"
)

// safeTokenKeys are normalized key names that contain "token" but carry
// usage numbers, not secrets.
var safeTokenKeys = map[string]bool{
	"accepted_prediction_tokens": true, "audio_tokens": true, "cached_tokens": true,
	"completion_tokens": true, "input_tokens": true, "max_completion_tokens": true,
	"max_output_tokens": true, "max_tokens": true, "output_tokens": true, "prompt_tokens": true,
	"reasoning_tokens": true, "rejected_prediction_tokens": true, "token_budget": true,
	"token_count": true, "tokenizer": true, "total_tokens": true,
}

var secretWords = []string{"apikey", "api-key", "api_key", "authorization", "bearer", "token", "secret", "password", "cookie", "credential"}

// IsSecretKey is pi-forge's isSecretKey (spec §12.3): the key matches
// /(api[-_]?key|authorization|bearer|token|secret|password|cookie|credential)/i
// and its normalized form is not a known token-count name.
func IsSecretKey(key string) bool {
	if safeTokenKeys[normalizeSecretKey(key)] {
		return false
	}
	// JavaScript's non-Unicode /i folds only ASCII onto these ASCII words.
	lower := asciiLower(key)
	for _, w := range secretWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isLowerOrDigit(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
func isAlnum(c byte) bool        { return isLowerOrDigit(c) || c >= 'A' && c <= 'Z' }

// normalizeSecretKey: camelCase → snake_case, runs of non-alphanumerics →
// "_", leading and trailing "_" trimmed, lowercased.
func normalizeSecretKey(key string) string {
	var snake strings.Builder
	for i := 0; i < len(key); i++ {
		c := key[i]
		if isLowerOrDigit(c) && i+1 < len(key) && key[i+1] >= 'A' && key[i+1] <= 'Z' {
			snake.WriteByte(c)
			snake.WriteByte('_')
			snake.WriteByte(key[i+1])
			i++
			continue
		}
		snake.WriteByte(c)
	}
	s := snake.String()
	var out strings.Builder
	run := false
	for i := 0; i < len(s); i++ {
		if isAlnum(s[i]) {
			if run {
				out.WriteByte('_')
				run = false
			}
			out.WriteByte(s[i])
			continue
		}
		run = true
	}
	if run {
		out.WriteByte('_')
	}
	return asciiLower(strings.Trim(out.String(), "_"))
}

// RedactDisplay is pi-forge's redactPayload: the lossy display copy of a
// jsonv value (depth, item, key and string limits; secrets redacted).
func RedactDisplay(v any) any { return redactDisplay(v, 0) }

func redactDisplay(v any, depth int) any {
	if depth > MaxDisplayDepth {
		return MarkerMaxDepth
	}
	switch t := v.(type) {
	case string:
		return redactLongString(t)
	case []any:
		n := min(len(t), MaxDisplayItems)
		items := make([]any, 0, n+1)
		for _, item := range t[:n] {
			items = append(items, redactDisplay(item, depth+1))
		}
		if len(t) > MaxDisplayItems {
			items = append(items, "[pi-forge: "+itoa(len(t)-MaxDisplayItems)+" more items omitted]")
		}
		return items
	case *jsonv.Object:
		out := jsonv.NewObject()
		count := 0
		t.Range(func(key string, raw any) bool {
			count++
			if count > MaxDisplayKeys {
				out.Set(MarkerOmittedKey, markerOmittedVal)
				return false
			}
			if IsSecretKey(key) {
				out.Set(key, MarkerRedacted)
				return true
			}
			out.Set(key, redactDisplay(raw, depth+1))
			return true
		})
		return out
	}
	return v
}

// RedactFaithful is pi-forge's redactPayloadFaithfully: secrets redacted,
// everything else kept (jsonv values cannot be circular).
func RedactFaithful(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = RedactFaithful(item)
		}
		return out
	case *jsonv.Object:
		out := jsonv.NewObject()
		t.Range(func(key string, raw any) bool {
			if IsSecretKey(key) {
				out.Set(key, MarkerRedacted)
			} else {
				out.Set(key, RedactFaithful(raw))
			}
			return true
		})
		return out
	}
	return v
}

func redactLongString(s string) string {
	if strings.HasPrefix(s, "data:image/") {
		return MarkerImage
	}
	n := jsonv.UTF16Len(s)
	if n > maxBase64LikeChars && isBase64Like(s) {
		return "[base64-like data omitted: " + itoa(n) + " chars]"
	}
	if n > maxDisplayStringLen {
		return sliceUTF16(s, maxDisplayStringLen) + "\n[pi-forge: string truncated from " + itoa(n) + " chars]"
	}
	return s
}

func isBase64Like(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isAlnum(c) || c == '+' || c == '/' || c == '=' || c == '\r' || c == '\n') {
			return false
		}
	}
	return true
}

// Formatted is pi-forge's formatProviderPayload result: the display text
// saved by `/payload next save=` and the faithful serialization.
type Formatted struct {
	// Payload is the redacted display value; nil when Truncated.
	Payload any
	// Text is JSON.stringify(Payload, null, 2), cut after MaxDisplayChars
	// characters with a note (then not valid JSON). No trailing newline.
	Text         string
	Chars        int
	ApproxTokens int
	Truncated    bool
	// Serialized is the faithful serialization (secrets redacted, nothing
	// else dropped), 2-space JSON.
	Serialized string
}

// TruncationNote is appended to a display text cut after MaxDisplayChars.
const TruncationNote = "\n\n[pi-forge: payload truncated after 200000 chars]"

// FormatPayload renders a request payload (a jsonv value) for display.
func FormatPayload(v any) Formatted {
	f := Formatted{Serialized: jsonv.StringifyIndent(RedactFaithful(v), "  ")}
	payload := RedactDisplay(v)
	text := jsonv.StringifyIndent(payload, "  ")
	if jsonv.UTF16Len(text) > MaxDisplayChars {
		f.Truncated = true
		text = sliceUTF16(text, MaxDisplayChars) + TruncationNote
	} else {
		f.Payload = payload
	}
	f.Text = text
	f.Chars = jsonv.UTF16Len(text)
	f.ApproxTokens = max(1, (f.Chars+3)/4)
	return f
}
