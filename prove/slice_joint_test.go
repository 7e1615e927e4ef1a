package prove_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

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
