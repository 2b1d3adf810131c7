package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/forgev1"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/internal/regfile"
)

// maxInputBytes bounds what one FILE argument or standard input may hold
// (a request, a preset, a messages array): far above real inputs, and far
// below what would exhaust memory.
const maxInputBytes = 256 << 20

// readInput reads a file, or standard input for "-". Only a regular file is
// read, up to its size at open (internal/regfile): a FIFO — a process
// substitution too — or a device is refused with exit 4 (use "-" to pipe),
// as is a file or an input above maxInputBytes.
func readInput(path string) ([]byte, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = regfile.ReadStream(os.Stdin, i18n.T("standard input"), maxInputBytes)
	} else {
		data, err = regfile.Read(path, maxInputBytes)
	}
	switch {
	case errors.Is(err, regfile.ErrNotRegular):
		return nil, failErr(exitRefused, i18n.Errorf("%v (pipe data through standard input, -, instead)", err))
	case errors.Is(err, regfile.ErrTooLarge):
		return nil, fail(exitRefused, "%v", err)
	case err != nil && path == "-":
		return nil, err
	case err != nil:
		return nil, i18n.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// inputFailed is the error of a command whose input could not be read: a
// refusal keeps its exit code (4), anything else is a usage error.
func inputFailed(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return fail(exitUsage, "%v", err)
}

// readMacros reads a JSON object of extension macro values {name: string}.
func readMacros(path string) (map[string]string, error) {
	v, err := readJSONInput(path, "macros")
	if path == "" || err != nil {
		return nil, err
	}
	obj, ok := v.(*jsonv.Object)
	if !ok {
		return nil, i18n.Errorf("macros %s: must be a JSON object of strings", path)
	}
	out := make(map[string]string, obj.Len())
	for _, k := range obj.Keys() {
		val, _ := obj.Get(k)
		s, isString := val.(string)
		if !isString {
			return nil, i18n.Errorf("macros %s: %s must be a string", path, k)
		}
		if !forgev1.ValidMacroName(k) {
			return nil, i18n.Errorf("macros %s: invalid macro name %q", path, k)
		}
		out[k] = s
	}
	return out, nil
}

// readCustomSlots reads a JSON object of custom slot outputs {slot: text}
// (compile.ParseCustomSlots); "" reads nothing.
func readCustomSlots(path string) (map[string]string, error) {
	v, err := readJSONInput(path, "slots")
	if path == "" || err != nil {
		return nil, err
	}
	return compile.ParseCustomSlots(v, "slots "+path)
}

// readJSONInput reads and parses the JSON value of an input file flag
// (what names the flag in errors: "macros", "slots"); "" reads nothing.
func readJSONInput(path, what string) (any, error) {
	if path == "" {
		return nil, nil
	}
	data, err := readInput(path)
	if err != nil {
		return nil, err
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, i18n.Errorf("%s %s: %w", what, path, err)
	}
	return v, nil
}

// readMessages reads a JSON array of Pi agent messages.
func readMessages(path string) ([]any, error) {
	if path == "" {
		return []any{}, nil
	}
	data, err := readInput(path)
	if err != nil {
		return nil, err
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, i18n.Errorf("messages %s: %w", path, err)
	}
	list, ok := v.([]any)
	if !ok {
		return nil, i18n.Errorf("messages %s: must be a JSON array of agent messages", path)
	}
	for i, m := range list {
		if _, isObject := m.(*jsonv.Object); !isObject {
			return nil, i18n.Errorf("messages %s: element %d must be an object", path, i)
		}
	}
	return list, nil
}

// runtimeSource says where a compile's runtime and base prompt came from,
// so the user knows what the preview stands on.
type runtimeSource struct {
	Runtime string
	Base    string
}

// parseModelFlag reads --model provider/id.
func parseModelFlag(s string) (*compile.Model, error) {
	if s == "" {
		return nil, nil
	}
	provider, id, ok := strings.Cut(s, "/")
	if !ok || provider == "" || id == "" {
		return nil, i18n.Errorf("--model %q: want provider/model-id", s)
	}
	return &compile.Model{Provider: provider, ID: id}, nil
}

func baseName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".json")
}
