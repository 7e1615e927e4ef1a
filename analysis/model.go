package analysis

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/progress"
)

// Level is the model level a question asks for (--model).
type Level int

const (
	// Auto takes the total-counter model when the system is certified
	// and every property and fairness constraint reads total counters
	// only (counterabs.GroupReason), and the group-counter model
	// otherwise.
	Auto Level = iota
	// Total is the total-counter model, which needs certification
	// (or Force).
	Total
	// Group is the group-counter model, exact for any GSST.
	Group
)

var levelNames = [...]string{Auto: "auto", Total: "total", Group: "group"}

func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel reads a level as --model names it: auto, total or group.
func ParseLevel(s string) (Level, error) {
	for l, name := range levelNames {
		if s == name {
			return Level(l), nil
		}
	}
	return 0, errkind.Errorf(errkind.Input, "unknown model %q (want auto, total or group)", s)
}

// ModelRequest says which model a question wants of one system.
type ModelRequest struct {
	File  string // the name of the spec, for the position of errors about it as a whole
	Level Level
	// Force builds the total-counter model of an uncertified system: it
	// over-approximates the quotient (--force). It implies Total.
	Force bool
	// Limits bound the work; BuildModel bounds it by Timeout.
	Limits Limits
	// Warn, when not nil, is told of a total-counter model forced on an
	// uncertified system, before it is built.
	Warn func(msg string)
	// Progress, when not nil, is told what the work is doing: the
	// certification's queries, the construction's transitions and, for
	// an exploration, the engine's phases and figures (package progress).
	Progress progress.Func
	// QueryWork bounds each solver query of certification and
	// abstraction, in units of Z3's resource limit (0: AutoQueryWork
	// under Auto, else QueryWork). Under
	// Auto, a query that runs out leaves the total-counter model and
	// takes the group-counter model, which needs no solver and is exact
	// as well; the choice depends on work done, never on the clock.
	QueryWork int64
}

// Model is the model a question works on, with the reason for its level
// in words and the certification report when certification ran.
type Model struct {
	*counterabs.Model
	Cert   *detect.Report
	Reason string
}

// CertifiedHow says in words how the model's certified system was
// certified ("" when it was not).
func (m *Model) CertifiedHow() string {
	if m.Cert == nil || !m.Cert.Certified() {
		return ""
	}
	return certifiedHow(m.Cert)
}

// BuildModel chooses the level of r for sys, certifies when the
// total-counter model is wanted, and builds the model, all within
// r.Limits.Timeout. An uncertified system gets the group-counter model
// under Auto; with Total it is refused, by an error of kind
// errkind.Negative (or errkind.Unknown when certification could not
// decide), unless r.Force. Work stopped by the timeout is an error of
// kind errkind.Unknown that names the stage.
func BuildModel(ctx context.Context, sys *gsst.System, r ModelRequest) (*Model, error) {
	ctx, cancel := r.Limits.Context(ctx)
	defer cancel()
	return buildModel(ctx, sys, r)
}

