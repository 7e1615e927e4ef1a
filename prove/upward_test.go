package prove_test

import (
	"context"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// upwardNet is a net of tokens as processes: A -> B -> C -> A keeps
// #A + #B + #C = |p|, and C fills up when B does.
const upwardNet = `name: upward
params: [k]
assume: "k >= 1"
states: [A, B, C]
groups: {p: 2..}
init: A
shared:
  x: {type: "0..", init: 0}
transitions:
  - {from: A, to: B, update: "x := x + 1"}
  - {from: B, to: C}
  - {from: C, to: A}
properties:
  joint: "AG (#A + #B + #C = n & #C <= 1 & x >= 0)"
`

// TestUpwardPart checks upwardPart on random bad states over the
// counters, a shared variable and a parameter of upwardNet: what it
// keeps implies bad and is upward closed (a state above one it holds in
// satisfies it too), at every state of a box, and it keeps only a part:
// some clause left out, some kept.
func TestUpwardPart(t *testing.T) {
	sys, err := gsst.Parse("upward.yaml", []byte(upwardNet))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := safetyOf(t, z3.New(), sys)
	var state []presburger.Var
	for i := range m.NumState() {
		state = append(state, m.StateVar(i))
	}
	param := m.TransitionSystem().Params[0]
	r := rand.New(rand.NewSource(7))
	atom := func() presburger.Formula {
		var t presburger.Term
		for _, v := range state {
			if c := int64(r.Intn(4) - 1); c != 0 && r.Intn(2) == 0 {
				t = t.Add(presburger.VarTerm(v).Scale(c))
			}
		}
		switch r.Intn(4) {
		case 0:
			t = presburger.VarTerm(param)
		case 1:
			t = t.Add(presburger.VarTerm(param))
		}
		ops := []presburger.Op{presburger.Ge, presburger.Gt, presburger.Le, presburger.Lt, presburger.Eq, presburger.Ne}
		return presburger.Compare(t, ops[r.Intn(len(ops))], presburger.ConstTerm(int64(r.Intn(3))))
	}
	clause := func() presburger.Formula {
		var fs []presburger.Formula
		for n := 1 + r.Intn(2); n > 0; n-- {
			fs = append(fs, atom())
		}
		return presburger.Conj(fs...)
	}
	parts := 0
	for i := range 2000 {
		var cs []presburger.Formula
		for n := 1 + r.Intn(3); n > 0; n-- {
			cs = append(cs, clause())
		}
		bad := presburger.Disj(cs...)
		up, some := prove.UpwardPart(m, bad)
		if !some {
			continue
		}
		parts++
		// Every state with each variable in 0..2 (the parameter too).
		x := map[presburger.Var]int64{}
		vars := append(append([]presburger.Var(nil), state...), param)
		var visit func(j int)
		visit = func(j int) {
			if j < len(vars) {
				for v := range int64(3) {
					x[vars[j]] = v
					visit(j + 1)
				}
				return
			}
			val := func(v presburger.Var) int64 { return x[v] }
			if !presburger.Eval(up, val) {
				return
			}
			if !presburger.Eval(bad, val) {
				t.Fatalf("case %d: %v holds at %v, bad %v does not", i, up, x, bad)
			}
			for _, v := range state {
				x[v]++
				above := presburger.Eval(up, val)
				x[v]--
				if !above {
					t.Fatalf("case %d: %v holds at %v, not one above in variable %d", i, up, x, v)
				}
			}
		}
		visit(0)
	}
	if parts < 200 {
		t.Errorf("%d of 2000 random bad states had an upward part that is not all of them; want 200 at least", parts)
	}
	t.Logf("%d of 2000 bad states with a proper upward part", parts)
}

// TestCoverUpward: upwardNet's property is a place invariant (an
// equation, violated below as above) and a bound; the backward search
// reads the bad states of the bound alone, finds the run that fills C
// and the run replays into the bad states of the whole property.
func TestCoverUpward(t *testing.T) {
	sys, err := gsst.Parse("upward.yaml", []byte(upwardNet))
	if err != nil {
		t.Fatal(err)
	}
	ctx, s := context.Background(), z3.New()
	m, ts := safetyOf(t, s, sys)
	if a := prove.Cover(ctx, m, ts, coverRandomWork); a.Applies {
		t.Fatal("the backward search reads the whole property; the test wants one it does not read")
	}
	run, err := prove.CoverUpward(ctx, m, ts, s)
	if err != nil {
		t.Fatal(err)
	}
	if run == nil {
		t.Fatal("no run into the bound's bad states")
	}
	if err := presburger.Replay(ctx, s, ts, *run); err != nil {
		t.Fatalf("the run does not replay: %v", err)
	}
}
