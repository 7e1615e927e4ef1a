package counterabs

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Random GSSTs for the cross-check against brute force over L^n.

type genKind int

const (
	genTotal    genKind = iota // guards over total counters only
	genSource                  // plus group counters of the source state
	genAny                     // plus group counters of any state, mixed atoms
	genPriority                // RW-like: block i waits for blocks < i on the source
	numGenKinds
)

type gen struct {
	r    *rand.Rand
	sys  *gsst.System
	kind genKind
	n    int
}

func randomSystem(r *rand.Rand) *gsst.System {
	m := 2 + r.Intn(3)
	maxN := map[int]int{2: 6, 3: 5, 4: 4}[m]
	d := 1 + r.Intn(3)
	sys := &gsst.System{Name: "random"}
	for s := range m {
		sys.States = append(sys.States, string(rune('A'+s)))
	}
	n := 0
	for g := range d {
		size := r.Intn(3)
		if n+size > maxN {
			size = maxN - n
		}
		n += size
		sys.Groups = append(sys.Groups, gsst.Group{Name: fmt.Sprintf("g%d", g), Size: size})
	}
	if n == 0 {
		sys.Groups[0].Size, n = 1, 1
	}
	for _, g := range sys.Groups {
		row := make([]int, m)
		for range g.Size {
			row[r.Intn(m)]++
		}
		sys.Init = append(sys.Init, row)
	}
	gn := &gen{r: r, sys: sys, kind: genKind(r.Intn(int(numGenKinds))), n: n}
	for range 1 + r.Intn(3) {
		u := r.Intn(m)
		v := (u + 1 + r.Intn(m-1)) % m
		t := gsst.Transition{From: u, To: v}
		// Partition a random subset of the groups into blocks.
		perm := r.Perm(d)
		var blocks [][]int
		for _, g := range perm {
			if r.Intn(6) == 0 {
				continue // group excluded from t
			}
			if len(blocks) == 0 || r.Intn(2) == 0 {
				blocks = append(blocks, nil)
			}
			blocks[len(blocks)-1] = append(blocks[len(blocks)-1], g)
		}
		shared := gn.guard(u, 1, genTotal)
		for i, gs := range blocks {
			sortInts(gs)
			var guard presburger.Formula
			if gn.kind == genPriority {
				parts := []presburger.Formula{shared}
				for _, prev := range blocks[:i] {
					for _, h := range prev {
						parts = append(parts, cmp(presburger.VarTerm(sys.GroupVar(u, h)), presburger.Eq, 0))
					}
				}
				guard = presburger.Conj(parts...)
			} else {
				guard = gn.guard(u, 2, gn.kind)
			}
			t.Blocks = append(t.Blocks, gsst.Block{Groups: gs, Guard: guard})
		}
		sys.Transitions = append(sys.Transitions, t)
	}
	return sys
}

func sortInts(a []int) {
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if a[j] < a[i] {
				a[i], a[j] = a[j], a[i]
			}
		}
	}
}

var ops = []presburger.Op{presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}

func (gn *gen) guard(u, depth int, kind genKind) presburger.Formula {
	r := gn.r
	if depth == 0 || r.Intn(3) == 0 {
		if r.Intn(8) == 0 {
			return presburger.True
		}
		return gn.atom(u, kind)
	}
	switch r.Intn(3) {
	case 0:
		return presburger.Conj(gn.guard(u, depth-1, kind), gn.guard(u, depth-1, kind))
	case 1:
		return presburger.Disj(gn.guard(u, depth-1, kind), gn.guard(u, depth-1, kind))
	}
	return presburger.Negation(gn.guard(u, depth-1, kind))
}

func (gn *gen) atom(u int, kind genKind) presburger.Formula {
	r, sys := gn.r, gn.sys
	m, d := len(sys.States), len(sys.Groups)
	op := ops[r.Intn(len(ops))]
	k := int64(r.Intn(gn.n + 1))
	coef := []int64{1, 1, 1, 2, -1}[r.Intn(5)]
	total := func() presburger.Term { return presburger.VarTerm(sys.TotalVar(r.Intn(m))).Scale(coef) }
	choice := 0
	switch kind {
	case genSource:
		choice = r.Intn(2)
	case genAny:
		choice = r.Intn(4)
	}
	var t presburger.Term
	switch choice {
	case 0: // total counters, one or two states
		t = total()
		if r.Intn(3) == 0 {
			t = t.Add(presburger.VarTerm(sys.TotalVar(r.Intn(m))))
		}
	case 1: // a group counter of the source
		t = presburger.VarTerm(sys.GroupVar(u, r.Intn(d))).Scale(coef)
	case 2: // a group counter of any state
		t = presburger.VarTerm(sys.GroupVar(r.Intn(m), r.Intn(d)))
	default: // mixed
		t = presburger.VarTerm(sys.GroupVar(u, r.Intn(d))).Add(total())
	}
	return presburger.Compare(t, op, presburger.ConstTerm(k))
}

