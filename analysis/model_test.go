package analysis

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
)

// rwSpec is the readers and writers of Fig. 1(b), certified; brokenGuard
// makes it uncertified (readers-writers-broken).
const (
	rwSpec = `name: rw
states: [N, T, C]
groups:
  reader: 1
  writer: 2
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard:
      reader: "#C = 0 & #T[writer] = 0"
      writer: "#C = 0"
  - {from: C, to: N}
properties:
  mutex: "AG #C <= 1"
`
	goodGuard   = `"#C = 0 & #T[writer] = 0"`
	brokenGuard = `"#C = 0 & #T = 2"`
)

// parse parses src as file rw.yaml, with extra appended (more properties,
// fairness) and the reader's guard replaced by guard.
func parse(t *testing.T, guard, extra string) *gsst.System {
	t.Helper()
	src := strings.Replace(rwSpec, goodGuard, guard, 1) + extra
	sys, err := gsst.Parse("rw.yaml", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return sys
}

// TestBuildModel: the one rule of the model level, and its reasons.
func TestBuildModel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		guard  string
		extra  string
		level  Level
		force  bool
		want   counterabs.Level
		exact  bool
		reason string // in Model.Reason
		warned bool
	}{
		{"auto, certified", goodGuard, "", Auto, false, counterabs.TotalLevel, true, "certified fully virtually symmetric (Theorem 6 checked with Z3)", false},
		{"auto, group property", goodGuard, "  alone: \"AG #C[writer] <= 1\"\n", Auto, false, counterabs.GroupLevel, true, "property alone reads group counters", false},
		{"auto, justice over groups", goodGuard, "fairness:\n  justice: [\"#T[writer] = 0\"]\n", Auto, false, counterabs.GroupLevel, true, "justice condition #T[writer] = 0 reads group counters", false},
		{"auto, weak fairness per group", goodGuard, "fairness:\n  weak: [\"T -> C [*]\"]\n", Auto, false, counterabs.GroupLevel, true, "weak fairness of T -> C", false},
		{"auto, uncertified", brokenGuard, "", Auto, false, counterabs.GroupLevel, true, "not fully virtually symmetric: transition T -> C breaks full virtual symmetry", false},
		{"group", goodGuard, "", Group, false, counterabs.GroupLevel, true, "--model group", false},
		{"total, certified", goodGuard, "", Total, false, counterabs.TotalLevel, true, "certified", false},
		{"force, uncertified", brokenGuard, "", Auto, true, counterabs.TotalLevel, false, "total-counter model forced (--force)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := parse(t, tc.guard, tc.extra)
			var warnings []string
			m, err := BuildModel(context.Background(), sys, ModelRequest{File: "rw.yaml", Level: tc.level, Force: tc.force, Warn: func(s string) { warnings = append(warnings, s) }})
			if err != nil {
				t.Fatal(err)
			}
			if m.Level != tc.want || m.Exact != tc.exact || !strings.Contains(m.Reason, tc.reason) {
				t.Errorf("%v-counter model (exact %v), reason %q; want %v (exact %v), reason with %q", m.Level, m.Exact, m.Reason, tc.want, tc.exact, tc.reason)
			}
			if (len(warnings) > 0) != tc.warned {
				t.Errorf("warnings %q, want some: %v", warnings, tc.warned)
			}
		})
	}
}

