package cli

import (
	"io"
	"reflect"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// Output discipline. Text from files — names, ids, file names, session
// text, error messages quoting them — reaches the terminal only through the
// sanitiser. Commands clean the fields they print (sanitize.Line, Clip …),
// which also keeps columns aligned; on top of that Run gives every command
// a stderr and, unless the command prints exact machine-readable output, a
// stdout that pass everything through sanitize.Writer, so a field a command
// forgot cannot carry an escape sequence, a C1 control or a bidi override
// to the terminal. JSON output — --json, --format json, fingerprint
// --canonical, the JSON result of a --request run, found by exactOutput —
// is never filtered, which would change its values: Run gives those
// commands a stdout that is one sanitize.JSONWriter, which writes C0, DEL
// and C1 controls, every format character (Unicode Cf: the bidi controls,
// zero-width characters, tags …) and U+2028/U+2029 as \uXXXX escapes, so
// the bytes on the terminal are safe and the values are the same. A
// command prints its JSON to g.stdout with any writer call (printJSON,
// io.WriteString, a stream of lines) and gets this for free.

// jsonWriter is the standard output of a command printing JSON: every
// write escaped as it passes, Flush at the end of the command.
type jsonWriter interface {
	io.Writer
	Flush() error
}

// newJSONWriter makes the one JSON writer (sanitize.JSONWriter). A test
// swaps it to see the bytes before escaping and compare the values.
var newJSONWriter = func(w io.Writer) jsonWriter { return sanitize.NewJSONWriter(w) }

// humanWriter wraps w in the sanitiser unless it is one already.
func humanWriter(w io.Writer) io.Writer {
	if _, ok := w.(*sanitize.Writer); ok {
		return w
	}
	return sanitize.NewWriter(w)
}

// exactOutput reports whether the command value (a pointer to a command
// struct, as kong holds it) is set to print exact machine-readable bytes:
// a bool field JSON or Canonical that is true, a string field Format equal
// to "json", or a non-empty Request (template render and preset compile
// print a JSON result for a request file).
func exactOutput(cmd reflect.Value) bool {
	for cmd.Kind() == reflect.Pointer || cmd.Kind() == reflect.Interface {
		if cmd.IsNil() {
			return false
		}
		cmd = cmd.Elem()
	}
	if cmd.Kind() != reflect.Struct {
		return false
	}
	field := func(name string) (reflect.Value, bool) {
		f := cmd.FieldByName(name)
		return f, f.IsValid()
	}
	for _, name := range []string{"JSON", "Canonical"} { //i18n:raw field names
		if f, ok := field(name); ok && f.Kind() == reflect.Bool && f.Bool() {
			return true
		}
	}
	if f, ok := field("Format"); ok && f.Kind() == reflect.String && f.String() == "json" { //i18n:raw field name
		return true
	}
	if f, ok := field("Request"); ok && f.Kind() == reflect.String && f.String() != "" { //i18n:raw field name
		return true
	}
	return false
}
