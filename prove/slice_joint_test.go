package prove_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// binghamPlaces writes mist's ME-k-bingham net with k places in a
// ring as shared variables of one process, a property per place ("at
// most one token", which all but X0's hold), and with flag a boolean
// that two rules set and nothing reads.
func binghamPlaces(k int, flag bool) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "name: bingham_places\nstates: [S]\ngroups: {net: 1}\ninit: S\nshared:\n")
	set := ""
	if flag {
		// First, so that the sliced system's variables are numbered
		// apart from those of the system as written.
		fmt.Fprintf(&b, "  started: {type: bool, init: false}\n")
		set = "; started := true"
	}
	fmt.Fprintf(&b, "  Xin: {type: \"0..\", init: 0}\n  Xnotin: {type: \"0..\", init: 1}\n  X0: {type: \"0..\", init: \"1..\"}\n")
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "  X%d: {type: \"0..\", init: 0}\n", i)
	}
	b.WriteString("transitions:\n")
	fmt.Fprintf(&b, "  - {name: r1, from: S, to: S, guard: \"Xnotin >= 1 & X0 >= 1\", update: \"Xnotin := Xnotin - 1; X0 := X0 - 1; Xin := Xin + 1; X1 := X1 + 1%s\"}\n", set)
	fmt.Fprintf(&b, "  - {name: r2, from: S, to: S, guard: \"Xnotin >= 1 & X1 >= 1\", update: \"Xnotin := Xnotin - 1; X1 := X1 - 1; Xin := Xin + 1; X0 := X0 + 1%s\"}\n", set)
	for i := 1; i < k; i++ {
		fmt.Fprintf(&b, "  - {name: m%d, from: S, to: S, guard: \"X%d >= 1\", update: \"X%d := X%d - 1; X%d := X%d + 1\"}\n", i, i, i, i, i+1, i+1)
	}
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "  - {name: e%d, from: S, to: S, guard: \"Xin >= 1 & X%d >= 1\", update: \"Xin := Xin - 1; X%d := X%d - 1; X0 := X0 + 1; Xnotin := Xnotin + 1\"}\n", i, i, i, i)
	}
	b.WriteString("properties:\n  s_Xin: \"AG Xin <= 1\"\n  s_Xnotin: \"AG Xnotin <= 1\"\n")
	for i := 0; i <= k; i++ {
		fmt.Fprintf(&b, "  s_X%d: \"AG X%d <= 1\"\n", i, i)
	}
	return []byte(b.String())
}

// TestSliceJointCarriedOnce checks that the properties one invariant
// proves together on the system without the variables nothing reads
// are carried to the system as written by one check of that invariant,
// not one per property: the write-only flag costs a bounded number of
// SMT queries however many properties share the proof (each a
// re-check of three obligations before; bingham with 153 places took
// 8 s so). Every property keeps its verdict, each proof is a
// certificate of the model as written (checkAsWritten, property by
// property), and X0's, which fails, is refuted on the system as written.
func TestSliceJointCarriedOnce(t *testing.T) {
	const k = 12
	ctx := context.Background()
	queries := map[bool]int{}
	for _, flag := range []bool{false, true} {
		sys := load(t, "bingham-places.yaml", binghamPlaces(k, flag))
		c := &countingSolver{s: z3.New()}
		rep, err := prove.Check(ctx, sys, c, c)
		if err != nil {
			t.Fatal(err)
		}
		queries[flag] = c.queries
		s := z3.New()
		for i, r := range rep.Results {
			name := sys.Properties[i].Name
			want := prove.Proved
			if name == "s_X0" {
				want = prove.Refuted
			}
			if r.Verdict != want {
				t.Fatalf("flag=%v: %s %v (%s), want %v", flag, name, r.Verdict, r.Reason, want)
			}
			if flag && r.Sliced != nil {
				t.Errorf("%s: left as the sliced system's answer", name)
			}
			if flag && !strings.Contains(r.LevelReason, "started left out") {
				t.Errorf("%s: the reason does not say the flag was left out: %s", name, r.LevelReason)
			}
			if r.Verdict == prove.Proved {
				checkAsWritten(t, ctx, s, 0, sys, i, r)
			}
		}
	}
	t.Logf("%d SMT queries without the flag, %d with it", queries[false], queries[true])
	if queries[true]-queries[false] >= k {
		t.Errorf("%d SMT queries with the write-only flag, %d without: the joint proof carried once per property", queries[true], queries[false])
	}
}

// largeCounter counts the queries of at least 5,000 comparisons that go
// through it (crash's consecution queries, over an invariant of
// hundreds of clauses and 124 steps; its other queries have 1,500 at
// most) and the calls of the prover.
type largeCounter struct {
	countingSolver
	large int
}

func (c *largeCounter) Solve(ctx context.Context, p presburger.Problem) (presburger.Answer, error) {
	atoms := 0
	for range presburger.Atoms(p.F) {
		if atoms++; atoms >= 5000 {
			break
		}
	}
	if atoms >= 5000 {
		c.large++
	}
	return c.countingSolver.Solve(ctx, p)
}

// TestSliceCheckedOnce checks that a proof found without a step counter
// nothing reads costs the system with it no second check of its large
// obligations: Cubicle's crash at 10 processes, with "steps := steps + 1"
// on every step, is proved on the system without the counter, and the
// invariant re-checked on the system as written, whose consecution
// query is the sliced one (the counter's next value, steps + 1, stays in
// its range, and adds no atom) and is answered by what the sliced
// system's check showed (presburger's Memo): as many such queries reach
// the solver as without the counter. Before, the re-check asked Z3 that
// query again: 0.5 s of the 1.2 s run.
func TestSliceCheckedOnce(t *testing.T) {
	ctx := context.Background()
	plain, err := gsst.Load("../testdata/styles/crash-fixed10.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec := plain.Spec()
	spec.Shared = append(spec.Shared, gsst.Shared{Name: "steps", Lo: 0, Unbounded: true})
	steps := spec.SharedVar(len(spec.Shared) - 1)
	for i := range spec.Transitions {
		for j := range spec.Transitions[i].Blocks {
			u := &spec.Transitions[i].Blocks[j].Update
			u.Assign = append(u.Assign, gsst.Assign{Var: steps, Value: presburger.VarTerm(steps).Add(presburger.ConstTerm(1))})
			u.Text = spec.FormatUpdate(u)
		}
	}
	ghost, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	large := map[bool]int{}
	for _, withSteps := range []bool{false, true} {
		sys := plain
		if withSteps {
			sys = ghost
		}
		c := &largeCounter{countingSolver: countingSolver{s: z3.New()}}
		rep, err := prove.Check(ctx, sys, c, c)
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Results[0]
		if r.Verdict != prove.Proved {
			t.Fatalf("steps=%v: %v (%s), want proved", withSteps, r.Verdict, r.Reason)
		}
		if withSteps {
			if r.Sliced != nil || !strings.Contains(r.LevelReason, "steps left out, as nothing reads it (the invariant re-checked with it)") {
				t.Fatalf("the proof is not carried to the system with the counter: %s", r.LevelReason)
			}
			checkAsWritten(t, ctx, z3.New(), 0, sys, 0, r)
		}
		large[withSteps] = c.large
	}
	t.Logf("%d large queries without the counter, %d with it", large[false], large[true])
	if large[true] != large[false] {
		t.Errorf("%d large queries with the step counter, %d without: the re-check on the system as written asked again what the sliced system's check decided", large[true], large[false])
	}
}
