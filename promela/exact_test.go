package promela

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestExactAtTheLimits exports random systems at vsym's limits (issue 27:
// values, coefficients and parameters near ±1e9, sums beyond int64 and
// beyond Spin's 32-bit int, unbounded variables driven past the bound)
// to Promela, both models, and runs the real Spin on every model the
// export accepts: pan's bound assertion fires exactly when the oracle
// (testsupport.LimitCase, in math/big) takes an unbounded variable past
// 1e9, and otherwise every claim's verdict is the oracle's, and the
// reduced model has the oracle's number of states. An export either
// writes a model Spin computes exactly or refuses, as bad input naming
// the 32-bit int: a guard, domain check or update whose value or partial
// sum could leave it. Half the systems draw small values (within ±20)
// with coefficients near 1e9, so that their sums straddle 2^31.
func TestExactAtTheLimits(t *testing.T) {
	requireSpin(t)
	cases := 60
	if testing.Short() {
		// The first 10 reach every outcome asserted below: eight
		// refused beyond 32 bits in both models, one instance refused,
		// and one whose claims Spin checks in both (the next
		// case with claims adds two more gcc runs and no outcome).
		cases = 10
	}
	r := rand.New(rand.NewSource(2027))
	count := map[string]int{}
	for i := range cases {
		cfg := testsupport.LimitConfig{MaxVars: 3, Params: true, Small: i%2 == 0}
		c := testsupport.RandomLimitCase(r, cfg)
		want := c.Explore(testsupport.LimitValue, 1500)
		if !want.Refused && !want.Limit && !want.Complete {
			count["too many states"]++
			continue
		}
		text, _ := c.Spec(fmt.Sprintf("limits%d", i), false)
		sys, err := gsst.Parse("limits.yaml", []byte(text))
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, text)
		}
		values := make([]int, len(c.Params))
		for k, p := range c.Params {
			values[k] = int(p.Value)
		}
		inst, err := sys.InstantiateParams(values, nil)
		if want.Refused {
			if err == nil || errkind.Of(err) != errkind.Input || !strings.Contains(err.Error(), "beyond the limit of 1000000000") {
				t.Fatalf("case %d: InstantiateParams: %v, want the instance refused\n%s", i, err, text)
			}
			count["instance refused: constant beyond 1e9"]++
			continue
		}
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, text)
		}
		m, err := counterabs.BuildGroup(inst)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, text)
		}
		for _, model := range []string{"reduced", "concrete"} {
			var prog *Program
			if model == "reduced" {
				prog, err = Reduced(m, Version("test"), Bound(testsupport.LimitValue))
			} else {
				prog, err = Concrete(inst, Version("test"), Bound(testsupport.LimitValue))
			}
			var ov *overflowError
			if err != nil {
				if !errors.As(err, &ov) || errkind.Of(err) != errkind.Input {
					t.Fatalf("case %d, %s: %v\n%s", i, model, err, text)
				}
				count[model+": refused beyond 32 bits"]++
				continue
			}
			p, err := buildPan(t, prog)
			if err != nil {
				t.Fatalf("case %d, %s: %v\n%s", i, model, err, prog.Text)
			}
			res, err := p.run("-N", "_count")
			if err != nil {
				t.Fatalf("case %d, %s: %v\n%s", i, model, err, prog.Text)
			}
			if res.violated != want.Limit {
				t.Fatalf("case %d, %s: pan's bound assertion fired: %v; the oracle takes a variable past 1e9: %v\n%s\n%s", i, model, res.violated, want.Limit, text, prog.Text)
			}
			if want.Limit {
				count[model+": bound passed, as the oracle"]++
				continue
			}
			if model == "reduced" && res.stored != int64(len(want.States)) {
				t.Fatalf("case %d: pan stores %d states, the oracle reaches %d\n%s\n%s", i, res.stored, len(want.States), text, prog.Text)
			}
			for k := range prog.Claims {
				cl := &prog.Claims[k]
				if !cl.Exported() {
					if !strings.Contains(cl.Skipped, "32-bit") {
						t.Fatalf("case %d, %s: claim %s skipped: %s", i, model, cl.Property, cl.Skipped)
					}
					count[model+": claim refused beyond 32 bits"]++
					continue
				}
				got, err := p.run(cl.PanArgs(false)...)
				if err != nil {
					t.Fatalf("case %d, %s, %s: %v\n%s", i, model, cl.Property, err, prog.Text)
				}
				if cl.Holds(got.violated) != want.Holds[cl.Property] {
					t.Fatalf("case %d, %s: property %s: Spin says %v, the oracle %v\n%s\n%s", i, model, cl.Property, cl.Holds(got.violated), want.Holds[cl.Property], text, prog.Text)
				}
				count[model+": claims agree"]++
			}
		}
	}
	t.Logf("%d cases: %v", cases, count)
	for _, k := range []string{"reduced: claims agree", "concrete: claims agree", "reduced: refused beyond 32 bits", "concrete: refused beyond 32 bits"} {
		if count[k] == 0 {
			t.Errorf("no case %q: the cross-check does not reach it", k)
		}
	}
}
