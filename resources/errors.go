package resources

import "errors"

// Sentinel errors. Every error the library returns for a refused operation
// is an *Error whose text is pi-forge's exact message and which matches one
// of these with errors.Is.
var (
	// ErrConflict: the file changed since it was read (revision mismatch),
	// is missing on save/delete, already exists on create, or no expected
	// revision was given.
	ErrConflict = errors.New("conflict")
	// ErrUntrusted: a project-scope write in an untrusted project (the CLI
	// exits with status 4).
	ErrUntrusted = errors.New("project is not trusted")
	// ErrRefused: the target path is outside the storage root, not
	// <root>/<id>.json, a directory, or traverses a symbolic link.
	ErrRefused = errors.New("refused path")
	// ErrInvalid: the content to write does not validate (capabilities) or
	// its id does not match the target.
	ErrInvalid = errors.New("invalid resource")
	// ErrInvalidSelector: a selector that does not parse (§1.1).
	ErrInvalidSelector = errors.New("invalid selector")
	// ErrNotFound: no resource matches a selector.
	ErrNotFound = errors.New("not found")
	// ErrAmbiguous: several resources of one scope share the id.
	ErrAmbiguous = errors.New("ambiguous")
	// ErrUnusable: the resolved resource has error diagnostics (fail closed).
	ErrUnusable = errors.New("unusable")
)

// Error is a refused library operation: Message is the exact user-facing
// text and Kind the sentinel it matches.
type Error struct {
	Kind    error
	Message string
	// Subject names what an ErrNotFound is about in the product's words
	// ("capability \"x\"", "Preset \"x\"", "profile \"x\""); Message stays
	// pi-forge's exact text.
	Subject string
}

// Error returns the exact message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the sentinel so errors.Is works.
func (e *Error) Unwrap() error { return e.Kind }

func newError(kind error, msg string) *Error { return &Error{Kind: kind, Message: msg} }
