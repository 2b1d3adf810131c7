// Package sentrequest is the TUI's one way to rebuild what a session entry
// sent: the request as the provider received it, pi-forge's rewrite
// included (the Preset in force compiled, capability updates projected),
// next to the request Pi alone built. The Payloads panel resolves its
// session references with Options, the Session panel's Context view and
// its copy keys show At; the CLI builds the same options from its global
// flags (`payload show session:…`, `session context --as-sent`). Every one
// of them ends in replay.RequestWith with a capstate.Forge, so there is
// one answer to "what was sent".
//
// Rebuilding is heavy (the session's context, pi-forge's state at the
// entry, a Preset compile): call it in a command.
package sentrequest

import (
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// Options rebuild session requests as pi-forge sent them against the
// workspace's library, which is asked for when a request first needs it
// (once per Options value), with the workspace's model catalog: the
// services' RequestOptions, the CLI's too.
func Options(svc *services.Services) replay.RequestOptions { return svc.RequestOptions() }

// Pair is one entry's request twice: as the provider received it and as
// Pi alone built it.
type Pair struct {
	// Sent is the request as sent (nil when SentErr says why it could not
	// be rebuilt); Pi is Pi's own request, before any extension.
	Sent, Pi *replay.Request
	SentErr  error
	// Same is true when the two are one request: nothing rewrote it.
	Same bool
}

// At rebuilds the request of entry index of s (replay.RequestWith: for an
// assistant message the request that produced it, otherwise the request
// Pi would send next from there) as sent, with opts, and as Pi built it,
// with opts' catalog alone; Pi's is rebuilt only when something rewrote
// the request. The error is Pi's request's: when only the rewrite fails,
// SentErr says so and Pi's request is still there.
func At(s *session.Session, index int, opts replay.RequestOptions) (Pair, error) {
	sent, err := replay.RequestWith(s, index, opts)
	if err == nil && !sent.Rewritten {
		return Pair{Sent: sent, Pi: sent, Same: true}, nil
	}
	pi, piErr := replay.RequestWith(s, index, replay.RequestOptions{Catalog: opts.Catalog})
	if piErr != nil {
		return Pair{}, piErr
	}
	if err != nil {
		return Pair{Pi: pi, SentErr: err}, nil
	}
	// A rewrite may leave the request as it was (a Preset that no longer
	// resolves, only notes): the payloads decide.
	return Pair{Sent: sent, Pi: pi, Same: jsonv.Stringify(sent.Payload) == jsonv.Stringify(pi.Payload)}, nil
}
