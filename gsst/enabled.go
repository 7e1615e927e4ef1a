package gsst

import (
	"slices"

	"github.com/vsym/vsym/presburger"
)

// When a step can be taken, and what it does, as formulas and terms over
// the system's variables: counters, shared variables, parameters, sizes
// and n. Certification substitutes its own variables for them, the
// counter models translate them to model counters, the exports write
// them in their languages. The same meaning on configurations is in
// config.go and procs.go; the tests check the two against each other.

// EnabledFormula returns the condition that st can be taken: distinct
// processes exist for its parts (MoversFormula), its guard holds, and its
// update keeps every shared variable in its domain (InDomain).
func (s *Spec) EnabledFormula(st *Step) presburger.Formula {
	return presburger.Conj(s.MoversFormula(st.Parts), st.Guard, s.InDomain(&st.Update, s.Shared))
}

// MoversFormula returns the condition that distinct processes exist for
// parts, each in its part's source and of one of its groups: Hall's
// condition for a system of distinct representatives, per source state
// (every set K of the parts from S finds at least |K| processes in S of
// the groups some part of K allows). A count over every group is the
// total counter #S; over some groups, the sum of their group counters.
// One part from S needs one process there: #S >= 1, or #S[g] >= 1.
//
// Only the conditions that the others do not imply are written, source
// states in increasing order: for each set A of groups that some K
// allows, the one for the largest K (every part whose groups lie in A),
// unless those parts split into two sets allowing disjoint groups (then
// A's count is the sum of theirs, and their conditions add up to A's).
// Two parts from S of any group need #S >= 2; parts of groups a and b
// need #S[a] >= 1 and #S[b] >= 1.
//
// The sets K range over unions of classes: the parts from S that allow
// the same groups (a set taking some parts of a class asks no more
// than the one taking them all). So the conditions cost 2^c for c
// classes, however many parts there are: a test "#x10 >= 45" written
// as 45 parts x10 -> x10 is one class (checkRendezvous bounds the
// classes by MaxPartClasses).
func (s *Spec) MoversFormula(parts []Part) presburger.Formula {
	var states []int
	byState := map[int][]int{}
	for i, p := range parts {
		if _, ok := byState[p.From]; !ok {
			states = append(states, p.From)
		}
		byState[p.From] = append(byState[p.From], i)
	}
	slices.Sort(states)
	var out []presburger.Formula
	for _, st := range states {
		from := byState[st]
		classes := s.partClasses(parts, from)
		seen := map[string]bool{}
		for set := 1; set < 1<<len(classes); set++ {
			allowed := make([]bool, len(s.Groups))
			for c, allows := range classes {
				if set&(1<<c) != 0 {
					for g := range allowed {
						allowed[g] = allowed[g] || allows[g]
					}
				}
			}
			key := boolsKey(allowed)
			if seen[key] {
				continue
			}
			seen[key] = true
			// The largest set of parts allowing no more than allowed.
			var within []int
			for _, p := range from {
				if s.within(&parts[p], allowed) {
					within = append(within, p)
				}
			}
			if !s.connected(parts, within) {
				continue
			}
			any := !slices.Contains(allowed, false)
			out = append(out, presburger.Compare(s.countOf(st, any, allowed), presburger.Ge, presburger.ConstTerm(int64(len(within)))))
		}
	}
	return presburger.Conj(out...)
}

// MaxPartClasses bounds the classes of the parts of a rendezvous from
// one state: the sets of groups they allow, of which MoversFormula
// writes a condition per union.
const MaxPartClasses = 12

// partClasses returns the sets of groups that the parts from (indices
// into parts) allow, each once, in the order of the parts.
func (s *Spec) partClasses(parts []Part, from []int) [][]bool {
	var classes [][]bool
	seen := map[string]bool{}
	for _, p := range from {
		allows := make([]bool, len(s.Groups))
		for g := range allows {
			allows[g] = parts[p].Allows(g)
		}
		if k := boolsKey(allows); !seen[k] {
			seen[k] = true
			classes = append(classes, allows)
		}
	}
	return classes
}

// boolsKey writes bs as a string of 0s and 1s, a key of the set
// (fmt.Sprint wrote one too, the larger part of the cost of the movers'
// formula of a system with hundreds of groups).
func boolsKey(bs []bool) string {
	b := make([]byte, len(bs))
	for i, x := range bs {
		b[i] = '0'
		if x {
			b[i] = '1'
		}
	}
	return string(b)
}

// within reports whether every group p allows is in allowed.
func (s *Spec) within(p *Part, allowed []bool) bool {
	for g := range allowed {
		if p.Allows(g) && !allowed[g] {
			return false
		}
	}
	return true
}

// connected reports whether the parts ps cannot be split into two sets
// that allow disjoint sets of groups.
func (s *Spec) connected(parts []Part, ps []int) bool {
	if len(ps) <= 1 {
		return true
	}
	overlap := func(a, b *Part) bool {
		for g := range s.Groups {
			if a.Allows(g) && b.Allows(g) {
				return true
			}
		}
		return false
	}
	reached := []int{ps[0]}
	left := slices.Clone(ps[1:])
	for i := 0; i < len(reached); i++ {
		for j := 0; j < len(left); j++ {
			if overlap(&parts[reached[i]], &parts[left[j]]) {
				reached = append(reached, left[j])
				left = slices.Delete(left, j, j+1)
				j--
			}
		}
	}
	return len(left) == 0
}

