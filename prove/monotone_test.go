package prove_test

import (
	"context"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestMonotoneCandidatesRandom cross-checks the monotone-combination
// lemmas (monotone.go) against exploration on random systems with
// shared variables, parameters, broadcasts and rendezvous
// (constructs_random_test.go's semantics, which shares no code with
// the model or the lemmas):
//
//   - every candidate w.x <= w.x0 of a monotone vector holds in every
//     configuration reached, without any filter: the generator's
//     check w.Delta <= 0 is what makes it an invariant;
//   - a generator without that check, every vector of weights 1 and -1
//     on two variables, gives candidates that fail in some reached
//     configuration, and Houdini's filter keeps none of those: what it
//     keeps of them, of the monotone ones and of the ceilings (guesses
//     by design) holds in every configuration reached.
func TestMonotoneCandidatesRandom(t *testing.T) {
	systems := 120
	if testing.Short() {
		systems = 8 // 1.3 CPU-seconds
	}
	r := rand.New(rand.NewSource(47))
	s := z3.New()
	ctx := context.Background()
	var monotone, ceilings, broken, brokenFalse, kept, keptCeilings int
	for i := range systems {
		sys := testsupport.RandomSystem(r, constructsConfig(i))
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		if !m.SingleInitial() {
			continue
		}
		mono, ceil := prove.MonotoneCandidates(m)
		monotone, ceilings = monotone+len(mono), ceilings+len(ceil)
		// The unchecked generator: every pair of variables, each weight
		// 1 or -1, bounded by its initial value.
		var unchecked []presburger.Formula
		for a := range m.NumState() {
			for b := a + 1; b < m.NumState(); b++ {
				for _, sa := range []int64{1, -1} {
					for _, sb := range []int64{1, -1} {
						x0a, _ := m.InitialValue(a)
						x0b, _ := m.InitialValue(b)
						w := presburger.VarTerm(m.StateVar(a)).Scale(sa).Add(presburger.VarTerm(m.StateVar(b)).Scale(sb))
						x0 := x0a.Scale(sa).Add(x0b.Scale(sb))
						unchecked = append(unchecked, presburger.Compare(w, presburger.Le, x0))
					}
				}
			}
		}
		broken += len(unchecked)
		ts := m.TransitionSystem().Question(presburger.False)
		cands := slices.Concat(mono, ceil, unchecked)
		survivors, err := prove.Houdini(ctx, s, ts, cands)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		kept += len(survivors)
		for _, f := range survivors {
			if slices.ContainsFunc(ceil, func(g presburger.Formula) bool {
				return presburger.Format(g, m.VarName) == presburger.Format(f, m.VarName)
			}) {
				keptCeilings++
			}
		}
		failed := map[int]bool{} // indices into unchecked
		for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
			for _, st := range explore(sys, inst) {
				val := modelValuation(m, inst, st)
				for _, f := range mono {
					if !presburger.Eval(f, val) {
						t.Fatalf("system %d at %v, state %s: monotone candidate %s fails\n%s",
							i, inst, st.key(), m.FormatFormula(f), testsupport.Describe(sys))
					}
				}
				for _, f := range survivors {
					if !presburger.Eval(f, val) {
						t.Fatalf("system %d at %v, state %s: %s, kept by the filter, fails\n%s",
							i, inst, st.key(), m.FormatFormula(f), testsupport.Describe(sys))
					}
				}
				for k, f := range unchecked {
					if !presburger.Eval(f, val) {
						failed[k] = true
					}
				}
			}
		}
		brokenFalse += len(failed)
	}
	t.Logf("%d systems: %d monotone candidates, %d ceilings (%d kept), %d unchecked pairs (%d fail in a reached configuration); %d candidates kept by the filter",
		systems, monotone, ceilings, keptCeilings, broken, brokenFalse, kept)
	if monotone == 0 || ceilings == 0 || brokenFalse == 0 {
		t.Errorf("the sample exercises too little: %d monotone candidates, %d ceilings, %d failing unchecked pairs", monotone, ceilings, brokenFalse)
	}
}

// TestMonotoneCandidatesC1CS: on ByMC's c1cs (the hand translation), the facts the proof of
// one_step0 rests on are among the candidates: nsnt0CF - nsnt0 -
// nfaulty never increases (a correct sender adds one to both counts,
// a crashing one to nsnt0CF and nfaulty, a crash alone to nfaulty),
// and nfaulty grows by one only under nfaulty < F.
func TestMonotoneCandidatesC1CS(t *testing.T) {
	sys, err := gsst.Load(filepath.Join("..", "testdata", "bymc", "c1cs.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	mono, ceil := prove.MonotoneCandidates(m)
	text := func(fs []presburger.Formula) []string {
		var out []string
		for _, f := range fs {
			out = append(out, m.FormatFormula(f))
		}
		return out
	}
	for _, tc := range []struct {
		got  []string
		want string
	}{
		{text(mono), "-nsnt0 + nsnt0CF - nfaulty <= 0"},
		{text(mono), "-nsnt1 + nsnt1CF - nfaulty <= 0"},
		{text(ceil), "nfaulty - f <= 0"},
	} {
		if !slices.Contains(tc.got, tc.want) {
			t.Errorf("no candidate %s among %q", tc.want, tc.got)
		}
	}
}

// TestMonotoneLemmasProveC1CS: ByMC's c1cs one_step0, read from the
// ISoLA'18 file, is proved by the lemmas of the second round, with a
// monotone lemma and a ceiling among them (without them, Spacer took
// 20 s of CPU), and the property holds on every instance explored
// with parameters up to 5. The premise "#loc1 = 0" is asked as
// written: folded into the initial set (narrow.go) it leaves a system
// whose lemmas need no monotone one.
func TestMonotoneLemmasProveC1CS(t *testing.T) {
	defer prove.WithoutNarrowing()()
	r := provedByLemmasExplored(t, "c1cs.ta", "one_step0")
	kinds := map[string]bool{}
	for _, l := range r.Lemmas {
		kinds[l.Kind] = true
	}
	if !kinds["monotone"] || !kinds["ceiling"] {
		t.Errorf("lemmas of kinds %v, want a monotone one and a ceiling", kinds)
	}
}

// provedByLemmasExplored proves the property of the ISoLA'18 file,
// fails the test unless it is proved by the lemmas, checks that it
// holds on every instance explored with parameters up to 5 (N > 3*T
// and T >= 1 want N of 4 or more), and returns the result.
func provedByLemmasExplored(t *testing.T, file, property string) prove.Result {
	t.Helper()
	imp, err := bymc.Load(filepath.Join("..", "formats", "bymc", "testdata", "isola18", file))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := imp.System()
	if err != nil {
		t.Fatal(err)
	}
	k := slices.IndexFunc(sys.Properties, func(p gsst.Property) bool { return p.Name == property })
	if k < 0 {
		t.Fatalf("no property %s", property)
	}
	sys = sys.WithProperties(k)
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Verdict != prove.Proved || r.Method != prove.ByLemmas {
		t.Fatalf("%s %s: %v by %q (%s), want proved by lemmas", file, property, r.Verdict, r.Method, r.Reason)
	}
	explored := 0
	for _, in := range testsupport.Instances(sys, 5, extSizeMax) {
		holds, ok := exploreHolds(t, sys, in, 0)
		if ok {
			explored++
		}
		if ok && !holds {
			t.Errorf("%s %s: proved, but exploration finds it failing at %v", file, property, in)
		}
	}
	if explored == 0 {
		t.Errorf("%s %s: no instance explored", file, property)
	}
	return r
}
