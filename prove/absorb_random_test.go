package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestAbsorbStepsRandom cross-checks prove.Check on random systems with
// steps written through intermediate states (randomInterm: A -> D as
// A -> M then M -> D, D and M unread) against explicit exploration of
// every instance in the box: a property proved holds in every state
// reached (the liveness property on every fair run), one refuted fails
// at its instance, whose run replays there; and against the answers
// with the absorption off. It counts the proofs of the absorbed system
// carried to the system as written, which a carrying that never
// succeeds would leave at 0.
func TestAbsorbStepsRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 16
	}
	r := rand.New(rand.NewSource(2903))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	carried, carriedLive, replayed, confirmed := 0, 0, 0, 0
	for i := range systems {
		src := randomInterm(r)
		sys, err := gsst.Parse(fmt.Sprintf("interm%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep := proveBothWays(t, ctx, s, i, sys, src, prove.SetStepAbsorbing, "with the intermediate states absorbed", "as written")
		for _, res := range rep.Results {
			counts[res.Verdict]++
			if strings.Contains(res.LevelReason, "intermediate states taken at once") {
				switch {
				case res.Verdict == prove.Refuted:
					replayed++
				case res.Verdict == prove.Proved && res.Live != nil:
					carriedLive++
				case res.Verdict == prove.Proved:
					carried++
				}
			}
		}
		live := len(sys.Properties) - 1
		safety := *rep
		safety.Results = rep.Results[:live]
		c, _ := checkReportByExploration(t, i, sys, &safety)
		confirmed += c
		checkLiveByExploration(t, i, sys, rep.Results[live], src)
	}
	t.Logf("%d systems: %v; carried from the absorbed system: %d safety proofs, %d liveness proofs, %d runs replayed; safety refutations confirmed by exploration %d", systems, counts, carried, carriedLive, replayed, confirmed)
	if counts[prove.Proved] < systems/2 || counts[prove.Refuted] < systems/4 || carried < systems/4 || carriedLive == 0 || replayed < systems/8 {
		t.Errorf("the sample exercises too little")
	}
}

// TestAbsorbStepsTampered gives prove, as the system of the same runs,
// one that absorbed an intermediate state M that a property reads: its
// proof of "AG #M = 0", read with #M as 0, is "true", which does not
// imply the property as written, and must not be reported: asked
// again as written, the property is refuted. The proof of "AG #M + #B
// <= 2", which holds, is carried (#B read as #B + #M), and the run
// refuting "AG #B <= 1", two steps A -> B, is replayed through M.
func TestAbsorbStepsTampered(t *testing.T) {
	written := `states: [A, M, B]
groups: {p: 1..2}
init: A
transitions:
- {name: go, from: A, to: M}
- {name: fin, from: M, to: B}
properties:
  never: "AG #M = 0"
  sum: "AG #M + #B <= 2"
  reach: "AG #B <= 1"
`
	sys, err := gsst.Parse("written.yaml", []byte(written))
	if err != nil {
		t.Fatal(err)
	}
	absorbed, err := gsst.Parse("absorbed.yaml", []byte(strings.Replace(written, "- {name: go, from: A, to: M}\n- {name: fin, from: M, to: B}\n", "- {name: go, from: A, to: B}\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	restore := prove.SetAbsorbed(func(*gsst.System) (*gsst.System, map[int]int) { return absorbed, map[int]int{1: 2} })
	rep, err := prove.Check(context.Background(), sys, z3.New(), z3.New(), prove.MaxWork(extWork))
	restore()
	if err != nil {
		t.Fatal(err)
	}
	checkTampered(t, rep, map[string]prove.Verdict{"never": prove.Refuted, "sum": prove.Proved, "reach": prove.Refuted}, []string{"sum", "reach"})
}

// randomInterm draws a system of states A, B and C, which guards and
// properties read, and D and E, which nothing reads, of one or two
// groups and a shared x in 0..2, with random transitions (guards over
// the read states and x, updates of x, now and then a broadcast), two
// safety properties and a liveness one, some under a justice condition;
// then writes most transitions into D or E through an intermediate
// state of their own, M_k -> D unguarded. One system in three has a
// near miss: an intermediate step guarded or updating x, a property
// reading an intermediate state, or D read by a guard.
func randomInterm(r *rand.Rand) string {
	read := []string{"A", "B", "C"}
	states := []string{"A", "B", "C", "D", "E"}
	atom := func() string {
		c := "#" + read[r.Intn(len(read))]
		switch r.Intn(5) {
		case 0:
			return c + " = 0"
		case 1:
			return fmt.Sprintf("%s >= %d", c, 1+r.Intn(2))
		case 2:
			return fmt.Sprintf("%s <= %d", c, r.Intn(2))
		case 3:
			return fmt.Sprintf("x = %d", r.Intn(3))
		}
		return "x >= 1"
	}
	miss := -1
	if r.Intn(3) == 0 {
		miss = r.Intn(4)
	}
	groups, init := "{p: 1..2}", "A"
	if r.Intn(3) == 0 {
		groups, init = "{p: 1.., q: 1}", "{p: A, q: B}"
	}
	updates := []string{"", "x := x + 1", "x := 0"}
	var trans, inter []string
	for k := range 4 + r.Intn(4) {
		from := states[r.Intn(len(states))]
		to := states[(r.Intn(len(states)-1)+1+strings.Index("ABCDE", from))%len(states)]
		line := fmt.Sprintf("{name: t%d, from: %s, to: %%s", k, from)
		if r.Intn(3) > 0 {
			g := atom()
			if r.Intn(3) == 0 {
				g += " & " + atom()
			}
			line += fmt.Sprintf(", guard: %q", g)
		}
		if u := updates[r.Intn(len(updates))]; u != "" {
			line += fmt.Sprintf(", update: %q", u)
		}
		if r.Intn(6) == 0 {
			if other := read[r.Intn(len(read))]; other != from && other != to {
				line += fmt.Sprintf(", broadcast: [%q]", other+" -> "+to)
			}
		}
		line += "}"
		if (to == "D" || to == "E") && r.Intn(3) > 0 {
			m := fmt.Sprintf("M%d", k)
			inter = append(inter, m)
			trans = append(trans, fmt.Sprintf(line, m))
			step := fmt.Sprintf("{name: f%d, from: %s, to: %s", k, m, to)
			switch {
			case miss == 0 && len(inter) == 1:
				step += `, guard: "x >= 1"`
			case miss == 1 && len(inter) == 1:
				step += `, update: "x := 1"`
			}
			trans = append(trans, step+"}")
			continue
		}
		trans = append(trans, fmt.Sprintf(line, to))
	}
	if miss == 3 {
		trans = append(trans, `{name: tD, from: C, to: A, guard: "#D = 0"}`)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "states: [%s]\ngroups: %s\ninit: %s\nshared:\n  x: {type: 0..2, init: 0}\ntransitions:\n", strings.Join(append(states, inter...), ", "), groups, init)
	for _, l := range trans {
		b.WriteString("  - " + l + "\n")
	}
	if r.Intn(3) == 0 {
		fmt.Fprintf(&b, "fairness:\n  justice: [%q]\n", atom())
	}
	fmt.Fprintf(&b, "properties:\n  p0: %q\n  p1: %q\n", "AG !("+atom()+" & "+atom()+")", "AG "+atom())
	if miss == 2 && len(inter) > 0 {
		fmt.Fprintf(&b, "  p2: %q\n", "AG #"+inter[0]+" <= 1")
	}
	fmt.Fprintf(&b, "  live: %q\n", "AF "+atom())
	return b.String()
}
