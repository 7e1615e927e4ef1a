package promela

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// concreteSupports are the constructs beyond the paper that the concrete
// model carries (TestSpinExt runs them through Spin against the oracle).
const concreteSupports = gsst.ExtShared | gsst.ExtParams | gsst.ExtBroadcast | gsst.ExtRendezvous

// MaxRendezvousSteps bounds the d_step options of the rendezvous of a
// concrete model: one per choice of distinct processes for the parts.
const MaxRendezvousSteps = 10_000

// sharedVars are the names of a concrete model beyond the paper: the
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

// newSharedVars names what a system beyond the paper needs in its
// concrete model; nothing for one within it, so that its model stays as
// it was.
func newSharedVars(sys *gsst.System, nm *namer, n, bound int) (*sharedVars, error) {
	if sys.Extensions() == 0 {
		return &sharedVars{sys: sys}, nil
	}
	sv, err := newVars(sys, nm, n, bound)
	if err != nil {
		return nil, err
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
// the system's transitions and rendezvous.
func (sv *sharedVars) scratch(nm *namer) {
	sv.tmp = nm.fresh("upd")
	for i := range sv.sys.Transitions {
		for _, b := range sv.sys.Transitions[i].Blocks {
			sv.temps = max(sv.temps, len(b.Update.Assign))
		}
	}
	for _, r := range sv.sys.Rendezvous {
		sv.temps = max(sv.temps, len(r.Update.Assign))
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

func (sv *sharedVars) domain(as []gsst.Assign) presburger.Formula {
	return emit.Domain(sv.sys, sv.hi, as, false)
}

// rendezvousParts holds the macros of the rendezvous of a system.
type rendezvousParts struct {
	guard   []string // macro of guard & update in its domain; "" when true
	enabled []string // distinct processes exist, and the guard holds
	defs    []string
	notes   []string
}

func rendezvousSteps(sys *gsst.System, sv *sharedVars, nm *namer, name namefn) (*rendezvousParts, error) {
	out := &rendezvousParts{}
	for r := range sys.Rendezvous {
		full, text := emit.RendezvousGuard(sys, sv.hi, r, false)
		g := ""
		if b, ok := full.(presburger.Bool); !ok || !bool(b) {
			g = nm.fresh(fmt.Sprintf("g_rv%d", r+1))
			f, err := expr(full, name)
			if err != nil {
				return nil, guardError("rendezvous "+emit.PartsText(sys, r), err)
			}
			out.defs = append(out.defs, fmt.Sprintf("#define %s\t(%s)\n", g, f.s))
			out.notes = append(out.notes, fmt.Sprintf(" *   %-12s rendezvous %s: %s\n", g, comment(emit.PartsText(sys, r)), comment(text)))
		}
		out.guard = append(out.guard, g)
		f, err := expr(presburger.Conj(emit.Hall(sys, r), full), name)
		if err != nil {
			return nil, guardError("rendezvous "+emit.PartsText(sys, r), err)
		}
		out.enabled = append(out.enabled, f.in(precAnd))
	}
	return out, nil
}

// writeSharedHeader states the parameters of the instance, the shared
// variables and the bound of the unbounded ones.
func writeSharedHeader(w *writer, sys *gsst.System, sv *sharedVars, bound int) {
	if len(sys.Params) > 0 {
		w.wrapped("", "Parameters of this instance (folded into constants): "+emit.ParamsText(sys)+".")
		w.p(" *\n")
	}
	if sys.Extensions() == 0 {
		return
	}
	w.p(" * Beyond one process per step: the local states live in the global array\n")
	w.p(" * %s, so that a broadcast (a loop over the other processes, inside the\n", sv.ps)
	w.p(" * mover's d_step) and a rendezvous (one d_step in init per choice of\n")
	w.p(" * distinct processes for its parts) can move several processes at once.\n")
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

// moveText writes the statements that move process p (an expression)
// of group g from state u to v: its entry of ps and the counters.
func moveText(sv *sharedVars, p string, g, u, v int, st []string, grp [][]string, total []string) string {
	return fmt.Sprintf("%s[%s] = %s; %s--; %s++; %s--; %s++", sv.ps, p, st[v], grp[u][g], grp[v][g], total[u], total[v])
}

// writeExtProcs writes the proctypes and init of a system beyond the
// paper.
func writeExtProcs(w *writer, sys *gsst.System, sv *sharedVars, procName, st []string, grp [][]string, total []string, guard [][]string, rv *rendezvousParts, name namefn, enAny string) error {
	first := make([]int, len(sys.Groups)+1)
	for g := range sys.Groups {
		first[g+1] = first[g] + sys.Groups[g].Size
	}
	n := first[len(sys.Groups)]
	groupOf := func(p int) int {
		for g := range sys.Groups {
			if p < first[g+1] {
				return g
			}
		}
		return -1
	}
	for g, G := range sys.Groups {
		if G.Size == 0 {
			continue
		}
		w.p("\nproctype %s(byte me)\n{\n", procName[g])
		var moves []string
		for i := range sys.Transitions {
			t := &sys.Transitions[i]
			j := blockIndex(t, g)
			if j < 0 {
				continue
			}
			cond := fmt.Sprintf("%s[me] == %s", sv.ps, st[t.From])
			if guard[i][j] != "" {
				cond += " && " + guard[i][j]
			}
			body := []string{moveText(sv, "me", g, t.From, t.To, st, grp, total)}
			up, err := sv.update(t.Blocks[j].Update, name)
			if err != nil {
				return guardError(sys.TransitionName(t), err)
			}
			body = append(body, up...)
			if len(t.Broadcast) > 0 {
				body = append(body, broadcastLoop(sys, sv, t, n, first, st, grp, total))
			}
			moves = append(moves, fmt.Sprintf("\t:: d_step { %s ->\n\t\t%s }\n", cond, strings.Join(body, ";\n\t\t")))
		}
		if len(moves) == 0 {
			w.p("\tfalse\t/* group %s takes no local transition */\n}\n", comment(G.Name))
			continue
		}
		w.p("\tdo\n%s\tod\n}\n", strings.Join(moves, ""))
	}

	var joins []string
	for r := range sys.Rendezvous {
		rz := &sys.Rendezvous[r]
		up, err := sv.update(rz.Update, name)
		if err != nil {
			return guardError("rendezvous "+emit.PartsText(sys, r), err)
		}
		var rec func(j int, chosen []int) error
		rec = func(j int, chosen []int) error {
			if j == len(rz.Parts) {
				if len(joins) >= MaxRendezvousSteps {
					return errkind.Errorf(errkind.Limit, "promela: the rendezvous need more than %d d_step options (one per choice of distinct processes for the parts)", MaxRendezvousSteps)
				}
				var conds, body []string
				for x, p := range chosen {
					pt := rz.Parts[x]
					conds = append(conds, fmt.Sprintf("%s[%d] == %s", sv.ps, p, st[pt.From]))
					body = append(body, moveText(sv, strconv.Itoa(p), groupOf(p), pt.From, pt.To, st, grp, total))
				}
				if rv.guard[r] != "" {
					conds = append(conds, rv.guard[r])
				}
				body = append(body, up...)
				joins = append(joins, fmt.Sprintf("\t:: d_step { %s ->\n\t\t%s }\t/* rendezvous %s */\n", strings.Join(conds, " && "), strings.Join(body, ";\n\t\t"), comment(emit.PartsText(sys, r))))
				return nil
			}
			for p := range n {
				if emit.Eligible(rz.Parts[j].Groups, groupOf(p)) && !containsInt(chosen, p) {
					if err := rec(j+1, append(chosen, p)); err != nil {
						return err
					}
				}
			}
			return nil
		}
		if err := rec(0, nil); err != nil {
			return err
		}
	}

	w.p("\ninit\n{\n\tatomic {\n")
	var runs []string
	p := 0
	for g := range sys.Groups {
		for s := range sys.States {
			for c := 0; c < sys.Init[g][s]; c++ {
				runs = append(runs, fmt.Sprintf("\t\t%s[%d] = %s", sv.ps, p, st[s]))
				p++
			}
		}
	}
	p = 0
	for g := range sys.Groups {
		for c := 0; c < sys.Groups[g].Size; c++ {
			runs = append(runs, fmt.Sprintf("\t\trun %s(%d)", procName[g], p))
			p++
		}
	}
	w.p("%s\n\t}\n", strings.Join(runs, ";\n"))
	w.p("\tdo\n\t:: !%s\t/* no process can move: stutter */\n%s\tod\n}\n", enAny, strings.Join(joins, ""))
	return nil
}

// broadcastLoop writes the loop that moves, at a step of t, every other
// process in a transfer's source (of its groups) to its target; each
// process is looked at once, in its state before the step. The loop
// index is reset after the loop: besides leaving no trace, a statement
// after the od keeps Spin 6 from jumping to a label it never defines when
// break ends a d_step.
func broadcastLoop(sys *gsst.System, sv *sharedVars, t *gsst.Transition, n int, first []int, st []string, grp [][]string, total []string) string {
	i := sv.loop
	var opts []string
	for _, tf := range t.Broadcast {
		for g, G := range sys.Groups {
			if G.Size == 0 || !emit.Eligible(tf.Groups, g) {
				continue
			}
			cond := fmt.Sprintf("%s != me && %s[%s] == %s", i, sv.ps, i, st[tf.From])
			if len(sys.Groups) > 1 {
				cond = fmt.Sprintf("%s != me && %s >= %d && %s < %d && %s[%s] == %s", i, i, first[g], i, first[g+1], sv.ps, i, st[tf.From])
			}
			opts = append(opts, fmt.Sprintf("\t\t   :: %s -> %s\n", cond, moveText(sv, i, g, tf.From, tf.To, st, grp, total)))
		}
	}
	return fmt.Sprintf("%s = 0;\n\t\tdo\n\t\t:: %s < %d ->\n\t\t   if\n%s\t\t   :: else -> skip\n\t\t   fi;\n\t\t   %s++\n\t\t:: else -> break\n\t\tod;\n\t\t%s = 0", i, i, n, strings.Join(opts, ""), i, i)
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
