package testsupport

import (
	"fmt"
	"math/rand"
	"slices"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// RandomExtInstance draws a small fixed instance with shared variables
// (a boolean, an enumeration, a bounded and an unbounded integer, some of
// them), guards and per-block updates over them, broadcasts (some
// restricted to groups), rendezvous of two or three parts, and random CTL
// properties whose atoms read counters and shared variables. At most 4
// processes, so that UnreducedExt and the exported models stay small.
func RandomExtInstance(r *rand.Rand, properties int) *gsst.System {
	for {
		m := 3 + r.Intn(2)
		sp := &gsst.Spec{Name: "randomext"}
		for s := range m {
			sp.States = append(sp.States, fmt.Sprintf("S%d", s))
		}
		n := 0
		for g := range 1 + r.Intn(2) {
			size := 1 + r.Intn(2)
			n += size
			sp.Groups = append(sp.Groups, gsst.Group{Name: fmt.Sprintf("g%d", g), Size: size})
			row := make([]int, m)
			row[0] = size
			sp.Init = append(sp.Init, row)
		}
		kinds := r.Perm(4)[:1+r.Intn(3)]
		slices.Sort(kinds)
		for _, k := range kinds {
			switch k {
			case 0:
				sp.Shared = append(sp.Shared, gsst.Shared{Name: "lock", Bool: true, Lo: 0, Hi: 1, Init: r.Intn(2)})
			case 1:
				sp.Shared = append(sp.Shared, gsst.Shared{Name: "turn", Values: []string{"red", "green", "blue"}, Lo: 0, Hi: 2, Init: r.Intn(3)})
			case 2:
				sp.Shared = append(sp.Shared, gsst.Shared{Name: "k", Lo: 0, Hi: 2, Init: r.Intn(3)})
			case 3:
				sp.Shared = append(sp.Shared, gsst.Shared{Name: "cnt", Lo: 0, Unbounded: true, Init: 0})
			}
		}
		gen := &extGen{r: r, sp: sp}
		pairs := shuffledPairs(r, m)
		for _, pr := range pairs[:2+r.Intn(3)] {
			sp.Transitions = append(sp.Transitions, gen.transition(pr[0], pr[1]))
		}
		if r.Intn(2) == 0 {
			sp.Rendezvous = append(sp.Rendezvous, gen.rendezvous())
		}
		for i := range properties {
			f := gen.ctl(2)
			sp.Properties = append(sp.Properties, gsst.Property{Name: fmt.Sprintf("p%d", i+1), Formula: f, Text: ctl.Format(f, sp.VarName)})
		}
		sys, err := gsst.New(sp)
		if err != nil {
			panic(fmt.Sprintf("testsupport: generated a bad system: %v", err))
		}
		if n > 4 {
			continue
		}
		return sys
	}
}

type extGen struct {
	r  *rand.Rand
	sp *gsst.Spec
}

// atom draws a comparison over a counter or a shared variable.
func (gen *extGen) atom() presburger.Formula {
	r, sp := gen.r, gen.sp
	if len(sp.Shared) == 0 || r.Intn(2) == 0 {
		v := sp.TotalVar(r.Intn(len(sp.States)))
		if r.Intn(3) == 0 {
			v = sp.GroupVar(r.Intn(len(sp.States)), r.Intn(len(sp.Groups)))
		}
		ops := []presburger.Op{presburger.Ge, presburger.Eq, presburger.Le}
		return presburger.Compare(presburger.VarTerm(v), ops[r.Intn(3)], presburger.ConstTerm(int64(r.Intn(2))))
	}
	j := r.Intn(len(sp.Shared))
	v := &sp.Shared[j]
	x := presburger.VarTerm(sp.SharedVar(j))
	switch {
	case v.Bool || v.Values != nil:
		op := presburger.Eq
		if r.Intn(3) == 0 {
			op = presburger.Ne
		}
		return presburger.Compare(x, op, presburger.ConstTerm(int64(r.Intn(v.Hi+1))))
	}
	ops := []presburger.Op{presburger.Ge, presburger.Le, presburger.Lt}
	return presburger.Compare(x, ops[r.Intn(3)], presburger.ConstTerm(int64(r.Intn(3))))
}

func (gen *extGen) guard() presburger.Formula {
	switch gen.r.Intn(4) {
	case 0:
		return presburger.True
	case 1:
		return presburger.Conj(gen.atom(), gen.atom())
	case 2:
		return presburger.Disj(gen.atom(), gen.atom())
	}
	return gen.atom()
}

// update draws assignments to distinct shared variables.
func (gen *extGen) update() gsst.Update {
	r, sp := gen.r, gen.sp
	var u gsst.Update
	for j := range sp.Shared {
		v := &sp.Shared[j]
		if r.Intn(2) == 0 && !(v.Unbounded && r.Intn(2) == 0) {
			continue
		}
		x := presburger.VarTerm(sp.SharedVar(j))
		var val presburger.Term
		switch {
		case v.Bool || v.Values != nil:
			val = presburger.ConstTerm(int64(r.Intn(v.Hi + 1)))
		case v.Unbounded && r.Intn(2) == 0:
			val = x.Add(presburger.ConstTerm(1))
		default:
			switch r.Intn(4) {
			case 0:
				val = x.Add(presburger.ConstTerm(1))
			case 1:
				val = x.Add(presburger.ConstTerm(-1))
			case 2:
				val = presburger.ConstTerm(int64(r.Intn(2)))
			default:
				// Another integer variable, or this one plus one.
				val = x.Add(presburger.ConstTerm(1))
				for w := range sp.Shared {
					if w != j && !sp.Shared[w].Bool && sp.Shared[w].Values == nil {
						val = presburger.VarTerm(sp.SharedVar(w))
					}
				}
			}
		}
		u.Assign = append(u.Assign, gsst.Assign{Var: sp.SharedVar(j), Value: val})
	}
	if len(u.Assign) > 0 {
		u.Text = "update"
	}
	return u
}

func (gen *extGen) groups() []int {
	var gs []int
	for g := range gen.sp.Groups {
		if gen.r.Intn(2) == 0 {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 {
		return nil
	}
	return gs
}

func (gen *extGen) transition(u, v int) gsst.Transition {
	r, sp := gen.r, gen.sp
	t := gsst.Transition{From: u, To: v}
	if len(sp.Groups) == 2 && r.Intn(2) == 0 {
		for g := range 2 {
			t.Blocks = append(t.Blocks, gsst.Block{Groups: []int{g}, Guard: gen.guard(), Update: gen.update()})
		}
	} else {
		t.Blocks = []gsst.Block{{Groups: []int{0}, Guard: gen.guard(), Update: gen.update()}}
		if len(sp.Groups) == 2 {
			t.Blocks[0].Groups = []int{0, 1}
		}
	}
	if r.Intn(3) == 0 {
		// Sources distinct, none the mover's target; a target may be a
		// source.
		for s := range sp.States {
			if s != v && r.Intn(2) == 0 {
				to := r.Intn(len(sp.States))
				if to == s {
					continue
				}
				t.Broadcast = append(t.Broadcast, gsst.Transfer{From: s, To: to, Groups: gen.groups()})
			}
		}
	}
	return t
}

func (gen *extGen) rendezvous() gsst.Rendezvous {
	r, sp := gen.r, gen.sp
	var rz gsst.Rendezvous
	for range 2 + r.Intn(2) {
		u := r.Intn(len(sp.States))
		v := (u + 1 + r.Intn(len(sp.States)-1)) % len(sp.States)
		rz.Parts = append(rz.Parts, gsst.Part{From: u, To: v, Groups: gen.groups()})
	}
	rz.Guard = gen.guard()
	rz.Update = gen.update()
	return rz
}

func (gen *extGen) ctl(depth int) ctl.Formula {
	return randomCTL(gen.r, depth, func() ctl.Formula { return ctl.Atom{P: gen.atom()} }, true)
}
