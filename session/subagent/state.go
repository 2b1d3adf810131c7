package subagent

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// pi-subagent's own messages when validateState refuses a store (§17.3).
const (
	msgCorruptStore      = "unsupported or corrupt subagent tree store"
	msgCorruptDescriptor = "unsupported or corrupt subagent descriptor: "
	msgCorruptMailbox    = "corrupt subagent mailbox"
)

// Mailbox limits (§17.4).
const (
	MaxPendingMessages = 256
	MaxPendingBytes    = 256 * 1024
)

// State is a parsed state.json (tree store v1, §17.2).
type State struct {
	Version       float64
	ID            string
	RootSessionID string
	RootMailbox   []Mail
	// Records are the agents sorted by path.
	Records []Record
}

// Record is one agent record of state.json.
type Record struct {
	// Path is the record key (the canonical agent path).
	Path        string
	Descriptor  Descriptor
	SessionFile string
	Status      string
	RunID       string
	Error       string
	Mailbox     []Mail
	Outbox      []Mail
	// Lifecycle is "open" when the record has none (README: old v1 records
	// lack it); LifecycleRecorded tells whether it was present.
	Lifecycle         string
	LifecycleRecorded bool
	// Selected and LastResponse are README-only fields (model/thinking and
	// last_response), nil when absent.
	Selected     *Selection
	LastResponse *Selection
}

var statuses = map[string]bool{StatusPendingInit: true, StatusRunning: true, StatusCompleted: true, StatusInterrupted: true, StatusErrored: true}

var mailKinds = map[string]bool{KindMessage: true, KindTask: true, KindCompletion: true}

var lifecycles = map[string]bool{LifecycleOpen: true, LifecycleClosing: true, LifecycleClosed: true}

// ParseState reads state.json leniently and validates it the way
// pi-subagent's validateState does, against the tree id and root session id
// taken from the directory layout. Problems pi-subagent would refuse the
// store for are SevError diagnostics quoting its message; newer versions
// and unknown values are warnings. The State is nil only when the data is
// not a JSON object at all.
//
// The file is split without being decoded whole (splitState): only one
// agent record's values exist at a time besides the records read.
func ParseState(data []byte, file, treeID, rootSessionID string) (*State, []Diagnostic) {
	return ReadState(bytes.NewReader(data), file, treeID, rootSessionID)
}

// ReadState is ParseState reading from r: the file is read as a stream
// and never held whole (readStateDoc), so memory stays near what the
// records themselves hold.
func ReadState(r io.Reader, file, treeID, rootSessionID string) (*State, []Diagnostic) {
	return readState(r, stateWindow, file, treeID, rootSessionID)
}

// stateWindow is the window state.json is read through.
const stateWindow = 1 << 20

func readState(r io.Reader, window int, file, treeID, rootSessionID string) (*State, []Diagnostic) {
	doc, whole, err := readStateDoc(r, window, file)
	if err != nil {
		return nil, []Diagnostic{{Severity: SevError, File: file, Message: fmt.Sprintf("%s — not valid JSON: %v", msgCorruptStore, err)}}
	}
	if doc == nil {
		return nil, []Diagnostic{{Severity: SevError, File: file, Message: fmt.Sprintf("%s — the file holds %s, not an object", msgCorruptStore, typeName(whole))}}
	}
	return parseStateDoc(doc, file, treeID, rootSessionID)
}

