package counterabs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A transition of a counter model is a compiled form of steps of the
// system (gsst.Step): what it needs is the step's enabledness
// (System.EnabledFormula, abstracted at the total level) and what it
// does is the step's effect on the model's variables, derived here once
// for both levels and for the fixed and the parametric models. The
// engines run the compiled form (StepInto); everything else asks gsst
// what the step means.

// numbering says how a model numbers what a step reads and moves.
type numbering struct {
	sys *gsst.System
	// counter is the model variable counting the processes of group g
	// (-1 at the total level) in local state s; ok is false when the
	// model has none, a state the group never occupies (ParamModel's
	// Counter).
	counter func(s, g int) (i int, ok bool)
	// mayHold reports whether group g may have processes (in some
	// instance, for a parametric model).
	mayHold func(g int) bool
	// sharedVar is the model variable of shared variable j.
	sharedVar func(j int) int
	// term writes an update's right-hand side over the model's variables.
	term func(presburger.Term) (presburger.Term, error)
}

// effect is what a step does to a model's variables: one move per part
// (the mover's counters), the transfers of its broadcast and the
// assignments of its update.
type effect struct {
	moves     []Move
	transfers []Move
	assign    []Assign
}

// effectOf returns what st does when taken by processes of groups (the
// group of each part's mover), or at the total level (groups nil): there
// a transfer moves a total counter, so it must move the processes of
// every group that may have some (GroupReason says why otherwise).
func (n numbering) effectOf(st *gsst.Step, groups []int) (effect, error) {
	sys := n.sys
	var out effect
	group := func(i int) int {
		if groups == nil {
			return -1
		}
		return groups[i]
	}
	// A model without the counter of a mover's state, or of the target
	// of a transfer whose source it has, has no such step (the caller
	// leaves it out: ParamModel.mayTake).
	never := func() error {
		return errkind.Errorf(errkind.Internal, "counterabs: %s moves processes of a group out of or into a state the group never occupies", sys.StepName(st))
	}
	for i, p := range st.Parts {
		from, ok1 := n.counter(p.From, group(i))
		to, ok2 := n.counter(p.To, group(i))
		if !ok1 || !ok2 {
			return effect{}, never()
		}
		out.moves = append(out.moves, Move{From: from, To: to})
	}
	for _, x := range st.Transfers {
		if groups == nil {
			if why := n.restricted(st, &x); why != "" {
				return effect{}, errkind.Errorf(errkind.Input, "counterabs: %s; use the group-counter model", why)
			}
			from, _ := n.counter(x.From, -1)
			to, _ := n.counter(x.To, -1)
			out.transfers = append(out.transfers, Move{From: from, To: to})
			continue
		}
		for h := range sys.Groups {
			if !x.Allows(h) || !n.mayHold(h) {
				continue
			}
			from, ok := n.counter(x.From, h)
			if !ok {
				continue // no process of h is ever there: it moves nobody
			}
			to, ok := n.counter(x.To, h)
			if !ok {
				return effect{}, never()
			}
			out.transfers = append(out.transfers, Move{From: from, To: to})
		}
	}
	for _, a := range st.Update.Assign {
		j, ok := sys.SharedOf(a.Var)
		if !ok {
			return effect{}, errkind.Errorf(errkind.Internal, "counterabs: update %q assigns %s, which is not a shared variable", st.Update.Text, sys.VarName(a.Var))
		}
		val, err := n.term(a.Value)
		if err != nil {
			return effect{}, err
		}
		out.assign = append(out.assign, Assign{Var: n.sharedVar(j), Value: val})
	}
	return out, nil
}

// restricted says why transfer x of st moves a number of processes that
// is no function of the total counters: it leaves out a group that may
// have processes. It returns "" otherwise.
func (n numbering) restricted(st *gsst.Step, x *gsst.Transfer) string {
	sys := n.sys
	for g := range sys.Groups {
		if !x.Allows(g) && n.mayHold(g) {
			return fmt.Sprintf("the broadcast of %s transfers processes of some groups only (%s -> %s), which only the group-counter model keeps",
				sys.StepName(st), sys.States[x.From], sys.States[x.To])
		}
	}
	return ""
}

// restrictedBroadcast says why sys has a step whose effect on the total
// counters depends on the group counters (numbering.restricted), for
// GroupReason; "" when it has none.
func restrictedBroadcast(sys *gsst.System) string {
	n := numbering{sys: sys, mayHold: func(g int) bool { return mayHold(sys, g) }}
	steps := sys.Steps()
	for i := range steps {
		for _, x := range steps[i].Transfers {
			if why := n.restricted(&steps[i], &x); why != "" {
				return why
			}
		}
	}
	return ""
}

// mayHold reports whether group g of sys has processes in some instance.
func mayHold(sys *gsst.System, g int) bool {
	grp := &sys.Groups[g]
	return grp.Size > 0 || grp.Ranged || grp.OverParams()
}

