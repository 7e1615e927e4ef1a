package explicit_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The cross-check of the constructs beyond the paper (shared variables
// with updates, broadcast, rendezvous): the explicit engine on the
// group-counter model against procs, a process-level semantics written
// here from the language's definition (docs/gsst-format.md), independent
// of counterabs.Model.Step.

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

// quotient returns the number of orbits and of deadlocked orbits.
func (o *oracle) quotient() (states, dead int) {
	seen := map[string]bool{}
	for i := range o.confs {
		k := o.groupKey(i)
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

// TestExtendedCrossCheck: on random systems with shared variables,
// updates, broadcasts and rendezvous, the explicit engine on the
// group-counter model finds the orbits and deadlocks of the unreduced
// system and its verdicts, and every trace lifts to a run of it.
func TestExtendedCrossCheck(t *testing.T) {
	r := rand.New(rand.NewSource(2026_11_26))
	systems := 400
	if testing.Short() {
		systems = 120
	}
	var checked, verdicts, traces, bcast, rdv, dead int
	for i := range systems {
		sys := randomExtended(r, fmt.Sprintf("ext%d", i))
		o, ok := explorePS(sys, 20000)
		if !ok {
			continue
		}
		m, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatalf("%s: %v", sys.Name, err)
		}
		rep, err := explicit.Engine{}.Check(context.Background(), m, explore.Traces(true))
		if err != nil {
			t.Fatalf("%s: %v", sys.Name, err)
		}
		checked++
		states, deadlocks := o.quotient()
		if got := rep.ReachableStates.Int64(); got != int64(states) {
			t.Errorf("%s: %d states, oracle %d", sys.Name, got, states)
		}
		if got := rep.Deadlocks.Int64(); got != int64(deadlocks) {
			t.Errorf("%s: %d deadlocks, oracle %d", sys.Name, got, deadlocks)
		}
		if deadlocks > 0 {
			dead++
		}
		for _, tr := range rep.DeadlockTraces {
			if err := o.replay(tr); err != nil {
				t.Errorf("%s: deadlock trace: %v", sys.Name, err)
			}
			traces++
		}
		for k, p := range rep.Properties {
			want := o.sat(sys.Properties[k].Formula)[0]
			if p.Holds != want {
				t.Errorf("%s: property %s (%s): engine %v, oracle %v", sys.Name, p.Name, p.Text, p.Holds, want)
			}
			verdicts++
			if p.Trace != nil {
				if err := o.replay(p.Trace); err != nil {
					t.Errorf("%s: property %s: trace: %v", sys.Name, p.Name, err)
				}
				traces++
			}
		}
		if m.Uses()&gsst.ExtBroadcast != 0 {
			bcast++
		}
		if m.Uses()&gsst.ExtRendezvous != 0 {
			rdv++
		}
	}
	t.Logf("%d systems (%d with broadcast, %d with rendezvous, %d with deadlocks): %d verdicts, %d traces replayed", checked, bcast, rdv, dead, verdicts, traces)
	if checked < systems*3/4 || bcast < checked/5 || rdv < checked/5 || traces < checked || dead < checked/20 {
		t.Errorf("the random sample exercises too little")
	}
}

// TestUnboundedShared: a shared variable without a greatest value is
// explored while the states are finite; when they are not, the state
// limit stops the search and its error says why.
func TestUnboundedShared(t *testing.T) {
	build := func(limit bool) *gsst.System {
		sp := &gsst.Spec{Name: "count", States: []string{"A", "B"}, Groups: []gsst.Group{{Name: "p", Size: 2}}, Init: [][]int{{2, 0}}}
		sp.Shared = []gsst.Shared{{Name: "sent", Unbounded: true}}
		sent := presburger.VarTerm(sp.SharedVar(0))
		guard := presburger.Formula(presburger.True)
		if limit {
			guard = presburger.Compare(sent, presburger.Lt, presburger.ConstTerm(5))
		}
		inc := gsst.Update{Assign: []gsst.Assign{{Var: sp.SharedVar(0), Value: sent.Add(presburger.ConstTerm(1))}}, Text: "sent := sent + 1"}
		sp.Transitions = []gsst.Transition{
			{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0}, Guard: guard, Update: inc}}},
			{From: 1, To: 0, Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}},
		}
		sys, err := gsst.New(sp)
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	m, err := counterabs.BuildGroup(build(true))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explicit.Engine{}.Check(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	// sent = 0..5, and #B in 0..2 with #B <= sent (each process in B
	// got there by an increment): 1+2+3+3+3+3 states.
	o, _ := explorePS(build(true), 1000)
	states, _ := o.quotient()
	if got := rep.ReachableStates.Int64(); got != int64(states) || states != 15 {
		t.Errorf("%d states, oracle %d, want 15", got, states)
	}
	m, err = counterabs.BuildGroup(build(false))
	if err != nil {
		t.Fatal(err)
	}
	_, err = explicit.Engine{}.Check(context.Background(), m, explore.MaxStates(1000))
	if err == nil || !strings.Contains(err.Error(), "state limit of 1000 reached") || !strings.Contains(err.Error(), "unbounded shared variables (sent)") {
		t.Errorf("unbounded search: %v", err)
	}
}