// parseStateDoc checks the top-level members of a state read in parts and
// gathers its records.
func parseStateDoc(doc *stateDoc, file, treeID, rootSessionID string) (*State, []Diagnostic) {
	var diags []Diagnostic
	add := func(sev, agent, format string, args ...any) {
		diags = append(diags, Diagnostic{Severity: sev, Agent: agent, File: file, Message: fmt.Sprintf(format, args...)})
	}
	o := doc.top
	st := &State{}
	st.Version, _ = getNum(o, "version")
	switch {
	case st.Version == TreeVersion:
	case st.Version > TreeVersion:
		add(SevWarning, "", "tree store version %v is newer than %d; showing the fields forgebench knows", st.Version, TreeVersion)
	default:
		add(SevError, "", "%s — version is %s, want %d", msgCorruptStore, jsonv.Stringify(valueOr(o, "version")), TreeVersion)
	}
	st.ID, _ = getStr(o, "id")
	if st.ID != treeID {
		add(SevError, "", "%s — id %q does not match the tree directory %q", msgCorruptStore, st.ID, treeID)
	}
	st.RootSessionID, _ = getStr(o, "rootSessionId")
	if st.RootSessionID != rootSessionID {
		add(SevError, "", "%s — rootSessionId %q does not match the root session %q", msgCorruptStore, st.RootSessionID, rootSessionID)
	}
	if mb, ok := getArr(o, "rootMailbox"); ok {
		st.RootMailbox = parseMailbox(mb, RootPath, "rootMailbox", add)
	} else {
		add(SevError, "", "%s — rootMailbox is %s, not an array", msgCorruptStore, typeName(valueOr(o, "rootMailbox")))
	}
	if !doc.agents {
		add(SevError, "", "%s — agents is %s, not an object", msgCorruptStore, typeName(valueOr(o, "agents")))
		return st, diags
	}
	st.Records = doc.records
	if st.Records == nil {
		st.Records = []Record{}
	}
	diags = append(diags, doc.diags...)
	sort.Slice(st.Records, func(i, j int) bool { return st.Records[i].Path < st.Records[j].Path })
	return st, diags
}

// parsedRecord is one record of state.json as read, with what was found
// about it; ok is false for a record left out.
type parsedRecord struct {
	rec   Record
	diags []Diagnostic
	ok    bool
}

// parseAgentRecord reads the record stored under path (its key).
func parseAgentRecord(path string, v any, file string) parsedRecord {
	var r parsedRecord
	add := func(sev, agent, format string, args ...any) {
		r.diags = append(r.diags, Diagnostic{Severity: sev, Agent: agent, File: file, Message: fmt.Sprintf(format, args...)})
	}
	if why := checkAgentPath(path); why != "" {
		// Kept, such a record would be an agent no tool can address —
		// "/root" itself would even become every agent's parent.
		add(SevError, "", "%s%q — the key is not a canonical agent path: %s; the record is left out", msgCorruptDescriptor, path, why)
		return r
	}
	r.rec, r.ok = parseRecord(path, v, add), true
	return r
}

// parseRecord reads the record of one agent whose key (path) is a
// canonical agent path.
func parseRecord(path string, rv any, add func(sev, agent, format string, args ...any)) Record {
	r := Record{Path: path, Lifecycle: LifecycleOpen}
	refuse := func(format string, args ...any) {
		add(SevError, path, msgCorruptDescriptor+path+" — "+format, args...)
	}
	o, ok := rv.(object)
	if !ok {
		refuse("the record is %s, not an object", typeName(rv))
		return r
	}
	if dv, ok := o.Get("descriptor"); ok {
		d, probs := parseDescriptor(dv, path)
		r.Descriptor = d
		for _, p := range probs {
			if p.severity == SevError {
				refuse("%s", p.message)
			} else {
				add(p.severity, path, "%s", p.message)
			}
		}
	} else {
		refuse("the record has no descriptor")
	}
	if r.Descriptor.Path == "" {
		r.Descriptor.Path = path
	}
	r.Status, _ = getStr(o, "status")
	if !statuses[r.Status] {
		if r.Status == "" {
			refuse("status is %s", typeName(valueOr(o, "status")))
		} else {
			add(SevWarning, path, "unknown status %q (pi-subagent v5 knows pending_init, running, completed, interrupted, errored)", r.Status)
		}
	}
	var ok2 bool
	r.SessionFile, ok2 = getStr(o, "sessionFile")
	if !ok2 {
		refuse("sessionFile is %s, not a string", typeName(valueOr(o, "sessionFile")))
	}
	r.RunID, _ = getStr(o, "runId")
	r.Error, _ = getStr(o, "error")
	if mb, ok := getArr(o, "mailbox"); ok {
		r.Mailbox = parseMailbox(mb, path, "mailbox", add)
	} else {
		refuse("mailbox is %s, not an array", typeName(valueOr(o, "mailbox")))
	}
	if ob, ok := getArr(o, "outbox"); ok {
		r.Outbox = parseOutbox(ob, path, add)
	}
	if lc, ok := getStr(o, "lifecycle"); ok {
		r.LifecycleRecorded = true
		switch {
		case lc == "":
			// Nothing to show or filter on: read as absent (open).
			add(SevWarning, path, "empty lifecycle, read as open (open, closing and closed are known)")
		case !lifecycles[lc]:
			r.Lifecycle = lc
			add(SevWarning, path, "unknown lifecycle %q (open, closing and closed are known)", lc)
		default:
			r.Lifecycle = lc
		}
	}
	r.Selected = parseSelection(o)
	if lr, ok := getObj(o, "last_response"); ok {
		r.LastResponse = parseSelection(lr)
	}
	return r
}

