package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/sarif"
)

// "--output sarif" of check and explore: a SARIF 2.1.0 log with one
// result per finding, at the line and column of the transition or
// property it is about, for code-scanning services (docs/ci.md). Exit
// codes and stderr are those of the text output.

// The rules, one per kind of finding.
var (
	ruleInvalidSpec = sarif.Rule{
		ID: "invalid-spec", Name: "InvalidSpec",
		ShortDescription:     sarif.Text{Text: "The file is not a valid GSST specification."},
		FullDescription:      sarif.Text{Text: "vsym could not read the file as a GSST: a YAML error, a missing or unknown key, an unknown state or group, or a malformed guard or property."},
		Help:                 sarif.Text{Text: "Fix the error at the position given; docs/gsst-format.md describes the format, and `vsym schema` prints a JSON Schema that lets an editor check the file as you type."},
		DefaultConfiguration: sarif.Configuration{Level: sarif.Error},
	}
	ruleViolatedTransition = sarif.Rule{
		ID: "violated-transition", Name: "ViolatedTransition",
		ShortDescription: sarif.Text{Text: "A local transition breaks full virtual symmetry."},
		FullDescription:  sarif.Text{Text: "Two configurations with equal total counters: in the first a process can take the transition, in the second none can. The set of configurations enabling the transition is not closed under permutations of the processes (Theorem 6 of Wei, Gurfinkel and Chechik), so symmetry reduction and the counter abstraction are not exact for this system."},
		Help: sarif.Text{
			Text:     "Compare the guards of the groups in the two configurations of the witness: the transition is enabled in one and not in the other although every total counter is the same. Make the guards agree on such configurations (a guard over total counters only is always symmetric), or explore the unreduced system with vsym explore --concrete. docs/certification.md explains the check.",
			Markdown: "Compare the guards of the groups in the two configurations of the witness: the transition is enabled in one and not in the other although every total counter is the same. Make the guards agree on such configurations (a guard over total counters only is always symmetric), or explore the unreduced system with `vsym explore --concrete`. `docs/certification.md` explains the check.",
		},
		DefaultConfiguration: sarif.Configuration{Level: sarif.Error},
	}
	ruleUndecidedTransition = sarif.Rule{
		ID: "undecided-transition", Name: "UndecidedTransition",
		ShortDescription:     sarif.Text{Text: "Full virtual symmetry of a transition could not be decided."},
		FullDescription:      sarif.Text{Text: "The solver gave no answer for this transition (a timeout or a resource limit). This is not a verdict: the transition may or may not break full virtual symmetry."},
		Help:                 sarif.Text{Text: "Raise the work each solver call may spend with --solver-work (or its wall-clock bound, --solver-timeout), or simplify the transition's guards."},
		DefaultConfiguration: sarif.Configuration{Level: sarif.Warning},
	}
	ruleFailedProperty = sarif.Rule{
		ID: "failed-property", Name: "FailedProperty",
		ShortDescription:     sarif.Text{Text: "A CTL property of the specification fails."},
		FullDescription:      sarif.Text{Text: "vsym explored the reachable configurations and the property does not hold in the initial one. The message gives the counterexample when the engine finds one: counter states and the same run replayed process by process."},
		Help:                 sarif.Text{Text: "Read the counterexample in the message, or draw it with vsym dot --trace PROPERTY FILE -o trace.svg, then fix the guards or the property. docs/explore.md describes traces."},
		DefaultConfiguration: sarif.Configuration{Level: sarif.Error},
	}
	ruleUndecidedProperty = sarif.Rule{
		ID: "undecided-property", Name: "UndecidedProperty",
		ShortDescription:     sarif.Text{Text: "A property could not be decided exactly."},
		FullDescription:      sarif.Text{Text: "The exploration stopped at a timeout or a resource limit, or explored an inexact model (--force on a system that is not certified), so the verdict is unknown. This is not a verdict."},
		Help:                 sarif.Text{Text: "Raise --timeout, --max-states or --max-memory, try the other engine (--engine), or explore the unreduced system with --concrete instead of forcing the counter abstraction."},
		DefaultConfiguration: sarif.Configuration{Level: sarif.Warning},
	}
	ruleNoFairRun = sarif.Rule{
		ID: "no-fair-run", Name: "NoFairRun",
		ShortDescription:     sarif.Text{Text: "No fair run starts in the initial state."},
		FullDescription:      sarif.Text{Text: "The fairness constraints of the specification exclude every run from the initial state, so every CTL property holds vacuously (as in NuSMV): its verdicts say nothing about the system."},
		Help:                 sarif.Text{Text: "Fix the fairness constraints (a justice condition no run can meet infinitely often is the usual cause; docs/fairness.md), or accept them on purpose with vsym explore --allow-no-fair-run."},
		DefaultConfiguration: sarif.Configuration{Level: sarif.Error},
	}
	ruleNotCertified = sarif.Rule{
		ID: "not-certified", Name: "NotCertified",
		ShortDescription:     sarif.Text{Text: "The system is not fully virtually symmetric, so its counter abstraction was not explored."},
		FullDescription:      sarif.Text{Text: "vsym explore certifies full virtual symmetry before it explores the counter abstraction, and refuses a system that fails: verdicts on its counter model would not be exact."},
		Help:                 sarif.Text{Text: "Run vsym check --output sarif for the transitions at fault, or explore the unreduced system with vsym explore --concrete."},
		DefaultConfiguration: sarif.Configuration{Level: sarif.Error},
	}
)

