package nusmv

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// sharedVars are the shared variables of a system in an emitted model: a
// boolean is a NuSMV boolean, an enumeration an enumeration of symbolic
// constants, an integer a range (an unbounded one up to the bound of the
// export, emit.SharedHi). Formulas read every kind as an integer (a
// boolean is 0 or 1, an enumeration the index of its value): an atom
// "v = c" or "v != c" over one boolean or enumeration is written with
// its symbols, any other arithmetic reads toint(v) for a boolean and a
// DEFINE of the index for an enumeration.
type sharedVars struct {
	sys     *gsst.System
	vars    []gsst.Shared
	first   presburger.Var // the variable of shared variable 0
	name    []string       // NuSMV variables
	hi      []int          // greatest value in the model
	sym     [][]string     // symbols of an enumeration's values
	idx     []string       // DEFINE of an enumeration's index
	usedIdx []bool
	n       int // the number of processes, which bounds every counter
}

// newSharedVars names the shared variables of sys and bounds the unbounded
// ones at n processes with bound (emit.SharedHi).
func newSharedVars(sys *gsst.System, nm *namer, n, bound int) (*sharedVars, error) {
	return newSharedVarsAt(sys, sys.Shared, sys.SharedVar(0), nm, n, bound)
}

// newSharedVarsAt is newSharedVars for the variables vars of a model, the
// first of which is variable first.
func newSharedVarsAt(sys *gsst.System, vars []gsst.Shared, first presburger.Var, nm *namer, n, bound int) (*sharedVars, error) {
	sv := &sharedVars{sys: sys, vars: vars, first: first, n: n}
	syms := map[string]string{} // one symbol per GSST constant
	for j := range vars {
		v := &vars[j]
		sv.name = append(sv.name, nm.fresh(v.Name))
		hi, err := emit.SharedHi(v, n, bound)
		if err != nil {
			return nil, err
		}
		sv.hi = append(sv.hi, hi)
		var sym []string
		for _, c := range v.Values {
			s, ok := syms[c]
			if !ok {
				s = nm.fresh(c)
				syms[c] = s
			}
			sym = append(sym, s)
		}
		sv.sym = append(sv.sym, sym)
		idx := ""
		if v.Values != nil {
			idx = nm.fresh(v.Name + "_idx")
		}
		sv.idx = append(sv.idx, idx)
	}
	sv.usedIdx = make([]bool, len(vars))
	return sv, nil
}

// of returns the index of the shared variable v, and false for another
// variable.
func (sv *sharedVars) of(v presburger.Var) (int, bool) {
	j := int(v - sv.first)
	return j, sv != nil && j >= 0 && j < len(sv.vars)
}

// typ is the NuSMV type of shared variable j.
func (sv *sharedVars) typ(j int) string {
	v := &sv.vars[j]
	switch {
	case v.Bool:
		return "boolean"
	case v.Values != nil:
		return "{" + strings.Join(sv.sym[j], ", ") + "}"
	}
	return strconv.Itoa(v.Lo) + ".." + strconv.Itoa(sv.hi[j])
}

// constant is value k of shared variable j as a NuSMV constant.
func (sv *sharedVars) constant(j, k int) string {
	v := &sv.vars[j]
	switch {
	case v.Bool && k == 0:
		return "FALSE"
	case v.Bool:
		return "TRUE"
	case v.Values != nil:
		return sv.sym[j][k]
	}
	return strconv.Itoa(k)
}

// integer is shared variable j as an integer expression.
func (sv *sharedVars) integer(j int) string {
	v := &sv.vars[j]
	switch {
	case v.Bool:
		return "toint(" + sv.name[j] + ")"
	case v.Values != nil:
		sv.usedIdx[j] = true
		return sv.idx[j]
	}
	return sv.name[j]
}

// names extends a namefn over counters with the shared variables.
func (sv *sharedVars) names(counter namefn) namefn {
	return func(v presburger.Var) (string, error) {
		if j, ok := sv.of(v); ok {
			return sv.integer(j), nil
		}
		return counter(v)
	}
}

// reads reports whether t reads a shared variable.
func (sv *sharedVars) reads(t presburger.Term) bool {
	for _, m := range t.Monos {
		if _, ok := sv.of(m.Var); ok {
			return true
		}
	}
	return false
}

// symbolic is the domain size of a boolean or enumeration j, 0 for an
// integer.
func (sv *sharedVars) symbolic(j int) int {
	switch v := &sv.vars[j]; {
	case v.Bool:
		return 2
	case v.Values != nil:
		return len(v.Values)
	}
	return 0
}