// TestBuildModelErrors: refusals and failures are errors with a kind, a
// position and the bound that stopped the work.
func TestBuildModelErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		guard   string
		extra   string
		level   Level
		timeout time.Duration
		kind    errkind.Kind
		pos     gsst.Pos // Line 0: the file as a whole
		msg     string   // prefix of Msg
		limit   Limit
	}{
		// The refusal names every transition at fault: it is about the
		// system as a whole.
		{"total, uncertified", brokenGuard, "", Total, 0, errkind.Negative, gsst.Pos{File: "rw.yaml"},
			"not fully virtually symmetric: transition T -> C breaks full virtual symmetry (group writer can take it in {reader: N=1; writer: N=1, T=1}, but no process can in {reader: T=1; writer: N=2}", NoLimit},
		// A property the total-counter model cannot express: at the
		// property.
		{"total, group property", goodGuard, "  alone: \"AG #C[writer] <= 1\"\n", Total, 0, errkind.Input, gsst.Pos{File: "rw.yaml", Line: 17, Col: 10},
			"property alone: ", NoLimit},
		{"total, justice over groups", goodGuard, "fairness:\n  justice: [\"#T[writer] = 0\"]\n", Total, 0, errkind.Input, gsst.Pos{File: "rw.yaml", Line: 18, Col: 13},
			"justice condition #T[writer] = 0: ", NoLimit},
		{"timeout", goodGuard, "", Auto, time.Nanosecond, errkind.Unknown, gsst.Pos{File: "rw.yaml"},
			"unknown: certification stopped: timeout after 1ns", Timeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := parse(t, tc.guard, tc.extra)
			_, err := BuildModel(context.Background(), sys, ModelRequest{File: "rw.yaml", Level: tc.level, Limits: Limits{Timeout: tc.timeout}})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v (%T), want an *Error", err, err)
			}
			if e.Kind != tc.kind || errkind.Of(err) != tc.kind || e.Position() != tc.pos || !strings.HasPrefix(e.Msg, tc.msg) || e.Limit != tc.limit {
				t.Errorf("got kind %v at %v, limit %v: %q; want kind %v at %v, limit %v: %q...", e.Kind, e.Pos, e.Limit, e.Msg, tc.kind, tc.pos, tc.limit, tc.msg)
			}
			if want := tc.pos.String() + ": " + e.Msg; err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
	if _, err := ParseLevel("exact"); errkind.Of(err) != errkind.Input {
		t.Errorf("ParseLevel(exact): %v, want an input error", err)
	}
}

