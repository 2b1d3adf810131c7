package capability

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Messages of the whole-file rules (§9.1).
const (
	msgRootNotObject = "Capability capability root must be a JSON object."
	msgNoEffect      = "Capability capability must have non-empty content or at least one tool effect (add or remove)."
	msgBadID         = "Capability capability id must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."
)

// Parse parses, normalizes and validates one capability file
// (parseCapability plus the repository's size rule, §9.1). basename is the
// file name (a path is reduced to its base); its name without ".json" is the
// fallback id. scope is the storage scope the file was read from; the codec's
// rules do not depend on it, it is accepted so every resource codec takes the
// same arguments. Parse never fails: a file over 1 MiB, invalid JSON or a
// non-object root yields the fallback capability with one error.
// Diagnostics are de-duplicated on (level, field, message).
func Parse(raw []byte, basename string, scope preset.Scope) (*Capability, Diagnostics) {
	_ = scope
	fallbackID := idFromBasename(basename)
	if len(raw) > MaxSourceSize {
		return fallback(fallbackID), Diagnostics{{Level: preset.LevelError, Message: sizeMessage(int64(len(raw)))}}
	}
	value, err := jsonv.Parse(raw)
	if err != nil {
		return fallback(fallbackID), Diagnostics{{Level: preset.LevelError, Message: "Failed to parse JSON: " + err.Error()}}
	}
	return ParseValue(value, fallbackID)
}

// ParseValue normalizes and validates an already parsed JSON value
// (decodeCapability). fallbackID is used when the value has no usable id;
// "" gives the id "unknown" for a non-object value as pi-forge does.
func ParseValue(value any, fallbackID string) (*Capability, Diagnostics) {
	var diags Diagnostics
	obj, ok := value.(*jsonv.Object)
	if !ok {
		if fallbackID == "" {
			fallbackID = "unknown"
		}
		return fallback(fallbackID), Diagnostics{{Level: preset.LevelError, Message: msgRootNotObject}}
	}
	obj.Range(func(key string, _ any) bool {
		switch key {
		case "schemaVersion", "type", "id", "name", "description", "content", "tools":
		default:
			diags.addError(key, "Unsupported capability field: "+key)
		}
		return true
	})
	if v, _ := obj.Get("schemaVersion"); v != float64(1) {
		diags.addError("schemaVersion", "schemaVersion must be 1.")
	}
	if v, _ := obj.Get("type"); v != Type {
		diags.addError("type", `type must be "`+Type+`".`)
	}
	c := &Capability{ID: fallbackID}
	rawID, _ := obj.Get("id")
	if id, isString := rawID.(string); !isString || !preset.IsValidResourceID(id) {
		diags.addError("id", msgBadID)
		if isString && id != "" {
			c.ID = id
		}
	} else {
		c.ID = id
	}
	if rawName, present := obj.Get("name"); present {
		if name, isString := rawName.(string); !isString {
			diags.addError("name", "name must be a string when provided.")
		} else if jsonv.UTF16Len(name) > MaxNameLength {
			diags.addError("name", "name exceeds maximum length of "+strconv.Itoa(MaxNameLength)+" characters.")
		} else {
			c.Name = &name
		}
	}
	if rawDescription, present := obj.Get("description"); present {
		if description, isString := rawDescription.(string); isString {
			c.Description = &description
		} else {
			diags.addError("description", "description must be a string when provided.")
		}
	}
	rawContent, _ := obj.Get("content")
	content, hasContent := rawContent.(string)
	if !hasContent {
		diags.addError("content", "content must be a string.")
	} else {
		c.Content = content
		if jsonv.UTF16Len(content) > MaxContentLength {
			diags.addError("content", "content exceeds maximum length of "+strconv.Itoa(MaxContentLength)+" characters.")
		}
	}
	c.Tools = ToolPatch{Add: []string{}, Remove: []string{}}
	if rawTools, present := obj.Get("tools"); present {
		if tools, isObj := rawTools.(*jsonv.Object); !isObj {
			diags.addError("tools", "tools must be an object.")
		} else {
			tools.Range(func(key string, _ any) bool {
				if key != "add" && key != "remove" {
					diags.addError("tools."+key, "Unsupported tools field: "+key)
				}
				return true
			})
			if list, present := tools.Get("add"); present {
				c.Tools.Add = validateToolList(list, "tools.add", &diags)
			}
			if list, present := tools.Get("remove"); present {
				c.Tools.Remove = validateToolList(list, "tools.remove", &diags)
			}
		}
	}
	if hasContent && jsonv.TrimJS(content) == "" && !c.Tools.HasEffect() {
		diags = append(diags, Diagnostic{Level: preset.LevelError, Message: msgNoEffect})
	}
	return c, diags.Dedupe()
}

