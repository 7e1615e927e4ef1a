package counterabs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// This file builds what a model has beyond the paper: the assignments of
// an update and the domain atoms that make a step whose update leaves a
// variable's domain disabled, the transfers of a broadcast, and the
// transitions of a rendezvous.

// supported is what the counter models handle beyond the paper: shared
// variables with updates, broadcast and rendezvous, and parameters of a
// fixed instance (folded into constants; checkFixed refuses a family).
const supported = gsst.ExtShared | gsst.ExtBroadcast | gsst.ExtRendezvous | gsst.ExtParams

// ge is the atom x_c >= k.
func ge(c int, k int) presburger.Formula {
	return presburger.Compare(presburger.VarTerm(presburger.Var(c)), presburger.Ge, presburger.ConstTerm(int64(k)))
}

// update returns the assignments of u over the model's variables and the
// atoms saying that every assigned value lies in its variable's domain.
func (m *Model) update(u *gsst.Update) ([]Assign, []presburger.Formula, error) {
	var out []Assign
	var dom []presburger.Formula
	for _, a := range u.Assign {
		j, ok := m.System.SharedOf(a.Var)
		if !ok || j >= len(m.Shared) {
			return nil, nil, errkind.Errorf(errkind.Input, "counterabs: update %q assigns variable %d, which is not a shared variable", u.Text, a.Var)
		}
		val, err := m.TranslateTerm(a.Value)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, Assign{Var: m.SharedVar(j), Value: val})
		dom = append(dom, inDomain(&m.Shared[j], val, m.SharedAt)...)
	}
	return out, dom, nil
}

// inDomain returns the atoms saying that t is a value of v, leaving out
// those that hold whenever every shared variable t reads is in its
// domain (of), as in every state a model reaches: "x + 1 >= 0" for x in
// 0..3. The range of t is exact (presburger.Term.Range): an atom is left
// out only when it holds for every value, never because a range
// computation wrapped around.
func inDomain(v *gsst.Shared, t presburger.Term, of func(presburger.Var) *gsst.Shared) []presburger.Formula {
	r := t.Range(func(x presburger.Var) (presburger.Bound, bool) {
		w := of(x)
		if w == nil {
			return presburger.Bound{}, false
		}
		return w.Bounds(x), true
	})
	var out []presburger.Formula
	if r.NoLo || r.Lo < int64(v.Lo) {
		out = append(out, presburger.Compare(t, presburger.Ge, presburger.ConstTerm(int64(v.Lo))))
	}
	if !v.Unbounded && (r.NoHi || r.Hi > int64(v.Hi)) {
		out = append(out, presburger.Compare(t, presburger.Le, presburger.ConstTerm(int64(v.Hi))))
	}
	return out
}

// SharedAt returns the shared variable model variable x stands for, nil
// for a counter.
func (m *Model) SharedAt(x presburger.Var) *gsst.Shared {
	if j := int(x) - len(m.Counters); j >= 0 && j < len(m.Shared) {
		return &m.Shared[j]
	}
	return nil
}

// groupTransfers returns the transfers of t's broadcast over the group
// counters: one per transfer and group it applies to.
func (m *Model) groupTransfers(t *gsst.Transition) []Move {
	var out []Move
	for _, tr := range t.Broadcast {
		for g, grp := range m.System.Groups {
			if grp.Size == 0 || (tr.Groups != nil && !slices.Contains(tr.Groups, g)) {
				continue
			}
			out = append(out, Move{From: m.Counter(tr.From, g), To: m.Counter(tr.To, g)})
		}
	}
	return out
}

// maxRendezvousChoices bounds the assignments of groups to the parts of
// one rendezvous that the group-counter model enumerates.
const maxRendezvousChoices = 1 << 16

// partGroups returns the groups with processes that may take part p.
func partGroups(sys *gsst.System, p *gsst.Part) []int {
	var out []int
	for g, grp := range sys.Groups {
		if grp.Size > 0 && (p.Groups == nil || slices.Contains(p.Groups, g)) {
			out = append(out, g)
		}
	}
	return out
}

// rendezvous returns the transitions of rendezvous ri at the model's
// level: at GroupLevel one per assignment of groups to its parts (two
// assignments that move the same counters are one transition), at
// TotalLevel one. Each moves its first part by From -> To and the others
// by Also; its guard requires the processes (as many in each counter as
// parts leave it), the rendezvous guard, and every assigned value in its
// domain.
func (m *Model) rendezvous(ri int) ([]Transition, error) {
	sys := m.System
	r := &sys.Rendezvous[ri]
	if len(r.Parts) < 2 {
		return nil, errkind.Errorf(errkind.Input, "counterabs: rendezvous %d has %d parts", ri, len(r.Parts))
	}
	guard := presburger.Formula(presburger.True)
	if r.Guard != nil {
		guard = r.Guard
	}
	guard, err := m.Translate(guard)
	if err != nil {
		return nil, err
	}
	assign, dom, err := m.update(&r.Update)
	if err != nil {
		return nil, err
	}
	choices := make([][]int, len(r.Parts))
	count := 1
	for i := range r.Parts {
		if m.Level == TotalLevel {
			choices[i] = []int{-1}
			continue
		}
		choices[i] = partGroups(sys, &r.Parts[i])
		count *= len(choices[i])
		if count > maxRendezvousChoices {
			return nil, errkind.Errorf(errkind.Limit, "counterabs: %s has more than %d assignments of groups to its parts", sys.RendezvousName(r), maxRendezvousChoices)
		}
	}
	var out []Transition
	seen := map[string]bool{}
	pick := make([]int, len(r.Parts))
	var rec func(i int)
	rec = func(i int) {
		if i < len(r.Parts) {
			for _, g := range choices[i] {
				pick[i] = g
				rec(i + 1)
			}
			return
		}
		moves := make([]Move, len(r.Parts))
		for k := range r.Parts {
			moves[k] = Move{From: m.Counter(r.Parts[k].From, pick[k]), To: m.Counter(r.Parts[k].To, pick[k])}
		}
		key := moveKey(moves)
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, Transition{
			From: moves[0].From, To: moves[0].To, Also: moves[1:],
			Guard: presburger.Conj(append(append(need(moves), guard), dom...)...),
			Case:  caseOf(m.Level),
			Local: -1, Group: -1, Rendezvous: ri, Assign: assign,
		})
	}
	rec(0)
	return out, nil
}

