package counterabs

import (
	"fmt"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// BuildGroup returns the group-counter model of sys: one counter #S[g]
// per group g and local state S, and one transition per local transition
// r and group g that may take it, enabled when #From[g] >= 1 and g's guard
// of r holds. Processes of one group are interchangeable in every GSST
// (guards read counters only), so this model is exactly the quotient of
// the system under the permutations inside each group: it needs no
// certification, no solver, and preserves every property over group and
// total counters (Wahl's counter representation per block of a
// partition). A malformed system is errkind.Input.
func BuildGroup(sys *gsst.System) (*Model, error) {
	if err := sys.Unsupported("the group-counter model", supported); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	if err := checkFixed(sys); err != nil {
		return nil, err
	}
	m := newModel(sys, GroupLevel)
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for g, grp := range sys.Groups {
			b := t.BlockOf(g)
			if b == nil || grp.Size == 0 {
				continue
			}
			guard, err := m.Translate(b.Guard)
			if err != nil {
				return nil, err
			}
			assign, dom, err := m.update(&b.Update)
			if err != nil {
				return nil, err
			}
			from, to := m.Counter(t.From, g), m.Counter(t.To, g)
			m.Transitions = append(m.Transitions, Transition{
				From: from, To: to, Guard: presburger.Conj(append([]presburger.Formula{ge(from, 1), guard}, dom...)...),
				Case: CaseGroup, Local: i, Group: g, Transfers: m.groupTransfers(t), Assign: assign,
			})
		}
	}
	for ri := range sys.Rendezvous {
		ts, err := m.rendezvous(ri)
		if err != nil {
			return nil, err
		}
		m.Transitions = append(m.Transitions, ts...)
	}
	if err := m.finish(errkind.Internal); err != nil {
		return nil, err
	}
	return m, nil
}

// Assemble returns a model of sys at level with the given transitions,
// checked and completed (counters, pools, initial values, translated
// properties) as the models of Build and BuildGroup are. It is for models
// made by other constructions, tests among them; exact says whether the
// caller vouches that the model is exact. Guards are over the model's
// counter variables.
func Assemble(sys *gsst.System, level Level, trans []Transition, exact bool) (*Model, error) {
	if err := sys.Unsupported("the counter models", supported); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	if err := checkFixed(sys); err != nil {
		return nil, err
	}
	m := newModel(sys, level)
	m.Exact = exact
	m.Transitions = append([]Transition(nil), trans...)
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if t.Local < -1 || t.Local >= len(sys.Transitions) || t.Local == -1 && (t.Rendezvous < 0 || t.Rendezvous >= len(sys.Rendezvous)) {
			return nil, errkind.Errorf(errkind.Input, "counterabs: transition %d names local transition %d, which the system does not have", i, t.Local)
		}
	}
	if err := m.finish(errkind.Input); err != nil {
		return nil, err
	}
	return m, nil
}

// checkFixed refuses a parametric system for the model constructors,
// which need fixed group sizes (parametric systems have ParamModel).
func checkFixed(sys *gsst.System) error {
	return sys.NeedFixed("a counter model")
}

// newModel returns a model of sys at level with its counters, pools and
// initial values, and no transitions yet.
func newModel(sys *gsst.System, level Level) *Model {
	m := &Model{System: sys, Level: level, N: sys.N(), Exact: true}
	states := len(sys.States)
	switch level {
	case TotalLevel:
		p := Pool{Sum: m.N}
		for s := 0; s < states; s++ {
			m.Counters = append(m.Counters, Counter{State: s, Group: -1})
			p.Counters = append(p.Counters, s)
		}
		m.Pools = []Pool{p}
		m.Init = make([]int, states)
		for g := range sys.Init {
			for s, k := range sys.Init[g] {
				m.Init[s] += k
			}
		}
	case GroupLevel:
		for g, grp := range sys.Groups {
			p := Pool{Sum: grp.Size}
			for s := 0; s < states; s++ {
				p.Counters = append(p.Counters, len(m.Counters))
				m.Counters = append(m.Counters, Counter{State: s, Group: g})
				m.Init = append(m.Init, sys.Init[g][s])
			}
			m.Pools = append(m.Pools, p)
		}
	}
	if len(sys.Shared) > 0 {
		m.Shared = append([]gsst.Shared(nil), sys.Shared...)
		m.Init = append(m.Init, sys.InitShared()...)
	}
	return m
}

// finish translates the system's properties to the model's counters and
// checks the model's own consistency, the one check engines and emitters
// rely on. A property the level cannot express is errkind.Input; an
// inconsistency is of kind bad: errkind.Internal for the models this
// package constructs (a bug), errkind.Input for models assembled by a
// caller.
func (m *Model) finish(bad errkind.Kind) error {
	props, err := translateProperties(m.System, m.Translate)
	if err != nil {
		return err
	}
	m.Properties = append(m.Properties, props...)
	if err := m.translateFairness(); err != nil {
		return err
	}
	return m.consistent(bad)
}