// buildModel is BuildModel under a context already bounded.
func buildModel(ctx context.Context, sys *gsst.System, r ModelRequest) (*Model, error) {
	level := r.Level
	if r.Force {
		level = Total
	}
	switch level {
	case Group:
		return groupModel(r.File, sys, "the group-counter model was asked for (--model group)")
	case Auto:
		if why := counterabs.GroupReason(sys, true); why != "" {
			return groupModel(r.File, sys, why)
		}
	case Total:
	default:
		return nil, errkind.Errorf(errkind.Input, "unknown model level %v", level)
	}
	// Under Auto, when a query runs out of work or the solver cannot
	// decide while building, the group-counter model takes over
	// (fallBack), with the reason in words.
	fallBack := func(what string) (*Model, error) {
		return groupModel(r.File, sys, what+"; the group-counter model is exact for any system")
	}
	work := int64(QueryWork)
	if level == Auto {
		work = AutoQueryWork
	}
	solver := z3.New(z3.Work(orDefault(r.QueryWork, work)))
	witness := z3.New(z3.Work(orDefault(r.QueryWork, work)), z3.Fresh())
	cert, err := detect.Certify(ctx, sys, solver, detect.OnProgress(r.Progress), detect.WitnessSolver(witness))
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, Stopped(ctx, r.File, "certification", r.Limits.Timeout)
		}
		return nil, FileError(r.File, err)
	}
	if !cert.Certified() && cert.Verdict() != detect.Violated && ctx.Err() != nil {
		// Unknown verdicts because the run's time ran out: say so.
		return nil, Stopped(ctx, r.File, "certification", r.Limits.Timeout)
	}
	opts := []counterabs.Option{counterabs.OnProgress(r.Progress)}
	reason := "certified fully virtually symmetric (" + certifiedHow(cert) + "): the total-counter model is exact"
	if !cert.Certified() {
		why, kind := CertificationFailure(cert)
		switch {
		case r.Force && counterabs.ForceRefusal(sys) != "":
			return nil, &Error{Kind: errkind.Input, Pos: gsst.Pos{File: r.File},
				Msg: why + "; --force cannot help: " + counterabs.ForceRefusal(sys) + "; use --model group for the exact group-counter model"}
		case r.Force:
			if r.Warn != nil {
				r.Warn(fmt.Sprintf("%s: %s; using the total-counter model anyway (--force): it over-approximates the system, so verdicts on it are not exact", r.File, why))
			}
			opts = append(opts, counterabs.Force())
			reason = why + "; total-counter model forced (--force): it over-approximates the system"
		case level == Auto:
			if kind == errkind.Negative {
				why = certificationSummary(cert)
			}
			return groupModel(r.File, sys, why+"; the group-counter model is exact for any system")
		default:
			// The refusal is about the system as a whole: every
			// transition at fault is named in the message.
			return nil, &Error{Kind: kind, Pos: gsst.Pos{File: r.File}, Msg: why + "; use --model group for the exact group-counter model, or --force for the (over-approximating) total-counter model"}
		}
	}
	m, err := counterabs.Build(ctx, sys, solver, solver, opts...)
	if err != nil {
		var nc *counterabs.NotCertifiedError
		switch {
		case ctx.Err() != nil:
			return nil, Stopped(ctx, r.File, "abstraction", r.Limits.Timeout)
		case level == Auto && errkind.Of(err) == errkind.Unknown:
			return fallBack(fmt.Sprintf("building the total-counter model failed (%v)", err))
		case level == Auto && errors.As(err, &nc) && !simpleSteps(sys):
			// Build checks each abstract transition of a system beyond
			// the paper on its own, which is stricter than
			// certification when two of them can have the same effect.
			return fallBack(fmt.Sprintf("the total-counter model's %s is not closed under orbits by itself (%s)", nc.Name, DescribeWitness(sys, nc.Witness)))
		case errors.As(err, &nc) && !simpleSteps(sys):
			return nil, &Error{Kind: errkind.Negative, Pos: position(r.File, nc.Pos), Err: err,
				Msg: fmt.Sprintf("certification passed, but the total-counter model's %s is not exact by itself (%s): another step with the same effect makes up for it where it cannot happen, which the total-counter model does not express; use --model group",
					nc.Name, DescribeWitness(sys, nc.Witness))}
		case errors.As(err, &nc):
			// detect certified the system, but Build found a verified
			// witness against it: trust the witness, report both.
			return nil, &Error{Kind: errkind.Negative, Pos: position(r.File, nc.Pos), Err: err,
				Msg: fmt.Sprintf("transition %s breaks full virtual symmetry (%s), although certification passed it: please report this; use --model group",
					nc.Name, DescribeWitness(sys, nc.Witness))}
		}
		return nil, FileError(r.File, err)
	}
	return &Model{Model: m, Cert: cert, Reason: reason}, nil
}

// simpleSteps reports whether every step of sys moves one process and
// changes nothing else (gsst.Step.Simple): then no two abstract
// transitions of the total-counter model share an effect, and Build's
// check of each is no stricter than certification.
func simpleSteps(sys *gsst.System) bool {
	steps := sys.Steps()
	for i := range steps {
		if !steps[i].Simple() {
			return false
		}
	}
	return true
}

// position returns pos, with file when pos has none.
func position(file string, pos gsst.Pos) gsst.Pos {
	if pos.File == "" {
		pos.File = file
	}
	return pos
}

// groupModel builds the group-counter model of sys.
func groupModel(file string, sys *gsst.System, reason string) (*Model, error) {
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		return nil, FileError(file, err)
	}
	return &Model{Model: m, Reason: reason}, nil
}

// certifiedHow says in words how a certified system was certified.
func certifiedHow(cert *detect.Report) string {
	if cert.Verdict() == detect.Symmetric {
		return "every transition treats all processes alike"
	}
	return "Theorem 6 checked with Z3"
}