// atom wraps the atomfn of counter comparisons: a comparison that reads
// a shared variable is written with its symbols when it is v = c or
// v != c (or v = w over two variables of one enumeration), else as
// arithmetic over the integers of the variables (name).
func (sv *sharedVars) atom(counters atomfn, name namefn) atomfn {
	return func(c presburger.Cmp) (frag, error) {
		if !sv.reads(c.T) {
			return counters(c)
		}
		if f, ok := sv.symbolicAtom(c); ok {
			return f, nil
		}
		return compare(c, name, sv.magnitude)
	}
}

func (sv *sharedVars) symbolicAtom(c presburger.Cmp) (frag, bool) {
	if c.Op != presburger.Eq && c.Op != presburger.Ne {
		return frag{}, false
	}
	op := " = "
	if c.Op == presburger.Ne {
		op = " != "
	}
	switch ms := c.T.Monos; len(ms) {
	case 1:
		j, ok := sv.of(ms[0].Var)
		if !ok || sv.symbolic(j) == 0 || ms[0].Coef != 1 && ms[0].Coef != -1 {
			return frag{}, false
		}
		// coef*v + const = 0: v = -const/coef.
		k := -c.T.Const * ms[0].Coef
		if k < 0 || k >= int64(sv.symbolic(j)) {
			if c.Op == presburger.Eq {
				return fragFalse, true
			}
			return fragTrue, true
		}
		return frag{sv.name[j] + op + sv.constant(j, int(k)), precRel}, true
	case 2:
		a, okA := sv.of(ms[0].Var)
		b, okB := sv.of(ms[1].Var)
		if !okA || !okB || c.T.Const != 0 || ms[0].Coef+ms[1].Coef != 0 || ms[0].Coef != 1 && ms[0].Coef != -1 ||
			sv.symbolic(a) == 0 || !sameDomain(&sv.vars[a], &sv.vars[b]) {
			return frag{}, false
		}
		return frag{sv.name[a] + op + sv.name[b], precRel}, true
	}
	return frag{}, false
}

// sameDomain reports whether two booleans or enumerations have the same
// values.
func sameDomain(a, b *gsst.Shared) bool {
	if a.Bool || b.Bool {
		return a.Bool && b.Bool
	}
	if len(a.Values) != len(b.Values) {
		return false
	}
	for i := range a.Values {
		if a.Values[i] != b.Values[i] {
			return false
		}
	}
	return true
}

// defines returns the DEFINE lines of the enumeration indexes used.
func (sv *sharedVars) defines() []string {
	var out []string
	for j := range sv.vars {
		if !sv.usedIdx[j] {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "  %s := case", sv.idx[j])
		for k, s := range sv.sym[j] {
			if k == len(sv.sym[j])-1 {
				fmt.Fprintf(&b, " TRUE : %d; esac;\n", k)
				break
			}
			fmt.Fprintf(&b, " %s = %s : %d;", sv.name[j], s, k)
		}
		out = append(out, b.String())
	}
	return out
}

// value writes the new value of shared variable j, the term t over the
// values before the step, as a NuSMV expression of j's type.
func (sv *sharedVars) value(j int, t presburger.Term, name namefn) (string, error) {
	v := &sv.vars[j]
	if v.Bool || v.Values != nil {
		if t.IsConst() && t.Const >= 0 && t.Const < int64(sv.symbolic(j)) {
			return sv.constant(j, int(t.Const)), nil
		}
		if len(t.Monos) == 1 && t.Monos[0].Coef == 1 && t.Const == 0 {
			if w, ok := sv.of(t.Monos[0].Var); ok && sv.symbolic(w) > 0 && sameDomain(v, &sv.vars[w]) {
				return sv.name[w], nil
			}
		}
		// Any other term: by its integer value (the step's domain
		// condition keeps it in range).
		e, err := linear(t, name, sv.magnitude)
		if err != nil {
			return "", err
		}
		if v.Bool {
			return "(" + e + ") = 1", nil
		}
		var b strings.Builder
		b.WriteString("case")
		for k, s := range sv.sym[j] {
			if k == len(sv.sym[j])-1 {
				fmt.Fprintf(&b, " TRUE : %s; esac", s)
				break
			}
			fmt.Fprintf(&b, " %s = %d : %s;", e, k, s)
		}
		return b.String(), nil
	}
	return linear(t, name, sv.magnitude)
}

// linear writes a linear term (emit.Linear), refusing one NuSMV could not
// compute in its 32-bit integers over the values of its variables
// (checkInt).
func linear(t presburger.Term, name namefn, mag magfn) (string, error) {
	if err := checkInt(t, mag); err != nil {
		return "", err
	}
	return emit.Linear(t, name)
}

