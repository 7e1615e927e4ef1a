package promela

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// WriteReduced writes the counter model m as Promela (see the package
// documentation). Nothing is written when the model cannot be emitted.
func WriteReduced(w io.Writer, m *counterabs.Model, opts ...Option) error {
	p, err := Reduced(m, opts...)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, p.Text)
	return err
}

// Reduced returns the Promela program of the counter model m, of either
// level.
func Reduced(m *counterabs.Model, opts ...Option) (*Program, error) {
	cfg := emit.NewHeader(opts)
	sys := m.System
	k := len(m.Counters)
	group := m.Level == counterabs.GroupLevel
	nm := newNamer()
	proc := nm.fresh("counters")

	// At the group level the model also keeps the total counter of every
	// local state as a variable (presburger.Var(m.NumVars()+s) below, after
	// the counters and the shared variables), moved in step
	// with the group counters: guards and properties over totals then read
	// one variable instead of a sum over every group, which keeps ltl
	// formulas within what Spin's LTL translator accepts.
	var total []string
	if group {
		for _, s := range sys.States {
			total = append(total, nm.fresh("x_"+s))
		}
	}
	ctr := make([]string, k)
	limit := make([]int, k) // the sum of the counter's pool: its largest value
	for i, c := range m.Counters {
		base := "x_" + sys.States[c.State]
		if group {
			base += "_" + sys.Groups[c.Group].Name
		}
		ctr[i] = nm.fresh(base)
	}
	for _, p := range m.Pools {
		for _, c := range p.Counters {
			limit[c] = p.Sum
		}
	}
	// A model some of whose transitions do more than move one process
	// writes each step's statements in full (effectStatements); the
	// others move two counters by one. Shared variables are declared
	// either way.
	full := false
	for i := range m.Transitions {
		full = full || !unitMove(&m.Transitions[i])
	}
	vars := full || len(m.Shared) > 0
	sv := &sharedVars{sys: sys}
	if vars {
		var err error
		if sv, err = newVars(sys, nm, m.N, cfg.Bound); err != nil {
			return nil, errkind.Wrap(errkind.Input, fmt.Errorf("promela: %w", err))
		}
		sv.tmp = nm.fresh("upd")
		for i := range m.Transitions {
			t := &m.Transitions[i]
			moved := 0
			if len(t.Also) > 0 || len(t.Transfers) > 0 {
				moved = k // at most every counter changes
			}
			if x := moved + len(t.Assign); x > 1 {
				sv.temps = max(sv.temps, x)
			}
		}
	}
	nv := m.NumVars()
	name := func(v presburger.Var) (varRef, error) {
		switch {
		case v >= 0 && int(v) < k:
			return varRef{ctr[v], int64(limit[v])}, nil
		case int(v) >= k && int(v) < nv:
			return sv.ref(int(v) - k), nil
		case group && int(v) >= nv && int(v) < nv+len(total):
			return varRef{total[int(v)-nv], int64(m.N)}, nil
		}
		return varRef{}, fmt.Errorf("variable %d is not a counter of the model", v)
	}
	fold := func(f presburger.Formula) presburger.Formula { return f }
	if group {
		fold = func(f presburger.Formula) presburger.Formula { return foldTotals(m, f) }
	}

	en := make([]string, len(m.Transitions))
	enDef := make([]string, len(m.Transitions))
	for i := range m.Transitions {
		t := &m.Transitions[i]
		base := fmt.Sprintf("en_rv%d", t.Rendezvous+1)
		switch lt := m.Local(t); {
		case lt != nil && lt.Name != "":
			base = "en_" + lt.Name // several transitions may join these states
		case lt != nil:
			base = "en_" + sys.States[lt.From] + "_" + sys.States[lt.To]
		case t.IsEnvironment():
			base = "en_" + emit.EnvironmentIdent(sys, t.Environment)
		}
		if t.Group >= 0 {
			base += "_" + sys.Groups[t.Group].Name
		}
		en[i] = nm.fresh(base)
		g, err := expr(fold(t.Guard), name)
		if err != nil {
			return nil, guardError(m.TransitionName(t), err)
		}
		enDef[i] = g.s
	}

	var mayDeadlock string
	if b, isBool := m.MayDeadlock.(presburger.Bool); m.MayDeadlock != nil && !(isBool && !bool(b)) {
		md, err := expr(fold(m.MayDeadlock), name)
		if err != nil {
			return nil, errkind.Errorf(errkind.Internal, "promela: deadlock condition: %w", err)
		}
		mayDeadlock = md.s
	}

	props := make([]property, len(m.Properties))
	for i, p := range m.Properties {
		props[i] = property{p.Name, p.Text, ctl.MapAtoms(p.Formula, fold)}
	}
	reason := func(v presburger.Var) string {
		if group && int(v) >= nv && int(v) < nv+len(total) {
			return "#" + sys.States[int(v)-nv]
		}
		return m.VarName(v)
	}
	claims, err := exportClaims(props, nm, func(f ctl.Formula) string {
		return ctl.FormatAtoms(f, reason, func(c presburger.Cmp) (string, int, bool) { return gsst.TypedAtom(c, reason, m.SharedAt) })
	}, func(a presburger.Formula) (frag, error) { return expr(a, name) })
	if err != nil {
		return nil, err
	}
	claims = unfair(claims, len(m.Justice) > 0)
	starts := m.Starts()
	var started string
	if len(starts) > 1 {
		if len(starts) > maxPromelaStarts {
			return nil, errkind.Errorf(errkind.Limit, "promela: the model has %d initial states; the export lists at most %d", len(starts), maxPromelaStarts)
		}
		started = nm.fresh("started")
		startedLTL(claims, started)
	}
	prog := &Program{Claims: claims}

	w := &writer{}
	w.p("/*\n * Generated by vsym %s: %s-counter model (Promela for Spin 6).\n", comment(cfg.Version), m.Level)
	w.p(" * System: %s\n", comment(sys.Name))
	if cfg.Source != "" {
		w.p(" * Source: %s\n", comment(cfg.Source))
	}
	switch {
	case group:
		if cfg.Certification != "" {
			w.p(" * Certification: %s.\n", comment(cfg.Certification))
		}
		w.p(" * The group-counter model is the quotient of the system under permutations\n")
		w.p(" * inside each group, whatever the certification: verdicts are exact.\n")
	case m.Exact:
		w.p(" * Certification: certified fully virtually symmetric")
		if cfg.Certification != "" {
			w.p(" (%s)", comment(cfg.Certification))
		}
		w.p(".\n * The counter model is isomorphic to the symmetry quotient: verdicts are exact.\n")
	default:
		w.p("%s", uncertifiedBanner(cfg.Certification))
	}
	w.p(" *\n")
	if group {
		w.p(" * %s, %d local states, %d groups, %d moves. One counter per group\n", emit.Processes(m.N), len(sys.States), len(sys.Groups), len(m.Transitions))
		w.p(" * and local state: x_S_g is the number of processes of group g in S; each\n")
		w.p(" * group's counters sum to its size. x_S, the number of processes in S, is\n")
		w.p(" * kept in step with them (it adds no state).\n")
	} else {
		w.p(" * %s, %d local states, %d local transitions. One counter per local\n", emit.Processes(m.N), k, len(m.Transitions))
		w.p(" * state: x_S is the number of processes in S; the counters sum to %d.\n", m.N)
	}
	w.p(" * One process, %s, repeats forever: pick an enabled move and take it as\n", proc)
	w.p(" * one d_step (one transition of the model). When no move is enabled its\n")
	w.p(" * else branch stutters: a deadlocked configuration loops on itself, as in\n")
	w.p(" * vsym's own checkers, so every path is infinite, Spin never meets an\n")
	w.p(" * invalid end state, and every verdict below means what vsym's means.\n")
	w.p(" *\n * Counters:\n")
	for i, s := range total {
		w.p(" *   %-12s #%s\n", s, comment(sys.States[i]))
	}
	for i := range m.Counters {
		w.p(" *   %-12s %s\n", ctr[i], comment(m.CounterName(i)))
	}
	if len(m.Transitions) > 0 {
		w.p(" * Moves (enabling macro, transition, how its guard was built):\n")
		for i := range m.Transitions {
			t := &m.Transitions[i]
			w.p(" *   %-12s %s (case %s)\n", en[i], comment(m.TransitionName(t)), t.Case)
		}
	}
	if len(m.Shared) > 0 {
		w.p(" *\n")
		writeVarsHeader(w, sys, sv, cfg.Bound)
	}
	if started != "" {
		writeInitialHeader(w, fmt.Sprintf("the model has %d initial states, and %s's first step, one d_step per initial state, sets the counters and shared variables to one of them and then %s.", len(starts), proc, started), started)
	}
	writeClaimHeader(w, claims, false)
	writeRunHeader(w, prog)
	w.p(" */\n\n")

	for i, s := range total {
		w.p("%s %s = %d;\n", declType(m.N), s, initTotal(m, i))
	}
	for i := range m.Counters {
		w.p("%s %s = %d;\n", declType(limit[i]), ctr[i], m.Init[i])
	}
	if vars {
		writeSharedDecls(w, sys, sv)
	}
	if len(m.Transitions) > 0 {
		w.p("\n")
	}
	for i := range m.Transitions {
		w.p("#define %s\t(%s)\n", en[i], enDef[i])
	}
	if started != "" {
		w.p("bool %s = false;\t/* set once the initial state is chosen */\n", started)
	}
	w.p("\nactive proctype %s()\n{\n", proc)
	if started != "" {
		w.p("\tif\n")
		for _, x := range starts {
			var set []string
			for i := range m.Counters {
				set = append(set, fmt.Sprintf("%s = %d", ctr[i], x[i]))
			}
			for s := range total {
				tot := 0
				for i, c := range m.Counters {
					if c.State == s {
						tot += x[i]
					}
				}
				set = append(set, fmt.Sprintf("%s = %d", total[s], tot))
			}
			for j := range sys.Shared {
				set = append(set, fmt.Sprintf("%s = %s", sv.name[j], sv.value(j, x[k+j])))
			}
			w.p("\t:: d_step { %s; %s = true }\n", strings.Join(set, "; "), started)
		}
		w.p("\tfi;\n")
	}
	w.p("\tdo\n")
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if full {
			upd, err := effectStatements(m, t, sv, ctr, total, name)
			if err != nil {
				return nil, guardError(m.TransitionName(t), err)
			}
			w.p("\t:: d_step { %s ->\n\t\t%s }\n", en[i], strings.Join(upd, ";\n\t\t"))
			continue
		}
		upd := []string{ctr[t.From] + "--", ctr[t.To] + "++"}
		if group {
			lt := m.Local(t)
			upd = append(upd, total[lt.From]+"--", total[lt.To]+"++")
		}
		w.p("\t:: d_step { %s -> %s }\n", en[i], strings.Join(upd, "; "))
	}
	if mayDeadlock != "" {
		// A forced model also stutters where some configuration with these
		// totals may be deadlocked, so that every deadlock of the system has
		// a counterpart (counterabs.Model.MayDeadlock).
		w.p("\t:: d_step { (%s) -> skip }\t/* may be deadlocked (forced model): stutter */\n", mayDeadlock)
	}
	w.p("\t:: else\t/* no move is enabled: stutter */\n\tod\n}\n")
	writeLTL(w, claims)
	prog.Text = w.b.String()
	return prog, nil
}

