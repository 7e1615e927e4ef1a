package enginetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// The conformance suite beyond the paper (shared variables with
// updates, broadcast, rendezvous): an engine on the group-counter model
// of random systems, and on their total-counter model when
// counterabs.Build accepts them, against procs, a process-level
// semantics written here from the language's definition
// (docs/gsst-format.md), independent of counterabs.Model.Step; traces
// are replayed on it and on testsupport.Replay.

// pconf is a configuration of individual processes: the local state of
// each process and the shared values.
type pconf struct {
	proc   []int
	shared []int
}

func (c pconf) key() string { return fmt.Sprint(c.proc, c.shared) }

// procs is the unreduced system: group[p] is the group of process p.
type procs struct {
	sys   *gsst.System
	group []int
}

func newProcs(sys *gsst.System) (*procs, pconf) {
	ps := &procs{sys: sys}
	var c pconf
	for g := range sys.Groups {
		for s, k := range sys.Init[g] {
			for range k {
				ps.group = append(ps.group, g)
				c.proc = append(c.proc, s)
			}
		}
	}
	c.shared = sys.InitShared()
	return ps, c
}

// counters returns y[g][s].
func (ps *procs) counters(c pconf) [][]int {
	y := make([][]int, len(ps.sys.Groups))
	for g := range y {
		y[g] = make([]int, len(ps.sys.States))
	}
	for p, s := range c.proc {
		y[ps.group[p]][s]++
	}
	return y
}

func (ps *procs) val(c pconf) func(presburger.Var) int64 {
	return ps.sys.Valuation(ps.counters(c), c.shared)
}

// update returns the shared values after u, false when one leaves its
// domain.
func (ps *procs) update(c pconf, u *gsst.Update) ([]int, bool) {
	val := ps.val(c)
	out := slices.Clone(c.shared)
	for _, a := range u.Assign {
		j, _ := ps.sys.SharedOf(a.Var)
		v := int(a.Value.Eval(val))
		if !ps.sys.Shared[j].Contains(v) {
			return nil, false
		}
		out[j] = v
	}
	return out, true
}

func in(groups []int, g int) bool { return groups == nil || slices.Contains(groups, g) }

// succs returns every successor of c, one per process step.
func (ps *procs) succs(c pconf) []pconf {
	sys := ps.sys
	val := ps.val(c)
	var out []pconf
	for ti := range sys.Transitions {
		t := &sys.Transitions[ti]
		for p, s := range c.proc {
			b := t.BlockOf(ps.group[p])
			if s != t.From || b == nil || !presburger.Eval(b.Guard, val) {
				continue
			}
			sh, ok := ps.update(c, &b.Update)
			if !ok {
				continue
			}
			next := pconf{proc: slices.Clone(c.proc), shared: sh}
			next.proc[p] = t.To
			for q, sq := range c.proc {
				for _, tr := range t.Broadcast {
					if q != p && sq == tr.From && in(tr.Groups, ps.group[q]) {
						next.proc[q] = tr.To
					}
				}
			}
			out = append(out, next)
		}
	}
	for ri := range sys.Rendezvous {
		r := &sys.Rendezvous[ri]
		if r.Guard != nil && !presburger.Eval(r.Guard, val) {
			continue
		}
		sh, ok := ps.update(c, &r.Update)
		if !ok {
			continue
		}
		var pick []int
		var rec func(i int)
		rec = func(i int) {
			if i == len(r.Parts) {
				next := pconf{proc: slices.Clone(c.proc), shared: sh}
				for k, p := range pick {
					next.proc[p] = r.Parts[k].To
				}
				out = append(out, next)
				return
			}
			for p, s := range c.proc {
				if s == r.Parts[i].From && in(r.Parts[i].Groups, ps.group[p]) && !slices.Contains(pick, p) {
					pick = append(pick, p)
					rec(i + 1)
					pick = pick[:len(pick)-1]
				}
			}
		}
		rec(0)
	}
	return out
}

// oracle explores the unreduced system: its reachable configurations
// and, per configuration, whether it is deadlocked.
type oracle struct {
	ps    *procs
	confs []pconf
	dead  []bool
	index map[string]int
	succ  [][]int
}