// magnitude is the largest magnitude of the values of variable x in the
// model (a magfn): for a shared variable, of its least and greatest
// value there; for a parameter, its value; for a counter, the number of
// processes.
func (sv *sharedVars) magnitude(x presburger.Var) int64 {
	if j, ok := sv.of(x); ok {
		return max(int64(sv.hi[j]), -int64(sv.vars[j].Lo))
	}
	if k, ok := sv.sys.ParamOf(x); ok {
		return int64(sv.sys.Params[k].Value)
	}
	return int64(sv.n)
}

// domains are the domains of the shared variables in the model (an
// unbounded variable cut at its bound), for gsst.Spec.InDomain.
func (sv *sharedVars) domains() []gsst.Shared { return emit.Domains(sv.sys, sv.hi) }

// over returns the condition that some unbounded variable of an update
// would exceed its bound, nil when the update assigns none.
func (sv *sharedVars) over(as []gsst.Assign) presburger.Formula { return emit.Over(sv.sys, sv.hi, as) }

// sharedMoves are the case lines of shared variable j in the concrete
// model: one per step whose update assigns it. A step of one part is
// told from the other blocks of its transition by the group of the
// process picked.
func sharedMoves(sys *gsst.System, sv *sharedVars, j int, name namefn, pick, trVar string, stepVal, guard []string, first []int) ([]string, error) {
	v := sys.SharedVar(j)
	steps := sys.Steps()
	var out []string
	for i := range steps {
		st := &steps[i]
		cond := []string{trVar + " = " + stepVal[i]}
		if len(st.Parts) == 1 {
			if in := pickIn(sys, pick, st.Parts[0].Groups, first); in != "" {
				cond = append(cond, in)
			}
		}
		if guard[i] != "" {
			cond = append(cond, guard[i])
		}
		for _, a := range st.Update.Assign {
			if a.Var != v {
				continue
			}
			val, err := sv.value(j, a.Value, name)
			if err != nil {
				return nil, err
			}
			out = append(out, strings.Join(cond, " & ")+" : "+val+";")
		}
	}
	return out, nil
}

// pickIn is the condition that pick chooses a process of one of groups
// (nil: any group); "" when it chooses any process.
func pickIn(sys *gsst.System, pick string, groups []int, first []int) string {
	if groups == nil {
		return ""
	}
	var cs []string
	all := true
	for g, G := range sys.Groups {
		if !slices.Contains(groups, g) {
			all = all && G.Size == 0
			continue
		}
		lo, hi := first[g]+1, first[g]+G.Size
		switch {
		case G.Size == 0:
		case lo == hi:
			cs = append(cs, fmt.Sprintf("%s = %d", pick, lo))
		default:
			cs = append(cs, fmt.Sprintf("%s >= %d & %s <= %d", pick, lo, pick, hi))
		}
	}
	switch {
	case all:
		return ""
	case len(cs) == 0:
		return "FALSE"
	case len(cs) == 1:
		return cs[0]
	}
	return "(" + strings.Join(cs, " | ") + ")"
}

// writeSharedComments states the shared variables, the parameters of the
// instance and the bound of the unbounded variables in the header.
func writeSharedComments(p func(string, ...any), sys *gsst.System, sv *sharedVars, bound int, check string) {
	if len(sys.Params) > 0 {
		p("-- Parameters of this instance (folded into constants): %s\n", comment(emit.ParamsText(sys)))
	}
	if len(sys.Shared) == 0 {
		return
	}
	p("-- Shared variables (GSST name: type, NuSMV variable; formulas read a\n")
	p("-- boolean as 0/1 and an enumeration as the index of its value):\n")
	for j := range sys.Shared {
		v := &sys.Shared[j]
		p("--   %-12s %s, %s\n", comment(v.Name), comment(v.TypeText()), sv.name[j])
	}
	p("-- Updates are simultaneous (right-hand sides read the values before the\n")
	p("-- step), and a step whose update would leave a variable's domain is not\n")
	p("-- enabled.\n")
	if !emit.HasUnbounded(sys) {
		return
	}
	p("-- BOUND. NuSMV needs finite ranges: each unbounded variable stops at a bound\n")
	p("-- (--bound, or by default %s):\n", emit.BoundRule)
	for j := range sys.Shared {
		if v := &sys.Shared[j]; v.Unbounded {
			p("--   %s\n", comment(emit.BoundText(v, sv.hi[j], bound)))
		}
	}
	p("-- and a step that would go beyond it is left out. INVARSPEC %s checks\n", check)
	p("-- that no reachable configuration has such a step: EVERY VERDICT OF THIS\n")
	p("-- MODEL IS MEANINGFUL ONLY WHEN %s IS TRUE (else raise --bound).\n", check)
}
