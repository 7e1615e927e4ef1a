package prove_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	explorepkg "github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// strb is reliable broadcast in the style of Srikanth and Toueg, as the
// threshold automaton of the ByMC suite: n-f correct processes, t of
// which the resilience condition allows to be faulty, f faulty ones
// present. nsent counts the correct processes that sent. lower lowers
// the threshold of the echo rule by one (the mutation).
func strb(t testing.TB, lower int) *gsst.System {
	t.Helper()
	b := newBuilder("strb", []string{"V0", "V1", "SE", "AC"}, []string{"correct"}, []string{"n", "t", "f"}, []string{"nsent"})
	b.group(0, "n -f", "V0")
	b.assume("n > 3*t & t >= f & f >= 0")
	echo := "nsent >= t +1 -f"
	if lower > 0 {
		echo = "nsent >= t -f"
	}
	b.trans("V1", "SE", "", "nsent := nsent +1")
	b.trans("V0", "SE", echo, "nsent := nsent +1")
	b.trans("V0", "AC", "nsent >= n -t -f", "nsent := nsent +1")
	b.trans("SE", "AC", "nsent >= n -t -f", "")
	b.safety("unforgeability", "#AC = 0")
	sys, err := b.system()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func TestThresholdHandmade(t *testing.T) {
	s := z3.New()
	for _, tc := range []struct {
		name string
		sys  *gsst.System
		want prove.Verdict
	}{
		{"strb", strb(t, 0), prove.Proved},
		{"strb-mutated", strb(t, 1), prove.Refuted},
		{"cc", cc(t, 0), prove.Proved},
		{"cc-mutated", cc(t, 1), prove.Refuted},
		{"nbac", nbac(t, 0), prove.Proved},
		{"nbac-mutated", nbac(t, 1), prove.Refuted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := prove.Check(context.Background(), tc.sys, s, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				t.Logf("%s: %v %s (%s) lemmas %d reason %s sizes %v params %v", r.Property.Name, r.Verdict, r.InvariantText, r.Duration, len(r.Lemmas), r.Reason, r.Sizes, r.Params)
				for _, l := range r.Lemmas {
					t.Logf("  lemma %s: %s", l.Kind, l.Text)
				}
				if r.Trace != nil && r.Trace.Lifted != nil {
					for _, st := range r.Trace.Lifted.Steps {
						t.Logf("  %s", st)
					}
				}
				if r.Verdict != tc.want {
					t.Errorf("%s: %v, want %v", r.Property.Name, r.Verdict, tc.want)
				}
			}
		})
	}
}

