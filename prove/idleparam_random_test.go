package prove_test

import (
	"context"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// withIdleParam returns sys with one more parameter, unused, that
// nothing reads but the assumption, which gains "unused >= lo" and,
// when hi >= lo, "unused <= hi": a parameter a translation declares and
// leaves unused. Parameters follow the shared variables, and the new
// one comes last, so no variable of sys is renumbered.
func withIdleParam(t *testing.T, sys *gsst.System, lo, hi int64) *gsst.System {
	t.Helper()
	spec := sys.Spec()
	spec.Params = append(spec.Params, gsst.Param{Name: "unused"})
	u := presburger.VarTerm(spec.ParamVar(len(spec.Params) - 1))
	own := presburger.Compare(u, presburger.Ge, presburger.ConstTerm(lo))
	if hi >= lo {
		own = presburger.Conj(own, presburger.Compare(u, presburger.Le, presburger.ConstTerm(hi)))
	}
	if spec.Assume.Formula == nil {
		spec.Assume.Formula = own
	} else {
		spec.Assume.Formula = presburger.Conj(spec.Assume.Formula, own)
	}
	spec.Assume.Text = spec.FormatFormula(spec.Assume.Formula)
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("%v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// TestProveIdleParamRandom cross-checks prove.Check on random systems
// with a parameter nothing reads added (withIdleParam), which the small
// instances take at its least value only (idleParams), against
// explicit exploration of every instance in the box, the idle
// parameter's values 0..extParamMax among them: a property proved holds
// in every state reached, one refuted fails at its instance. And the
// answers are those of the system without the parameter: the same runs,
// found in the same instances.
func TestProveIdleParamRandom(t *testing.T) {
	systems := 60
	if testing.Short() {
		systems = 24
	}
	r := rand.New(rand.NewSource(47))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	confirmed, cutShort, same := 0, 0, 0
	for i := range systems {
		plain := testsupport.RandomSystem(r, constructsConfig(i))
		lo := int64(r.Intn(3))
		hi := lo - 1 // no upper bound
		if r.Intn(2) == 0 {
			hi = lo + int64(r.Intn(2))
		}
		sys := withIdleParam(t, plain, lo, hi)
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		base, err := prove.Check(ctx, plain, s, s, prove.MaxWork(extWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(plain))
		}
		for k, res := range rep.Results {
			counts[res.Verdict]++
			if want := base.Results[k].Verdict; res.Verdict != want {
				t.Errorf("system %d: %s is %v with an idle parameter, %v without it\n%s", i, sys.Properties[k].Name, res.Verdict, want, testsupport.Describe(sys))
			} else {
				same++
			}
		}
		c, cut := checkReportByExploration(t, i, sys, rep)
		confirmed, cutShort = confirmed+c, cutShort+cut
	}
	t.Logf("%d systems: %v; %d answers as without the idle parameter; refutations confirmed by exploration %d, beyond its cap %d", systems, counts, same, confirmed, cutShort)
	if counts[prove.Proved] < systems/4 || counts[prove.Refuted] < systems/4 || confirmed < systems/5 {
		t.Errorf("the sample exercises too little")
	}
}
