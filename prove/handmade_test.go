package prove_test

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// This file builds specs with shared variables and parameters by hand,
// through gsst.New, for the tests of this package: the threshold-guarded
// algorithms of specs/ as Go values, independent of the YAML reader.

// builder makes a Spec from names: states, one shared integer variable
// per name in shared (type 0.., initial 0), parameters, and groups whose
// sizes are terms over the parameters.
type builder struct {
	spec gsst.Spec
	s    *gsst.Spec
}

func newBuilder(name string, states, groups, params, shared []string) *builder {
	b := &builder{}
	b.spec = gsst.Spec{Name: name, States: states}
	for _, g := range groups {
		b.spec.Groups = append(b.spec.Groups, gsst.Group{Name: g})
		b.spec.Init = append(b.spec.Init, make([]int, len(states)))
	}
	for _, p := range params {
		b.spec.Params = append(b.spec.Params, gsst.Param{Name: p})
	}
	for _, v := range shared {
		b.spec.Shared = append(b.spec.Shared, gsst.Shared{Name: v, Unbounded: true})
	}
	b.s = &b.spec
	return b
}

// v returns the variable of a name: a state's total counter, a shared
// variable or a parameter.
func (b *builder) v(name string) presburger.Var {
	for i, st := range b.s.States {
		if "#"+st == name {
			return b.s.TotalVar(i)
		}
	}
	for j := range b.s.Shared {
		if b.s.Shared[j].Name == name {
			return b.s.SharedVar(j)
		}
	}
	for k := range b.s.Params {
		if b.s.Params[k].Name == name {
			return b.s.ParamVar(k)
		}
	}
	panic("no variable " + name)
}

// term reads "a*x + b*y - c" written as space-separated signed
// monomials: "nsent", "-2*t", "+1".
func (b *builder) term(src string) presburger.Term {
	var t presburger.Term
	for _, w := range strings.Fields(src) {
		sign := int64(1)
		switch w[0] {
		case '-':
			sign, w = -1, w[1:]
		case '+':
			w = w[1:]
		}
		var k int64 = 1
		if i := strings.Index(w, "*"); i >= 0 {
			fmt.Sscan(w[:i], &k)
			w = w[i+1:]
		}
		if w[0] >= '0' && w[0] <= '9' {
			var c int64
			fmt.Sscan(w, &c)
			t = t.Add(presburger.ConstTerm(sign * c))
			continue
		}
		t = t.Add(presburger.VarTerm(b.v(w)).Scale(sign * k))
	}
	return t
}

// cmp reads "L op R" with op one of >= <= = > <.
func (b *builder) cmp(src string) presburger.Formula {
	for _, op := range []struct {
		s  string
		op presburger.Op
	}{{">=", presburger.Ge}, {"<=", presburger.Le}, {"!=", presburger.Ne}, {"=", presburger.Eq}, {">", presburger.Gt}, {"<", presburger.Lt}} {
		if i := strings.Index(src, op.s); i >= 0 {
			return presburger.Compare(b.term(src[:i]), op.op, b.term(src[i+len(op.s):]))
		}
	}
	panic("no comparison in " + src)
}

// and reads a conjunction of comparisons separated by "&".
func (b *builder) and(src string) presburger.Formula {
	if strings.TrimSpace(src) == "" {
		return presburger.True
	}
	var fs []presburger.Formula
	for _, c := range strings.Split(src, "&") {
		fs = append(fs, b.cmp(c))
	}
	return presburger.Conj(fs...)
}

func (b *builder) assume(src string) {
	b.s.Assume = gsst.Assumption{Formula: b.and(src), Text: src}
}

// group sets group g's size, a term over the parameters, and its
// initial state.
func (b *builder) group(g int, size, start string) {
	grp := &b.s.Groups[g]
	grp.SizeTerm, grp.SizeTermText = b.term(size), size
	grp.Size = 1 // unused in a family; the init row places it
	b.s.Init[g][b.state(start)] = 1
}

func (b *builder) state(name string) int {
	for i, st := range b.s.States {
		if st == name {
			return i
		}
	}
	panic("no state " + name)
}

// update reads "x := term; y := term".
func (b *builder) update(src string) gsst.Update {
	u := gsst.Update{Text: src}
	for _, a := range strings.Split(src, ";") {
		if strings.TrimSpace(a) == "" {
			continue
		}
		lr := strings.SplitN(a, ":=", 2)
		u.Assign = append(u.Assign, gsst.Assign{Var: b.v(strings.TrimSpace(lr[0])), Value: b.term(lr[1])})
	}
	return u
}

// trans adds from -> to for every group, with a guard and an update.
func (b *builder) trans(from, to, guard, update string) {
	var groups []int
	for g := range b.s.Groups {
		groups = append(groups, g)
	}
	b.s.Transitions = append(b.s.Transitions, gsst.Transition{
		From: b.state(from), To: b.state(to),
		Blocks: []gsst.Block{{Groups: groups, Guard: b.and(guard), Text: guard, Update: b.update(update)}},
	})
}

// safety adds the property AG (phi), phi a disjunction ("|") of
// conjunctions.
func (b *builder) safety(name, phi string) {
	var ds []presburger.Formula
	for _, d := range strings.Split(phi, "|") {
		ds = append(ds, b.and(d))
	}
	f := ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Disj(ds...)}}
	b.s.Properties = append(b.s.Properties, gsst.Property{Name: name, Formula: f, Text: "AG " + phi})
}

func (b *builder) system() (*gsst.System, error) { return gsst.New(b.s) }