// cc is the condition-based consensus of the ByMC suite (Mostefaoui,
// Mourgaya, Parvedy, Raynal, DSN 2003) with crash faults: each process
// picks its initial value (I -> V0, I -> V1: both initial values, in
// any mix), sends it, moves to phase 1 with the value most sent, and
// accepts by majority. lower lowers the acceptance thresholds by one.
func cc(t testing.TB, lower int) *gsst.System {
	t.Helper()
	b := newBuilder("cc", []string{"I", "V0", "V1", "P0", "P10", "P11", "AC0", "AC1", "CR"}, []string{"proc"}, []string{"n", "t", "f"},
		[]string{"nsnt00", "nsnt01", "nsnt10", "nsnt11", "nsnt0x", "nfaulty"})
	b.group(0, "n", "I")
	b.assume("n > 2*t & t >= f & f >= 0")
	acc := "2*nsnt10 >= n +1"
	acc1 := "2*nsnt11 >= n +1"
	if lower > 0 {
		acc, acc1 = "2*nsnt10 >= n", "2*nsnt11 >= n"
	}
	b.trans("I", "V0", "", "")
	b.trans("I", "V1", "", "")
	b.trans("V0", "P0", "", "nsnt00 := nsnt00 +1; nsnt0x := nsnt0x +1")
	b.trans("V1", "P0", "", "nsnt01 := nsnt01 +1; nsnt0x := nsnt0x +1")
	// Phase 1 is split by the value sent (P10, P11), since a pair of
	// states has one transition.
	b.trans("P0", "P10", "nsnt0x >= n -t & 2*nsnt00 >= n -t +1", "nsnt10 := nsnt10 +1")
	b.trans("P0", "P11", "nsnt0x >= n -t & 2*nsnt01 >= n -t +1", "nsnt11 := nsnt11 +1")
	for _, p := range []string{"P10", "P11"} {
		b.trans(p, "AC0", acc, "")
		b.trans(p, "AC1", acc1, "")
	}
	for _, s := range []string{"P0", "P10", "P11", "AC0", "AC1"} {
		b.trans(s, "CR", "nfaulty < f", "nfaulty := nfaulty +1")
	}
	b.safety("agreement", "#AC0 = 0 | #AC1 = 0")
	sys, err := b.system()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// nbac is non-blocking atomic commitment with failure detectors, as the
// threshold automaton nbacg of the ByMC suite (Guerraoui, IPL 2001):
// each process votes yes or no, or learns of a failure first (I -> NO,
// YES, NOFD, YESFD: every mix of initial votes), sends its vote, commits
// when every process voted yes and none no, aborts when some voted no or
// it detected a failure; any process may crash. lower lowers the commit
// threshold by one.
func nbac(t testing.TB, lower int) *gsst.System {
	t.Helper()
	b := newBuilder("nbac", []string{"I", "NO", "YES", "NOFD", "YESFD", "SE", "CMT", "ABR", "CR"}, []string{"proc"}, []string{"n"},
		[]string{"nno", "nyes"})
	b.group(0, "n", "I")
	b.assume("n > 1")
	commit := "nno < 1 & nyes >= n"
	if lower > 0 {
		commit = "nno < 1 & nyes >= n -1"
	}
	for _, s := range []string{"NO", "YES", "NOFD", "YESFD"} {
		b.trans("I", s, "", "")
	}
	b.trans("NO", "SE", "", "nno := nno +1")
	b.trans("YES", "SE", "", "nyes := nyes +1")
	b.trans("NOFD", "ABR", "", "")
	b.trans("YESFD", "ABR", "", "")
	b.trans("SE", "ABR", "nno >= 1", "")
	b.trans("SE", "CMT", commit, "")
	for _, s := range []string{"NO", "YES", "NOFD", "YESFD", "SE", "CMT", "ABR"} {
		b.trans(s, "CR", "", "")
	}
	b.safety("agreement", "#CMT = 0 | #ABR = 0")
	b.safety("commit-validity", "#CMT = 0 | nno = 0")
	sys, err := b.system()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// thresholdSpec reads a bundled threshold-guarded algorithm from
// specs/threshold.
func thresholdSpec(t testing.TB, name string) *gsst.System {
	t.Helper()
	file := filepath.Join("..", "specs", "threshold", name+".yaml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := gsst.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// thresholdCases are the bundled algorithms with their expected verdicts
// and, for the mutants, the parameter values of the least refuting
// instance (every smaller one, in the search's order, is safe: at t = f
// = 0, n = 1 for strb; n = 4, t = 1 for cc, whose mutant needs two
// processes per value; n = 2 for nbac).
var thresholdCases = []struct {
	name   string
	want   prove.Verdict
	params []int
}{
	{"strb", prove.Proved, nil},
	{"strb-mutated", prove.Refuted, []int{1, 0, 0}},
	{"cc", prove.Proved, nil},
	{"cc-mutated", prove.Refuted, []int{4, 1, 0}},
	{"nbac", prove.Proved, nil},
	{"nbac-mutated", prove.Refuted, []int{2}},
}

// TestThresholdBundled: the bundled algorithms of specs/threshold are
// proved for every parameter value under their resilience conditions,
// with lemmas, and their mutants refuted at the least instance with the
// run executed there.
func TestThresholdBundled(t *testing.T) {
	s := z3.New()
	for _, tc := range thresholdCases {
		t.Run(tc.name, func(t *testing.T) {
			sys := thresholdSpec(t, tc.name)
			rep, err := prove.Check(context.Background(), sys, s, s)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Scope == "" {
				t.Error("no scope for a spec with parameters")
			}
			for _, r := range rep.Results {
				t.Logf("%s: %v in %s, %d lemmas", r.Property.Name, r.Verdict, r.Duration, len(r.Lemmas))
				switch {
				case r.Verdict != tc.want:
					t.Errorf("%s: %v (%s), want %v", r.Property.Name, r.Verdict, r.Reason, tc.want)
				case r.Verdict == prove.Proved && len(r.Lemmas) == 0:
					t.Errorf("%s: proved without lemmas", r.Property.Name)
				case r.Verdict == prove.Refuted && (!slices.Equal(r.Params, tc.params) || len(liftedSteps(r)) == 0):
					t.Errorf("%s: refuted at %v with %d steps, want %v", r.Property.Name, r.Params, len(liftedSteps(r)), tc.params)
				}
			}
			// Independently of the prover: explicit exploration of every
			// instance with parameters up to 4 (explore, in
			// extended_random_test.go) agrees.
			for _, inst := range testsupport.Instances(sys, 4, extSizeMax) {
				reached := explore(sys, inst)
				for k, r := range rep.Results {
					phi, _ := counterabs.SafetyFormula(sys.Properties[k].Formula)
					fails := slices.ContainsFunc(reached, func(st extState) bool { return !presburger.Eval(phi, st.valuation(sys, inst)) })
					if fails && r.Verdict == prove.Proved || !fails && r.Verdict == prove.Refuted && slices.Equal(r.Params, inst.Params) {
						t.Errorf("%s at %v: exploration says fails=%v, prove %v", r.Property.Name, inst, fails, r.Verdict)
					}
				}
			}
		})
	}
}

// BenchmarkThreshold measures Check on each bundled threshold-guarded
// algorithm of specs/threshold (every safety property, for every
// parameter value under the resilience condition) and on its mutated
// variant (refuted, the run replayed). BENCHMARKS.md records the
// figures:
//
//	go test -run '^$' -bench Threshold -benchtime 3x ./prove/
func BenchmarkThreshold(b *testing.B) {
	s := z3.New()
	for _, tc := range thresholdCases {
		sys := thresholdSpec(b, tc.name)
		b.Run(tc.name, func(b *testing.B) {
			for range b.N {
				rep, err := prove.Check(context.Background(), sys, s, s)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range rep.Results {
					if r.Verdict != tc.want {
						b.Fatalf("%s: %v, want %v", r.Property.Name, r.Verdict, tc.want)
					}
				}
			}
		})
	}
}

// TestStepsBeyondOne: a MESI-style protocol with broadcast invalidation
// (testdata/mesi.yaml) is coherent for every number of caches, and
// workers that take and give back two units at once by rendezvous
// (units.yaml) hold twice as many units as there are busy workers, for
// any numbers of each. The mutants (mesi-mutated.yaml: a write hit on a
// shared line does not invalidate; units-mutated.yaml: a release gives
// one unit back) are refuted at the least sizes, the executed run
// moving processes by the broadcast or together by the rendezvous.
// Peterson's algorithm with a turn variable (peterson.yaml: booleans, an
// enumeration, per-group updates) is mutually exclusive, and not when
// one process waits for the wrong turn. Every verdict agrees with
// explicit exploration of the instances with up to 3 processes per
// group.
func TestStepsBeyondOne(t *testing.T) {
	s := z3.New()
	for _, tc := range []struct {
		file    string
		want    prove.Verdict
		sizes   []int
		several bool // the refuting run has a step moving several processes
	}{
		{"mesi.yaml", prove.Proved, nil, false},
		{"mesi-mutated.yaml", prove.Refuted, []int{2}, true},
		{"units.yaml", prove.Proved, nil, false},
		{"units-mutated.yaml", prove.Refuted, []int{1, 2}, true},
		{"peterson.yaml", prove.Proved, nil, false},
		{"peterson-mutated.yaml", prove.Refuted, []int{1, 1}, false},
	} {
		file := filepath.Join("testdata", tc.file)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := gsst.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := prove.Check(context.Background(), sys, s, s)
		if err != nil {
			t.Fatal(err)
		}
		for k, r := range rep.Results {
			if r.Verdict != tc.want {
				t.Errorf("%s %s: %v (%s), want %v", tc.file, r.Property.Name, r.Verdict, r.Reason, tc.want)
			}
			if r.Verdict == prove.Refuted {
				many := false
				for _, st := range liftedSteps(r) {
					many = many || len(st.Transferred) > 0 || len(st.Also) > 0
				}
				if !slices.Equal(r.Sizes, tc.sizes) || many != tc.several {
					t.Errorf("%s %s: refuted at %v by %v, want %v (a step moving several processes: %v)", tc.file, r.Property.Name, r.Sizes, liftedSteps(r), tc.sizes, tc.several)
				}
			}
			phi, _ := counterabs.SafetyFormula(sys.Properties[k].Formula)
			for _, inst := range testsupport.Instances(sys, 0, extSizeMax) {
				if slices.Max(inst.Sizes) > 3 {
					continue
				}
				fails := slices.ContainsFunc(explore(sys, inst), func(st extState) bool { return !presburger.Eval(phi, st.valuation(sys, inst)) })
				if fails && r.Verdict == prove.Proved || !fails && slices.Equal(inst.Sizes, r.Sizes) {
					t.Errorf("%s %s: at %v exploration says fails=%v, prove %v at %v", tc.file, r.Property.Name, inst, fails, r.Verdict, r.Sizes)
				}
			}
		}
	}
}

// TestScopeEmptyGroups: the report says whether the assumption leaves
// parameter values at which a group sized over the parameters would be
// empty (no instance there), with an example, or rules them out.
func TestScopeEmptyGroups(t *testing.T) {
	s := z3.New()
	for _, tc := range []struct {
		assume, want string
	}{
		{"n >= f", "such as n=0, f=0, are not instances"},
		{"n > f", "the assumption implies that every group has a process"},
	} {
		src := "name: x\nparams: [n, f]\nassume: \"" + tc.assume + "\"\nstates: [A, B]\ngroups:\n  c: n - f\ninit: A\ntransitions:\n  - {from: A, to: B}\nproperties:\n  p: \"AG #B <= n - f\"\n"
		sys, err := gsst.Parse("x.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := prove.Check(context.Background(), sys, s, s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(rep.Scope, tc.want) || rep.Results[0].Verdict != prove.Proved {
			t.Errorf("assume %s: scope %q, %v", tc.assume, rep.Scope, rep.Results[0].Verdict)
		}
	}
}

// liftedSteps returns the steps of a refutation's run on its instance.
func liftedSteps(r prove.Result) []explorepkg.Step {
	if r.Trace == nil || r.Trace.Lifted == nil {
		return nil
	}
	return r.Trace.Lifted.Steps
}

// proveStyle returns the spec testdata/styles/name and prove.Check's
// report on it, with its defaults and opts.
func proveStyle(t *testing.T, name string, opts ...prove.Option) (*gsst.System, *prove.Report) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "styles", name))
	if err != nil {
		t.Fatal(err)
	}
	sys := load(t, name, src)
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return sys, rep
}

// TestTokenLemmas: ByMC's cc with its shared counters written as groups
// of message tokens (testdata/styles/cc-tokens.yaml) is proved by the
// lemmas, as cc is: a token's x_sent counter never falls, so the guards'
// thresholds over it stay passed, and it counts the processes that
// sent, without the moves of the other tokens the same step sends.
func TestTokenLemmas(t *testing.T) {
	sys, rep := proveStyle(t, "cc-tokens.yaml")
	s := z3.New()
	const count = "#nsnt10_sent[tok_nsnt10] + #nsnt11_sent[tok_nsnt11] <= #P1[proc] + #AC0[proc] + #AC1[proc] + #CR[proc]"
	for _, r := range rep.Results {
		if r.Verdict != prove.Proved || r.Method != prove.ByLemmas {
			t.Errorf("%s: %v by %q, want proved by the lemmas", r.Property.Name, r.Verdict, r.Method)
		}
		if r.Property.Name != "agreement" {
			continue
		}
		if !slices.ContainsFunc(r.Lemmas, func(l prove.Lemma) bool { return l.Kind == "count" && l.Text == count }) {
			t.Errorf("agreement: no count lemma %s among %v", count, r.Lemmas)
		}
	}
	// The tokens a step sends beside the one counted are messages, not
	// processes that sent: no count "at most the processes that sent"
	// puts a token's state on their side (the converse entry counts
	// may: each crash sends one nfaulty token, #CR >= #nfaulty_sent).
	m, err := counterabs.BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	cands, err := prove.CountCandidates(context.Background(), s, m, presburger.False)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) == 0 {
		t.Fatal("no count candidates")
	}
	for _, c := range cands {
		if _, rhs, ok := strings.Cut(c, " <= "); ok && strings.Contains(rhs, "_sent") {
			t.Errorf("count candidate %s counts tokens among the processes", c)
		}
	}
}