// translateFairness sets m.Justice from the system's fairness
// constraints. One the level cannot express is errkind.Input.
func (m *Model) translateFairness() error {
	sys := m.System
	m.Justice = nil
	for _, j := range sys.Fairness.Justice {
		f, err := m.Translate(j.Formula)
		if err != nil {
			return errkind.Wrap(errkind.Input, &gsst.Error{Pos: j.Pos, Msg: fmt.Sprintf("justice condition %s: %v; use the group-counter model", j.Text, err)})
		}
		m.Justice = append(m.Justice, Justice{Text: j.Text, Pos: j.Pos, State: f})
	}
	for _, w := range sys.Fairness.Weak {
		if w.Group >= 0 && m.Level == TotalLevel {
			return errkind.Wrap(errkind.Input, &gsst.Error{Pos: w.Pos, Msg: fmt.Sprintf("weak fairness of %s is per group, which the total-counter model cannot express; use the group-counter model", sys.WeakName(&w))})
		}
		j := Justice{Text: "weak " + sys.WeakName(&w), Pos: w.Pos, Weak: true, Transitions: []int{}}
		for k, t := range m.Transitions {
			if t.Local == w.Transition && (w.Group < 0 || t.Group == w.Group) {
				j.Transitions = append(j.Transitions, k)
			}
		}
		m.Justice = append(m.Justice, j)
	}
	return nil
}

// consistent checks that every transition moves a unit inside one pool
// and that the initial values fill every pool exactly.
func (m *Model) consistent(bad errkind.Kind) error {
	pool := make([]int, len(m.Counters))
	for i := range pool {
		pool[i] = -1
	}
	for pi, p := range m.Pools {
		sum := 0
		for _, c := range p.Counters {
			if c < 0 || c >= len(m.Counters) || pool[c] >= 0 {
				return errkind.Errorf(bad, "counterabs: counter %d is in no pool or in two", c)
			}
			pool[c] = pi
			sum += m.Init[c]
		}
		if sum != p.Sum {
			return errkind.Errorf(bad, "counterabs: initial counters of pool %d sum to %d, want %d", pi, sum, p.Sum)
		}
	}
	if len(m.Init) != m.NumVars() || len(m.Shared) != len(m.System.Shared) {
		return errkind.Errorf(bad, "counterabs: the model has %d initial values for %d variables, or not the system's shared variables", len(m.Init), m.NumVars())
	}
	for j := range m.Shared {
		if !m.Shared[j].Contains(m.Init[m.SharedVar(j)]) {
			return errkind.Errorf(bad, "counterabs: shared variable %s starts outside its domain", m.Shared[j].Name)
		}
	}
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if t.From < 0 || t.From >= len(m.Counters) || t.To < 0 || t.To >= len(m.Counters) ||
			t.From == t.To || pool[t.From] != pool[t.To] || t.Guard == nil {
			return errkind.Errorf(bad, "counterabs: transition %s is malformed", m.TransitionName(t))
		}
		if msg := m.consistentExt(t, pool); msg != "" {
			return errkind.Errorf(bad, "counterabs: transition %s is malformed: %s", m.TransitionName(t), msg)
		}
		for _, v := range presburger.FreeVars(t.Guard) {
			if v < 0 || int(v) >= m.NumVars() {
				return errkind.Errorf(bad, "counterabs: guard of %s reads variable %d, which is not a counter", m.TransitionName(t), v)
			}
		}
	}
	if m.MayDeadlock != nil {
		for _, v := range presburger.FreeVars(m.MayDeadlock) {
			if v < 0 || int(v) >= m.NumVars() {
				return errkind.Errorf(bad, "counterabs: MayDeadlock reads variable %d, which the model does not have", v)
			}
		}
	}
	return nil
}

// CounterSpace returns the number of counter vectors the model's pools
// allow, the product over pools of C(sum+k-1, k-1) for k counters: an
// upper bound on its reachable states, as a float (it can be huge).
func (m *Model) CounterSpace() float64 {
	space := 1.0
	for _, p := range m.Pools {
		k := len(p.Counters)
		if k == 0 {
			continue
		}
		// C(sum+k-1, k-1) as a running product.
		c := 1.0
		for i := 1; i < k; i++ {
			c = c * float64(p.Sum+i) / float64(i)
		}
		space *= c
	}
	return space
}

// String describes the model in one line, for diagnostics.
func (m *Model) String() string {
	return fmt.Sprintf("%s-counter model of %s: %d counters, %d transitions", m.Level, m.System.Name, len(m.Counters), len(m.Transitions))
}