// Validate re-validates a normalized capability (validateCapability): the
// diagnostics Parse would give for its serialized form.
func Validate(c *Capability) Diagnostics {
	_, diags := ParseValue(ToJSON(c), "")
	return diags
}

// validateToolList checks a tools.add / tools.remove style list and returns
// the valid names, adding one diagnostic per bad entry (pi-forge's
// validateToolList). The entry checks run in pi-forge's order: type, empty,
// length, whitespace, control characters, wildcards.
func validateToolList(list any, fieldName string, diags *Diagnostics) []string {
	items, ok := list.([]any)
	if !ok {
		diags.addError(fieldName, fieldName+" must be an array of tool names.")
		return []string{}
	}
	if len(items) > MaxToolListLength {
		diags.addError(fieldName, fieldName+" cannot exceed "+strconv.Itoa(MaxToolListLength)+" tools (got "+strconv.Itoa(len(items))+").")
	}
	valid := make([]string, 0, len(items))
	for i, item := range items {
		field := fieldName + "[" + strconv.Itoa(i) + "]"
		at := "Tool name at index " + strconv.Itoa(i)
		name, isString := item.(string)
		switch {
		case !isString:
			diags.addError(field, at+" must be a string.")
		case toolNameProblem(name) != "":
			diags.addError(field, at+toolNameProblem(name))
		default:
			valid = append(valid, name)
		}
	}
	return valid
}

// toolNameProblem is why name is not a concrete tool name (§1.4): pi-forge's
// message after "Tool name at index <i>"; "" for a valid name.
func toolNameProblem(name string) string {
	switch {
	case name == "":
		return " cannot be empty."
	case jsonv.UTF16Len(name) > MaxToolNameLength:
		return " exceeds maximum length of " + strconv.Itoa(MaxToolNameLength) + " characters."
	case strings.IndexFunc(name, jsonv.IsJSSpace) >= 0:
		return ` ("` + name + `") cannot contain whitespace.`
	case strings.IndexFunc(name, isASCIIControl) >= 0:
		// pi-forge 0.5.5 omits the name in this one message.
		return " cannot contain control characters."
	case strings.ContainsAny(name, "*?"):
		return ` ("` + name + `") cannot contain wildcard characters (* or ?).`
	}
	return ""
}

// ToolNameProblem says why a typed name cannot go into a tool patch, in
// pi-forge's words for one name ("Tool name (\"a b\") cannot contain
// whitespace."); "" when it is a concrete tool name.
func ToolNameProblem(name string) string {
	if p := toolNameProblem(name); p != "" {
		return "Tool name" + p
	}
	return ""
}

func isASCIIControl(r rune) bool { return r < 0x20 || r == 0x7f }

// idFromBasename is node's basename(path, ".json").
func idFromBasename(name string) string {
	base := filepath.Base(name)
	if strings.HasSuffix(base, ".json") && base != ".json" {
		return strings.TrimSuffix(base, ".json")
	}
	return base
}

// fallback is the capability used for a file that cannot be decoded.
func fallback(id string) *Capability {
	return &Capability{ID: id, Tools: ToolPatch{Add: []string{}, Remove: []string{}}}
}

// ToJSON converts a normalized capability to its JSON object in pi-forge's
// key order: schemaVersion, type, id, name?, description?, content, tools.
func ToJSON(c *Capability) *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("schemaVersion", float64(1))
	obj.Set("type", Type)
	obj.Set("id", c.ID)
	if c.Name != nil {
		obj.Set("name", *c.Name)
	}
	if c.Description != nil {
		obj.Set("description", *c.Description)
	}
	obj.Set("content", c.Content)
	obj.Set("tools", toolPatchJSON(c.Tools))
	return obj
}

func toolPatchJSON(p ToolPatch) *jsonv.Object {
	tools := jsonv.NewObject()
	tools.Set("add", stringsToJSON(p.Add))
	tools.Set("remove", stringsToJSON(p.Remove))
	return tools
}

func stringsToJSON(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// Serialize writes a capability exactly like serializeCapability:
// JSON.stringify(capability, null, 2) + "\n" in the normalized key order.
func Serialize(c *Capability) []byte {
	return []byte(jsonv.StringifyIndent(ToJSON(c), "  ") + "\n")
}