// TestTokenLiveLemmas: ByMC's c1cs with its shared counters written as
// groups of message tokens (testdata/styles/c1cs-tokens-live.yaml) has
// its fast0 proved by a ranking certificate, as c1cs is
// (testdata/bymc/c1cs.yaml), not by the settled runs' safety question
// and Spacer: its guards read "#I = 0" and its trigger "#chose1_sent =
// 0", sums over every group of which all but one counter are never
// filled (the model leaves those out: the sums are that one counter),
// and the lemmas that c1cs gets from "#I = 0" and "chose1 = 0" (a state
// entered only once I is empty stays empty while I is not; while nobody
// chose 1, nobody reaches U0) are found over them.
func TestTokenLiveLemmas(t *testing.T) {
	_, rep := proveStyle(t, "c1cs-tokens-live.yaml")
	r := rep.Results[0]
	if r.Verdict != prove.Proved || r.Live == nil || r.Live.Settled || len(r.Live.Ranks) == 0 {
		t.Fatalf("%s: %v (%s), want proved by ranks", r.Property.Name, r.Verdict, r.Reason)
	}
	has := func(kind, prefix, reads string) bool {
		return slices.ContainsFunc(r.Lemmas, func(l prove.Lemma) bool {
			return l.Kind == kind && strings.HasPrefix(l.Text, prefix) && strings.Contains(l.Text, reads)
		})
	}
	if !has("threshold", "#S0[proc] <= 0 | #I[proc] = 0", "") {
		t.Errorf("no threshold #S0 <= 0 | #I = 0 among %v", r.Lemmas)
	}
	if !has("trigger", "#chose1_sent[tok_chose1] > 0 | ", "#U0[proc]") {
		t.Errorf("no trigger lemma over #chose1_sent among %v", r.Lemmas)
	}
}

// TestDNFPremiseScope: ByMC's bosco with its premise written in
// disjunctive normal form (testdata/styles/bosco-dnf-shuffle.yaml:
// "#L44 = 0 & f = 0 & n > 5 * t & chose0 = n - f | #L44 = 0 & n > 7 *
// t & chose0 = n - f") restricts the instances as the factored premise
// of testdata/bymc/bosco.yaml does (premiseScope reads each case's
// condition on the parameters), and its fast0 is proved by ranks as
// bosco's is, not by the settled runs' question, where Spacer found the
// invariant the restriction gives.
func TestDNFPremiseScope(t *testing.T) {
	_, rep := proveStyle(t, "bosco-dnf-shuffle.yaml")
	r := rep.Results[0]
	if r.Verdict != prove.Proved || r.Live == nil || r.Live.Settled || len(r.Live.Ranks) == 0 {
		t.Fatalf("%s: %v (%s), want proved by ranks", r.Property.Name, r.Verdict, r.Reason)
	}
	if want := "f = 0 & n - 5*t > 0 | n - 7*t > 0"; r.Live.PremiseText != want {
		t.Errorf("premise's condition %q, want %q", r.Live.PremiseText, want)
	}
}
