package common

// SessionAppendedMsg announces that a panel appended entries to a session
// file (an offline capability change from the Capabilities panel): a panel
// showing that file reads it again, so it shows the new leaf.
type SessionAppendedMsg struct{ File string }