// initTotal returns the initial number of processes in local state s.
func initTotal(m *counterabs.Model, s int) int {
	n := 0
	for g := range m.System.Groups {
		n += m.System.Init[g][s]
	}
	return n
}

// foldTotals rewrites f, a formula over the counters of a group-level
// model m, so that wherever every group counter of a local state s occurs
// with one coefficient c, they are replaced by c times the total counter
// of s, variable m.NumVars()+s. Both sides are equal in every state of
// the emitted model, which keeps the totals in step.
func foldTotals(m *counterabs.Model, f presburger.Formula) presburger.Formula {
	k := m.NumVars()
	states := len(m.System.States)
	return mapCmp(f, func(c presburger.Cmp) presburger.Cmp {
		coef := map[presburger.Var]int64{}
		for _, mo := range c.T.Monos {
			coef[mo.Var] += mo.Coef
		}
		t := presburger.ConstTerm(c.T.Const)
		done := map[presburger.Var]bool{}
		for s := 0; s < states; s++ {
			first := presburger.Var(m.Counter(s, 0))
			cs := coef[first]
			all := cs != 0
			for g := range m.System.Groups {
				all = all && coef[presburger.Var(m.Counter(s, g))] == cs
			}
			if !all {
				continue
			}
			for g := range m.System.Groups {
				done[presburger.Var(m.Counter(s, g))] = true
			}
			t = t.Add(presburger.VarTerm(presburger.Var(k + s)).Scale(cs))
		}
		for _, mo := range c.T.Monos {
			if !done[mo.Var] {
				t = t.Add(presburger.VarTerm(mo.Var).Scale(mo.Coef))
			}
		}
		return presburger.Cmp{T: t, Op: c.Op}
	})
}