// TestRandomCrossCheck builds hundreds of random systems and compares
// every g_r, on every counter vector summing to n, with the existential
// abstraction computed by brute force from the concrete state space L^n.
// Certified systems (by brute force) must build without Force and be
// marked Certified; the others must be refused without Force (naming the
// first uncertified transition) and build with Force, marked not
// Certified, still with exact g_r.
func TestRandomCrossCheck(t *testing.T) {
	wantCertified, wantForced := 300, 120
	if testing.Short() {
		wantCertified, wantForced = 60, 25
	}
	crossCheck(t, 7, wantCertified, wantForced, nil)
}

// TestRandomCrossCheckOptions repeats the cross-check with the solver
// simplification off and a clause limit of 1, which sends most guards to
// projection and leaves DNFs unsimplified.
func TestRandomCrossCheckOptions(t *testing.T) {
	crossCheck(t, 8, 80, 40, []Option{MaxClauses(1), Simplify(false)})
}

func crossCheck(t *testing.T, seed int64, wantCertified, wantForced int, extra []Option) {
	r := rand.New(rand.NewSource(seed))
	ctx := context.Background()
	cases := map[Case]int{}     // all systems
	certCases := map[Case]int{} // certified systems, multi-group only
	certified, forced, mayDead := 0, 0, 0
	for try := 0; try < 20000 && (certified < wantCertified || forced < wantForced); try++ {
		sys := randomSystem(r)
		c := explore(sys)
		firstBad := -1
		for i := range sys.Transitions {
			if !c.certified(i) {
				firstBad = i
				break
			}
		}
		if firstBad < 0 && certified >= wantCertified || firstBad >= 0 && forced >= wantForced {
			continue
		}
		label := fmt.Sprintf("seed %d try %d", seed, try)
		opts := append([]Option(nil), extra...)
		if firstBad >= 0 {
			_, err := Build(ctx, sys, bf, bruteProjector{}, opts...)
			var nc *NotCertifiedError
			if !errors.As(err, &nc) {
				t.Fatalf("%s: uncertified system built without Force: err = %v\n%s", label, err, dump(sys))
			}
			if nc.Transition != &sys.Transitions[firstBad] {
				t.Fatalf("%s: refusal names %s, first uncertified is %s", label, nc.Name, sys.TransitionName(&sys.Transitions[firstBad]))
			}
			opts = append(opts, Force())
			forced++
		} else {
			certified++
		}
		m, err := Build(ctx, sys, bf, bruteProjector{}, opts...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", label, err, dump(sys))
		}
		if m.Exact != (firstBad < 0) {
			t.Fatalf("%s: Certified = %v, brute force says %v", label, m.Exact, firstBad < 0)
		}
		for i, tr := range m.Transitions {
			cases[tr.Case]++
			if firstBad < 0 && len(sys.Groups) > 1 {
				certCases[tr.Case]++
			}
			for _, a := range c.vectors {
				if got, want := evalVec(tr.Guard, a), c.some[i][vecKey(a)]; got != want {
					t.Fatalf("%s: %s: g = %s (case %v) is %v at %v, brute force says %v\n%s", label,
						sys.TransitionName(&sys.Transitions[tr.Local]), presburger.Format(tr.Guard, sys.VarName), tr.Case, got, a, want, dump(sys))
				}
			}
		}
		// A forced model's MayDeadlock holds exactly at the totals of some
		// deadlocked configuration; an exact model has none.
		switch {
		case m.Exact && m.MayDeadlock != nil:
			t.Fatalf("%s: exact model with a deadlock over-approximation", label)
		case !m.Exact:
			mayDead++
			for _, a := range c.vectors {
				if got, want := evalVec(m.MayDeadlock, a), c.mayDead[vecKey(a)]; got != want {
					t.Fatalf("%s: MayDeadlock = %s is %v at %v, brute force says %v\n%s", label,
						presburger.Format(m.MayDeadlock, sys.VarName), got, a, want, dump(sys))
				}
			}
		}
		// Deadlock holds exactly where no guard does.
		dl := m.Deadlock()
		for _, a := range c.vectors {
			any := false
			for i := range sys.Transitions {
				any = any || c.some[i][vecKey(a)]
			}
			if evalVec(dl, a) == any {
				t.Fatalf("%s: Deadlock is %v at %v", label, !any, a)
			}
		}
	}
	t.Logf("certified %d, forced %d (deadlock condition checked on %d), cases %v, in certified multi-group systems %v", certified, forced, mayDead, cases, certCases)
	if certified < wantCertified || forced < wantForced {
		t.Fatalf("generated only %d certified and %d uncertified systems", certified, forced)
	}
	if extra != nil {
		return
	}
	for c := CaseA; c <= CaseProjection; c++ {
		if cases[c] < 10 || certCases[c] < 3 {
			t.Errorf("case %v exercised only %d times (%d in certified multi-group systems)", c, cases[c], certCases[c])
		}
	}
}

func dump(sys *gsst.System) string {
	s := fmt.Sprintf("states %v groups %v\n", sys.States, sys.Groups)
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		s += sys.TransitionName(t) + ":"
		for _, b := range t.Blocks {
			var names []string
			for _, g := range b.Groups {
				names = append(names, sys.Groups[g].Name)
			}
			s += fmt.Sprintf(" %v: %s;", names, presburger.Format(b.Guard, sys.VarName))
		}
		s += "\n"
	}
	return s
}