// TestErrors: any error splits into positioned errors with kinds, and
// FileError keeps the position a library error carries.
func TestErrors(t *testing.T) {
	_, perr := gsst.Parse("bad.yaml", []byte("name: x\nstates: [A]\ngroups:\n  g: 1\ninit: B\n"))
	if perr == nil {
		t.Fatal("bad spec parsed")
	}
	for _, tc := range []struct {
		name  string
		err   error
		kind  errkind.Kind
		pos   gsst.Pos
		msg   string
		limit Limit
	}{
		{"parse errors", perr, errkind.Input, gsst.Pos{File: "bad.yaml", Line: 1, Col: 1}, `missing key "transitions"`, NoLimit},
		{"state limit", FileError("f.yaml", &explore.LimitError{Kind: "states", Limit: 3}), errkind.Limit, gsst.Pos{File: "f.yaml"}, "unknown: state limit of 3 reached", MaxStates},
		{"memory limit", FileError("f.yaml", &explore.LimitError{Kind: "memory", Limit: 1 << 20, Bytes: 2 << 20}), errkind.Limit, gsst.Pos{File: "f.yaml"}, "unknown: memory limit of 1.0 MiB reached", MaxMemory},
		{"deadline", FileError("f.yaml", context.DeadlineExceeded), errkind.Unknown, gsst.Pos{File: "f.yaml"}, "unknown: context deadline exceeded", Timeout},
		{"positioned library error", FileError("f.yaml", errkind.Wrap(errkind.Input, &gsst.Error{Pos: gsst.Pos{File: "f.yaml", Line: 7, Col: 3}, Msg: "property p: bad"})),
			errkind.Input, gsst.Pos{File: "f.yaml", Line: 7, Col: 3}, "property p: bad", NoLimit},
		{"solver unknown at a transition", FileError("f.yaml", &counterabs.UnknownError{Transition: "T -> C", Pos: gsst.Pos{File: "f.yaml", Line: 9, Col: 5}, What: "projection"}),
			errkind.Unknown, gsst.Pos{File: "f.yaml", Line: 9, Col: 5}, "unknown: counterabs: transition T -> C: projection: solver answered unknown", NoLimit},
		{"internal error at a transition", FileError("f.yaml", errkind.Wrap(errkind.Internal, &gsst.Error{Pos: gsst.Pos{File: "f.yaml", Line: 4, Col: 5}, Msg: "detect: transition T -> C: solver model is not a witness"})),
			errkind.Internal, gsst.Pos{File: "f.yaml", Line: 4, Col: 5}, "detect: transition T -> C", NoLimit},
		{"unclassified", FileError("f.yaml", errors.New("boom")), errkind.Internal, gsst.Pos{File: "f.yaml"}, "boom", NoLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := Errors("f.yaml", tc.err)
			if len(list) == 0 {
				t.Fatal("no errors")
			}
			e := list[0]
			if e.Kind != tc.kind || e.Pos != tc.pos || !strings.HasPrefix(e.Msg, tc.msg) || e.Limit != tc.limit {
				t.Errorf("got kind %v at %v, limit %v: %q; want kind %v at %v, limit %v: %q...", e.Kind, e.Pos, e.Limit, e.Msg, tc.kind, tc.pos, tc.limit, tc.msg)
			}
		})
	}
	l := ErrorList{
		{Pos: gsst.Pos{File: "b", Line: 1}, Msg: "x"},
		{Pos: gsst.Pos{File: "a", Line: 2, Col: 1}, Msg: "y"},
		{Pos: gsst.Pos{File: "a", Line: 2, Col: 1}, Msg: "y"},
		{Pos: gsst.Pos{File: "a", Line: 1, Col: 9}, Msg: "z"},
	}
	l.Sort()
	var got []string
	for _, e := range l {
		got = append(got, e.Error())
	}
	if want := "a:1:9: z|a:2:1: y|b:1:0: x"; strings.Join(got, "|") != want {
		t.Errorf("sorted %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestExploreVerdict: the answer of an exploration as a whole, against
// the report's own verdicts.
func TestExploreVerdict(t *testing.T) {
	for _, tc := range []struct {
		name  string
		guard string
		extra string
		force bool
		allow bool
		want  Verdict
	}{
		{"holds", goodGuard, "", false, false, Yes},
		{"fails", goodGuard, "  never: \"AG #C = 0\"\n", false, false, No},
		{"no fair run", goodGuard, "fairness:\n  justice: [\"#C = 3\"]\n", false, false, No},
		{"no fair run, accepted", goodGuard, "fairness:\n  justice: [\"#C = 3\"]\n", false, true, Yes},
		{"forced, universal and holds", brokenGuard, "", true, false, Yes},
		{"forced, existential", brokenGuard, "  some: \"EF #C = 1\"\n", true, false, Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := parse(t, tc.guard, tc.extra)
			x, err := Explore(context.Background(), sys, ExploreRequest{ModelRequest: ModelRequest{File: "rw.yaml", Force: tc.force}, Engine: "explicit"})
			if err != nil {
				t.Fatal(err)
			}
			if got := x.Verdict(tc.allow); got != tc.want {
				t.Errorf("verdict %v, want %v (exact %v, no fair run %v, fails %v, inconclusive %q)", got, tc.want, x.Report.Exact, x.NoFairRun(), x.Fails(), x.Inconclusive())
			}
		})
	}
}

// TestWithin: work that does not read a context is abandoned when the
// time runs out, with an error naming the stage and the bound; work that
// ends in time returns its results.
func TestWithin(t *testing.T) {
	l := Limits{Timeout: 20 * time.Millisecond}
	ctx, cancel := l.Context(context.Background())
	defer cancel()
	release := make(chan struct{})
	defer close(release)
	_, err := Within(ctx, "f.yaml", "NuSMV output", l, func() (string, error) { <-release; return "late", nil })
	var e *Error
	if !errors.As(err, &e) || e.Kind != errkind.Unknown || e.Limit != Timeout || e.Msg != "unknown: NuSMV output stopped: timeout after 20ms" {
		t.Errorf("got %v (%+v), want the NuSMV output stopped by the timeout", err, e)
	}
	text, err := Within(context.Background(), "f.yaml", "NuSMV output", Limits{}, func() (string, error) { return "done", nil })
	if text != "done" || err != nil {
		t.Errorf("got %q, %v; want the result", text, err)
	}
}
