package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// randomEnumNet returns a net of one process on self-loops whose
// control is one or two enumerations of 3 or 4 values (the one-token
// place invariants of a Petri net written as program counters, as
// testdata/styles/manufacture-pc.yaml writes mist's net), besides two
// or three places as unbounded integers and now and then a boolean.
// A rule's guard tests a program counter with "=" or "!=" (or not at
// all) and its update sets it to a constant, moves tokens between the
// integer places and now and then transfers one into another. The bad
// states test the program counters and the places, at times with an
// equation on an integer place ("x0 = 1"), an upper bound the search
// reads only where the invariants through the program counters imply
// it.
func randomEnumNet(t *testing.T, r *rand.Rand) *gsst.System {
	var b strings.Builder
	b.WriteString("name: enumnet\nstates: [S]\ngroups:\n  net: 1\ninit:\n  net: S\nshared:\n")
	enums := 1 + r.Intn(2)
	size := make([]int, enums)
	for e := range enums {
		size[e] = 3 + r.Intn(2)
		var vals []string
		for u := range size[e] {
			vals = append(vals, fmt.Sprintf("e%dv%d", e, u))
		}
		init := 0
		if r.Intn(3) == 0 {
			init = r.Intn(size[e])
		}
		fmt.Fprintf(&b, "  pc%d: {type: [%s], init: e%dv%d}\n", e, strings.Join(vals, ", "), e, init)
	}
	places := 2 + r.Intn(2)
	for p := range places {
		fmt.Fprintf(&b, "  x%d: {type: \"0..\", init: %d}\n", p, r.Intn(2))
	}
	withBool := r.Intn(3) == 0
	if withBool {
		b.WriteString("  f: {type: bool, init: false}\n")
	}
	val := func(e int) string { return fmt.Sprintf("e%dv%d", e, r.Intn(size[e])) }
	b.WriteString("transitions:\n")
	for i := range 2 + r.Intn(5) {
		var guard, update []string
		for e := range enums {
			switch r.Intn(5) {
			case 0, 1, 2:
				guard = append(guard, fmt.Sprintf("pc%d = %s", e, val(e)))
			case 3:
				guard = append(guard, fmt.Sprintf("pc%d != %s", e, val(e)))
			}
			if r.Intn(3) > 0 {
				update = append(update, fmt.Sprintf("pc%d := %s", e, val(e)))
			}
		}
		perm := r.Perm(places)
		if r.Intn(2) == 0 {
			guard = append(guard, fmt.Sprintf("x%d >= 1", perm[0]))
			update = append(update, fmt.Sprintf("x%d := x%d - 1", perm[0], perm[0]))
		}
		inc := r.Intn(2)
		switch {
		case places > 2 && r.Intn(5) == 0:
			update = append(update, fmt.Sprintf("x%d := x%d + %d + x%d", perm[1], perm[1], inc, perm[2]), fmt.Sprintf("x%d := 0", perm[2]))
		case inc > 0:
			update = append(update, fmt.Sprintf("x%d := x%d + 1", perm[1], perm[1]))
		}
		if withBool && r.Intn(3) == 0 {
			guard = append(guard, []string{"f", "!f"}[r.Intn(2)])
			update = append(update, fmt.Sprintf("f := %v", r.Intn(2) == 0))
		}
		if len(update) == 0 {
			update = append(update, fmt.Sprintf("pc0 := %s", val(0)))
		}
		g := "true"
		if len(guard) > 0 {
			g = strings.Join(guard, " & ")
		}
		fmt.Fprintf(&b, "  - {name: r%d, from: S, to: S, guard: %q, update: %q}\n", i, g, strings.Join(update, "; "))
	}
	b.WriteString("properties:\n")
	for k := range 2 {
		var bad []string
		e := r.Intn(enums)
		if r.Intn(4) == 0 {
			bad = append(bad, fmt.Sprintf("pc%d != %s", e, val(e)))
		} else {
			bad = append(bad, fmt.Sprintf("pc%d = %s", e, val(e)))
		}
		switch r.Intn(4) {
		case 0:
			if enums > 1 {
				bad = append(bad, fmt.Sprintf("pc%d = %s", 1-e, val(1-e)))
			}
		case 1:
			bad = append(bad, fmt.Sprintf("x%d = %d", r.Intn(places), r.Intn(2)))
		default:
			bad = append(bad, fmt.Sprintf("x%d >= %d", r.Intn(places), 1+r.Intn(2)))
		}
		fmt.Fprintf(&b, "  p%d: \"AG !(%s)\"\n", k, strings.Join(bad, " & "))
	}
	sys, err := gsst.Parse("enumnet.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("the random net does not parse: %v\n%s", err, b.String())
	}
	return sys
}

