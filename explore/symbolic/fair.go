package symbolic

import (
	"context"
	"slices"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// Fairness in the BDD engine, with the same semantics as the explicit
// engine (explore/fair.go): a justice constraint is a set of edges, CTL
// path quantifiers range over paths that take an edge of every constraint
// infinitely often, EG is Emerson-Lei's fixpoint and EX, E[U] end in fair
// states.

// bjustice is one justice constraint of the model.
type bjustice struct {
	state rudd.Node // a justice condition (nil for weak fairness)
	trans []int     // weak fairness: the model transitions that take it
	notEn rudd.Node // weak fairness: none of them is enabled
}

// buildJustice encodes the model's justice constraints.
func (e *Checker) buildJustice() error {
	b := e.b
	for _, j := range e.model.Justice {
		if !j.Weak {
			n, err := e.gc.compile(j.State)
			if err != nil {
				return err
			}
			e.justice = append(e.justice, bjustice{state: n})
			continue
		}
		en := b.False()
		for _, k := range j.Transitions {
			en = b.Or(en, e.rels[k].enabled)
		}
		e.justice = append(e.justice, bjustice{trans: j.Transitions, notEn: b.Not(en)})
	}
	return e.check()
}

// preimages holds the pre-images of one set z by each transition and by
// all of them (stutter included, within the space): every constraint of
// one Emerson-Lei round asks for them, so they are computed once.
type preimages struct {
	z   rudd.Node
	per []rudd.Node
	all rudd.Node
}

func (e *Checker) preimagesOf(z rudd.Node) *preimages {
	if m := e.preMemo; m != nil && m.z != nil && z != nil && *m.z == *z {
		return m
	}
	b := e.b
	m := &preimages{z: z, per: make([]rudd.Node, len(e.rels))}
	acc := b.And(z, e.dead)
	for i := range e.rels {
		m.per[i] = e.preimage(&e.rels[i], z)
		acc = b.Or(acc, m.per[i])
	}
	m.all = b.And(acc, e.space)
	e.preMemo = m
	return m
}

// preJustice returns the states of the space with an edge meeting
// constraint j (-1: any edge) into z.
func (e *Checker) preJustice(j int, z rudd.Node) rudd.Node {
	b := e.b
	pre := e.preimagesOf(z)
	if j < 0 {
		return pre.all
	}
	bj := &e.justice[j]
	if bj.state != nil {
		return b.And(bj.state, pre.all)
	}
	// The stutter step, a taking move, or any move from a state where
	// none of the transitions is enabled. Model transition k is relation
	// k (one relation per transition, in order).
	acc := b.And(e.dead, z)
	for _, k := range bj.trans {
		acc = b.Or(acc, pre.per[k])
	}
	acc = b.Or(acc, b.And(bj.notEn, pre.all))
	return b.And(acc, e.space)
}

// egFair is EG x over fair paths: from the plain EG x, keep the states
// that reach inside x an edge of every constraint into the set, until
// nothing changes.
func (e *Checker) egFair(ctx context.Context, x rudd.Node) (rudd.Node, error) {
	z, err := e.eg(ctx, x)
	if err != nil || len(e.justice) == 0 {
		return z, err
	}
	b := e.b
	for {
		next := z
		for j := range e.justice {
			if err := e.poll(ctx); err != nil {
				return nil, err
			}
			y, err := e.eu(ctx, x, b.And(x, e.preJustice(j, z)))
			if err != nil {
				return nil, err
			}
			next = b.And(next, y)
		}
		if b.Equal(next, z) {
			return z, nil
		}
		z = next
	}
}

// fair returns the states of the space where a fair path starts.
func (e *Checker) fair(ctx context.Context) (rudd.Node, error) {
	if len(e.justice) == 0 {
		return e.space, nil
	}
	return e.cached(ctx, ctl.Unary{Op: ctl.EG, X: ctl.Atom{P: presburger.True}})
}

// andFair restricts x to the fair states.
func (e *Checker) andFair(ctx context.Context, x rudd.Node) (rudd.Node, error) {
	if len(e.justice) == 0 {
		return x, nil
	}
	f, err := e.fair(ctx)
	if err != nil {
		return nil, err
	}
	return e.b.And(x, f), nil
}

// meets reports whether the explicit step st from x meets constraint j.
func (e *Checker) meets(j int, x []int, st step) bool {
	if j < 0 {
		return true
	}
	bj := &e.justice[j]
	if bj.state != nil {
		return e.contains(bj.state, x)
	}
	if st.trans < 0 || slices.Contains(bj.trans, st.trans) {
		return true
	}
	for _, k := range bj.trans {
		if enabled(e.model, &e.model.Transitions[k], x) {
			return false
		}
	}
	return true
}