// ForceRefusal says in words why Force cannot build the total-counter
// model of sys: the over-approximation and its may-deadlock states are
// built for steps that move one process and change nothing else
// (gsst.Step.Simple), and it names the first step that does more. It
// returns "" when every step is simple.
func ForceRefusal(sys *gsst.System) string {
	steps := sys.Steps()
	for i := range steps {
		st := &steps[i]
		if st.Simple() {
			continue
		}
		var does []string
		if len(st.Parts) > 1 {
			does = append(does, fmt.Sprintf("moves %d processes", len(st.Parts)))
		}
		if len(st.Transfers) > 0 {
			does = append(does, "broadcasts")
		}
		if len(st.Update.Assign) > 0 {
			does = append(does, "updates shared variables")
		}
		return fmt.Sprintf("the over-approximating total-counter model is built only for steps that move one process and change nothing else, and %s %s",
			sys.StepName(st), strings.Join(does, " and "))
	}
	return ""
}

// numbering returns how m numbers counters and shared variables.
func (m *Model) numbering() numbering {
	sys := m.System
	return numbering{
		sys:       sys,
		counter:   func(s, g int) (int, bool) { return m.Counter(s, g), true },
		mayHold:   func(g int) bool { return sys.Groups[g].Size > 0 },
		sharedVar: m.SharedVar,
		term:      m.TranslateTerm,
	}
}

// compiled is what a model transition derives from its steps: the
// moves, transfers and assignments of the first step (the steps of a
// transition share them) and where the steps were written.
type compiled struct {
	effect
	local, group, rendezvous, environment int
}

// from and to are the first mover's move, -1 and -1 for a step that
// moves no process.
func (c *compiled) from() int {
	if len(c.moves) == 0 {
		return -1
	}
	return c.moves[0].From
}

func (c *compiled) to() int {
	if len(c.moves) == 0 {
		return -1
	}
	return c.moves[0].To
}

// compile derives what a transition taking steps (indices into
// System.Steps()) by processes of groups (nil at the total level) does,
// at numbering n.
func (n numbering) compile(steps, groups []int) (compiled, error) {
	st := &n.sys.Steps()[steps[0]]
	e, err := n.effectOf(st, groups)
	if err != nil {
		return compiled{}, err
	}
	c := compiled{effect: e}
	c.local, c.group, c.rendezvous, c.environment = origin(st, groups)
	return c, nil
}

// also returns the moves of the parts after the first (nil for one).
func (c *compiled) also() []Move {
	if len(c.moves) <= 1 {
		return nil
	}
	return c.moves[1:]
}

// transition returns the transition of m taking the steps (indices into
// System.Steps(), which share their effect) by processes of groups (nil
// at the total level), compiled from them. The caller sets Guard and
// Case.
func (m *Model) transition(steps, groups []int) (Transition, error) {
	c, err := m.numbering().compile(steps, groups)
	if err != nil {
		return Transition{}, err
	}
	return Transition{From: c.from(), To: c.to(), Also: c.also(), Transfers: c.transfers, Assign: c.assign,
		Steps: steps, Groups: groups, Local: c.local, Group: c.group, Rendezvous: c.rendezvous, Environment: c.environment}, nil
}

// origin returns where st was written, as the Local, Group, Rendezvous
// and Environment fields of a model transition say it.
func origin(st *gsst.Step, groups []int) (local, group, rendezvous, environment int) {
	switch o := &st.Origin; {
	case o.Rendezvous >= 0:
		return -1, -1, o.Rendezvous, -1
	case o.Environment >= 0:
		return -1, -1, -1, o.Environment
	}
	group = -1
	if groups != nil {
		group = groups[0]
	}
	return st.Origin.Transition, group, -1, -1
}

// StepOf returns the (first) step t takes: its parts, transfers and
// update are those of every step t takes.
func (m *Model) StepOf(t *Transition) *gsst.Step { return &m.System.Steps()[t.Steps[0]] }

// stepName names a model transition taking st by processes of groups
// (nil: of any group) as messages and listings do: "T -> C" or
// "T -> C [g]" for a local transition, "rendezvous S -> I [a], M -> I [b]"
// for a rendezvous.
func stepName(sys *gsst.System, st *gsst.Step, groups []int) string {
	if st.Origin.Environment >= 0 {
		return sys.StepName(st)
	}
	if st.Origin.Transition >= 0 {
		name := sys.TransitionName(&sys.Transitions[st.Origin.Transition])
		if groups != nil {
			name += " [" + sys.Groups[groups[0]].Name + "]"
		}
		return name
	}
	parts := make([]string, len(st.Parts))
	for i, p := range st.Parts {
		parts[i] = sys.States[p.From] + " -> " + sys.States[p.To]
		if groups != nil {
			parts[i] += " [" + sys.Groups[groups[i]].Name + "]"
		}
	}
	return "rendezvous " + strings.Join(parts, ", ")
}

// maxChoices bounds the assignments of groups to the parts of one step
// that a group-counter model enumerates.
const maxChoices = 1 << 16

