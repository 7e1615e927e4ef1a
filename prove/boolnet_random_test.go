package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// Nets whose places are written three ways at once: as bools (a token
// moved by "x1 := false; x0 := true", which loses one when x0 holds
// one already), as 0..1 integers (the range is a hidden guard: x0 :=
// x0 + 1 needs x0 = 0) and as unbounded integers, with transfers
// "x := x + y; y := 0" among the integers (mist's Java programs). What
// the linear invariants do with them (linearInvariants leaves idle
// cases out until the invariants exclude them; the backward search
// drops the bounds and guards they imply, looseDomain) is checked
// against exploration.

// randomBoolNet returns a net of one process on self-loops, its places
// shared variables of the three kinds; the integer places are typed
// 0..hi when hi > 0 (the range a hidden guard of the steps that raise
// them, transfers included), unbounded otherwise.
func randomBoolNet(t *testing.T, r *rand.Rand, hi int) *gsst.System {
	places := 3 + r.Intn(4)
	const (
		boolPlace = iota
		smallPlace
		natPlace
	)
	kind := make([]int, places)
	var b strings.Builder
	b.WriteString("name: boolnet\nstates: [S]\ngroups:\n  net: 1\ninit:\n  net: S\nshared:\n")
	// One token among the first places (a control flow), more among
	// the others.
	token := r.Intn(places)
	for p := range places {
		kind[p] = r.Intn(3)
		init := 0
		if p == token {
			init = 1
		}
		switch kind[p] {
		case boolPlace:
			fmt.Fprintf(&b, "  x%d: {type: bool, init: %v}\n", p, init == 1)
		case smallPlace:
			fmt.Fprintf(&b, "  x%d: {type: 0..1, init: %d}\n", p, init)
		default:
			if r.Intn(3) == 0 {
				init += r.Intn(2)
			}
			typ := "0.."
			if hi > 0 {
				typ = fmt.Sprintf("0..%d", hi)
			}
			fmt.Fprintf(&b, "  x%d: {type: %q, init: %d}\n", p, typ, init)
		}
	}
	has := func(p int) string {
		if kind[p] == boolPlace {
			return fmt.Sprintf("x%d", p)
		}
		return fmt.Sprintf("x%d >= 1", p)
	}
	b.WriteString("transitions:\n")
	for i := range 2 + r.Intn(5) {
		perm := r.Perm(places)
		np := 1 + r.Intn(2)
		nq := min(1+r.Intn(2), places-np)
		pre, post, rest := perm[:np], perm[np:np+nq], perm[np+nq:]
		var guard, update []string
		for _, p := range pre {
			guard = append(guard, has(p))
			if kind[p] == boolPlace {
				update = append(update, fmt.Sprintf("x%d := false", p))
			} else {
				update = append(update, fmt.Sprintf("x%d := x%d - 1", p, p))
			}
		}
		// One token in, one out: the net conserves tokens but where a
		// bool or a transfer loses or merges some. Now and then a
		// token made, or a rule with two out.
		if r.Intn(4) > 0 {
			post = post[:min(len(post), len(pre))]
		}
		for _, p := range post {
			if kind[p] == boolPlace {
				update = append(update, fmt.Sprintf("x%d := true", p))
			} else {
				update = append(update, fmt.Sprintf("x%d := x%d + 1", p, p))
			}
		}
		if len(rest) >= 2 && r.Intn(3) == 0 && kind[rest[0]] != boolPlace && kind[rest[1]] != boolPlace {
			// A transfer: every token of rest[1] into rest[0].
			update = append(update, fmt.Sprintf("x%d := x%d + x%d", rest[0], rest[0], rest[1]), fmt.Sprintf("x%d := 0", rest[1]))
		}
		fmt.Fprintf(&b, "  - {name: r%d, from: S, to: S, guard: %q, update: %q}\n", i, strings.Join(guard, " & "), strings.Join(update, "; "))
	}
	b.WriteString("properties:\n")
	for k := range 2 {
		p, q := r.Intn(places), r.Intn(places)
		bad := has(p)
		if hi > 0 && kind[p] == natPlace && r.Intn(2) == 0 {
			// The range full, or beyond it: a search that drops the
			// greatest value without its caps reaches the latter.
			bad = fmt.Sprintf("x%d >= %d", p, hi+r.Intn(2))
		} else if q != p {
			bad += " & " + has(q)
		} else if kind[p] != boolPlace {
			// Two tokens: never on a 0..1 place, which a search
			// that unbounds it wrongly would find.
			bad = fmt.Sprintf("x%d >= 2", p)
		}
		fmt.Fprintf(&b, "  p%d: \"AG !(%s)\"\n", k, bad)
	}
	sys, err := gsst.Parse("boolnet.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("the random net does not parse: %v\n%s", err, b.String())
	}
	return sys
}

