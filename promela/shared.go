package promela

import (
	"fmt"
	"strconv"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// sharedVars are the names of a concrete model that keeps its local
// states in an array (needsArray): the
// shared variables (a boolean is a bool, an enumeration a byte with one
// macro per value, an integer the smallest integer type of its range,
// an unbounded one up to the bound of the export), the global array of
// the processes' local states, and hidden scratch variables.
type sharedVars struct {
	sys    *gsst.System
	name   []string
	hi     []int      // greatest value in the model (emit.SharedHi)
	consts [][]string // macros of an enumeration's values
	ps     string     // mtype ps[n]: the local state of every process
	loop   string     // hidden byte: the broadcast loop's index
	tmp    string     // hidden ints tmp_1 .. tmp_temps: simultaneous updates
	temps  int
}

// newSharedVars names the shared variables of the concrete model of sys,
// and when it keeps the local states in an array, the array and the
// scratch variables of its steps.
func newSharedVars(sys *gsst.System, nm *namer, n, bound int, array bool) (*sharedVars, error) {
	if len(sys.Shared) == 0 && !array {
		return &sharedVars{sys: sys}, nil
	}
	sv, err := newVars(sys, nm, n, bound)
	if err != nil || !array {
		return sv, err
	}
	sv.ps, sv.loop = nm.fresh("ps"), nm.fresh("bc_i")
	sv.scratch(nm)
	return sv, nil
}

// newVars names the shared variables of sys and bounds the unbounded
// ones at n processes (emit.SharedHi).
func newVars(sys *gsst.System, nm *namer, n, bound int) (*sharedVars, error) {
	sv := &sharedVars{sys: sys}
	consts := map[string]string{} // by "value/index"
	for j := range sys.Shared {
		v := &sys.Shared[j]
		sv.name = append(sv.name, nm.fresh(v.Name))
		hi, err := emit.SharedHi(v, n, bound)
		if err != nil {
			return nil, err
		}
		sv.hi = append(sv.hi, hi)
		var cs []string
		for k, c := range v.Values {
			key := c + "/" + strconv.Itoa(k)
			if _, ok := consts[key]; !ok {
				consts[key] = nm.fresh(c)
			}
			cs = append(cs, consts[key])
		}
		sv.consts = append(sv.consts, cs)
	}
	return sv, nil
}

// scratch names the scratch variables of the simultaneous updates of
// the system's steps.
func (sv *sharedVars) scratch(nm *namer) {
	sv.tmp = nm.fresh("upd")
	for _, st := range sv.sys.Steps() {
		sv.temps = max(sv.temps, len(st.Update.Assign))
	}
	if sv.temps == 1 {
		sv.temps = 0 // one assignment needs no scratch variable
	}
}

// ref is how shared variable j is written in the model, with the
// largest magnitude of its values (for the overflow check).
func (sv *sharedVars) ref(j int) varRef {
	return varRef{sv.name[j], max(int64(sv.hi[j]), -int64(sv.sys.Shared[j].Lo))}
}

// writeSharedHeader states the parameters of the instance, the shared
// variables and the bound of the unbounded ones.
func writeSharedHeader(w *writer, sys *gsst.System, sv *sharedVars, bound int, array bool) {
	if len(sys.Params) > 0 {
		w.wrapped("", "Parameters of this instance (folded into constants): "+emit.ParamsText(sys)+".")
		w.p(" *\n")
	}
	if array {
		w.p(" * Beyond one process per step: the local states live in the global array\n")
		w.p(" * %s, so that a broadcast (a loop over the other processes, inside the\n", sv.ps)
		w.p(" * mover's d_step) and a rendezvous (one d_step in init per choice of\n")
		w.p(" * distinct processes for its parts) can move several processes at once.\n")
	}
	writeVarsHeader(w, sys, sv, bound)
}

// writeVarsHeader states the shared variables and the bound of the
// unbounded ones; what follows it starts with a blank comment line.
func writeVarsHeader(w *writer, sys *gsst.System, sv *sharedVars, bound int) {
	if len(sys.Shared) == 0 {
		return
	}
	w.p(" * Shared variables (GSST name: type, Promela variable; an enumeration is a\n")
	w.p(" * byte holding the index of its value, one macro per value):\n")
	for j := range sys.Shared {
		v := &sys.Shared[j]
		w.p(" *   %-12s %s, %s\n", comment(v.Name), comment(v.TypeText()), sv.name[j])
	}
	w.p(" * Updates are simultaneous (right-hand sides read the values before the\n")
	w.p(" * step), and a step whose update would leave a variable's domain is not\n")
	w.p(" * enabled.\n")
	if emit.HasUnbounded(sys) {
		w.p(" * BOUND. Each unbounded variable gets a bound (--bound, or by default\n")
		w.wrapped("", emit.BoundRule+"):")
		for j := range sys.Shared {
			if v := &sys.Shared[j]; v.Unbounded {
				w.wrapped("  ", emit.BoundText(v, sv.hi[j], bound))
			}
		}
		w.p(" * and every step that increases one asserts that it stays within it. A pan\n")
		w.p(" * run that reports such an assertion violated has found a reachable step\n")
		w.p(" * beyond the bound: EVERY VERDICT OF THIS MODEL IS MEANINGFUL ONLY WHEN NO\n")
		w.p(" * RUN REPORTS IT (else raise --bound).\n")
	}
}

// writeSharedDecls declares the shared variables and the scratch
// variables of simultaneous updates.
func writeSharedDecls(w *writer, sys *gsst.System, sv *sharedVars) {
	defer func() {
		for k := 0; k < sv.temps; k++ {
			w.p("hidden int %s_%d;\n", sv.tmp, k+1)
		}
	}()
	for j := range sys.Shared {
		v := &sys.Shared[j]
		switch {
		case v.Bool:
			w.p("bool %s = %v;\n", sv.name[j], v.Init == 1)
		case v.Values != nil:
			for k, c := range sv.consts[j] {
				w.p("#define %s\t%d\t/* %s of %s */\n", c, k, comment(v.Values[k]), comment(v.Name))
			}
			w.p("byte %s = %s;\n", sv.name[j], sv.consts[j][v.Init])
		default:
			typ := declType(sv.hi[j])
			if v.Lo < 0 {
				typ = "int"
			}
			w.p("%s %s = %d;\n", typ, sv.name[j], v.Init)
		}
	}
}

// update writes the statements of an update: the bound assertion of each
// unbounded variable it sets, then the assignments, through scratch
// variables when there are several (they read the values before the
// step).
func (sv *sharedVars) update(u gsst.Update, name namefn) ([]string, error) {
	as := make([]assignment, len(u.Assign))
	for k, a := range u.Assign {
		j, _ := sv.sys.SharedOf(a.Var)
		as[k] = assignment{j, a.Value}
	}
	return sv.assign(as, name)
}

// assignment is an assignment to shared variable j.
type assignment struct {
	j     int
	value presburger.Term
}

// assign writes the statements of simultaneous assignments (update).
func (sv *sharedVars) assign(as []assignment, name namefn) ([]string, error) {
	var asserts, pre, set []string
	for k, a := range as {
		j := a.j
		// pan.c computes the value, and compares it with the bound, in
		// its 32-bit int: refuse a value that could leave it.
		if err := checkInt(a.value, name); err != nil {
			return nil, fmt.Errorf("the update of %s: %w", sv.sys.Shared[j].Name, err)
		}
		e, err := emit.Linear(a.value, func(v presburger.Var) (string, error) {
			r, err := name(v)
			return r.name, err
		})
		if err != nil {
			return nil, err
		}
		if sv.sys.Shared[j].Unbounded {
			asserts = append(asserts, fmt.Sprintf("assert(%s <= %d)", e, sv.hi[j]))
		}
		if len(as) == 1 {
			set = append(set, sv.name[j]+" = "+e)
			continue
		}
		tmp := fmt.Sprintf("%s_%d", sv.tmp, k+1)
		pre = append(pre, tmp+" = "+e)
		set = append(set, sv.name[j]+" = "+tmp)
	}
	return append(append(asserts, pre...), set...), nil
}