// parseSelection reads README-style model/thinking fields: model as
// "provider/id" or {provider, id}, thinking as a string.
func parseSelection(o object) *Selection {
	var s Selection
	found := false
	if m, ok := getStr(o, "model"); ok && m != "" {
		s.Model, found = splitModel(m), true
	} else if mo, ok := getObj(o, "model"); ok {
		s.Model.Provider, _ = getStr(mo, "provider")
		s.Model.ID, _ = getStr(mo, "id")
		found = s.Model.ID != ""
	}
	if t, ok := getStr(o, "thinking"); ok && t != "" {
		s.Thinking, found = t, true
	}
	if !found {
		return nil
	}
	return &s
}

// splitModel reads "provider/id"; an unqualified id keeps an empty provider.
func splitModel(s string) ModelRef {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return ModelRef{Provider: s[:i], ID: s[i+1:]}
		}
	}
	return ModelRef{ID: s}
}

// parseMailbox reads a mailbox owned by owner and checks each message as
// validateState does (string id, text, from; to == owner; a known kind)
// plus the capacity limits.
func parseMailbox(items []any, owner, field string, add func(sev, agent, format string, args ...any)) []Mail {
	agent := owner
	if owner == RootPath {
		agent = ""
	}
	out := make([]Mail, 0, len(items))
	bytes := 0
	for i, it := range items {
		m, why := parseMail(it)
		switch {
		case why != "":
			add(SevError, agent, "%s — %s %s[%d]: %s", msgCorruptMailbox, owner, field, i, why)
		case m.To != owner:
			add(SevError, agent, "%s — %s %s[%d] is addressed to %q", msgCorruptMailbox, owner, field, i, m.To)
		case m.Kind == "":
			add(SevError, agent, "%s — %s %s[%d] has no kind", msgCorruptMailbox, owner, field, i)
		case !mailKinds[m.Kind]:
			add(SevWarning, agent, "%s %s[%d] has unknown kind %q", owner, field, i, m.Kind)
		}
		bytes += len(m.Text)
		if utf8.RuneCountInString(m.Text) > 131072 {
			add(SevWarning, agent, "%s %s[%d] is longer than 131,072 characters", owner, field, i)
		}
		out = append(out, m)
	}
	if len(out) > MaxPendingMessages || bytes > MaxPendingBytes {
		add(SevWarning, agent, "%s %s holds %d messages (%d bytes), over pi-subagent's limit of %d messages and %d bytes",
			owner, field, len(out), bytes, MaxPendingMessages, MaxPendingBytes)
	}
	return out
}

// parseOutbox reads the completions waiting for room in the parent's inbox.
func parseOutbox(items []any, owner string, add func(sev, agent, format string, args ...any)) []Mail {
	out := make([]Mail, 0, len(items))
	for i, it := range items {
		m, why := parseMail(it)
		if why != "" {
			add(SevWarning, owner, "%s outbox[%d]: %s", owner, i, why)
		}
		out = append(out, m)
	}
	return out
}

// parseMail reads one message; why says what validateState would reject.
func parseMail(v any) (Mail, string) {
	o, ok := v.(*jsonv.Object)
	if !ok {
		return Mail{}, fmt.Sprintf("the message is %s, not an object", typeName(v))
	}
	var m Mail
	var why []string
	var okID, okText, okFrom bool
	m.ID, okID = getStr(o, "id")
	m.Text, okText = getStr(o, "text")
	m.From, okFrom = getStr(o, "from")
	m.To, _ = getStr(o, "to")
	m.Kind, _ = getStr(o, "kind")
	m.CreatedAt, _ = getStr(o, "createdAt")
	m.RunID, _ = getStr(o, "runId")
	for _, f := range []struct {
		ok   bool
		name string
	}{{okID, "id"}, {okText, "text"}, {okFrom, "from"}} {
		if !f.ok {
			why = append(why, f.name+" is not a string")
		}
	}
	if len(why) > 0 {
		return m, joinReasons(why)
	}
	return m, ""
}

func joinReasons(why []string) string {
	out := why[0]
	for _, w := range why[1:] {
		out += ", " + w
	}
	return out
}