// TestLinearInvariantsBoolNetRandom: on random nets with bool, 0..1 and
// integer places (randomBoolNet, seed 30), every linear invariant holds
// in every state exploration reaches, and leaving idle cases out finds
// more of them on a good part of the sample (the test is not vacuous);
// so does every nonnegative combination the backward search reads.
// With every idle case left out whatever the invariants say
// (BreakHoudini), some invariant fails.
func TestLinearInvariantsBoolNetRandom(t *testing.T) {
	systems := 600
	if testing.Short() {
		systems = 150
	}
	failures, leftOut, more, combined := checkBoolNetInvariants(t, systems)
	if failures > 0 {
		t.Errorf("%d linear invariants fail in a reached state", failures)
	}
	t.Logf("%d nets: %d leave idle cases out, %d have more invariants for it; %d nonnegative combinations", systems, leftOut, more, combined)
	if leftOut < systems/10 || more < systems/10 || combined == 0 {
		t.Errorf("too few nets with idle cases left out (%d) or more invariants for it (%d), or no nonnegative combination", leftOut, more)
	}
	restore := prove.BreakHoudini()
	defer restore()
	if failures, _, _, _ := checkBoolNetInvariants(t, systems); failures == 0 {
		t.Errorf("no invariant fails with every idle case left out")
	}
}

// checkBoolNetInvariants draws the nets and counts the invariants that
// fail in a reached state, the nets whose idle cases are left out, and
// those where that gives more invariants than all cases give.
func checkBoolNetInvariants(t *testing.T, systems int) (failures, leftOut, more, combined int) {
	r := rand.New(rand.NewSource(30))
	for i := range systems {
		sys := randomBoolNet(t, r, 0)
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		invs, _ := prove.LinearInvariants(m)
		// With the nonnegative combinations the backward search reads,
		// each with no negative weight.
		pos, nonnegative := prove.NonnegativeInvariants(m)
		if !nonnegative {
			t.Errorf("net %d: a nonnegative invariant has a negative weight: %v", i, pos)
		}
		combined += len(pos)
		invs = append(invs, pos...)
		if prove.IdleCasesLeftOut(m) > 0 {
			leftOut++
			restore := prove.WithoutHoudini()
			all, _ := prove.LinearInvariants(m)
			restore()
			if len(invs) > len(all) {
				more++
			}
		}
		for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
			for _, st := range explore(sys, inst) {
				val := modelValuation(m, inst, st)
				for _, f := range invs {
					if !presburger.Eval(f, val) {
						failures++
						if failures == 1 {
							t.Logf("net %d, state %s: invariant %s fails\n%s", i, st.key(), m.FormatFormula(f), testsupport.Describe(sys))
						}
					}
				}
			}
		}
	}
	return failures, leftOut, more, combined
}

// TestCoverBoolNetRandom runs the cross-checks of TestCoverRandom on
// the nets of randomBoolNet (seed 31): the backward search reads them
// loosened by their linear invariants (unbounded above where they keep
// a 0..1 place at most 1, without the guards' atoms they imply), and
// its runs and invariants are checked on the model as it is, and its
// answers against exploration and Spacer.
func TestCoverBoolNetRandom(t *testing.T) {
	systems := 600
	if testing.Short() {
		systems = 150
	}
	checkCoverRandom(t, 31, systems, 0, 0, coverBoolNet)
}

// TestCoverRangedNetRandom runs the cross-checks of TestCoverRandom on
// nets whose integer places are typed 0..2 or 0..3 (randomBoolNet,
// seed 35), searched on the reading that takes those greatest values
// as caps of the steps that raise them (rangedSystem): every run must
// replay on the model, every fixpoint's complement be an invariant of
// it, and both agree with exploration and Spacer.
func TestCoverRangedNetRandom(t *testing.T) {
	systems := 600
	if testing.Short() {
		systems = 150
	}
	checkCoverRandom(t, 35, systems, 0, 0, coverRangedNet)
}

// TestCoverRangedCaps: a transfer moves the tokens of a, typed 0..2,
// into c, typed 0..1000, once; c >= 3 is then out of reach only because
// a never holds three. The ranged reading proves it, reading the
// guards' range checks "a <= 1" (of a := a + 1) and "c + a <= 1000" (of
// the transfer) as caps. (The exact reading proves it too; the suite
// row testdata/styles/queuedbusyflag-intbound.yaml is one that only the
// ranged reading decides.)
func TestCoverRangedCaps(t *testing.T) {
	sys, err := gsst.Parse("ranged.yaml", []byte(`name: ranged
states: [S]
groups: {net: 1}
init: S
shared:
  a: {type: 0..2, init: 0}
  c: {type: 0..1000, init: 0}
  once: {type: bool, init: true}
transitions:
  - {name: inc, from: S, to: S, update: "a := a + 1"}
  - {name: move, from: S, to: S, guard: "once", update: "c := c + a; a := 0; once := false"}
properties:
  few: "AG c <= 2"
`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, s := context.Background(), z3.New()
	m, ts := safetyOf(t, s, sys)
	a := prove.CoverRanged(ctx, m, ts, coverRandomWork)
	if a.Invariant == nil || a.Ranged != 2 || a.Capped != 2 {
		t.Fatalf("ranged reading: applies %v, run %v, invariant %v, %d variables ranged, %d steps capped; want a proof with a and c ranged, both steps capped", a.Applies, a.Cex != nil, a.Invariant != nil, a.Ranged, a.Capped)
	}
	if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
		t.Fatalf("the ranged reading's invariant %s: %v", m.FormatFormula(a.Invariant), err)
	}
}
