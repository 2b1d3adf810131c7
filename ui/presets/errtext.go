package presets

// localizedError is an error whose text was translated around the error it
// wraps: Error is the whole sentence in the user's language (built by
// i18n.T with the wrapped error's text as an argument, never glued from
// fragments), while errors.Is and errors.As still see the wrapped error.
type localizedError struct {
	text string
	err  error
}

func (e *localizedError) Error() string { return e.text }
func (e *localizedError) Unwrap() error { return e.err }

// wrapText returns err under text (i18n.T of a sentence that formats err).
func wrapText(err error, text string) error { return &localizedError{text: text, err: err} }