// checkOutputFormatSARIF accepts text, json and sarif.
func checkOutputFormatSARIF(output string) error {
	if output == "sarif" {
		return nil
	}
	if err := checkOutputFormat(output); err != nil {
		return errkind.Errorf(errkind.Input, "unknown output format %q (want text, json or sarif)", output)
	}
	return nil
}

// newSARIFRun starts the run of one command. category becomes the id of
// its automation details: one per check run, one per file explored, so
// that a CI job may upload the logs of several runs at once (docs/ci.md).
func newSARIFRun(cmd *cobra.Command, category string, rules ...sarif.Rule) *sarif.Run {
	run := sarif.NewRun(sarif.Driver{Name: "vsym", Version: vsymVersion(cmd), Rules: rules})
	run.AutomationDetails = &sarif.AutomationDetails{ID: category + "/"}
	return run
}

// exploreCategory is the category of the exploration of one file.
func exploreCategory(file string) string { return "vsym/explore/" + sarif.FileURI(file) }

func writeSARIF(cmd *cobra.Command, run *sarif.Run) error {
	if err := sarif.Write(cmd.OutOrStdout(), run); err != nil {
		return errkind.Wrap(errkind.Unknown, err)
	}
	return nil
}

// addFileError reports an error about file: every error of a list at its
// own position with its message, anything else at its position (the
// transition or property it is about, else the file) with its whole
// text, prefixed by prefix.
func addFileError(run *sarif.Run, rule, file, prefix string, err error) {
	list := analysis.Errors(file, err)
	var gl gsst.ErrorList
	if !errors.As(err, &gl) && len(list) == 1 {
		pos := list[0].Pos
		run.Add(rule, sarif.Text{Text: prefix + err.Error()}, pos.File, pos.Line, pos.Col)
		return
	}
	for _, e := range list {
		run.Add(rule, sarif.Text{Text: prefix + e.Msg}, e.Pos.File, e.Pos.Line, e.Pos.Col)
	}
}

// writeCheckSARIF writes the results of vsym check: one result per
// violated or undecided transition, and the errors of files that could
// not be read or certified.
func writeCheckSARIF(cmd *cobra.Command, results []checkResult) error {
	run := newSARIFRun(cmd, "vsym/check", ruleInvalidSpec, ruleViolatedTransition, ruleUndecidedTransition)
	for _, r := range results {
		switch {
		case r.sys == nil:
			addFileError(run, ruleInvalidSpec.ID, r.file, "", r.err)
		case r.rep == nil:
			addFileError(run, ruleUndecidedTransition.ID, r.file, "certification failed: ", r.err)
		default:
			addTransitionResults(run, r.file, r.rep)
		}
	}
	return writeSARIF(cmd, run)
}

func addTransitionResults(run *sarif.Run, file string, rep *detect.Report) {
	sys := rep.System
	for _, t := range rep.Results() {
		name := resultName(sys, &t)
		var pos gsst.Pos
		if t.Transition != nil {
			pos = t.Transition.Pos
		} else {
			pos = t.Rendezvous.Pos
		}
		switch t.Verdict {
		case detect.Violated:
			var tables bytes.Buffer
			writeWitnessTables(&tables, sys, t.Witness)
			head := fmt.Sprintf("%s breaks full virtual symmetry%s: the two configurations below have equal total counters%s; in the first a process of group %s can take %s, in the second no process can.",
				name, witnessAt(sys, t.Witness), guardShared(sys, &t), sys.Groups[t.Witness.Group].Name, name)
			if t.Witness.Step != nil {
				at, same, diff := stepWitnessText(sys, name, t.Witness)
				head = fmt.Sprintf("%s breaks full virtual symmetry%s: %s; %s.", name, at, same, diff)
			}
			run.Add(ruleViolatedTransition.ID, sarif.Text{
				Text:     head + "\n" + tables.String(),
				Markdown: strings.ReplaceAll(head, name, "`"+name+"`") + "\n\n```\n" + tables.String() + "```",
			}, file, pos.Line, pos.Col)
		case detect.Unknown:
			reason := t.Reason
			if reason == "" {
				reason = "no answer"
			}
			run.Add(ruleUndecidedTransition.ID, sarif.Text{Text: fmt.Sprintf("%s: unknown: %s", name, reason)}, file, pos.Line, pos.Col)
		}
	}
}

