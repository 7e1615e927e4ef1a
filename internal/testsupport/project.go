package testsupport

import (
	"context"
	"fmt"

	"github.com/vsym/vsym/presburger"
)

// Projector implements presburger.Projector by enumeration, for tests
// that build counter models without Z3 (counterabs.Build needs a
// projector for guards outside the paper's fragment). It enumerates the
// eliminated variables, derives each kept variable from a top-level
// equation defining it (or enumerates it), evaluates the whole formula
// and returns the disjunction of the kept points found.
type Projector struct{}

// Project returns the disjunction of the points of keep that some
// assignment of the other variables extends to a model of p.
func (Projector) Project(ctx context.Context, p presburger.Problem, keep []presburger.Var) (presburger.Formula, presburger.Result, error) {
	if err := p.CheckBounds(); err != nil {
		return nil, presburger.Unknown, err
	}
	kept := map[presburger.Var]bool{}
	for _, v := range keep {
		kept[v] = true
	}
	var elim, keepB []presburger.Bound
	for _, b := range p.Bounds {
		if kept[b.Var] {
			keepB = append(keepB, b)
		} else {
			elim = append(elim, b)
		}
	}
	conj := []presburger.Formula{p.F}
	if a, ok := p.F.(presburger.And); ok {
		conj = a
	}
	// def[v] = term t with v = t, t free of kept variables.
	def := map[presburger.Var]presburger.Term{}
	for _, c := range conj {
		cm, ok := c.(presburger.Cmp)
		if !ok || cm.Op != presburger.Eq {
			continue
		}
		var kv []presburger.Mono
		for _, m := range cm.T.Monos {
			if kept[m.Var] {
				kv = append(kv, m)
			}
		}
		if len(kv) != 1 || (kv[0].Coef != 1 && kv[0].Coef != -1) {
			continue
		}
		if _, have := def[kv[0].Var]; have {
			continue
		}
		// c*v + rest = 0  =>  v = -rest/c
		rest := cm.T.Sub(presburger.Term{Monos: []presburger.Mono{kv[0]}})
		def[kv[0].Var] = rest.Scale(-kv[0].Coef)
	}
	vals := map[presburger.Var]int64{}
	val := func(v presburger.Var) int64 { return vals[v] }
	seen := map[string]bool{}
	var points []presburger.Formula
	var enumKeep func(i int)
	enumKeep = func(i int) {
		if i == len(keepB) {
			if !presburger.Eval(p.F, val) {
				return
			}
			key := ""
			var atoms []presburger.Formula
			for _, b := range keepB {
				key += fmt.Sprint(vals[b.Var], ",")
				atoms = append(atoms, presburger.Compare(presburger.VarTerm(b.Var), presburger.Eq, presburger.ConstTerm(vals[b.Var])))
			}
			if !seen[key] {
				seen[key] = true
				points = append(points, presburger.Conj(atoms...))
			}
			return
		}
		b := keepB[i]
		if t, ok := def[b.Var]; ok {
			x := t.Eval(val)
			if x < b.Lo || x > b.Hi {
				return
			}
			vals[b.Var] = x
			enumKeep(i + 1)
			return
		}
		for x := b.Lo; x <= b.Hi; x++ {
			vals[b.Var] = x
			enumKeep(i + 1)
		}
	}
	var enumElim func(i int)
	enumElim = func(i int) {
		if i == len(elim) {
			enumKeep(0)
			return
		}
		b := elim[i]
		for x := b.Lo; x <= b.Hi; x++ {
			vals[b.Var] = x
			enumElim(i + 1)
		}
	}
	enumElim(0)
	if err := ctx.Err(); err != nil {
		return nil, presburger.Unknown, nil
	}
	return presburger.Disj(points...), presburger.Sat, nil
}