// TestCoverEnumNetRandom: the cross-checks of TestCoverRandom
// (exploration of the instance, replay, CheckInvariant, Spacer) on nets
// whose control is written as enumerations (randomEnumNet, seed 35),
// which the search reads one-hot (coverhot.go), and the search that
// reads them through their complements must not answer otherwise.
// Measured, seed 35, 600 nets: 1,610 searches read a variable one-hot,
// the other reading answered alike on 1,524 and not at all on 86; under
// -short (200 nets), 580, 568 and 12.
func TestCoverEnumNetRandom(t *testing.T) {
	systems := 600
	if testing.Short() {
		systems = 200
	}
	checkCoverRandom(t, 35, systems, 0, 0, coverEnumNet)
}

// TestCoverEnumNetBroken: the cross-checks of TestCoverEnumNetRandom
// catch a one-hot reading whose steps leave a token at the program
// counter's old value.
func TestCoverEnumNetBroken(t *testing.T) {
	restore := prove.BreakOneHot()
	defer restore()
	caught := 0
	checkCoverRandomWith(t, 35, 60, 0, 0, coverEnumNet, func(string, ...any) { caught++ })
	t.Logf("%d errors caught", caught)
	if caught == 0 {
		t.Errorf("nothing caught with the one-hot reading broken")
	}
}

// TestCoverEnumHandmade: a small net whose place invariant runs through
// the values of a program counter (x + y + [pc in {c, d}] = 1, as mist's
// manufacture has X22 + X24 + X23 + X25 = 1): the bad state's "y = 1"
// is an upper bound that only the one-hot reading implies, and its hub
// (the values r1, r2, entered from s and left back to it) is fused. It
// is refuted and, with another target, proved; without the one-hot
// reading the search does not apply to the first (a cap in the bad
// states).
func TestCoverEnumHandmade(t *testing.T) {
	const net = `name: enumhand
states: [S]
groups:
  net: 1
init:
  net: S
shared:
  pc: {type: [a, b, c, d], init: a}
  hub: {type: [s, r1, r2], init: s}
  x: {type: "0..", init: 0}
  y: {type: "0..", init: 1}
  z: {type: "0..", init: 0}
transitions:
  - {name: t1, from: S, to: S, guard: "hub = s & pc = a", update: "hub := r1; pc := b"}
  - {name: t1back, from: S, to: S, guard: "hub = r1", update: "hub := s"}
  - {name: t2, from: S, to: S, guard: "hub = s & pc = b & y >= 1", update: "hub := r2; pc := c; y := y - 1; z := z + 1"}
  - {name: t2back, from: S, to: S, guard: "hub = r2", update: "hub := s"}
  - {name: t3, from: S, to: S, guard: "hub = s & pc = c", update: "pc := d"}
  - {name: t4, from: S, to: S, guard: "hub = s & pc = d", update: "pc := a; x := x + 1"}
  - {name: t5, from: S, to: S, guard: "hub = s & pc != c & pc != d & x >= 1", update: "x := x - 1; y := y + 1"}
properties:
  reach: "AG !(pc = d & z >= 2 & y = 0 & x = 0)"
  never: "AG !(pc = c & y = 1)"
`
	sys, err := gsst.Parse("enumhand.yaml", []byte(net))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	ctx := context.Background()
	m, ps := safetyOf(t, s, sys)
	want := map[string]bool{"reach": true, "never": false} // refuted?
	for k := range m.Properties {
		name := sys.Properties[k].Name
		phi, _ := counterabs.SafetyFormula(m.Properties[k].Formula)
		ts := ps
		ts.Bad = presburger.Negation(phi)
		a := prove.Cover(ctx, m, ts, coverRandomWork)
		if !a.Applies || a.Hot != 2 || a.Fused < 2 {
			t.Fatalf("%s: applies %v, %d variables one-hot, %d fused; want true, 2, at least 2 (r1 and r2)", name, a.Applies, a.Hot, a.Fused)
		}
		switch {
		case want[name] && a.Cex == nil, !want[name] && a.Invariant == nil:
			t.Fatalf("%s: refuted %v, proved %v; want refuted %v", name, a.Cex != nil, a.Invariant != nil, want[name])
		case a.Cex != nil:
			if err := presburger.Replay(ctx, s, ts, *a.Cex); err != nil {
				t.Errorf("%s: the run does not replay: %v", name, err)
			}
		default:
			if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
				t.Errorf("%s: %s is no invariant: %v", name, m.FormatFormula(a.Invariant), err)
			}
		}
		restore := prove.WithoutOneHot()
		u := prove.Cover(ctx, m, ts, coverRandomWork)
		restore()
		if name == "reach" && u.Applies {
			t.Errorf("%s: the search without the one-hot reading applies (a cap in the bad states was expected)", name)
		}
	}
}
