package preset

import "github.com/forgebench/forgebench/engine/jsonv"

// Serialize writes a Preset exactly like pi-forge's serializePromptStack:
// JSON.stringify(stack, null, 2) + "\n" with the normalized key order.
func Serialize(stack *Stack) []byte {
	return []byte(jsonv.StringifyIndent(ToJSON(stack), "  ") + "\n")
}

// ToJSON converts a normalized stack to its JSON object in pi-forge's key
// order, omitting absent fields. Pass-through objects are shared, not copied.
func ToJSON(stack *Stack) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("schemaVersion", float64(stack.SchemaVersion))
	if stack.Type != "" {
		o.Set("type", stack.Type)
	}
	o.Set("id", stack.ID)
	setString(o, "name", stack.Name)
	setString(o, "description", stack.Description)
	if stack.AutoActivate != nil {
		o.Set("autoActivate", *stack.AutoActivate)
	}
	if stack.Mode != ModeUnset {
		o.Set("mode", string(stack.Mode))
	}
	setObject(o, "defaults", stack.Defaults)
	setObject(o, "context", stack.Context)
	if stack.Tools != nil {
		o.Set("tools", policyJSON(stack.Tools))
	}
	if stack.Skills != nil {
		o.Set("skills", policyJSON(stack.Skills))
	}
	setObject(o, "variables", stack.Variables)
	setObject(o, "parameters", stack.Parameters)
	setObject(o, "regex", stack.Regex)
	if stack.Capabilities != nil {
		o.Set("capabilities", stack.Capabilities)
	}
	items := make([]any, len(stack.Items))
	for i := range stack.Items {
		items[i] = itemJSON(&stack.Items[i])
	}
	o.Set("items", items)
	setObject(o, "import", stack.Import)
	return o
}

func itemJSON(item *Item) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("kind", string(item.Kind))
	o.Set("id", item.ID)
	setString(o, "name", item.Name)
	if item.Enabled != nil {
		o.Set("enabled", *item.Enabled)
	}
	if item.Role != RoleNone {
		o.Set("role", string(item.Role))
	}
	if item.Tags != nil {
		o.Set("tags", stringsJSON(item.Tags))
	}
	setObject(o, "source", item.Source)
	if item.Kind == KindSlot {
		o.Set("slot", item.Slot)
		setObject(o, "options", item.Options)
	} else {
		o.Set("content", item.Content)
	}
	return o
}

func policyJSON(p *ResourcePolicy) *jsonv.Object {
	o := jsonv.NewObject()
	if p.Allow != nil {
		o.Set("allow", stringsJSON(p.Allow))
	} else if p.Deny != nil {
		o.Set("deny", stringsJSON(p.Deny))
	}
	if p.Initial != nil {
		o.Set("initial", stringsJSON(p.Initial))
	}
	return o
}

func stringsJSON(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

func setString(o *jsonv.Object, key string, s *string) {
	if s != nil {
		o.Set(key, *s)
	}
}

func setObject(o *jsonv.Object, key string, v *jsonv.Object) {
	if v != nil {
		o.Set(key, v)
	}
}