// groupChoices calls yield with each step of steps (indices into
// System.Steps(): the blocks of one local transition, or one rendezvous)
// and each assignment of a group to its parts whose movers may be there
// (may(g, st): a process of group g may be in state st), in increasing
// order of the first part's group, then the second's, and so on; for the
// blocks of a transition, each group with the block that holds it. Two
// assignments of a step that move the same counters (the same processes
// of each group from and to each state: the parts of a rendezvous taken
// in another order) are one: the second is left out.
func groupChoices(sys *gsst.System, steps []int, may func(g, st int) bool, yield func(step int, groups []int) error) error {
	all := sys.Steps()
	parts := len(all[steps[0]].Parts)
	// mover says whether a process of group g may take part i of some
	// step of steps.
	mover := func(i, g int) bool {
		return slices.ContainsFunc(steps, func(s int) bool { return all[s].Parts[i].Allows(g) && may(g, all[s].Parts[i].From) })
	}
	count := 1
	for i := range parts {
		k := 0
		for g := range sys.Groups {
			if mover(i, g) {
				k++
			}
		}
		if count *= k; count > maxChoices {
			return errkind.Errorf(errkind.Limit, "counterabs: %s has more than %d assignments of groups to its parts", sys.StepName(&all[steps[0]]), maxChoices)
		}
	}
	seen := map[string]bool{}
	groups := make([]int, parts)
	var rec func(i int) error
	rec = func(i int) error {
		if i == parts {
			for _, s := range steps {
				st := &all[s]
				if !allows(st, groups) {
					continue
				}
				moves := make([]string, parts)
				for k, p := range st.Parts {
					moves[k] = fmt.Sprint(p.From, ">", p.To, "[", groups[k], "]")
				}
				slices.Sort(moves)
				key := fmt.Sprint(s, moves)
				if seen[key] {
					return nil
				}
				seen[key] = true
				return yield(s, slices.Clone(groups))
			}
			return nil
		}
		for g := range sys.Groups {
			if !mover(i, g) {
				continue
			}
			groups[i] = g
			if err := rec(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return rec(0)
}

// allows reports whether each part of st allows its group in groups.
func allows(st *gsst.Step, groups []int) bool {
	for i := range st.Parts {
		if !st.Parts[i].Allows(groups[i]) {
			return false
		}
	}
	return true
}

// consistentStep checks that t is a compiled form of its steps at m's
// level: the steps exist and share an effect, Groups gives a group each
// part allows (none at the total level), and the moves, transfers,
// assignments and origin are those derived from the steps. It returns
// what is wrong, "" when nothing is.
func (m *Model) consistentStep(t *Transition) string {
	all := m.System.Steps()
	if len(t.Steps) == 0 {
		return "it takes no step of the system"
	}
	for _, s := range t.Steps {
		if s < 0 || s >= len(all) {
			return fmt.Sprintf("it takes step %d, which the system does not have", s)
		}
	}
	st := &all[t.Steps[0]]
	for _, s := range t.Steps[1:] {
		o := &all[s]
		if o.Origin.Transition < 0 || o.Origin.Transition != st.Origin.Transition || !sameUpdate(m.System, &o.Update, &st.Update) {
			return "its steps are not blocks of one local transition with one update"
		}
	}
	switch {
	case m.Level == TotalLevel && t.Groups != nil:
		return "a transition of the total-counter model names groups"
	case m.Level == GroupLevel && (len(t.Steps) != 1 || len(t.Groups) != len(st.Parts)):
		return "a transition of the group-counter model takes one step by one group per part"
	case !validGroups(m.System, st, t.Groups):
		return "a part is taken by a group the system does not have"
	case m.Level == GroupLevel && !allows(st, t.Groups):
		return "a part is taken by a group it does not allow"
	}
	want, err := m.transition(t.Steps, t.Groups)
	if err != nil {
		return err.Error()
	}
	if t.From != want.From || t.To != want.To || !slices.Equal(t.Also, want.Also) || !slices.Equal(t.Transfers, want.Transfers) ||
		!slices.EqualFunc(t.Assign, want.Assign, func(a, b Assign) bool { return a.Var == b.Var && a.Value.Equal(b.Value) }) {
		return fmt.Sprintf("it does not do what its step %s does", m.TransitionName(&want))
	}
	if t.Local != want.Local || t.Group != want.Group || t.Local < 0 && (t.Rendezvous != want.Rendezvous || t.IsEnvironment() && t.Environment != want.Environment) {
		return "its origin is not its step's"
	}
	return ""
}

// sameUpdate reports whether two updates assign the same values to the
// same variables (in any order).
func sameUpdate(sys *gsst.System, a, b *gsst.Update) bool {
	return updateKey(sys, a) == updateKey(sys, b)
}

// updateKey writes u canonically: its assignments sorted by variable.
func updateKey(sys *gsst.System, u *gsst.Update) string {
	as := slices.Clone(u.Assign)
	slices.SortFunc(as, func(a, b gsst.Assign) int { return int(a.Var) - int(b.Var) })
	var sb strings.Builder
	for _, a := range as {
		fmt.Fprintf(&sb, "%s:=%s;", sys.VarName(a.Var), a.Value.Format(sys.VarName))
	}
	return sb.String()
}
