package nusmv

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// MaxConcreteProcesses bounds the number of processes of a concrete model:
// its text grows with processes times local transitions, and NuSMV could
// not check a larger one anyway.
const MaxConcreteProcesses = 100_000

// WriteConcrete writes the unreduced system sys as a NuSMV 2.6 main module
// (see the package documentation). Nothing is written when the system
// cannot be emitted.
func WriteConcrete(w io.Writer, sys *gsst.System, opts ...Option) error {
	text, err := Concrete(sys, opts...)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, text)
	return err
}

// Concrete returns the NuSMV text of the unreduced system sys.
func Concrete(sys *gsst.System, opts ...Option) (string, error) {
	cfg := emit.NewHeader(opts)
	if err := checkSystem(sys); err != nil {
		return "", err
	}
	k, d := len(sys.States), len(sys.Groups)
	n := sys.N()
	nm := newNamer()
	pick, trVar, stutter, enAny := nm.fresh("pick"), nm.fresh("tr"), nm.fresh("stutter"), nm.fresh("en_any")

	st := make([]string, k) // symbolic constants of the local states
	for i, s := range sys.States {
		st[i] = nm.fresh(s)
	}
	total := make([]string, k)
	for i, s := range sys.States {
		total[i] = nm.fresh("x_" + s)
	}
	grp := make([][]string, k) // grp[s][g]: define of #S[g]
	for i, s := range sys.States {
		grp[i] = make([]string, d)
		for g, G := range sys.Groups {
			grp[i][g] = nm.fresh("c_" + s + "_" + G.Name)
		}
	}
	// Processes, group by group; process j (0-based) is picked by pick = j+1.
	var procs []proc
	for g, G := range sys.Groups {
		idx := 0
		for s := range sys.States {
			for c := 0; c < sys.Init[g][s]; c++ {
				idx++
				procs = append(procs, proc{nm.fresh("p_" + G.Name + "_" + strconv.Itoa(idx)), g, s})
			}
		}
	}
	tval := make([]string, len(sys.Transitions))
	for i, t := range sys.Transitions {
		tval[i] = nm.fresh("t_" + sys.States[t.From] + "_" + sys.States[t.To])
	}
	// The arithmetic counter defines are written only where a comparison
	// falls back to arithmetic (countCompiler): used[s] marks #S's group
	// counters and usedTotal[s] #S itself.
	used, usedTotal := make([]bool, k), make([]bool, k)
	steps := sys.Steps()
	sv, err := newSharedVars(sys, nm, n, cfg.Bound)
	if err != nil {
		return "", errkind.Wrap(errkind.Input, fmt.Errorf("nusmv: %w", err))
	}
	rvVal := make([]string, len(sys.Rendezvous))
	for r := range sys.Rendezvous {
		rvVal[r] = nm.fresh("rv" + strconv.Itoa(r+1))
	}
	envVal := make([]string, len(sys.Environment))
	for e := range sys.Environment {
		envVal[e] = nm.fresh(emit.EnvironmentIdent(sys, e))
	}
	// stepVal[i]: the value of tr that names step i (the blocks of a
	// transition share one; the pick tells them apart by group).
	stepVal := make([]string, len(steps))
	for i := range steps {
		switch o := &steps[i].Origin; {
		case o.Rendezvous >= 0:
			stepVal[i] = rvVal[o.Rendezvous]
		case o.Environment >= 0:
			stepVal[i] = envVal[o.Environment]
		default:
			stepVal[i] = tval[o.Transition]
		}
	}
	picks := []string{pick}
	for j := 1; j < maxParts(steps); j++ {
		picks = append(picks, nm.fresh("pick"+strconv.Itoa(j+1)))
	}
	counterName := func(v presburger.Var) (string, error) {
		s, g, ok := sys.Counter(v)
		switch {
		case !ok:
			return "", fmt.Errorf("variable %d is not a counter of the system", v)
		case g < 0:
			used[s], usedTotal[s] = true, true
			return total[s], nil
		}
		used[s] = true
		return grp[s][g], nil
	}
	name := sv.names(func(v presburger.Var) (string, error) {
		if k, ok := sys.ParamOf(v); ok {
			return literal(int64(sys.Params[k].Value))
		}
		return counterName(v)
	})
	cc := newCountCompiler(sys, procs, st, nm, arith(name, sv.magnitude))
	atom := sv.atom(cc.atom, name)
	guards, err := newStepGuards(sys, sv, stepVal, nm, atom)
	if err != nil {
		return "", err
	}
	boundName := ""
	if emit.HasUnbounded(sys) {
		boundName = nm.fresh("bound_ok")
	}
	boundOK, err := concreteBound(sys, sv, atom, boundName)
	if err != nil {
		return "", err
	}
	// Properties read total and group counters, both defined below.
	ps := make([]counterabs.Property, len(sys.Properties))
	for i, p := range sys.Properties {
		ps[i] = counterabs.Property{Name: p.Name, Text: p.Text, Pos: p.Pos, Formula: p.Formula}
	}
	props, err := properties(ps, nm, atom)
	if err != nil {
		return "", err
	}
	firstProc := make([]int, len(sys.Groups)) // index of each group's first process
	for g := 1; g < len(sys.Groups); g++ {
		firstProc[g] = firstProc[g-1] + sys.Groups[g-1].Size
	}
	fair, err := concreteJustice(sys, atom, pick, trVar, stutter, tval, guards.name, firstProc)
	if err != nil {
		return "", err
	}

	// en_any: some step is enabled.
	var anyTerms []string
	for i := range steps {
		f, err := formula(byGroups(sys, sys.MoversFormula(steps[i].Parts)), atom)
		if err != nil {
			return "", exprError(sys.StepName(&steps[i]), err)
		}
		if f.s == "FALSE" {
			continue // no process of these groups
		}
		term := f.in(precAnd)
		if guards.name[i] != "" {
			term += " & " + guards.name[i]
		}
		anyTerms = append(anyTerms, term)
	}
	// A step that does more than move one process reads tr in every
	// case line it writes (transfers, updates, the parts of a
	// rendezvous), so every move must say which step it takes.
	several := false
	for i := range steps {
		several = several || !steps[i].Simple()
	}
	readsTr := several || len(sys.Fairness.Weak) > 0

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p("-- Generated by vsym %s: concrete (unreduced) model (NuSMV 2.6 input).\n", comment(cfg.Version))
	p("-- System: %s\n", comment(sys.Name))
	if cfg.Source != "" {
		p("-- Source: %s\n", comment(cfg.Source))
	}
	status := cfg.Certification
	if status == "" {
		status = "not checked"
	}
	p("-- Certification: %s.\n", comment(status))
	p("-- This model is the system itself, with no abstraction: its verdicts are\n")
	p("-- exact whatever the certification says.\n")
	writeRunHint(p)
	p("-- %s, %d local states, %d local transitions. One variable per\n", emit.Processes(n), k, len(sys.Transitions))
	p("-- process holds its local state. IVAR %s picks the process and IVAR %s the\n", pick, trVar)
	p("-- local transition of a step (asynchronous interleaving); %s = %s is allowed\n", trVar, stutter)
	p("-- exactly when no process can move, so a deadlocked configuration loops on\n")
	if several {
		p("-- itself (the same convention as vsym's own checkers). Every move reads %s:\n", trVar)
		p("-- updates, broadcasts and rendezvous act by the transition taken.\n")
	} else {
		p("-- itself (the same convention as vsym's own checkers). A move reads %s only\n", trVar)
		p("-- where its process's state leaves a choice or weak fairness needs to know.\n")
	}
	p("--\n-- Local states (GSST name: symbolic constant):\n")
	for i, s := range sys.States {
		p("--   %-12s %s\n", comment(s), st[i])
	}
	p("-- Processes (group: variables, values of %s):\n", pick)
	first := 0
	for _, G := range sys.Groups {
		if G.Size == 0 {
			p("--   %s: none\n", comment(G.Name))
			continue
		}
		last := first + G.Size - 1
		if G.Size == 1 {
			p("--   %s: %s (%d)\n", comment(G.Name), procs[first].name, first+1)
		} else {
			p("--   %s: %s .. %s (%d..%d)\n", comment(G.Name), procs[first].name, procs[last].name, first+1, last+1)
		}
		first = last + 1
	}
	writeSharedComments(p, sys, sv, cfg.Bound, boundName)
	writeRendezvousComments(p, sys, rvVal, picks)
	if len(sys.Environment) > 0 {
		p("-- Environment steps (value of %s: no process moves by its own choice):\n", trVar)
		for e := range sys.Environment {
			p("--   %-12s %s\n", envVal[e], comment(sys.EnvironmentName(e)))
		}
	}
	if len(cc.notes) > 0 {
		p("-- Counts: guards and specifications compare counts with constants in\n")
		p("-- Boolean form. n_X_geK is TRUE when the count n_X is at least K (K = m3:\n")
		p("-- -3), decided process by process (n_X_geK_pI: processes I.. only):\n")
		for _, s := range cc.notes {
			b.WriteString(s)
		}
	}
	var arithNames []string
	for s := range sys.States {
		if usedTotal[s] {
			arithNames = append(arithNames, total[s]+" = #"+comment(sys.States[s]))
		}
		if used[s] {
			for g, G := range sys.Groups {
				arithNames = append(arithNames, grp[s][g]+" = #"+comment(sys.States[s]+"["+G.Name+"]"))
			}
		}
	}
	if len(arithNames) > 0 {
		p("-- Arithmetic counters (where a comparison was too large for Boolean form):\n")
		p("--   %s\n", wrapJoin(arithNames, ", ", "--   "))
	}
	if len(sys.Transitions) > 0 {
		p("-- Local transitions (value of %s):\n", trVar)
		for i := range sys.Transitions {
			p("--   %-12s %s\n", tval[i], comment(sys.TransitionName(&sys.Transitions[i])))
		}
	}
	if len(guards.notes) > 0 {
		p("-- Guards (define, transition, groups: guard as written):\n")
		for _, s := range guards.notes {
			b.WriteString(s)
		}
	}
	writePropComments(p, props)
	writeJusticeComments(p, fair)
	p("\nMODULE main\n")

	p("VAR\n")
	enum := "{" + strings.Join(st, ", ") + "}"
	for _, pr := range procs {
		p("  %s : %s;\n", pr.name, enum)
	}
	for j := range sys.Shared {
		p("  %s : %s;\n", sv.name[j], sv.typ(j))
	}

	p("IVAR\n")
	for _, pk := range picks {
		p("  %s : 1..%d;\n", pk, n)
	}
	vals := append(slices.Concat(tval, rvVal, envVal), stutter)
	p("  %s : {%s};\n", trVar, wrapJoin(vals, ", ", "      "))

	p("DEFINE\n")
	for s := range sys.States {
		if !used[s] {
			continue
		}
		for g := range sys.Groups {
			// toint(b) is 1 when b holds, else 0 (NuSMV 2.5 and later).
			var terms []string
			for _, pr := range procs {
				if pr.group == g {
					terms = append(terms, "toint("+pr.name+" = "+st[s]+")")
				}
			}
			if len(terms) == 0 {
				p("  %s := 0;\n", grp[s][g])
				continue
			}
			p("  %s := %s;\n", grp[s][g], wrapJoin(terms, " + ", "      "))
		}
	}
	for s := range sys.States {
		if usedTotal[s] {
			p("  %s := %s;\n", total[s], strings.Join(grp[s], " + "))
		}
	}
	for _, def := range sv.defines() {
		b.WriteString(def)
	}
	for _, def := range cc.defs {
		b.WriteString(def)
	}
	for _, def := range guards.defs {
		b.WriteString(def)
	}
	if len(anyTerms) == 0 {
		p("  %s := FALSE;\n", enAny)
	} else {
		p("  %s := %s;\n", enAny, wrapJoin(anyTerms, " | ", "      "))
	}
	// can[i] lists, for process i, "tr = t & p = U [& guard]" per step
	// of one part its group may take, with the target state. "tr = t"
	// is left out where it decides nothing: t is the only step the group
	// may take from U, and nothing reads tr (no weak fairness, whose
	// JUSTICE constraints read tr = t, and no step that does more than
	// move its process: with tr free on some moves, a step by one
	// transition could claim to be another). tr then only tells a move
	// from a stutter step, and several of its values name the same step,
	// which changes no CTL verdict (inputs are not part of a state).
	// Measured with NuSMV 2.6 -df on concrete GR&W d=5, q=20, m=10,
	// where every state has one way out, this cut the check from 8.4 s
	// to 2.4 s of CPU.
	ways := make([][]int, len(sys.Groups)) // ways[g][s]: steps of one part g may take from s
	for g := range sys.Groups {
		ways[g] = make([]int, k)
		for i := range steps {
			if len(steps[i].Parts) == 1 && steps[i].Parts[0].Allows(g) {
				ways[g][steps[i].Parts[0].From]++
			}
		}
	}
	type move struct{ cond, to string }
	can := make([][]move, len(procs))
	for i, pr := range procs {
		for j := range steps {
			if len(steps[j].Parts) != 1 || !steps[j].Parts[0].Allows(pr.group) {
				continue
			}
			pt := &steps[j].Parts[0]
			cond := fmt.Sprintf("%s = %s", pr.name, st[pt.From])
			if readsTr || ways[pr.group][pt.From] > 1 {
				cond = fmt.Sprintf("%s = %s & %s", trVar, stepVal[j], cond)
			}
			if guards.name[j] != "" {
				cond += " & " + guards.name[j]
			}
			can[i] = append(can[i], move{cond, st[pt.To]})
		}
	}

	p("ASSIGN\n")
	for _, pr := range procs {
		// A process of a group spread over several states starts in
		// any of them: the processes' choices give every distribution.
		p("  init(%s) := %s;\n", pr.name, initialStates(sys, pr, st))
	}
	for j := range sys.Shared {
		p("  init(%s) := %s;\n", sv.name[j], sv.initial(j, &sys.Shared[j]))
	}
	for i, pr := range procs {
		lines := make([]string, 0, len(can[i]))
		for _, mv := range can[i] {
			lines = append(lines, fmt.Sprintf("%s = %d & %s : %s;", pick, i+1, mv.cond, mv.to))
		}
		lines = append(lines, joinMoves(steps, i, pr.group, trVar, picks, stepVal, st)...)
		lines = append(lines, transferMoves(steps, i, pr.group, trVar, picks, stepVal, st, pr.name)...)
		writeNext(p, pr.name, lines)
	}
	for j := range sys.Shared {
		lines, err := sharedMoves(sys, sv, j, name, pick, trVar, stepVal, guards.name, firstProc)
		if err != nil {
			return "", err
		}
		writeNext(p, sv.name[j], lines)
	}

	var chosen []string
	for i := range procs {
		if len(can[i]) == 0 {
			continue
		}
		cs := make([]string, len(can[i]))
		for j, mv := range can[i] {
			cs[j] = mv.cond
		}
		chosen = append(chosen, fmt.Sprintf("%s = %d & (%s)", pick, i+1, strings.Join(cs, " | ")))
	}
	for i := range steps {
		if len(steps[i].Parts) != 1 {
			chosen = append(chosen, fmt.Sprintf("%s = %s & %s", trVar, stepVal[i], partsChoice(&steps[i], procs, picks, st, guards.name[i])))
		}
	}
	p("TRANS (%s = %s -> !%s)\n", trVar, stutter, enAny)
	if len(chosen) == 0 {
		p("  & (%s != %s -> FALSE);\n", trVar, stutter)
	} else {
		p("  & (%s != %s -> (\n        %s\n    ));\n", trVar, stutter, strings.Join(chosen, "\n      | "))
	}

	writeJustice(p, fair)
	if boundName != "" {
		p("INVARSPEC NAME %s := %s;\n", boundName, boundOK)
	}
	writeSpecs(p, props)
	return b.String(), nil
}

// checkSystem checks the limits of this emitter: fixed sizes, finitely
// many initial configurations, at least one process and at most
// MaxConcreteProcesses.
func checkSystem(sys *gsst.System) error {
	if err := sys.NeedFixed("the concrete NuSMV model"); err != nil {
		return err
	}
	if err := sys.FiniteInitial(); err != nil {
		return err
	}
	switch n := sys.N(); {
	case n == 0:
		return errkind.Errorf(errkind.Input, "nusmv: system has no processes")
	case n > MaxConcreteProcesses:
		return errkind.Errorf(errkind.Limit, "nusmv: %d processes; the concrete model is limited to %d", n, MaxConcreteProcesses)
	}
	return nil
}

// writeNext writes the ASSIGN of next(v): the case lines, then v keeps
// its value.
func writeNext(p func(string, ...any), v string, lines []string) {
	if len(lines) == 0 {
		p("  next(%s) := %s;\n", v, v)
		return
	}
	p("  next(%s) := case\n", v)
	for _, l := range lines {
		p("      %s\n", l)
	}
	p("      TRUE : %s;\n    esac;\n", v)
}
