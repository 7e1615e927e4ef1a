package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// zSystem writes a random system over states A, B, C and a state Z no
// process starts in, with shared integers w and u of type "0.." (the
// steps among A, B and C set them to constants, copy one into the
// other, and test them in their guards) and a boolean b, and steps out
// of Z that write what no other step does: "w := w + 1", "u := 5", "w
// := w + u". kind says how Z is entered: "dead" (never), "step" (a
// step out of C), "guarded" (a step out of C whose guard reads a value
// of b no step gives it; MayReach rules it out, the counters alone do
// not), "broadcast" (only by a transfer out of B) or "init" (the second
// group's process starts there). The properties bound w and u, alone
// or where a state is occupied.
func zSystem(r *rand.Rand, kind string) string {
	var b strings.Builder
	b.WriteString("name: kept\nparams: [n]\nshared:\n")
	fmt.Fprintf(&b, "  w: {type: \"0..\", init: %d}\n", r.Intn(2))
	fmt.Fprintf(&b, "  u: {type: \"0..\", init: %d}\n", r.Intn(2))
	b.WriteString("  b: {type: bool, init: false}\n")
	b.WriteString("states: [A, B, C, Z]\ngroups: {p: n, q: 1}\n")
	if kind == "init" {
		b.WriteString("init: {p: A, q: Z}\n")
	} else {
		b.WriteString("init: {p: A, q: B}\n")
	}
	b.WriteString("transitions:\n")
	states := []string{"A", "B", "C"}
	guards := []string{"true", "w = 0", "w = 1", "w >= 1", "u <= 1", "#A >= 1", "#B = 0", "#C >= 1 & w <= 1", "!b"}
	writes := []string{"w := 0", "w := 1", "w := 2", "u := 0", "u := 1", "w := u", "u := w", "b := false"}
	for i := range 3 + r.Intn(4) {
		from, to := states[r.Intn(3)], states[r.Intn(3)]
		if i < 2 {
			// A way out of A and back, so that runs move.
			from, to = []string{"A", "B"}[i], []string{"B", "A"}[i]
		}
		fmt.Fprintf(&b, "  - {name: t%d, from: %s, to: %s, guard: %q", i, from, to, guards[r.Intn(len(guards))])
		var upd []string
		for range r.Intn(3) {
			if wr := writes[r.Intn(len(writes))]; !slices.ContainsFunc(upd, func(s string) bool { return s[0] == wr[0] }) {
				upd = append(upd, wr)
			}
		}
		if len(upd) > 0 {
			fmt.Fprintf(&b, ", update: %q", strings.Join(upd, "; "))
		}
		b.WriteString("}\n")
	}
	zWrites := []string{"w := w + 1", "u := 5", "w := w + u", "w := w + 1; u := 5"}
	for i := range 2 {
		fmt.Fprintf(&b, "  - {name: z%d, from: Z, to: %s, update: %q}\n", i, states[r.Intn(3)], zWrites[r.Intn(len(zWrites))])
	}
	switch kind {
	case "step":
		b.WriteString("  - {name: cz, from: C, to: Z}\n")
	case "guarded":
		b.WriteString("  - {name: cz, from: C, to: Z, guard: b}\n")
	case "broadcast":
		b.WriteString("  - {name: bz, from: B, to: C, broadcast: [\"A -> Z\"]}\n")
	}
	props := []string{"AG w <= 2", "AG u <= 1", "AG !(w = 2 & #C >= 1)", "AG (#B = 0 | w + u <= 3)", "AG !(u >= 2 & #A >= 1)", "AG w <= 1"}
	b.WriteString("properties:\n")
	for k := range 2 {
		fmt.Fprintf(&b, "  p%d: %q\n", k, props[r.Intn(len(props))])
	}
	return b.String()
}

// TestKeptDomainsRandom checks firing's narrowing of the shared
// variables by the steps it keeps (keptDomains) against exploration, on
// zSystem's systems: every value a configuration reached at n = 1..3
// gives w or u lies in the domain of firing's model (total and group
// level), every verdict of Check holds at every instance explored (a
// refutation at the instance it names), and where Z is never entered
// the steps out of Z write nothing, so firing narrows w or u (its
// reason says so) in some systems. Mutations caught: the bounds read
// from every transition of the model, those left out too (too few
// narrowed); the steps of the kept transitions with a guard not read
// (checkDomains' internal error; with checkDomains skipped as well,
// values outside the domains, and with that check off, a proof of a
// property that fails).
func TestKeptDomainsRandom(t *testing.T) {
	systems := 160
	if testing.Short() {
		systems = 60
	}
	r := rand.New(rand.NewSource(25))
	ctx, s := context.Background(), z3.New()
	kinds := []string{"dead", "step", "guarded", "broadcast", "init"}
	narrowed := map[string]int{}
	counts := map[prove.Verdict]int{}
	for i := range systems {
		kind := kinds[i%len(kinds)]
		src := zSystem(r, kind)
		sys, err := gsst.Parse(fmt.Sprintf("kept%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		insts := testsupport.Instances(sys, extSizeMax, extSizeMax)
		reached := make([][]extState, len(insts))
		for k, inst := range insts {
			reached[k] = explore(sys, inst)
		}
		total, err := counterabs.BuildParam(ctx, sys, s, counterabs.RunSteps())
		if err != nil {
			t.Fatal(err)
		}
		group, err := counterabs.BuildParamGroup(sys, counterabs.RunSteps())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []*counterabs.ParamModel{total, group} {
			cut, err := prove.Firing(ctx, s, m)
			if err != nil {
				t.Fatalf("system %d (Z %s), %v level: %v\n%s", i, kind, m.Level, err, src)
			}
			if strings.Contains(cut.Reason, "all the steps left write") {
				narrowed[kind]++
			}
			for k := range reached {
				for _, st := range reached[k] {
					for j := range cut.Shared {
						if x := st.shared[cut.SharedIndex(j)]; !cut.Shared[j].Contains(x) {
							t.Fatalf("system %d (Z %s), %v level, %v: %s = %d, outside %d..%d (unbounded %v) of firing's model (%s)\n%s",
								i, kind, m.Level, insts[k], cut.Shared[j].Name, x, cut.Shared[j].Lo, cut.Shared[j].Hi, cut.Shared[j].Unbounded, cut.Reason, src)
						}
					}
				}
			}
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(randomWork))
		if err != nil {
			t.Fatalf("system %d (Z %s): %v\n%s", i, kind, err, src)
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[res.Verdict]++
			for n, inst := range insts {
				fails := slices.ContainsFunc(reached[n], func(st extState) bool { return failsAt(p.Formula, st.valuation(sys, inst)) })
				switch {
				case res.Verdict == prove.Proved && fails:
					t.Errorf("system %d (Z %s), %s (%s): proved (%s; %s), fails at %v\n%s", i, kind, p.Name, p.Text, res.LevelReason, res.InvariantText, inst, src)
				case res.Verdict == prove.Refuted && !fails && slices.Equal(inst.Sizes, res.Sizes):
					t.Errorf("system %d (Z %s), %s (%s): refuted at %v, where exploration finds no violation\n%s", i, kind, p.Name, p.Text, inst, src)
				}
			}
		}
	}
	t.Logf("%d systems, models narrowed by the steps kept %v, verdicts %v", systems, narrowed, counts)
	if narrowed["dead"] < systems/len(kinds)/2 || counts[prove.Proved] < systems/2 || counts[prove.Refuted] < systems/4 {
		t.Errorf("the sample exercises too little: %v narrowed (want half of the %d with Z dead), verdicts %v", narrowed, systems/len(kinds), counts)
	}
}