func explorePS(sys *gsst.System, limit int) (*oracle, bool) {
	ps, init := newProcs(sys)
	o := &oracle{ps: ps, index: map[string]int{init.key(): 0}, confs: []pconf{init}}
	for i := 0; i < len(o.confs); i++ {
		if len(o.confs) > limit {
			return nil, false
		}
		ss := ps.succs(o.confs[i])
		o.dead = append(o.dead, len(ss) == 0)
		var row []int
		for _, n := range ss {
			k := n.key()
			j, ok := o.index[k]
			if !ok {
				j = len(o.confs)
				o.index[k] = j
				o.confs = append(o.confs, n)
			}
			row = append(row, j)
		}
		if len(ss) == 0 {
			row = []int{i}
		}
		o.succ = append(o.succ, row)
	}
	return o, true
}

// groupKey names the orbit of configuration i under the permutations
// inside groups: its group counters and shared values.
func (o *oracle) groupKey(i int) string {
	return fmt.Sprint(o.ps.counters(o.confs[i]), o.confs[i].shared)
}

// quotient returns the number of orbits and of deadlocked orbits, an
// orbit being named by key (groupKey or totalKey).
func (o *oracle) quotient(key func(int) string) (states, dead int) {
	seen := map[string]bool{}
	for i := range o.confs {
		k := key(i)
		if !seen[k] {
			seen[k] = true
			states++
			if o.dead[i] {
				dead++
			}
		}
	}
	return states, dead
}

// compare checks rep, an exploration of a model of sys whose states are
// the orbits key names, against the unreduced system: states and
// deadlocks (when counted), every verdict, and every trace replayed, on
// the oracle and with testsupport.Replay.
func (o *oracle) compare(t *testing.T, sys *gsst.System, rep *explore.Report, key func(int) string, counts bool, st *extStats) {
	t.Helper()
	states, deadlocks := o.quotient(key)
	if counts && (rep.ReachableStates == nil || rep.ReachableStates.Int64() != int64(states) || rep.Deadlocks.Int64() != int64(deadlocks)) {
		t.Errorf("%s %s model: %v states, %v deadlocks; oracle %d, %d", sys.Name, rep.Model, rep.ReachableStates, rep.Deadlocks, states, deadlocks)
	}
	replay := func(what string, tr *explore.Trace) {
		for _, tr := range append([]*explore.Trace{tr}, tr.Branches...) {
			if err := o.replay(tr); err != nil {
				t.Errorf("%s %s model: %s: %v", sys.Name, rep.Model, what, err)
			}
			if _, err := testsupport.Replay(sys, Trace(tr, printKey)); err != nil {
				t.Errorf("%s %s model: %s: testsupport.Replay: %v", sys.Name, rep.Model, what, err)
			}
			st.traces++
		}
	}
	for _, tr := range rep.DeadlockTraces {
		replay("deadlock trace", tr)
	}
	for k, p := range rep.Properties {
		if want := o.sat(sys.Properties[k].Formula)[0]; p.Holds != want {
			t.Errorf("%s %s model: property %s (%s): engine %v, oracle %v", sys.Name, rep.Model, p.Name, p.Text, p.Holds, want)
		}
		st.verdicts++
		if p.Trace != nil {
			replay("property "+p.Name, p.Trace)
		}
	}
}

