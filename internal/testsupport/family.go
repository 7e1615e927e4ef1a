package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// FoldParams returns the instance of a family with parameters at the
// given values, built here from the definition (and not by gsst's own
// instantiation, which it checks): every parameter fixed at its value
// and folded into every guard and update as a constant, each group sized
// over the parameters given its size there with all its processes in
// the state its row of Init names, and no assumption. ok is false when
// the values break the assumption or give a group fewer than 1 process:
// no instance.
func FoldParams(sys *gsst.System, values []int) (inst *gsst.System, ok bool) {
	sp := sys.Spec()
	val := func(v presburger.Var) int64 {
		if k, isParam := sp.ParamOf(v); isParam {
			return int64(values[k])
		}
		panic(fmt.Sprintf("testsupport: a size or an assumption reads %s", sp.VarName(v)))
	}
	if f := sp.Assume.Formula; f != nil && !presburger.Eval(f, val) {
		return nil, false
	}
	sub := func(v presburger.Var) presburger.Term {
		if k, isParam := sp.ParamOf(v); isParam {
			return presburger.ConstTerm(int64(values[k]))
		}
		return presburger.VarTerm(v)
	}
	for g := range sp.Groups {
		grp := &sp.Groups[g]
		if !grp.OverParams() {
			continue
		}
		size := int(grp.SizeTerm.Eval(val))
		if size < 1 {
			return nil, false
		}
		state, _ := sp.InitState(g)
		grp.Size, grp.SizeTerm, grp.SizeTermText = size, presburger.Term{}, ""
		sp.Init[g] = make([]int, len(sp.States))
		sp.Init[g][state] = size
	}
	foldUpdate := func(u *gsst.Update) {
		u.Assign = slices.Clone(u.Assign)
		for i := range u.Assign {
			u.Assign[i].Value = u.Assign[i].Value.Subst(sub)
		}
	}
	for i := range sp.Transitions {
		t := &sp.Transitions[i]
		for b := range t.Blocks {
			t.Blocks[b].Guard = presburger.Subst(t.Blocks[b].Guard, sub)
			foldUpdate(&t.Blocks[b].Update)
		}
	}
	for i := range sp.Rendezvous {
		sp.Rendezvous[i].Guard = presburger.Subst(sp.Rendezvous[i].Guard, sub)
		foldUpdate(&sp.Rendezvous[i].Update)
	}
	for i := range sp.Environment {
		sp.Environment[i].Guard = presburger.Subst(sp.Environment[i].Guard, sub)
		foldUpdate(&sp.Environment[i].Update)
	}
	for k := range sp.Params {
		sp.Params[k].Fixed, sp.Params[k].Value = true, values[k]
	}
	sp.Assume = gsst.Assumption{}
	sp.Properties = nil
	sp.Fairness = gsst.Fairness{}
	inst, err := gsst.New(sp)
	if err != nil {
		panic(fmt.Sprintf("testsupport: instance at %v: %v", values, err))
	}
	return inst, true
}