// CertificationFailure explains why cert does not certify its system:
// the violated transitions with their witnesses (a negative answer:
// errkind.Negative), or else the transitions left unknown
// (errkind.Unknown).
func CertificationFailure(cert *detect.Report) (string, errkind.Kind) {
	sys := cert.System
	var bad, unknown []string
	for _, t := range cert.Results() {
		switch t.Verdict {
		case detect.Violated:
			bad = append(bad, fmt.Sprintf("%s breaks full virtual symmetry (%s)", t.Label(sys), DescribeWitness(sys, t.Witness)))
		case detect.Unknown:
			msg := t.Name(sys)
			if t.Reason != "" {
				msg += " (" + t.Reason + ")"
			}
			unknown = append(unknown, msg)
		}
	}
	if len(bad) > 0 {
		return "not fully virtually symmetric: " + strings.Join(bad, "; "), errkind.Negative
	}
	return "full virtual symmetry could not be decided for transition " + strings.Join(unknown, ", "), errkind.Unknown
}

// certificationSummary says in one short line which steps break full
// virtual symmetry in cert, by name: the reason of the group-counter
// model Auto takes instead, which every command prints on one line (a
// witness can take a thousand characters; vsym check shows them).
func certificationSummary(cert *detect.Report) string {
	const shown = 3
	sys := cert.System
	var names []string
	rendezvous := false
	for _, t := range cert.Results() {
		switch {
		case t.Verdict != detect.Violated:
		case t.Rendezvous != nil:
			names, rendezvous = append(names, sys.RendezvousName(t.Rendezvous)), true
		default:
			names = append(names, t.Label(sys))
		}
	}
	if len(names) == 1 {
		return "not fully virtually symmetric: " + names[0] + " breaks full virtual symmetry (vsym check shows a witness)"
	}
	// Transitions alone are listed as "transitions A, B and C"; the
	// name of a rendezvous has commas of its own, so a list with one
	// is separated by semicolons.
	sep, head := "; ", names[:min(len(names), shown)]
	if !rendezvous {
		sep = ", "
		for k := range head {
			head[k] = strings.TrimPrefix(head[k], "transition ")
		}
		head[0] = "transitions " + head[0]
	}
	last := fmt.Sprintf("%d more", len(names)-shown)
	if len(names) <= shown {
		head, last = head[:len(head)-1], head[len(head)-1]
	}
	return fmt.Sprintf("not fully virtually symmetric: %s and %s break full virtual symmetry (vsym check shows the witnesses)", strings.Join(head, sep), last)
}

// DescribeWitness says in words what a witness shows.
func DescribeWitness(sys *gsst.System, w *detect.Witness) string {
	if w == nil {
		return "no witness"
	}
	if st := w.Step; st != nil {
		totals := st.Next.Totals(len(sys.States))
		to := make([]string, len(totals))
		for s, k := range totals {
			to[s] = fmt.Sprintf("%s=%d", sys.States[s], k)
		}
		shared, after := "", ""
		if len(sys.Shared) > 0 {
			shared, after = " with "+describeShared(sys, w.Shared), " with "+describeShared(sys, st.Next.Shared)
		}
		who := "it can be taken" // an environment step: no group takes it
		if w.Group >= 0 {
			who = "group " + sys.Groups[w.Group].Name + " can take it"
		}
		return fmt.Sprintf("%s in %s%s to the totals %s%s, but no step of %s, which has the same total counters and shared values, reaches them",
			who, describeConfig(sys, w.Enabled), shared, strings.Join(to, ", "), after, describeConfig(sys, w.Disabled))
	}
	return fmt.Sprintf("group %s can take it in %s, but no process can in %s, which has the same total counters",
		sys.Groups[w.Group].Name, describeConfig(sys, w.Enabled), describeConfig(sys, w.Disabled))
}

// describeShared prints shared values as "lock=true turn=reader".
func describeShared(sys *gsst.System, vals []int) string { return sys.FormatShared(vals) }

// describeConfig prints a configuration as {reader: T=1; writer: N=1, T=1}.
func describeConfig(sys *gsst.System, conf [][]int) string {
	var groups []string
	for g, row := range conf {
		var parts []string
		for s, k := range row {
			if k != 0 {
				parts = append(parts, fmt.Sprintf("%s=%d", sys.States[s], k))
			}
		}
		if len(parts) == 0 {
			parts = append(parts, "empty")
		}
		groups = append(groups, sys.Groups[g].Name+": "+strings.Join(parts, ", "))
	}
	return "{" + strings.Join(groups, "; ") + "}"
}