// sat evaluates a CTL formula (EX, EF, AG, AF, EG and the connectives)
// on the configuration graph.
func (o *oracle) sat(f ctl.Formula) []bool {
	n := len(o.confs)
	out := make([]bool, n)
	switch f := f.(type) {
	case ctl.Atom:
		for i := range out {
			out[i] = presburger.Eval(f.P, o.ps.val(o.confs[i]))
		}
	case ctl.Not:
		x := o.sat(f.X)
		for i := range out {
			out[i] = !x[i]
		}
	case ctl.Binary:
		l, r := o.sat(f.L), o.sat(f.R)
		for i := range out {
			switch f.Op {
			case ctl.And:
				out[i] = l[i] && r[i]
			case ctl.Or:
				out[i] = l[i] || r[i]
			default:
				out[i] = !l[i] || r[i]
			}
		}
	case ctl.Unary:
		x := o.sat(f.X)
		some := func(i int, z []bool) bool { return slices.ContainsFunc(o.succ[i], func(j int) bool { return z[j] }) }
		all := func(i int, z []bool) bool { return !slices.ContainsFunc(o.succ[i], func(j int) bool { return !z[j] }) }
		switch f.Op {
		case ctl.EX:
			for i := range out {
				out[i] = some(i, x)
			}
		case ctl.AX:
			for i := range out {
				out[i] = all(i, x)
			}
		case ctl.EF, ctl.AF:
			step := some
			if f.Op == ctl.AF {
				step = all
			}
			copy(out, x)
			for changed := true; changed; {
				changed = false
				for i := range out {
					if !out[i] && step(i, out) {
						out[i], changed = true, true
					}
				}
			}
		case ctl.EG, ctl.AG:
			step := some
			if f.Op == ctl.AG {
				step = all
			}
			copy(out, x)
			for changed := true; changed; {
				changed = false
				for i := range out {
					if out[i] && !step(i, out) {
						out[i], changed = false, true
					}
				}
			}
		}
	default:
		panic(fmt.Sprintf("oracle: %T", f))
	}
	return out
}

// replay checks a lifted run against the unreduced system: every step is
// a step of the system from the configuration reached, and the counters
// and shared values after it are those of the trace's states.
func (o *oracle) replay(tr *explore.Trace) error {
	l := tr.Lifted
	if l == nil {
		return fmt.Errorf("no lifted run")
	}
	if l.Error != "" {
		return fmt.Errorf("lifting failed: %s", l.Error)
	}
	_, c := newProcs(o.ps.sys)
	if len(l.Steps)+1 < len(tr.States) {
		return fmt.Errorf("%d lifted steps for %d states", len(l.Steps), len(tr.States))
	}
	for k, st := range l.Steps {
		var next pconf
		if st.Stutter {
			if len(o.ps.succs(c)) != 0 {
				return fmt.Errorf("step %d stutters where a process can move", k+1)
			}
			next = c
		} else {
			next = pconf{proc: slices.Clone(c.proc), shared: st.Shared}
			if next.shared == nil {
				next.shared = c.shared
			}
			idx := o.ps.index(st.Group, st.Process)
			next.proc[idx] = st.To
			for _, m := range append(slices.Clone(st.Also), st.Transferred...) {
				next.proc[o.ps.index(m.Group, m.Process)] = m.To
			}
			if !slices.ContainsFunc(o.ps.succs(c), func(n pconf) bool { return n.key() == next.key() }) {
				return fmt.Errorf("step %d (%s) is no step of the system from %v", k+1, st, c)
			}
		}
		c = next
		if k+1 < len(tr.States) {
			s := tr.States[k+1]
			y := o.ps.counters(c)
			for st := range o.ps.sys.States {
				tot := 0
				for g := range y {
					tot += y[g][st]
				}
				if tot != s.Counters[st] {
					return fmt.Errorf("after step %d the counters differ from the trace's", k+1)
				}
			}
			if s.Shared != nil && !slices.Equal(s.Shared, c.shared) {
				return fmt.Errorf("after step %d the shared values differ from the trace's", k+1)
			}
		}
	}
	return nil
}

// index returns the number of process k of group g.
func (ps *procs) index(g, k int) int {
	base := 0
	for h := range g {
		base += ps.sys.Groups[h].Size
	}
	return base + k
}