// guardError reports a guard that cannot be written in Promela.
func guardError(transition string, err error) error {
	kind := errkind.Internal
	var ov *overflowError
	if errors.As(err, &ov) {
		kind = errkind.Input
	}
	return errkind.Errorf(kind, "promela: guard of %s: %w", transition, err)
}

// writeLTL writes one ltl block per exported claim.
func writeLTL(w *writer, claims []Claim) {
	first := true
	for i := range claims {
		c := &claims[i]
		if !c.Exported() {
			continue
		}
		if first {
			w.p("\n")
			first = false
		}
		w.p("ltl %s { %s }\n", c.Name, c.LTL)
	}
}

func uncertifiedBanner(status string) string {
	return emit.UncertifiedBanner(comment(status), " *", 74)
}

// unitMove reports whether t moves one process and does nothing else.
func unitMove(t *counterabs.Transition) bool {
	return len(t.Also) == 0 && len(t.Transfers) == 0 && len(t.Assign) == 0
}

// effectStatements writes the statements of a step of t in full: the counters (one process each for the movers; for a
// rendezvous or a broadcast, every counter the step changes gets its new
// value, a linear term over the counters before it, emit.CounterEffect),
// the totals kept in step at the group level, and the assignments to the
// shared variables with their bound assertions.
func effectStatements(m *counterabs.Model, t *counterabs.Transition, sv *sharedVars, ctr, total []string, name namefn) ([]string, error) {
	k := len(m.Counters)
	var out []string
	changed := map[int]bool{} // local states whose counters change
	switch {
	case t.From < 0 && len(t.Transfers) == 0: // no mover, no transfer: no counter changes
	case len(t.Also) == 0 && len(t.Transfers) == 0: // one mover
		out = append(out, ctr[t.From]+"--", ctr[t.To]+"++")
		changed[m.Counters[t.From].State], changed[m.Counters[t.To].State] = true, true
	default:
		after := emit.CounterEffect(m, t)
		var pre, set []string
		for c := range after {
			if after[c].Equal(presburger.VarTerm(presburger.Var(c))) {
				continue
			}
			e, err := emit.Linear(after[c], func(v presburger.Var) (string, error) {
				r, err := name(v)
				return r.name, err
			})
			if err != nil {
				return nil, err
			}
			tmp := fmt.Sprintf("%s_%d", sv.tmp, len(pre)+1)
			pre = append(pre, tmp+" = "+e)
			set = append(set, ctr[c]+" = "+tmp)
			changed[m.Counters[c].State] = true
		}
		out = append(append(out, pre...), set...)
	}
	if total != nil {
		for s := range m.System.States {
			if !changed[s] {
				continue
			}
			var parts []string
			for g := range m.System.Groups {
				parts = append(parts, ctr[m.Counter(s, g)])
			}
			out = append(out, total[s]+" = "+strings.Join(parts, " + "))
		}
	}
	as := make([]assignment, len(t.Assign))
	for x, a := range t.Assign {
		as[x] = assignment{a.Var - k, a.Value}
	}
	upd, err := sv.assign(as, name)
	if err != nil {
		return nil, err
	}
	return append(out, upd...), nil
}
