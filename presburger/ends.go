package presburger

import "github.com/vsym/vsym/internal/checked"

// SharpenEnds rewrites the atoms of f over one variable that say, within
// the variable's range in bounds, that it lies in an interval, but are
// written otherwise: "x != c" with c an end of x's range (a boolean or a
// two-valued enumeration read by its complement, "b != down") is the
// bound "x >= c + 1" or "x <= c - 1", and a disjunction of such atoms
// over one variable whose values make up an interval ("x = 1 | x = 2"
// for 0..2) is that interval. The result is equivalent to f for every
// assignment inside the ranges. The searches read bounds on a variable
// and not its disequalities: mist's queuedbusyflag with its flags so
// written took 12 s, 0.14 s with "b = up". Other atoms, and variables
// without a range, are left as they are.
func SharpenEnds(f Formula, bounds []Bound) Formula {
	return SharpenEndsIn(f, NewBox(bounds))
}

// SharpenEndsIn is SharpenEnds within the ranges of box.
func SharpenEndsIn(f Formula, box Box) Formula {
	return sharpen(f, box)
}

func sharpen(f Formula, box map[Var]Bound) Formula {
	switch f := f.(type) {
	case Cmp:
		if f.Op != Ne {
			return f
		}
		if in, v, ok := atomInterval(f, box); ok {
			return intervalFormula(v, in, box[v])
		}
		return f
	case Not:
		return Negation(sharpen(f.F, box))
	case And:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = sharpen(g, box)
		}
		return Conj(out...)
	case Or:
		return sharpenOr(f, box)
	}
	return f // Bool, Exists
}

// sharpenOr sharpens the disjuncts of f and joins those over one
// variable whose values make up one interval.
func sharpenOr(f Or, box map[Var]Bound) Formula {
	out := make([]Formula, 0, len(f))
	type span struct {
		at    int   // the index in out of the first disjunct over v
		in    Bound // their union so far
		count int
		ok    bool // the union is an interval
	}
	spans := map[Var]*span{}
	var order []Var
	for _, g := range f {
		g = sharpen(g, box)
		c, isCmp := g.(Cmp)
		in, v, ok := Bound{}, Var(0), false
		if isCmp {
			in, v, ok = atomInterval(c, box)
		}
		if !ok {
			out = append(out, g)
			continue
		}
		sp, seen := spans[v]
		if !seen {
			spans[v] = &span{at: len(out), in: in, count: 1, ok: true}
			order = append(order, v)
			out = append(out, g)
			continue
		}
		sp.count++
		u, joined := unionInterval(sp.in, in)
		sp.in, sp.ok = u, sp.ok && joined
		out = append(out, g)
	}
	drop := map[int]bool{}
	for _, v := range order {
		sp := spans[v]
		if sp.count < 2 || !sp.ok {
			continue
		}
		// Every disjunct over v but the first goes; the first becomes
		// the union.
		out[sp.at] = intervalFormula(v, sp.in, box[v])
		for i, g := range out {
			if i == sp.at {
				continue
			}
			if c, isCmp := g.(Cmp); isCmp {
				if _, w, ok := atomInterval(c, box); ok && w == v {
					drop[i] = true
				}
			}
		}
	}
	kept := out[:0]
	for i, g := range out {
		if !drop[i] {
			kept = append(kept, g)
		}
	}
	return Disj(kept...)
}

// atomInterval is AtomRange for the atom's variable's range in box.
func atomInterval(c Cmp, box map[Var]Bound) (in Bound, v Var, ok bool) {
	if len(c.T.Monos) != 1 {
		return Bound{}, 0, false
	}
	v = c.T.Monos[0].Var
	r, has := box[v]
	if !has {
		return Bound{}, 0, false
	}
	in, ok = AtomRange(c, r)
	return in, v, ok
}

// AtomRange returns the values within r, the range of the one variable
// of the atom c, that satisfy c, when they make up an interval (empty,
// as Lo > Hi, when none does): "x != c" at an end of r cuts that end
// off. ok is false for an atom over several variables, with a
// coefficient or constant beyond Tighten's limit, or a disequality
// that leaves a hole in r.
func AtomRange(c Cmp, r Bound) (in Bound, ok bool) {
	if len(c.T.Monos) != 1 {
		return Bound{}, false
	}
	mo := c.T.Monos[0]
	const limit = checked.Limit / 1024 // Tighten's: beyond it, it leaves r as it is
	if mo.Coef < -limit || mo.Coef > limit || c.T.Const < -limit || c.T.Const > limit {
		return Bound{}, false
	}
	if c.Op != Ne {
		return r.Tighten(mo.Coef, c.T.Const, c.Op), true
	}
	// a*x + k != 0: x != -k/a, when a divides k.
	if c.T.Const%mo.Coef != 0 {
		return r, true
	}
	x := -c.T.Const / mo.Coef
	switch {
	case !r.Contains(x):
		return r, true
	case !r.NoLo && x == r.Lo:
		r.Lo++
	case !r.NoHi && x == r.Hi:
		r.Hi--
	default:
		return Bound{}, false // a hole
	}
	return r, true
}

// unionInterval returns the union of two intervals when it is one.
func unionInterval(a, b Bound) (Bound, bool) {
	switch {
	case a.Empty():
		return b, true
	case b.Empty():
		return a, true
	}
	// Disjoint with a gap: not an interval.
	if !a.NoHi && !b.NoLo && b.Lo > a.Hi+1 || !b.NoHi && !a.NoLo && a.Lo > b.Hi+1 {
		return Bound{}, false
	}
	u := a
	if b.NoLo || !u.NoLo && b.Lo < u.Lo {
		u.Lo, u.NoLo = b.Lo, b.NoLo
	}
	if b.NoHi || !u.NoHi && b.Hi > u.Hi {
		u.Hi, u.NoHi = b.Hi, b.NoHi
	}
	return u, true
}

// intervalFormula states "v in in" within v's range r, shortest first.
func intervalFormula(v Var, in, r Bound) Formula {
	switch {
	case in.Empty():
		return False
	case in.Finite() && in.Lo == in.Hi:
		return Compare(VarTerm(v), Eq, ConstTerm(in.Lo))
	}
	var parts []Formula
	if !in.NoLo && (r.NoLo || in.Lo > r.Lo) {
		parts = append(parts, Compare(VarTerm(v), Ge, ConstTerm(in.Lo)))
	}
	if !in.NoHi && (r.NoHi || in.Hi < r.Hi) {
		parts = append(parts, Compare(VarTerm(v), Le, ConstTerm(in.Hi)))
	}
	return Conj(parts...)
}