// randomExtended returns a random system with shared variables, updates,
// broadcasts and rendezvous, small enough for the oracle.
func randomExtended(r *rand.Rand, name string) *gsst.System {
	for {
		sp := &gsst.Spec{Name: name}
		ns := 2 + r.Intn(3)
		for s := range ns {
			sp.States = append(sp.States, fmt.Sprintf("S%d", s))
		}
		ng := 1 + r.Intn(2)
		for g := range ng {
			sp.Groups = append(sp.Groups, gsst.Group{Name: fmt.Sprintf("g%d", g), Size: 1 + r.Intn(2)})
			row := make([]int, ns)
			row[0] = sp.Groups[g].Size
			if r.Intn(3) == 0 {
				row[0]--
				row[1]++
			}
			sp.Init = append(sp.Init, row)
		}
		sp.Shared = []gsst.Shared{
			{Name: "b", Bool: true, Lo: 0, Hi: 1},
			{Name: "e", Values: []string{"red", "green", "blue"}, Lo: 0, Hi: 2, Init: r.Intn(3)},
			{Name: "k", Lo: 0, Hi: 3},
		}
		if r.Intn(3) == 0 {
			sp.Shared = append(sp.Shared, gsst.Shared{Name: "u", Unbounded: true, Lo: 0})
		}
		sv := func(j int) presburger.Term { return presburger.VarTerm(sp.SharedVar(j)) }
		atom := func() presburger.Formula {
			switch r.Intn(6) {
			case 0:
				return presburger.Compare(presburger.VarTerm(sp.TotalVar(r.Intn(ns))), presburger.Op(r.Intn(6)), presburger.ConstTerm(int64(r.Intn(3))))
			case 1:
				return presburger.Compare(presburger.VarTerm(sp.GroupVar(r.Intn(ns), r.Intn(ng))), presburger.Ge, presburger.ConstTerm(int64(r.Intn(2))))
			case 2:
				return presburger.Compare(sv(0), presburger.Eq, presburger.ConstTerm(int64(r.Intn(2))))
			case 3:
				return presburger.Compare(sv(1), presburger.Op(r.Intn(2)), presburger.ConstTerm(int64(r.Intn(3))))
			case 4:
				return presburger.Compare(sv(2), presburger.Op(r.Intn(6)), presburger.ConstTerm(int64(r.Intn(4))))
			}
			if len(sp.Shared) > 3 {
				return presburger.Compare(sv(3), presburger.Lt, presburger.ConstTerm(int64(1+r.Intn(3))))
			}
			return presburger.True
		}
		guard := func() presburger.Formula {
			if r.Intn(3) == 0 {
				return presburger.True
			}
			f := atom()
			if r.Intn(2) == 0 {
				f = presburger.Conj(f, atom())
			}
			return f
		}
		update := func() gsst.Update {
			var u gsst.Update
			for j := range sp.Shared {
				if r.Intn(3) != 0 {
					continue
				}
				var v presburger.Term
				switch {
				case j == 0:
					v = presburger.ConstTerm(int64(r.Intn(2)))
					if r.Intn(2) == 0 {
						v = presburger.ConstTerm(1).Sub(sv(0))
					}
				case j == 1:
					v = presburger.ConstTerm(int64(r.Intn(3)))
				default:
					v = sv(j).Add(presburger.ConstTerm(int64(r.Intn(3) - 1)))
				}
				u.Assign = append(u.Assign, gsst.Assign{Var: sp.SharedVar(j), Value: v})
				u.Text = "update"
			}
			return u
		}
		used := map[[2]int]bool{}
		for range 3 + r.Intn(4) {
			from, to := r.Intn(ns), r.Intn(ns)
			if from == to || used[[2]int{from, to}] {
				continue
			}
			used[[2]int{from, to}] = true
			t := gsst.Transition{From: from, To: to}
			if ng == 2 && r.Intn(2) == 0 {
				t.Blocks = []gsst.Block{{Groups: []int{0}, Guard: guard(), Update: update()}, {Groups: []int{1}, Guard: guard(), Update: update()}}
			} else {
				t.Blocks = []gsst.Block{{Groups: seq(ng), Guard: guard(), Update: update()}}
			}
			if r.Intn(3) == 0 {
				src := r.Intn(ns)
				dst := (src + 1 + r.Intn(ns-1)) % ns
				tr := gsst.Transfer{From: src, To: dst}
				if ng == 2 && r.Intn(2) == 0 {
					tr.Groups = []int{r.Intn(2)}
				}
				t.Broadcast = []gsst.Transfer{tr}
			}
			sp.Transitions = append(sp.Transitions, t)
		}
		if r.Intn(2) == 0 {
			rv := gsst.Rendezvous{Guard: guard(), Update: update()}
			for range 2 {
				from := r.Intn(ns)
				p := gsst.Part{From: from, To: (from + 1 + r.Intn(ns-1)) % ns}
				if ng == 2 && r.Intn(2) == 0 {
					p.Groups = []int{r.Intn(2)}
				}
				rv.Parts = append(rv.Parts, p)
			}
			sp.Rendezvous = append(sp.Rendezvous, rv)
		}
		for i := range 3 {
			a := atom()
			ops := []ctl.TempOp{ctl.EF, ctl.AG, ctl.AF, ctl.EG, ctl.EX}
			f := ctl.Formula(ctl.Unary{Op: ops[r.Intn(len(ops))], X: ctl.Atom{P: a}})
			sp.Properties = append(sp.Properties, gsst.Property{Name: fmt.Sprintf("p%d", i), Formula: f, Text: ctl.Format(f, sp.VarName)})
		}
		sys, err := gsst.New(sp)
		if err != nil {
			continue
		}
		return sys
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// totalKey names the orbit of configuration i under all permutations:
// its total counters and shared values.
func (o *oracle) totalKey(i int) string {
	y := o.ps.counters(o.confs[i])
	tot := make([]int, len(o.ps.sys.States))
	for g := range y {
		for s, k := range y[g] {
			tot[s] += k
		}
	}
	return fmt.Sprint(tot, o.confs[i].shared)
}

// extendedSystems and extendedSystemsShort are the number of random
// systems RunExtended checks, without and with -short.
const (
	extendedSystems      = 400
	extendedSystemsShort = 100
)

// ConformanceExtended runs the suite beyond the paper on engine e with
// options opts (Suite.RunExtended).
func ConformanceExtended(t *testing.T, e explore.Engine, opts ...explore.Option) {
	Suite{Engine: e, Options: opts}.RunExtended(t)
}

// RunExtended checks the engine on hundreds of random systems with
// shared variables, updates, broadcasts and rendezvous against the
// unreduced system: on the group-counter model (counterabs.BuildGroup)
// of every system, and on the total-counter model (counterabs.Build with
// Z3) of those it accepts, the reachable orbits and deadlocks (when the
// engine counts them), every verdict, and every trace replayed. A system
// Build refuses must come with a witness: the refused step enabled in
// one configuration and not in another with the same totals and shared
// values.
func (s Suite) RunExtended(t *testing.T) {
	r := rand.New(rand.NewSource(2026_11_26))
	systems := extendedSystems
	if testing.Short() {
		systems = extendedSystemsShort
	}
	counts := explore.NewConfig(s.Options...).CountStates
	solver := z3.New()
	var st extStats
	for i := range systems {
		sys := randomExtended(r, fmt.Sprintf("ext%d", i))
		o, ok := explorePS(sys, 20000)
		if !ok {
			continue
		}
		t.Run(sys.Name, func(t *testing.T) {
			s.extended(t, sys, o, solver, counts, &st)
		})
	}
	t.Logf("%s: %d systems (%d with broadcast, %d with rendezvous, %d with deadlocks); %d total-counter models built, %d refused with a witness (%d where another step has the same effect), %d with group-restricted broadcast; %d verdicts, %d traces replayed",
		s.Engine.Name(), st.checked, st.bcast, st.rdv, st.dead, st.built, st.refused, st.stricter, st.restricted, st.verdicts, st.traces)
	if st.checked < systems*3/4 || st.bcast < st.checked/5 || st.rdv < st.checked/5 || st.dead < st.checked/20 ||
		st.built < systems/5 || st.refused < systems/10 || st.restricted == 0 || st.traces < st.checked {
		t.Errorf("the random sample exercises too little")
	}
}

// extStats counts what RunExtended checked.
type extStats struct {
	checked, bcast, rdv, dead            int
	built, refused, stricter, restricted int
	verdicts, traces                     int
}

// extended checks one random system.
func (s Suite) extended(t *testing.T, sys *gsst.System, o *oracle, solver *z3.Solver, counts bool, st *extStats) {
	ctx := context.Background()
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatalf("%s: %v", sys.Name, err)
	}
	rep, err := s.Engine.Check(ctx, m, s.Options...)
	if err != nil {
		t.Fatalf("%s: group-counter model: %v", sys.Name, err)
	}
	st.checked++
	o.compare(t, sys, rep, o.groupKey, counts, st)
	if _, dead := o.quotient(o.groupKey); dead > 0 {
		st.dead++
	}
	if m.Uses()&gsst.ExtBroadcast != 0 {
		st.bcast++
	}
	if m.Uses()&gsst.ExtRendezvous != 0 {
		st.rdv++
	}

	var idx []int
	for k := range sys.Properties {
		if counterabs.PropertyLevel(sys, &sys.Properties[k]) == counterabs.TotalLevel {
			idx = append(idx, k)
		}
	}
	tsys := sys.WithProperties(idx...)
	tm, err := counterabs.Build(ctx, tsys, solver, solver)
	var nc *counterabs.NotCertifiedError
	switch {
	case err != nil && errors.As(err, &nc):
		st.refused++
		ps, _ := newProcs(sys)
		w := nc.Witness
		en := pconf{proc: confOf(w.Enabled), shared: nc.Shared}
		dis := pconf{proc: confOf(w.Disabled), shared: nc.Shared}
		if !classFires(ps, en, nc) || classFires(ps, dis, nc) {
			t.Errorf("%s: %v: the witness does not show the step enabled in one configuration only", sys.Name, err)
		}
		if effects(ps, en) == effects(ps, dis) {
			// Another class of steps has the same effect where this
			// one is disabled: the system may be fully virtually
			// symmetric all the same, and Build's check, class by
			// class, is stricter than certification.
			st.stricter++
		}
		return
	case err != nil && strings.Contains(err.Error(), "some groups only"):
		st.restricted++
		return
	case err != nil:
		t.Fatalf("%s: %v", sys.Name, err)
	}
	st.built++
	rep, err = s.Engine.Check(ctx, tm, s.Options...)
	if err != nil {
		t.Fatalf("%s: total-counter model: %v", sys.Name, err)
	}
	o.compare(t, tsys, rep, o.totalKey, counts, st)
}

// confOf lists the local state of each process of a configuration given
// by group counters, processes of a group in state order.
func confOf(y [][]int) []int {
	var out []int
	for g := range y {
		for s, k := range y[g] {
			for range k {
				out = append(out, s)
			}
		}
	}
	return out
}

// effects returns the set of (totals, shared) successors of c, as a key.
func effects(ps *procs, c pconf) string {
	var ks []string
	for _, n := range ps.succs(c) {
		tot := make([]int, len(ps.sys.States))
		for _, s := range n.proc {
			tot[s]++
		}
		ks = append(ks, fmt.Sprint(tot, n.shared))
	}
	slices.Sort(ks)
	return fmt.Sprint(slices.Compact(ks))
}

// classFires reports whether the steps a NotCertifiedError names can
// happen in c: its local transition by a process of a block with the
// update of group Witness.Group's block, or (Transition nil) the
// rendezvous of the system.
func classFires(ps *procs, c pconf, nc *counterabs.NotCertifiedError) bool {
	sys := ps.sys
	if nc.Transition == nil {
		only := *ps
		spec := sys.Spec()
		spec.Transitions = nil
		only.sys, _ = gsst.New(spec)
		return len(only.succs(c)) > 0
	}
	t := nc.Transition
	want := fmt.Sprint(t.BlockOf(nc.Witness.Group).Update.Assign)
	val := ps.val(c)
	for p, s := range c.proc {
		b := t.BlockOf(ps.group[p])
		if s != t.From || b == nil || fmt.Sprint(b.Update.Assign) != want || !presburger.Eval(b.Guard, val) {
			continue
		}
		if _, ok := ps.update(c, &b.Update); ok {
			return true
		}
	}
	return false
}