// caseOf is the Case of a transition built without projection.
func caseOf(l Level) Case {
	if l == GroupLevel {
		return CaseGroup
	}
	return CaseA
}

// need returns the atoms saying that every counter holds as many
// processes as moves leave it.
func need(moves []Move) []presburger.Formula {
	count := map[int]int{}
	var order []int
	for _, mv := range moves {
		if count[mv.From] == 0 {
			order = append(order, mv.From)
		}
		count[mv.From]++
	}
	slices.Sort(order)
	out := make([]presburger.Formula, len(order))
	for i, c := range order {
		out[i] = ge(c, count[c])
	}
	return out
}

// moveKey identifies a multiset of moves.
func moveKey(moves []Move) string {
	ks := make([]string, len(moves))
	for i, mv := range moves {
		ks[i] = fmt.Sprint(mv.From, ">", mv.To)
	}
	slices.Sort(ks)
	return strings.Join(ks, ",")
}

// rendezvousName names a rendezvous transition by its parts.
func (m *Model) rendezvousName(t *Transition) string {
	var parts []string
	for _, mv := range append([]Move{{t.From, t.To}}, t.Also...) {
		parts = append(parts, m.moveName(mv))
	}
	return "rendezvous " + strings.Join(parts, ", ")
}

// moveName writes a move as "P -> Q" or "P -> Q [g]".
func (m *Model) moveName(mv Move) string {
	if mv.From < 0 || mv.From >= len(m.Counters) || mv.To < 0 || mv.To >= len(m.Counters) {
		return fmt.Sprintf("v%d -> v%d", mv.From, mv.To)
	}
	a, b := m.Counters[mv.From], m.Counters[mv.To]
	name := m.System.States[a.State] + " -> " + m.System.States[b.State]
	if a.Group >= 0 {
		name += " [" + m.System.Groups[a.Group].Name + "]"
	}
	return name
}

// SharedValues returns the values of the shared variables in the model
// state x (a value per model variable); nil when the model has none.
func (m *Model) SharedValues(x []int) []int {
	if len(m.Shared) == 0 {
		return nil
	}
	return append([]int(nil), x[len(m.Counters):m.NumVars()]...)
}

// consistentExt checks the fields beyond the paper of transition t: the
// other movers and the transfers stay inside pools, a transfer's sources
// are distinct, assignments set distinct shared variables to terms over
// shared variables, and a rendezvous names one the system has.
func (m *Model) consistentExt(t *Transition, pool []int) string {
	sys := m.System
	ok := func(c int) bool { return c >= 0 && c < len(m.Counters) }
	if t.Local < 0 && (t.Rendezvous < 0 || t.Rendezvous >= len(sys.Rendezvous) || len(t.Also) == 0) {
		return "a rendezvous transition names no rendezvous of the system or moves one process"
	}
	if t.Local >= 0 && len(t.Also) > 0 {
		return "a local transition moves more than one process"
	}
	for _, mv := range t.Also {
		if !ok(mv.From) || !ok(mv.To) || mv.From == mv.To || pool[mv.From] != pool[mv.To] {
			return "a part of the rendezvous moves outside a pool"
		}
	}
	src := map[int]bool{}
	for _, mv := range t.Transfers {
		if !ok(mv.From) || !ok(mv.To) || mv.From == mv.To || pool[mv.From] != pool[mv.To] || src[mv.From] {
			return "a transfer leaves its pool, moves a counter to itself, or shares its source with another"
		}
		src[mv.From] = true
	}
	if len(t.Transfers) > 0 && (t.Local < 0 || len(sys.Transitions[t.Local].Broadcast) == 0) {
		return "it transfers processes, but its local transition is no broadcast"
	}
	set := map[int]bool{}
	for _, a := range t.Assign {
		if a.Var < len(m.Counters) || a.Var >= m.NumVars() || set[a.Var] {
			return "an assignment sets a counter, an unknown variable, or a variable twice"
		}
		set[a.Var] = true
		for _, mo := range a.Value.Monos {
			if int(mo.Var) < len(m.Counters) || int(mo.Var) >= m.NumVars() {
				return "an assignment reads a variable that is not a shared variable"
			}
		}
	}
	return ""
}
