package cli

import (
	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
)

// exploreReportJSON is what "vsym explore" prints, in JSON and as text:
// the engine's report with the file, the reason for the model, each
// property's parse, and traces shortened to --max-trace. The report's
// own fields keep their names (docs/explore.md); the ones added or
// replaced here are documented there too.
type exploreReportJSON struct {
	File        string `json:"file"`
	ModelReason string `json:"model_reason"`
	*explore.Report
	DeadlockTraces []*traceJSON   `json:"deadlock_traces,omitempty"`
	Properties     []propertyJSON `json:"properties"`
	// FairRun says, under fairness constraints, whether a fair run starts
	// in the initial state (noFairRun); absent without constraints, with
	// no property checked, or when a forced model cannot tell.
	FairRun *bool `json:"fair_run,omitempty"`
	// NotStated are the properties of a file in another format that its
	// translation does not state (docs/formats.md).
	NotStated []notStatedJSON `json:"not_stated,omitempty"`

	maxTrace       int
	allowNoFairRun bool // --allow-no-fair-run
}

type propertyJSON struct {
	explore.PropertyResult
	// Parsed is the property fully parenthesised, as the parser read it.
	Parsed string     `json:"parsed"`
	Trace  *traceJSON `json:"trace"`
	// Expected is the verdict the file announces for the property, as
	// written ("safe", from mist's "#expected result:" line), when it
	// announces one.
	Expected string `json:"expected,omitempty"`

	reliesOnPrecedence bool
}

// traceJSON is a trace with at most --max-trace of its states: the first
// ones and the last ones, and Omitted says which were left out. Indices
// (Loop, and the state numbers in the text output) are those of the
// whole trace.
type traceJSON struct {
	*explore.Trace
	States  []explore.State `json:"states"`
	Length  int             `json:"length"` // states in the whole trace
	Omitted *omission       `json:"omitted,omitempty"`
	Lifted  *liftedJSON     `json:"lifted,omitempty"`
	// Branches explain other parts of the formula, each shortened alike.
	Branches []*traceJSON `json:"branches,omitempty"`
}

type liftedJSON struct {
	*explore.Lifted
	Steps   []explore.Step `json:"steps"`
	Length  int            `json:"length"` // steps in the whole replay
	Omitted *omission      `json:"omitted,omitempty"`
}

// omission is a run of Count consecutive elements left out of a list,
// starting at index From of the whole list.
type omission struct {
	From  int `json:"from"`
	Count int `json:"count"`
}

// original returns the index in the whole list of element k of the
// shortened one; a nil omission left nothing out.
func (o *omission) original(k int) int {
	if o == nil || k < o.From {
		return k
	}
	return k + o.Count
}

// shorten keeps at most max elements of a list of length n, the first
// ceil(max/2) and the last floor(max/2), and returns the index ranges to
// keep and the omission, nil when all are kept (max 0: all).
func shorten(n, max int) (head, tail int, om *omission) {
	if max <= 0 || n <= max {
		return n, 0, nil
	}
	head = (max + 1) / 2
	tail = max - head
	return head, tail, &omission{From: head, Count: n - head - tail}
}

func shortened[T any](xs []T, max int) ([]T, *omission) {
	head, tail, om := shorten(len(xs), max)
	if om == nil {
		return xs, nil
	}
	out := append(append([]T{}, xs[:head]...), xs[len(xs)-tail:]...)
	return out, om
}

func newExploreReport(file string, x *analysis.Exploration, maxTrace int, allowNoFairRun bool) *exploreReportJSON {
	rep := x.Report
	out := &exploreReportJSON{File: file, ModelReason: x.Model.Reason, Report: rep, Properties: []propertyJSON{}, FairRun: x.FairRun(), maxTrace: maxTrace, allowNoFairRun: allowNoFairRun}
	// The system's properties, in the order of the report, keep their
	// parse.
	props := x.Model.System.Properties
	for i, p := range rep.Properties {
		pj := propertyJSON{PropertyResult: p}
		if i < len(props) && props[i].Name == p.Name && props[i].Syntax != nil {
			pj.Parsed = gsst.Parenthesize(props[i].Syntax)
			pj.reliesOnPrecedence = gsst.ReliesOnPrecedence(props[i].Syntax)
		}
		pj.Trace = newTraceJSON(p.Trace, maxTrace)
		out.Properties = append(out.Properties, pj)
	}
	for _, tr := range rep.DeadlockTraces {
		out.DeadlockTraces = append(out.DeadlockTraces, newTraceJSON(tr, maxTrace))
	}
	return out
}

// newTraceJSON shortens tr, its replay and its branches to maxTrace
// states (steps) each; nil for nil.
func newTraceJSON(tr *explore.Trace, maxTrace int) *traceJSON {
	if tr == nil {
		return nil
	}
	tj := &traceJSON{Trace: tr, Length: len(tr.States)}
	tj.States, tj.Omitted = shortened(tr.States, maxTrace)
	if l := tr.Lifted; l != nil {
		lj := &liftedJSON{Lifted: l, Length: len(l.Steps)}
		lj.Steps, lj.Omitted = shortened(l.Steps, maxTrace)
		tj.Lifted = lj
	}
	for _, b := range tr.Branches {
		tj.Branches = append(tj.Branches, newTraceJSON(b, maxTrace))
	}
	return tj
}

// noFairRun reports whether the exploration found that no fair run
// starts in the initial state: a finding, since every property then
// holds vacuously (exit 1 unless --allow-no-fair-run).
func (r *exploreReportJSON) noFairRun() bool { return r.FairRun != nil && !*r.FairRun }
