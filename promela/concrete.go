package promela

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// MaxConcreteProcesses bounds the number of processes of a concrete
// model: Spin runs at most 255 processes, and init is one of them.
const MaxConcreteProcesses = 254

// WriteConcrete writes the unreduced system sys as Promela (see the
// package documentation). Nothing is written when the system cannot be
// emitted.
func WriteConcrete(w io.Writer, sys *gsst.System, opts ...Option) error {
	p, err := Concrete(sys, opts...)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, p.Text)
	return err
}

// Concrete returns the Promela program of the unreduced system sys.
func Concrete(sys *gsst.System, opts ...Option) (*Program, error) {
	if err := sys.Unsupported("the Promela export", concreteSupports); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	cfg := emit.NewHeader(opts)
	if err := checkSystem(sys); err != nil {
		return nil, err
	}
	k, n := len(sys.States), sys.N()
	nm := newNamer()
	st := make([]string, k) // mtype constants of the local states
	for i, s := range sys.States {
		st[i] = nm.fresh(s)
	}
	procName := make([]string, len(sys.Groups))
	for g, G := range sys.Groups {
		procName[g] = nm.fresh(G.Name)
	}
	local, enAny := nm.fresh("st"), nm.fresh("en_any")
	grp := make([][]string, k) // grp[s][g]: variable #S[g]
	for s := range sys.States {
		grp[s] = make([]string, len(sys.Groups))
		for g, G := range sys.Groups {
			grp[s][g] = nm.fresh("c_" + sys.States[s] + "_" + G.Name)
		}
	}
	total := make([]string, k)
	for s := range sys.States {
		total[s] = nm.fresh("x_" + sys.States[s])
	}
	ext := sys.Extensions()
	sv, err := newSharedVars(sys, nm, n, cfg.Bound)
	if err != nil {
		return nil, errkind.Wrap(errkind.Input, fmt.Errorf("promela: %w", err))
	}
	name := func(v presburger.Var) (varRef, error) {
		if j, ok := sys.SharedOf(v); ok {
			return sv.ref(j), nil
		}
		if k, ok := sys.ParamOf(v); ok {
			x := int64(sys.Params[k].Value)
			return varRef{strconv.FormatInt(x, 10), x}, nil
		}
		s, g, ok := sys.Counter(v)
		switch {
		case !ok:
			return varRef{}, fmt.Errorf("variable %d is not a counter of the system", v)
		case g < 0:
			return varRef{total[s], int64(n)}, nil
		}
		return varRef{grp[s][g], int64(sys.Groups[g].Size)}, nil
	}

	// One macro per guarded block; "" for an unguarded one.
	guard := make([][]string, len(sys.Transitions))
	var guardDefs, guardNotes []string
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		guard[i] = make([]string, len(t.Blocks))
		for j, blk := range t.Blocks {
			full, ranged := blk.Guard, false
			if dom := sv.domain(blk.Update.Assign); dom != presburger.True {
				full, ranged = presburger.Conj(full, dom), true
			}
			if b, ok := full.(presburger.Bool); ok && bool(b) {
				continue
			}
			gs := make([]string, len(blk.Groups))
			for x, g := range blk.Groups {
				gs[x] = sys.Groups[g].Name
			}
			guard[i][j] = nm.fresh("g_" + sys.States[t.From] + "_" + sys.States[t.To] + "_" + strings.Join(gs, "_"))
			f, err := expr(full, name)
			if err != nil {
				return nil, guardError(sys.TransitionName(t)+" for groups "+strings.Join(gs, ", "), err)
			}
			guardDefs = append(guardDefs, fmt.Sprintf("#define %s\t(%s)\n", guard[i][j], f.s))
			text := blk.Text
			if text == "" {
				text = sys.FormatFormula(blk.Guard)
			}
			if ranged {
				text += "; and " + blk.Update.Text + " stays in its domain"
			}
			guardNotes = append(guardNotes, fmt.Sprintf(" *   %-12s %s, groups %s: %s\n", guard[i][j], comment(sys.TransitionName(t)), comment(strings.Join(gs, ", ")), comment(text)))
		}
	}
	// en_any: some process of a group of some block is in the source
	// state, and the block's guard holds.
	var anyTerms []string
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for j, blk := range t.Blocks {
			var cs []string
			for _, g := range blk.Groups {
				if sys.Groups[g].Size > 0 && blockIndex(t, g) == j {
					cs = append(cs, grp[t.From][g])
				}
			}
			if len(cs) == 0 {
				continue
			}
			term := strings.Join(cs, " + ") + " >= 1"
			if guard[i][j] != "" {
				term += " && " + guard[i][j]
			}
			anyTerms = append(anyTerms, term)
		}
	}
	rv, err := rendezvousSteps(sys, sv, nm, name)
	if err != nil {
		return nil, err
	}
	guardDefs = append(guardDefs, rv.defs...)
	guardNotes = append(guardNotes, rv.notes...)
	anyTerms = append(anyTerms, rv.enabled...)
	enAnyDef := "false"
	if len(anyTerms) > 0 {
		enAnyDef = strings.Join(anyTerms, " || ")
	}

	props := make([]property, len(sys.Properties))
	for i, p := range sys.Properties {
		props[i] = property{p.Name, p.Text, p.Formula}
	}
	claims, err := exportClaims(props, nm, func(f ctl.Formula) string { return ctl.FormatAtoms(f, sys.VarName, sys.TypedAtom) }, func(a presburger.Formula) (frag, error) { return expr(a, name) })
	if err != nil {
		return nil, err
	}
	claims = unfair(claims, len(sys.Fairness.Justice)+len(sys.Fairness.Weak) > 0)
	procs := 0
	for g := range sys.Groups {
		procs += sys.Groups[g].Size
	}
	prog := &Program{Claims: claims, Concrete: true, Processes: procs}

	w := &writer{}
	w.p("/*\n * Generated by vsym %s: concrete (unreduced) model (Promela for Spin 6).\n", comment(cfg.Version))
	w.p(" * System: %s\n", comment(sys.Name))
	if cfg.Source != "" {
		w.p(" * Source: %s\n", comment(cfg.Source))
	}
	status := cfg.Certification
	if status == "" {
		status = "not checked"
	}
	w.p(" * Certification: %s.\n", comment(status))
	w.p(" * This model is the system itself, with no abstraction: its verdicts are\n")
	w.p(" * exact whatever the certification says.\n")
	w.p(" *\n")
	w.p(" * %s, %d local states, %d local transitions. One proctype per\n", emit.Processes(n), k, len(sys.Transitions))
	w.p(" * group, one process per process of the system (started by init), whose\n")
	if ext != 0 {
		w.p(" * entry of the array %s holds its local state. A move is one d_step: the\n", sv.ps)
		w.p(" * process changes its entry and the counters c_S_g (#S[g]) and x_S (#S), which\n")
	} else {
		w.p(" * local variable %s holds its local state. A move is one d_step: the\n", local)
		w.p(" * process changes %s and the counters c_S_g (#S[g]) and x_S (#S), which\n", local)
	}
	w.p(" * guards and properties read. When no process can move, init stutters:\n")
	w.p(" * a deadlocked configuration loops on itself, as in vsym's own checkers.\n")
	w.p(" *\n")
	w.p(" * Fairness. Without -f, pan checks every path, as vsym does: its verdicts\n")
	w.p(" * equal vsym's on every claim. With -f (weak fairness: a process that can\n")
	w.p(" * move from some point on eventually moves), meant for the liveness claims,\n")
	w.p(" * pan checks only the fair paths, which no counter model can tell apart.\n")
	w.p(" * Safety claims do not depend on it. A universal liveness property (AF p,\n")
	w.p(" * A[p U q], AG (p -> AF q)) may then hold where vsym says it fails, and an\n")
	w.p(" * existential one checked through its negation (EG p) may fail where vsym\n")
	w.p(" * says it holds: the unfair paths that decided vsym's verdict are gone.\n")
	w.p(" * Never the other way round.\n")
	writeSharedHeader(w, sys, sv, cfg.Bound)
	w.p(" *\n * Local states (mtype constant, total counter x_S = #S):\n")
	for i, s := range sys.States {
		w.p(" *   %-12s %-12s #%s\n", st[i], total[i], comment(s))
	}
	w.p(" * Groups (proctype: processes):\n")
	for g, G := range sys.Groups {
		w.p(" *   %-12s %d of group %s\n", procName[g], G.Size, comment(G.Name))
	}
	w.p(" * Group counters: c_S_g = #S[g].\n")
	if len(guardNotes) > 0 {
		w.p(" * Guards (macro, transition, groups: guard as written):\n")
		for _, s := range guardNotes {
			w.b.WriteString(s)
		}
	}
	writeClaimHeader(w, claims, true)
	writeRunHeader(w, prog)
	w.p(" */\n\n")

	w.p("mtype = { %s };\n\n", strings.Join(st, ", "))
	for s := range sys.States {
		for g, G := range sys.Groups {
			w.p("%s %s = %d;\n", declType(G.Size), grp[s][g], sys.Init[g][s])
		}
	}
	for s := range sys.States {
		init := 0
		for g := range sys.Groups {
			init += sys.Init[g][s]
		}
		w.p("%s %s = %d;\n", declType(n), total[s], init)
	}
	if ext != 0 {
		writeSharedDecls(w, sys, sv)
		w.p("mtype %s[%d];\t/* the local state of every process */\n", sv.ps, n)
		w.p("hidden byte %s;\n", sv.loop)
	}
	w.p("\n")
	for _, def := range guardDefs {
		w.b.WriteString(def)
	}
	w.p("#define %s\t(%s)\n", enAny, enAnyDef)

	if ext != 0 {
		if err := writeExtProcs(w, sys, sv, procName, st, grp, total, guard, rv, name, enAny); err != nil {
			return nil, err
		}
		writeLTL(w, claims)
		prog.Text = w.b.String()
		return prog, nil
	}
	for g, G := range sys.Groups {
		if G.Size == 0 {
			continue
		}
		w.p("\nproctype %s(mtype %s)\n{\n", procName[g], local)
		var moves []string
		for i := range sys.Transitions {
			t := &sys.Transitions[i]
			j := blockIndex(t, g)
			if j < 0 {
				continue
			}
			cond := local + " == " + st[t.From]
			if guard[i][j] != "" {
				cond += " && " + guard[i][j]
			}
			moves = append(moves, fmt.Sprintf("\t:: d_step { %s -> %s = %s; %s--; %s++; %s--; %s++ }\n",
				cond, local, st[t.To], grp[t.From][g], grp[t.To][g], total[t.From], total[t.To]))
		}
		if len(moves) == 0 {
			w.p("\tfalse\t/* group %s takes no local transition */\n}\n", comment(G.Name))
			continue
		}
		w.p("\tdo\n%s\tod\n}\n", strings.Join(moves, ""))
	}

	w.p("\ninit\n{\n\tatomic {\n")
	var runs []string
	for g := range sys.Groups {
		for s := range sys.States {
			for c := 0; c < sys.Init[g][s]; c++ {
				runs = append(runs, fmt.Sprintf("\t\trun %s(%s)", procName[g], st[s]))
			}
		}
	}
	w.p("%s\n\t}\n", strings.Join(runs, ";\n"))
	w.p("\tdo\n\t:: !%s\t/* no process can move: stutter */\n\tod\n}\n", enAny)
	writeLTL(w, claims)
	prog.Text = w.b.String()
	return prog, nil
}

// checkSystem checks the limits of this emitter: at least one process,
// at most MaxConcreteProcesses, and at most 255 local states (an mtype
// has no more values).
func checkSystem(sys *gsst.System) error {
	switch n := sys.N(); {
	case n == 0:
		return errkind.Errorf(errkind.Input, "promela: system has no processes")
	case n > MaxConcreteProcesses:
		return errkind.Errorf(errkind.Limit, "promela: %d processes; Spin runs at most 255 processes, so the concrete model is limited to %d (init is one more)", n, MaxConcreteProcesses)
	case len(sys.States) > 255:
		return errkind.Errorf(errkind.Limit, "promela: %d local states; a Promela mtype has at most 255 values", len(sys.States))
	}
	return nil
}

// blockIndex returns the index in t.Blocks of the block that group g
// belongs to (gsst.Transition.BlockOf), or -1.
func blockIndex(t *gsst.Transition, g int) int {
	b := t.BlockOf(g)
	for j := range t.Blocks {
		if &t.Blocks[j] == b {
			return j
		}
	}
	return -1
}
