package prove_test

import (
	"context"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestZeroSumTwinsRandom: zero tests written as one sum ("#S + x + p =
// 0" for "#S = 0 & x = 0 & p = 0", with a counter, shared integers
// whose domain starts at 0 and parameters) are asked as the split ones
// are: the same verdict, by the same method, on
// TestProveInitialSetsRandom's systems; and each answer of the
// sum-written twin agrees with explicit exploration from the initial
// configurations where its premise holds. The zero tests stand in two
// places:
//
//   - premise: the premise c of c -> AG phi, narrowing the initial set
//     alike (gsst's NarrowInitial and PinParams read the sum as its
//     terms' zero tests);
//   - bad: the bad states of premise -> AG (phi | !c), which the
//     backward search reads with the sum split (cover.go,
//     splitBadZeroSums): mist's manufacture so written ran into Spacer,
//     where the split form is refuted by the backward search.
func TestZeroSumTwinsRandom(t *testing.T) {
	for _, where := range []string{"premise", "bad"} {
		t.Run(where, func(t *testing.T) { checkZeroSumTwins(t, where) })
	}
}

// checkZeroSumTwins is TestZeroSumTwinsRandom with the zero tests in
// the premise or the bad states (where).
func checkZeroSumTwins(t *testing.T, where string) {
	systems := 60
	if testing.Short() {
		systems = 16
	}
	r := rand.New(rand.NewSource(30))
	s := z3.New()
	ctx := context.Background()
	twins, narrowed, explored := 0, 0, 0
	verdicts := map[prove.Verdict]int{}
	for i := range systems {
		sys := initialSetSystem(r, i)
		k := slices.IndexFunc(sys.Properties, func(p gsst.Property) bool { return p.Name == "premised" })
		if k < 0 {
			continue
		}
		premise, g := counterabs.Premise(sys.Properties[k].Formula)
		_, phi, _ := counterabs.PremisedSafety(sys.Properties[k].Formula)
		first, ok := premise.(presburger.Cmp)
		if !ok || len(first.T.Monos) != 1 {
			t.Fatalf("system %d: premise %s is no zero test of one counter", i, sys.FormatFormula(premise))
		}
		// The terms joined to the premise's counter: the shared
		// integers whose domain starts at 0 or above, the parameters
		// not fixed, and another counter, some of them.
		pick := rand.New(rand.NewSource(int64(i) + 2000))
		vars := []presburger.Var{first.T.Monos[0].Var}
		for j := range sys.Shared {
			if v := &sys.Shared[j]; v.Lo >= 0 && !v.Bool && v.Values == nil && pick.Intn(3) > 0 {
				vars = append(vars, sys.SharedVar(j))
			}
		}
		for p := range sys.Params {
			if !sys.Params[p].Fixed && pick.Intn(2) == 0 {
				vars = append(vars, sys.ParamVar(p))
			}
		}
		if st := presburger.Var(pick.Intn(len(sys.States))); !slices.Contains(vars, st) && pick.Intn(2) == 0 {
			vars = append(vars, st)
		}
		if len(vars) < 2 {
			continue
		}
		slices.Sort(vars)
		var zeros []presburger.Formula
		for _, v := range vars {
			zeros = append(zeros, presburger.Compare(presburger.VarTerm(v), presburger.Eq, presburger.ConstTerm(0)))
		}
		twin := func(name string, c presburger.Formula) (*gsst.System, prove.Result) {
			spec := sys.Spec()
			pf := ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: c}, R: g}
			if where == "bad" {
				pf = ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: premise}, R: ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Or, L: ctl.Atom{P: phi}, R: ctl.Not{X: ctl.Atom{P: c}}}}}
			}
			spec.Properties = []gsst.Property{{Name: name, Formula: pf, Text: ctl.Format(pf, spec.VarName)}}
			ts, err := gsst.New(spec)
			if err != nil {
				t.Fatalf("system %d: %v", i, err)
			}
			rep, err := prove.Check(ctx, ts, s, s, prove.MaxWork(extWork))
			if err != nil {
				t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(ts))
			}
			return ts, rep.Results[0]
		}
		_, split := twin("split", presburger.Conj(zeros...))
		joinedSys, joined := twin("joined", presburger.Compare(presburger.Sum(vars...), presburger.Eq, presburger.ConstTerm(0)))
		twins++
		verdicts[joined.Verdict]++
		folds := func(r prove.Result) bool {
			return strings.Contains(r.LevelReason, "the premise's part that the initial set states")
		}
		if folds(split) {
			narrowed++
		}
		if joined.Verdict != split.Verdict || joined.Method != split.Method || folds(joined) != folds(split) {
			t.Errorf("system %d: %s: %v by %s (%s); %s: %v by %s (%s)\n%s", i,
				joinedSys.Properties[0].Text, joined.Verdict, joined.Method, joined.LevelReason,
				sys.FormatFormula(presburger.Conj(zeros...)), split.Verdict, split.Method, split.LevelReason, testsupport.Describe(joinedSys))
		}
		if joined.Verdict != prove.Proved && joined.Verdict != prove.Refuted {
			continue
		}
		jp, phi, _ := counterabs.PremisedSafety(joinedSys.Properties[0].Formula)
		for _, in := range testsupport.Instances(joinedSys, extParamMax, extSizeMax) {
			from := slices.DeleteFunc(initialConfigs(joinedSys, in), func(st extState) bool {
				return !presburger.Eval(jp, st.valuation(joinedSys, in))
			})
			bad := slices.ContainsFunc(exploreFrom(joinedSys, in, from), func(st extState) bool {
				return !presburger.Eval(phi, st.valuation(joinedSys, in))
			})
			explored++
			switch {
			case joined.Verdict == prove.Proved && bad:
				t.Errorf("system %d: %s proved, but fails at %v\n%s", i, joinedSys.Properties[0].Text, in, testsupport.Describe(joinedSys))
			case joined.Verdict == prove.Refuted && !bad && slices.Equal(joined.Sizes, in.Sizes) && slices.Equal(joined.Params, in.Params):
				t.Errorf("system %d: %s refuted at %v, where exploration finds no violation\n%s", i, joinedSys.Properties[0].Text, in, testsupport.Describe(joinedSys))
			}
		}
	}
	t.Logf("%d twins (%d narrowing the initial set), verdicts %v, %d instances explored", twins, narrowed, verdicts, explored)
	if twins < systems/2 || narrowed == 0 && where == "premise" || verdicts[prove.Proved] == 0 || verdicts[prove.Refuted] == 0 {
		t.Errorf("the sample exercises too little: %d twins, %d narrowing, %v", twins, narrowed, verdicts)
	}
}
