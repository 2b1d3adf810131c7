package capability

import "strconv"

// Delivery is the delivery state a UI shows (§9.9).
type Delivery string

// Delivery states: no events at all; the last projection covered the last
// event for the model in force; or an update still waits for a request.
const (
	DeliveryNone     Delivery = "none"
	DeliveryPending  Delivery = "pending"
	DeliveryPrepared Delivery = "prepared"
)

// TransportNote is the third line of the status text.
const TransportNote = "Tool transport is provider-managed: native text does not guarantee incremental tools. Full schema resubmission and cache changes are possible; prepared does not guarantee delivery or cache hits."

// UnknownTools stands in for the selected tools when the session does not
// record them (the workbench's wording; pi-forge always knows them).
const UnknownTools = "(unknown: the session records no tool selection)"

// StatusText is the text of /capability status (§9.13). tools nil means
// unknown. includeContent adds each activation's full frozen content (the
// human command); the agent's status omits it.
func StatusText(active []Active, presentation Presentation, delivery Delivery, tools []string, includeContent bool) string {
	mode := "attributed user updates"
	if presentation == PresentationNative {
		mode = "native system sections"
	}
	state := "pending next request"
	switch delivery {
	case DeliveryNone:
		state = "none"
	case DeliveryPrepared:
		state = "request prepared (not a model-obedience or delivery acknowledgment)"
	}
	selected := joinOrNone(tools)
	if tools == nil {
		selected = UnknownTools
	}
	out := "Capability capabilities: " + strconv.Itoa(len(active)) + "; " + mode + "; " + state +
		"\nCurrently selected tools: " + selected + "\n" + TransportNote
	for _, a := range active {
		out += "\n" + a.Snapshot.ActivationID + " · " + a.Snapshot.SourceLabel() + " · " + string(a.Actor) +
			"\n  +tools: " + joinOrNone(a.Snapshot.Tools.Add) + "; -tools: " + joinOrNone(a.Snapshot.Tools.Remove)
		if includeContent {
			out += "\n" + a.Snapshot.Content
		}
	}
	return out
}
