package nusmv

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// exactBound is the bound the exports of TestExactAtTheLimits give an
// unbounded variable: the drawn values are within ±20, and an update
// may jump far beyond.
const exactBound = 30

// TestExactAtTheLimits exports random systems at the limits of NuSMV's
// integers (issue 27) and runs the real NuSMV on every model the export
// accepts. The systems have small domains with values within ±20 and
// coefficients near 1e9, so that the values and partial sums of guards,
// domain checks and updates straddle the 32-bit integers NuSMV computes
// in (it keeps the low 32 bits of a number): an export either writes a
// model whose every expression stays within them, or refuses it as bad
// input naming them. On an exported model, bound_ok fails exactly when
// the oracle (testsupport.LimitCase, in math/big) takes an unbounded
// variable past the bound, and otherwise every property's verdict and,
// for the counter model, the number of reachable states are the
// oracle's.
func TestExactAtTheLimits(t *testing.T) {
	bin := os.Getenv("NUSMV")
	if bin == "" {
		t.Skip("NUSMV is not set: set it to a NuSMV 2.6 binary to run models at the limits of its integers through it")
	}
	cases := 80
	if testing.Short() {
		cases = 24
	}
	r := rand.New(rand.NewSource(3127))
	count := map[string]int{}
	for i := range cases {
		c := testsupport.RandomLimitCase(r, testsupport.LimitConfig{MaxVars: 3, Params: true, Small: true, Span: 6})
		want := c.Explore(exactBound, 1500)
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
			if err == nil || errkind.Of(err) != errkind.Input {
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
			var smv string
			if model == "reduced" {
				smv, err = Reduced(m, Bound(exactBound))
			} else {
				smv, err = Concrete(inst, Bound(exactBound))
			}
			var re *rangeError
			if err != nil {
				if !errors.As(err, &re) || errkind.Of(err) != errkind.Input || !strings.Contains(err.Error(), "32-bit") {
					t.Fatalf("case %d, %s: %v (kind %v)\n%s", i, model, err, errkind.Of(err), text)
				}
				count[model+": refused beyond 32 bits"]++
				continue
			}
			got, reachable := testsupport.RunNuSMV(t, bin, smv, model == "reduced", "-df")
			if ok, has := got["bound_ok"]; has && ok == want.Limit {
				t.Fatalf("case %d, %s: NuSMV says bound_ok is %v; the oracle passes the bound: %v\n%s\n%s", i, model, ok, want.Limit, text, smv)
			} else if !has && want.Limit {
				t.Fatalf("case %d, %s: no bound_ok, and the oracle passes the bound\n%s\n%s", i, model, text, smv)
			}
			if want.Limit {
				count[model+": bound passed, as the oracle"]++
				continue
			}
			if model == "reduced" && reachable != len(want.States) {
				t.Fatalf("case %d: NuSMV reaches %d states, the oracle %d\n%s\n%s", i, reachable, len(want.States), text, smv)
			}
			for _, p := range c.Props {
				v, ok := got[p.Name]
				if !ok || v != want.Holds[p.Name] {
					t.Fatalf("case %d, %s: property %s: NuSMV says %v (reported %v), the oracle %v\n%s\n%s", i, model, p.Name, v, ok, want.Holds[p.Name], text, smv)
				}
				count[model+": verdicts agree"]++
			}
		}
	}
	t.Logf("%d cases: %v", cases, count)
	for _, k := range []string{"reduced: verdicts agree", "concrete: verdicts agree", "reduced: refused beyond 32 bits", "concrete: refused beyond 32 bits"} {
		if count[k] == 0 {
			t.Errorf("no case %q: the cross-check does not reach it", k)
		}
	}
}