// writeExploreSARIF writes the results of vsym explore: one result per
// failed property with its trace, or per property when the model is not
// exact, and one at the first fairness constraint when no fair run
// starts in the initial state (unless --allow-no-fair-run).
func writeExploreSARIF(cmd *cobra.Command, file string, sys *gsst.System, view *exploreReportJSON) error {
	rep := view.Report
	run := newSARIFRun(cmd, exploreCategory(file), exploreRules...)
	if view.noFairRun() && !view.allowNoFairRun {
		pos := firstFairness(sys)
		run.Add(ruleNoFairRun.ID, sarif.Text{Text: fmt.Sprintf("%s (fairness: %s).", noFairRun, strings.Join(rep.Fairness, "; "))}, file, pos.Line, pos.Col)
	}
	for _, p := range view.Properties {
		var pos gsst.Pos
		for _, q := range sys.Properties {
			if q.Name == p.Name {
				pos = q.Pos
			}
		}
		switch {
		case !rep.Exact:
			verdict := "holds"
			if !p.Holds {
				verdict = "fails"
			}
			run.Add(ruleUndecidedProperty.ID, sarif.Text{Text: fmt.Sprintf("property %s (%s): unknown: it %s on a counter model that over-approximates an uncertified system, so the verdict is not exact", p.Name, p.Text, verdict)},
				file, pos.Line, pos.Col)
		case !p.Holds:
			head := fmt.Sprintf("property %s (%s) fails", p.Name, p.Text)
			if p.Trace == nil {
				run.Add(ruleFailedProperty.ID, sarif.Text{Text: head + "."}, file, pos.Line, pos.Col)
				continue
			}
			var trace bytes.Buffer
			writeTrace(&trace, sys, p.Trace, view.maxTrace)
			run.Add(ruleFailedProperty.ID, sarif.Text{
				Text:     head + ":\n" + trace.String(),
				Markdown: fmt.Sprintf("property `%s` (`%s`) fails:\n\n```\n%s```", p.Name, p.Text, trace.String()),
			}, file, pos.Line, pos.Col)
		}
	}
	return writeSARIF(cmd, run)
}

var exploreRules = []sarif.Rule{ruleInvalidSpec, ruleFailedProperty, ruleUndecidedProperty, ruleNotCertified, ruleNoFairRun}

// firstFairness returns the position of sys's first fairness constraint
// in the file (the zero Pos when it has none).
func firstFairness(sys *gsst.System) gsst.Pos {
	var first gsst.Pos
	earlier := func(p gsst.Pos) {
		if first.Line == 0 || p.Line < first.Line || p.Line == first.Line && p.Col < first.Col {
			first = p
		}
	}
	for _, j := range sys.Fairness.Justice {
		earlier(j.Pos)
	}
	for _, w := range sys.Fairness.Weak {
		earlier(w.Pos)
	}
	return first
}

// exploreSARIFOnError makes sure vsym explore --output sarif writes a log
// when the exploration ends in an error about the file (it is bad, the
// system is refused, or time or a limit ran out), so that a CI job still
// has results to upload; each result is at the position the error
// carries. Errors of usage (flags) write nothing. err is returned
// unchanged: it carries the exit code and the message for stderr.
func exploreSARIFOnError(cmd *cobra.Command, o *exploreOpts, err error) error {
	if o.output != "sarif" || err == nil {
		return err // the log, if any, is written
	}
	run := newSARIFRun(cmd, exploreCategory(o.file), exploreRules...)
	var gl gsst.ErrorList
	switch k := errkind.Of(err); {
	case errors.As(err, &gl), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		addFileError(run, ruleInvalidSpec.ID, o.file, "", err)
	case k == errkind.Negative:
		addFileError(run, ruleNotCertified.ID, o.file, "", err)
	case k == errkind.Unknown, k == errkind.Limit, k == errkind.Internal:
		addFileError(run, ruleUndecidedProperty.ID, o.file, "", err)
	default:
		return err
	}
	if werr := writeSARIF(cmd, run); werr != nil {
		return werr
	}
	return err
}
