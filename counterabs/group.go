package counterabs

import (
	"fmt"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// BuildGroup returns the group-counter model of sys: one counter #S[g]
// per group g and local state S, and one transition per step of the
// system and assignment of a group (with processes) to each of its parts
// (for the guard blocks of a local transition: per group, the block that
// holds it), guarded by the step's enabledness for those groups
// (System.EnabledFormula of Step.WithGroups: the movers exist, the guard
// holds, the update stays in its domains). Processes of one group are
// interchangeable in every system (guards and updates read counters and
// shared variables), so this model is exactly the quotient of the system
// under the permutations inside each group: it needs no certification,
// no solver, and preserves every property over group and total counters
// (Wahl's counter representation per block of a partition). A malformed
// system is errkind.Input. Of opts it reads RunSteps only: with it the
// model is exact on the reachable configurations, which is what an
// exploration visits.
func BuildGroup(sys *gsst.System, opts ...Option) (*Model, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if err := checkFixed(sys); err != nil {
		return nil, err
	}
	m := newModel(sys, GroupLevel)
	may := cfg.movers(sys, func(g int) bool { return sys.Groups[g].Size > 0 })
	for _, steps := range stepsByOrigin(sys) {
		err := groupChoices(sys, steps, may, func(s int, groups []int) error {
			t, err := m.transition([]int{s}, groups)
			if err != nil {
				return err
			}
			st := sys.Steps()[s].WithGroups(groups)
			if t.Guard, err = m.Translate(sys.EnabledFormula(&st)); err != nil {
				return err
			}
			t.Case = CaseGroup
			m.Transitions = append(m.Transitions, t)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if err := m.finish(errkind.Internal); err != nil {
		return nil, err
	}
	return m, nil
}

// stepsByOrigin returns the steps of sys (indices into System.Steps())
// by where they were written: the guard blocks of each local transition,
// then each rendezvous.
func stepsByOrigin(sys *gsst.System) [][]int {
	var out [][]int
	steps := sys.Steps()
	for i := range steps {
		o := &steps[i].Origin
		if o.Transition >= 0 && len(out) > 0 {
			prev := &steps[out[len(out)-1][0]].Origin
			if prev.Transition == o.Transition {
				out[len(out)-1] = append(out[len(out)-1], i)
				continue
			}
		}
		out = append(out, []int{i})
	}
	return out
}

// Assemble returns a model of sys at level with the given transitions,
// checked and completed (counters, pools, initial values, translated
// properties) as the models of Build and BuildGroup are. It is for models
// made by other constructions, tests among them; exact says whether the
// caller vouches that the model is exact. Guards are over the model's
// counter variables. A transition without Steps takes those its Local
// (and Group, at GroupLevel) or its Rendezvous name: every guard block of
// the local transition at TotalLevel, the block of the group at
// GroupLevel. Whatever a transition does must be what its steps do.
func Assemble(sys *gsst.System, level Level, trans []Transition, exact bool) (*Model, error) {
	if err := checkFixed(sys); err != nil {
		return nil, err
	}
	m := newModel(sys, level)
	m.Exact = exact
	m.Transitions = append([]Transition(nil), trans...)
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if t.Steps != nil {
			continue
		}
		if t.Local < -1 || t.Local >= len(sys.Transitions) || t.Local == -1 && t.Rendezvous >= len(sys.Rendezvous) ||
			t.IsEnvironment() && (t.Environment < 0 || t.Environment >= len(sys.Environment)) {
			return nil, errkind.Errorf(errkind.Input, "counterabs: transition %d names local transition %d, which the system does not have", i, t.Local)
		}
		t.Steps, t.Groups = m.stepsOf(t)
	}
	if err := m.finish(errkind.Input); err != nil {
		return nil, err
	}
	return m, nil
}

// stepsOf returns the steps (and, at GroupLevel, the groups) that a
// transition given by its origin takes: see Assemble.
func (m *Model) stepsOf(t *Transition) (steps, groups []int) {
	all := m.System.Steps()
	for s := range all {
		o := &all[s].Origin
		switch {
		case t.Local < 0 && (t.Rendezvous >= 0 && o.Rendezvous == t.Rendezvous || t.IsEnvironment() && o.Environment == t.Environment):
			steps = append(steps, s)
			if m.Level == GroupLevel {
				// The groups whose counters the moves name.
				for _, c := range t.Moves() {
					if c.From < 0 || c.From >= len(m.Counters) {
						return steps, nil
					}
					groups = append(groups, m.Counters[c.From].Group)
				}
			}
		case t.Local >= 0 && o.Transition == t.Local:
			if m.Level == TotalLevel {
				steps = append(steps, s)
			} else if t.Group >= 0 && all[s].Parts[0].Allows(t.Group) {
				steps, groups = append(steps, s), []int{t.Group}
			}
		}
	}
	return steps, groups
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
	if err := m.consistent(bad); err != nil {
		return err
	}
	if err := m.setInitials(); err != nil {
		return err
	}
	props, err := translateProperties(m.System, m.Translate)
	if err != nil {
		return err
	}
	m.Properties = append(m.Properties, props...)
	return m.translateFairness()
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
		// The transitions whose steps were written as the local
		// transition, taken by a process of the group.
		j := Justice{Text: "weak " + sys.WeakName(&w), Pos: w.Pos, Weak: true, Transitions: []int{}}
		for k := range m.Transitions {
			t := &m.Transitions[k]
			o := &m.StepOf(t).Origin
			if o.Rendezvous < 0 && o.Transition == w.Transition && (w.Group < 0 || t.Groups[0] == w.Group) {
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
		if t.Guard == nil {
			return errkind.Errorf(bad, "counterabs: transition %d has no guard", i)
		}
		if msg := m.consistentStep(t); msg != "" {
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