// countOf returns the number of processes in state st of the allowed
// groups (of every group when any is set, or when allowed holds every
// group): the total counter, or a sum of group counters.
func (s *Spec) countOf(st int, any bool, allowed []bool) presburger.Term {
	if any || !slices.Contains(allowed, false) {
		return presburger.VarTerm(s.TotalVar(st))
	}
	var sum presburger.Term
	for g, ok := range allowed {
		if ok {
			sum = sum.Add(presburger.VarTerm(s.GroupVar(st, g)))
		}
	}
	return sum
}

// InDomain returns the condition that every value u assigns lies in its
// variable's domain, domains[j] being that of shared variable j (the
// system's own, s.Shared, or those of an export that cuts unbounded
// variables). A bound that holds whatever the values of the variables
// read (within their domains) is left out; the ranges are computed
// exactly, so nothing is left out because an intermediate sum wrapped.
func (s *Spec) InDomain(u *Update, domains []Shared) presburger.Formula {
	var out []presburger.Formula
	for _, a := range u.Assign {
		j, ok := s.SharedOf(a.Var)
		if !ok {
			continue // the rules of New forbid it
		}
		v := &domains[j]
		r := a.Value.Range(func(x presburger.Var) (presburger.Bound, bool) {
			if k, ok := s.SharedOf(x); ok {
				return domains[k].Bounds(x), true
			}
			return presburger.Bound{}, false // a parameter of a family: no bound
		})
		if r.NoLo || r.Lo < int64(v.Lo) {
			out = append(out, presburger.Compare(a.Value, presburger.Ge, presburger.ConstTerm(int64(v.Lo))))
		}
		if !v.Unbounded && (r.NoHi || r.Hi > int64(v.Hi)) {
			out = append(out, presburger.Compare(a.Value, presburger.Le, presburger.ConstTerm(int64(v.Hi))))
		}
	}
	return presburger.Conj(out...)
}

// Effect returns what st does to the orbit of a configuration: the change
// of each total counter, and the value of each shared variable after the
// step, as terms over the system's variables. It is exact when
// EffectFixed(st) holds; otherwise the number of processes a transfer
// moves depends on which group a mover belongs to, and the step must be
// restricted first (Restrict, WithGroups).
func (s *Spec) Effect(st *Step) (totals, shared []presburger.Term) {
	totals = make([]presburger.Term, len(s.States))
	for _, p := range st.Parts {
		totals[p.From] = totals[p.From].Add(presburger.ConstTerm(-1))
		totals[p.To] = totals[p.To].Add(presburger.ConstTerm(1))
	}
	for _, x := range st.Transfers {
		k := s.countOf(x.From, x.Groups == nil, s.groupSet(x.Groups))
		for _, p := range st.Parts {
			// A mover is not transferred; a part whose groups are
			// all moved by the transfer has one fewer to move.
			if p.From == x.From && subset(p.Groups, x.Groups) {
				k = k.Add(presburger.ConstTerm(-1))
			}
		}
		totals[x.From] = totals[x.From].Sub(k)
		totals[x.To] = totals[x.To].Add(k)
	}
	shared = make([]presburger.Term, len(s.Shared))
	for j := range shared {
		shared[j] = presburger.VarTerm(s.SharedVar(j))
	}
	for _, a := range st.Update.Assign {
		if j, ok := s.SharedOf(a.Var); ok {
			shared[j] = a.Value
		}
	}
	return totals, shared
}

// EffectFixed reports whether Effect is exact for st: no part whose
// source a transfer empties has groups of which the transfer moves some
// and not others.
func (s *Spec) EffectFixed(st *Step) bool {
	for _, x := range st.Transfers {
		for _, p := range st.Parts {
			if p.From == x.From && !subset(p.Groups, x.Groups) && !disjoint(p.Groups, x.Groups, len(s.Groups)) {
				return false
			}
		}
	}
	return true
}

// groupSet returns the groups as a membership table (nil groups: none
// marked; callers read nil as every group first).
func (s *Spec) groupSet(groups []int) []bool {
	out := make([]bool, len(s.Groups))
	for _, g := range groups {
		out[g] = true
	}
	return out
}

// subset reports whether every group of a is in b (nil is every group).
func subset(a, b []int) bool {
	if b == nil {
		return true
	}
	if a == nil {
		return false
	}
	for _, g := range a {
		if !slices.Contains(b, g) {
			return false
		}
	}
	return true
}

// disjoint reports whether a and b (nil: every one of d groups) share no
// group.
func disjoint(a, b []int, d int) bool {
	switch {
	case d == 0:
		return true
	case a == nil:
		return len(b) == 0
	case b == nil:
		return len(a) == 0
	}
	for _, g := range a {
		if slices.Contains(b, g) {
			return false
		}
	}
	return true
}
