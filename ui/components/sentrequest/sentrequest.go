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
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// Options rebuild session requests as pi-forge sent them against ws's
// library, which is read when a request first needs it (once per
// Options value), with ws's model catalog.
func Options(ws resources.Workspace) replay.RequestOptions {
	cat, _ := catalog.Shared(ws.AgentDir) // the root reports models.json problems
	return replay.RequestOptions{Catalog: cat, Forge: capstate.LazyForge(func() (*capstate.Forge, error) {
		lib, err := resources.LoadLibrary(ws)
		if err != nil {
			return nil, err // it says "load library: …" itself
		}
		return &capstate.Forge{
			Inputs:   capstate.Inputs{Workspace: lib.CapabilityWorkspace(), Catalog: cat},
			Location: time.Local,
			Fallback: Defaults(ws),
		}, nil
	})}
}

// Defaults is Pi's default runtime and base prompt for ws, for sessions
// that record no system prompt.
func Defaults(ws resources.Workspace) replay.Defaults {
	return func() (compile.Runtime, string, error) {
		return resources.PiDefaultRuntime(ws, nil, time.Now())
	}
}

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
