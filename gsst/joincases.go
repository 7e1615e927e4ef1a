package gsst

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/presburger"
)

// JoinCases returns s with its case splits joined: steps of one effect
// (transitions with the same source, target and transfers, and blocks
// of the same groups with the same updates; rendezvous with the same
// parts, transfers and update; environment steps with the same
// transfers and update) whose guards are the cases of one guard become
// one step guarded by it, and a guard written as such a disjunction of
// cases loses the split (caseFree). A transition written as two halves,
// `G & #x >= 2` and `G & #x <= 1`, so becomes one guarded by G, as its
// writer meant. Steps of one effect whose guards do not join so
// (Cubicle's German writes two rules of one effect with unrelated
// guards) stay apart: a disjunction of unrelated guards is no easier to
// read than two steps, and the system as written is asked then.
//
// The system returned has the same steps from every configuration: a
// step of a joined transition is a step of one of its halves, with the
// same movers, transfers and update, and a guard loses only cases that
// cannot decide whether it holds where it is read. Its runs are so the
// runs of s, configuration by configuration, but the steps of one
// transition of it have one name where s has two. ok is false when
// nothing is joined or dropped, or when s has weak fairness (a
// constraint names the transition it reads).
func (s *System) JoinCases() (*System, bool, error) {
	if len(s.Fairness.Weak) > 0 {
		return nil, false, nil
	}
	spec := s.Spec()
	inst := &instance{s: s}
	var steps []caseStep
	for i := range spec.Transitions {
		t := &spec.Transitions[i]
		t.Blocks = slices.Clone(t.Blocks)
		st := caseStep{name: &t.Name, key: transitionKey(t)}
		for b := range t.Blocks {
			blk := &t.Blocks[b]
			st.guards = append(st.guards, guardSlot{&blk.Guard, &blk.Text, s.moverDomain(inst, []int{t.From}, blk.Groups)})
		}
		steps = append(steps, st)
	}
	for i := range spec.Rendezvous {
		r := &spec.Rendezvous[i]
		from := make([]int, len(r.Parts))
		for k, p := range r.Parts {
			from[k] = p.From
		}
		steps = append(steps, caseStep{name: &r.Name, key: rendezvousKey(r),
			guards: []guardSlot{{&r.Guard, &r.Text, s.moverDomain(inst, from, nil)}}})
	}
	for i := range spec.Environment {
		e := &spec.Environment[i]
		steps = append(steps, caseStep{name: &e.Name, key: environmentKey(e),
			guards: []guardSlot{{&e.Guard, &e.Text, s.moverDomain(inst, nil, nil)}}})
	}
	into, changed := s.joinSteps(steps)
	var ts []Transition
	var rs []Rendezvous
	var es []Environment
	// A step whose guards never hold is left out, a block that never
	// holds too: neither is ever taken.
	dead := func(f presburger.Formula) bool { return f == presburger.False }
	for i := range spec.Transitions {
		t := spec.Transitions[i]
		t.Blocks = slices.DeleteFunc(t.Blocks, func(b Block) bool { return dead(b.Guard) })
		if into[i] == i && len(t.Blocks) > 0 {
			ts = append(ts, t)
		}
	}
	for i := range spec.Rendezvous {
		if k := len(spec.Transitions) + i; into[k] == k && !dead(spec.Rendezvous[i].Guard) {
			rs = append(rs, spec.Rendezvous[i])
		}
	}
	for i := range spec.Environment {
		if k := len(spec.Transitions) + len(spec.Rendezvous) + i; into[k] == k && !dead(spec.Environment[i].Guard) {
			es = append(es, spec.Environment[i])
		}
	}
	if len(ts)+len(rs)+len(es) == 0 {
		// No step left: the system as written says so best.
		return nil, false, nil
	}
	var byGroups bool
	if ts, byGroups = s.joinGroups(ts); byGroups {
		changed = true
	}
	spec.Transitions, spec.Rendezvous, spec.Environment = ts, rs, es
	// Blocks made alike ({a: "true", b: "n >= 1"}, or "true" and
	// "(true) & true", which Parse keeps apart by their text) are one
	// block, as Parse makes them of what a user wrote.
	blocks := func() (n int) {
		for i := range spec.Transitions {
			n += len(spec.Transitions[i].Blocks)
		}
		return n
	}
	before := blocks()
	spec.mergeBlocks()
	if !changed && blocks() == before {
		return nil, false, nil
	}
	sys, err := New(spec)
	if err != nil {
		return nil, false, err
	}
	return sys, true, nil
}

// joinGroups joins transitions written once per group: transitions of
// one block each, with the same source, target, transfers, guard and
// update, whose groups no two share, are one transition of one block of
// all their groups (a translation that wrote each rule once per
// group, {consumer: G} and {producer: G}: certification reads the
// copies as steps some groups may not take, and the system as a
// group-counter question, past 10 s where the base takes 0.03 s). A
// process of any of the groups takes the step under the same guard
// with the same effect either way. ok says that some were joined.
func (s *System) joinGroups(ts []Transition) ([]Transition, bool) {
	key := func(t *Transition) string {
		if len(t.Blocks) != 1 {
			return ""
		}
		var b strings.Builder
		fmt.Fprintf(&b, "t%d>%d", t.From, t.To)
		writeTransfers(&b, t.Broadcast)
		blk := &t.Blocks[0]
		fmt.Fprintf(&b, "|%v|%s", blk.Update.Assign, presburger.Format(blk.Guard, s.VarName))
		return b.String()
	}
	first := map[string]int{}
	var out []Transition
	joined := false
	for _, t := range ts {
		k := key(&t)
		at, seen := first[k]
		if k == "" || !seen || slices.ContainsFunc(t.Blocks[0].Groups, func(g int) bool { return slices.Contains(out[at].Blocks[0].Groups, g) }) {
			if k != "" && !seen {
				first[k] = len(out)
			}
			out = append(out, t)
			continue
		}
		u := &out[at]
		u.Blocks = slices.Clone(u.Blocks)
		blk := &u.Blocks[0]
		blk.Groups = slices.Sorted(slices.Values(append(slices.Clone(blk.Groups), t.Blocks[0].Groups...)))
		blk.GroupPos = nil
		u.Name = s.joinedName(u.Name, t.Name)
		joined = true
	}
	return out, joined
}

// caseStep is one step of a Spec as JoinCases reads it: what it does,
// guards aside (key), and its guards, each where it is read.
type caseStep struct {
	name   *string
	key    string
	guards []guardSlot
}

// guardSlot is a guard of a step, its text, and where it is read.
type guardSlot struct {
	guard *presburger.Formula
	text  *string
	dom   domain
}

// set sets the guard of g to f, and its text to f's ("" for true).
func (g guardSlot) set(f presburger.Formula, name func(presburger.Var) string) {
	*g.guard, *g.text = f, presburger.Format(f, name)
	if v, ok := f.(presburger.Bool); ok && bool(v) {
		*g.guard, *g.text = presburger.True, ""
	}
}

// joinSteps joins the steps of one key whose guards are the cases of
// one guard (the whole group of a key first, a split into three cases
// joining only whole, then pairs, each joined step against the rest),
// writing the joined guards into the first of them, and drops the case
// splits of the guards left. into[i] is the step that step i joins (i
// itself when it joins none); changed says that some step was joined or
// some guard lost a split.
func (s *System) joinSteps(steps []caseStep) (into []int, changed bool) {
	into = make([]int, len(steps))
	byKey := map[string][]int{}
	var keys []string
	for i := range steps {
		into[i] = i
		if byKey[steps[i].key] == nil {
			keys = append(keys, steps[i].key)
		}
		byKey[steps[i].key] = append(byKey[steps[i].key], i)
	}
	join := func(group []int) bool {
		guards, ok := joined(steps, group)
		if !ok {
			return false
		}
		first := &steps[group[0]]
		for _, i := range group[1:] {
			*first.name = s.joinedName(*first.name, *steps[i].name)
			into[i] = group[0]
		}
		for b, g := range guards {
			first.guards[b].set(g, s.VarName)
		}
		return true
	}
	for _, key := range keys {
		group := byKey[key]
		if len(group) < 2 {
			continue
		}
		if join(group) {
			changed = true
			continue
		}
		for a := range group {
			for b := a + 1; b < len(group) && into[group[a]] == group[a]; b++ {
				if into[group[b]] == group[b] && join([]int{group[a], group[b]}) {
					changed = true
				}
			}
		}
	}
	for i := range steps {
		if into[i] != i {
			continue
		}
		for _, g := range steps[i].guards {
			guard := orTrue(*g.guard)
			var free presburger.Formula = presburger.False
			if !g.dom.implies(presburger.Negation(guard)) {
				// Else a guard that never holds where it is read (#S = 0
				// with a part leaving S): the step is taken nowhere.
				free = caseFree(guard, g.dom)
			}
			// A comparison that always holds, dropped, changes nothing
			// the stages read (they fold it by the same ranges); it
			// counts only where it makes blocks alike (mergeBlocks).
			changed = changed || !droppedOnly(free, presburger.PushNegations(guard))
			// Set even when unchanged: the text of what it reads ("" for
			// true), so that blocks alike but written apart merge.
			g.set(free, s.VarName)
		}
	}
	return into, changed
}

// droppedOnly reports whether free is guard less some of its top-level
// comparisons, or guard itself: not when free is false (the step is
// then left out), nor when a disjunction is gone (a case split).
func droppedOnly(free, guard presburger.Formula) bool {
	if free == presburger.False && guard != presburger.False {
		return false
	}
	keys := func(cs []presburger.Formula) (out []string) {
		for _, c := range cs {
			out = append(out, atomKey(c))
		}
		return out
	}
	conj := presburger.Conjuncts(guard)
	kept, written := keys(presburger.Conjuncts(free)), keys(conj)
	for _, k := range kept {
		if !slices.Contains(written, k) {
			return false
		}
	}
	for i, c := range conj {
		if _, cmp := c.(presburger.Cmp); !cmp && !slices.Contains(kept, written[i]) {
			return false
		}
	}
	return true
}

// joined returns the guards, slot by slot, of the steps of group (of
// one key) joined into one: each the disjunction of theirs without its
// split (caseFree). ok is false unless every slot's disjunction loses a
// split there, so that the join reads more simply than the steps apart.
func joined(steps []caseStep, group []int) ([]presburger.Formula, bool) {
	first := &steps[group[0]]
	out := make([]presburger.Formula, len(first.guards))
	for b := range first.guards {
		var cases []presburger.Formula
		for _, i := range group {
			cases = append(cases, orTrue(*steps[i].guards[b].guard))
		}
		or := presburger.Disj(cases...)
		free := caseFree(or, first.guards[b].dom)
		if atomKey(free) == atomKey(presburger.PushNegations(or)) {
			return nil, false
		}
		out[b] = free
	}
	return out, true
}

// transitionKey says what a step of t does, guards aside: its states,
// its transfers, and its blocks' groups and updates in order.
func transitionKey(t *Transition) string {
	var b strings.Builder
	fmt.Fprintf(&b, "t%d>%d", t.From, t.To)
	writeTransfers(&b, t.Broadcast)
	for _, blk := range t.Blocks {
		fmt.Fprintf(&b, "|%v:%v", blk.Groups, blk.Update.Assign)
	}
	return b.String()
}

// rendezvousKey says what a step of r does, its guard aside: its parts
// in order, its transfers and its update.
func rendezvousKey(r *Rendezvous) string {
	var b strings.Builder
	b.WriteString("r")
	for _, p := range r.Parts {
		fmt.Fprintf(&b, "|%d>%d%v", p.From, p.To, p.Groups)
	}
	writeTransfers(&b, r.Broadcast)
	fmt.Fprintf(&b, "|%v", r.Update.Assign)
	return b.String()
}

// environmentKey says what a step of e does, its guard aside: its
// transfers and its update.
func environmentKey(e *Environment) string {
	var b strings.Builder
	b.WriteString("e")
	writeTransfers(&b, e.Broadcast)
	fmt.Fprintf(&b, "|%v", e.Update.Assign)
	return b.String()
}

// writeTransfers writes what the transfers xs move, in order.
func writeTransfers(b *strings.Builder, xs []Transfer) {
	for _, x := range xs {
		fmt.Fprintf(b, "|%d>%d%v", x.From, x.To, x.Groups)
	}
}

// joinedName names the join of steps named a and b: a_or_b, so that a
// reason of the joined system names the steps as written; a where that
// name is taken or one of them has none.
func (s *System) joinedName(a, b string) string {
	if a == "" || b == "" {
		return a
	}
	name := a + "_or_" + b
	if slices.ContainsFunc(s.Transitions, func(t Transition) bool { return t.Name == name }) ||
		slices.ContainsFunc(s.Rendezvous, func(r Rendezvous) bool { return r.Name == name }) ||
		slices.ContainsFunc(s.Environment, func(e Environment) bool { return e.Name == name }) {
		return a
	}
	return name
}

// orTrue is f, true when nil (a step without a guard).
func orTrue(f presburger.Formula) presburger.Formula {
	if f == nil {
		return presburger.True
	}
	return f
}

// moverDomain is what holds wherever a step may be taken whose movers
// stand in the states of from (one entry per mover: a transition's
// source, a rendezvous's parts' sources; none for an environment step):
// every counter is at least 0, and #S at least the number of movers in
// S (and #S[g] at least 1 for the one mover of a block of the one group
// g), each shared variable in its type, each size in its range, and the
// parameters and sizes satisfy the instance condition.
func (s *System) moverDomain(inst *instance, from []int, groups []int) domain {
	d := domain{s: s, inst: inst, movers: map[int]int64{}, group: -1}
	for _, st := range from {
		d.movers[st]++
	}
	if len(from) == 1 && len(groups) == 1 {
		d.group = groups[0]
	}
	return d
}

// domain is the set of valuations where a step's guard is read
// (moverDomain), within what given says.
type domain struct {
	s      *System
	inst   *instance     // whether s has an instance, asked once for all its domains
	movers map[int]int64 // movers per state
	group  int           // the group of the one mover, when only one group's may move; else -1
	given  []presburger.Formula
}

// within returns d where the formulas given hold too.
func (d domain) within(given ...presburger.Formula) domain {
	d.given = append(slices.Clone(d.given), given...)
	return d
}

// bound is d's range of variable v: every integer for a parameter,
// whose range the instance condition says.
func (d domain) bound(v presburger.Var) presburger.Bound {
	s := d.s
	if st, g, ok := s.Counter(v); ok {
		lo := int64(0)
		switch {
		case g < 0:
			lo = d.movers[st]
		case g == d.group && d.movers[st] > 0:
			lo = 1
		}
		return presburger.AtLeast(v, lo)
	}
	if j, ok := s.SharedOf(v); ok {
		return s.Shared[j].Bounds(v)
	}
	for _, b := range s.SizeBounds() {
		if b.Var == v {
			return b
		}
	}
	return presburger.AnyInt(v)
}

// implies reports whether f holds in every valuation of d, decided by
// the values of its atoms where each reads one counter or shared
// variable (impliesByValues), else by presburger's Quick (plain Go, a
// bounded amount of work, so the same answer on every machine); false
// when neither can say. The question carries the ranges of its own
// variables only: a system of hundreds of states would give Quick
// hundreds of bounds to read for each guard.
func (d domain) implies(f presburger.Formula) bool {
	if implied, ok := d.impliesByValues(f); ok {
		return implied
	}
	return d.impliesByQuick(f)
}

// impliesByQuick is implies asked of Quick.
func (d domain) impliesByQuick(f presburger.Formula) bool {
	return d.askQuick(f) == presburger.Unsat
}

// askQuick asks Quick whether f fails somewhere in d: Unsat when f
// holds throughout d, Sat when it does not, Unknown when Quick cannot
// say. A parameter ranges over every integer there, the instance
// condition bounding it (with no range of its own, Quick declined
// every question of a family with parameters).
func (d domain) askQuick(f presburger.Formula) presburger.Result {
	q := presburger.Conj(append(slices.Clone(d.given), d.s.InstanceCondition(), presburger.Negation(f))...)
	var bounds []presburger.Bound
	for _, v := range presburger.FreeVars(q) {
		bounds = append(bounds, d.bound(v))
	}
	a, err := presburger.Quick{}.Solve(context.Background(), presburger.Problem{Bounds: bounds, F: q})
	if err != nil {
		return presburger.Unknown
	}
	return a.Result
}

// impliesByValues decides implies without Quick when f and what d
// gives read counters and shared variables only, each atom one of them
// (a controller's "net = 3", a place's "x0 >= 1"): the instance
// condition then reads none of their variables, so the question is
// whether those atoms fail somewhere in their ranges (SolveByValues,
// exact) and the instance condition holds somewhere (asked once). A
// controller read as a variable of 33 values makes JoinCases try its
// 496 pairs of returns, a Quick call each (mesh2x2: 40 of its 80 ms).
// ok is false when it cannot say.
func (d domain) impliesByValues(f presburger.Formula) (implied, ok bool) {
	q := presburger.Conj(append(slices.Clone(d.given), presburger.Negation(f))...)
	var bounds []presburger.Bound
	for _, v := range presburger.FreeVars(q) {
		_, _, counter := d.s.Counter(v)
		_, shared := d.s.SharedOf(v)
		if !counter && !shared {
			return false, false
		}
		bounds = append(bounds, d.bound(v))
	}
	a, ok := presburger.SolveByValues(presburger.Problem{Bounds: bounds, F: q}, valuesLimit)
	switch {
	case !ok:
		return false, false
	case a.Result == presburger.Unsat:
		return true, true
	}
	switch d.inst.result() {
	case presburger.Sat:
		return false, true
	case presburger.Unsat:
		return true, true // no instance: every question holds in none
	}
	return false, false
}

// valuesLimit bounds the assignments impliesByValues tries: a guard of
// a few atoms needs a few dozen, a controller of a hundred states a few
// hundred.
const valuesLimit = 4096

// instance says whether a system has an instance: some parameters and
// sizes satisfy its instance condition. It is asked of Quick once, at
// the first question that needs it.
type instance struct {
	s      *System
	asked  bool
	answer presburger.Result
}

// result is Sat when s has an instance, Unsat when it has none, Unknown
// when Quick cannot say.
func (in *instance) result() presburger.Result {
	if !in.asked {
		// Whether false fails somewhere: whether the instance
		// condition, all the question is then, holds somewhere.
		in.asked = true
		in.answer = domain{s: in.s, group: -1}.askQuick(presburger.False)
	}
	return in.answer
}

// caseFree returns f without the case splits that d decides: a
// disjunction whose disjuncts share conjuncts C becomes C where, in d,
// C implies the disjunction of the rest (`G & #x >= 2 | G & #x <= 1`
// becomes G, `G & x >= 1 | G & x = 0` too for a natural x), and a
// comparison that holds throughout d (`n >= 1`, the mover's `#S >= 1`)
// is dropped from a conjunction, or is true. f is
// returned as it is, case split and all, where Quick cannot decide.
// The result holds in a valuation of d exactly where f does.
func caseFree(f presburger.Formula, d domain) presburger.Formula {
	switch g := presburger.PushNegations(f).(type) {
	case presburger.And:
		var kept []presburger.Formula
		for _, c := range g {
			switch c.(type) {
			case presburger.Or:
				c = caseFree(c, d)
			case presburger.Cmp:
				if d.implies(c) {
					continue
				}
			}
			kept = append(kept, c)
		}
		return presburger.Conj(kept...)
	case presburger.Cmp:
		if d.implies(g) {
			return presburger.True
		}
	case presburger.Or:
		cases := make([][]presburger.Formula, len(g))
		for i, c := range g {
			cases[i] = presburger.Conjuncts(c)
		}
		common := commonConjuncts(cases)
		rest := make([]presburger.Formula, len(g))
		for i, cs := range cases {
			var r []presburger.Formula
			for _, c := range cs {
				if !slices.Contains(common, atomKey(c)) {
					r = append(r, c)
				}
			}
			rest[i] = presburger.Conj(r...)
		}
		var shared []presburger.Formula
		for _, c := range cases[0] {
			if slices.Contains(common, atomKey(c)) && !slices.ContainsFunc(shared, func(x presburger.Formula) bool { return atomKey(x) == atomKey(c) }) {
				shared = append(shared, c)
			}
		}
		if d.within(shared...).implies(presburger.Disj(rest...)) {
			return presburger.Conj(shared...)
		}
		if span, ok := oneInterval(rest); ok {
			return presburger.Conj(append(shared, span)...)
		}
		return g
	}
	return f
}

// oneInterval returns the disjunction of cases as one comparison pair,
// when each case is one comparison of the same term with a constant and
// together they cover one interval of its values: `x = 1 | x > 1` is x
// >= 1, `#S <= 2 | #S = 3` is #S <= 3 (Cubicle's and mist's translations
// write a guard x >= 1 as the cases x = 1 and x > 1, each its own
// step). Over the integers the result holds exactly where a case does.
func oneInterval(cases []presburger.Formula) (presburger.Formula, bool) {
	const inf = int64(1) << 62
	type span struct{ lo, hi int64 }
	var term presburger.Term // the term without its constant, the same in every case
	var spans []span
	for i, c := range cases {
		atom, ok := c.(presburger.Cmp)
		if !ok || atom.T.IsConst() || atom.Op == presburger.Ne {
			return nil, false
		}
		t, k := presburger.Term{Monos: atom.T.Monos}, atom.T.Const // atom: t + k op 0
		if i == 0 {
			term = t
		}
		op := atom.Op
		switch {
		case t.Equal(term):
		case t.Scale(-1).Equal(term): // -term + k op 0: term op' k
			k = -k
			op = op.Converse()
		default:
			return nil, false
		}
		if k <= -inf/2 || k >= inf/2 {
			return nil, false
		}
		// term op -k
		switch op {
		case presburger.Eq:
			spans = append(spans, span{-k, -k})
		case presburger.Ge:
			spans = append(spans, span{-k, inf})
		case presburger.Gt:
			spans = append(spans, span{-k + 1, inf})
		case presburger.Le:
			spans = append(spans, span{-inf, -k})
		case presburger.Lt:
			spans = append(spans, span{-inf, -k - 1})
		}
	}
	if len(spans) < 2 {
		return nil, false
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	u := spans[0]
	for _, sp := range spans[1:] {
		if sp.lo > u.hi+1 {
			return nil, false // a gap: two intervals
		}
		u.hi = max(u.hi, sp.hi)
	}
	var out []presburger.Formula
	if u.lo > -inf {
		out = append(out, presburger.Compare(term, presburger.Ge, presburger.ConstTerm(u.lo)))
	}
	if u.hi < inf {
		out = append(out, presburger.Compare(term, presburger.Le, presburger.ConstTerm(u.hi)))
	}
	return presburger.Conj(out...), true
}

// commonConjuncts returns the keys of the conjuncts that every case has.
func commonConjuncts(cases [][]presburger.Formula) []string {
	var common []string
	for _, c := range cases[0] {
		k := atomKey(c)
		in := func(cs []presburger.Formula) bool {
			return slices.ContainsFunc(cs, func(x presburger.Formula) bool { return atomKey(x) == k })
		}
		all := true
		for _, cs := range cases[1:] {
			all = all && in(cs)
		}
		if all && !slices.Contains(common, k) {
			common = append(common, k)
		}
	}
	return common
}

// atomKey names a formula by its variables' numbers.
func atomKey(f presburger.Formula) string {
	return presburger.Format(nonStrict(f), func(v presburger.Var) string { return "v" + strconv.Itoa(int(v)) })
}

// nonStrict writes each comparison with its first coefficient positive
// and, when strict, as the non-strict one it is over the integers (x >
// 0 and -x <= -1 as x >= 1), so that two spellings of one atom share a
// key: translations of mist's nets write a guard's z >= 1 in one case
// and z > 0 or 1 <= z in the other.
func nonStrict(f presburger.Formula) presburger.Formula {
	switch g := f.(type) {
	case presburger.Cmp:
		if len(g.T.Monos) > 0 && g.T.Monos[0].Coef < 0 {
			g = presburger.Cmp{Op: g.Op.Converse(), T: g.T.Scale(-1)} // -x <= -1 as x >= 1
		}
		switch g.Op {
		case presburger.Gt:
			return presburger.Cmp{Op: presburger.Ge, T: g.T.Add(presburger.ConstTerm(-1))}
		case presburger.Lt:
			return presburger.Cmp{Op: presburger.Le, T: g.T.Add(presburger.ConstTerm(1))}
		}
		return g
	case presburger.And:
		out := make(presburger.And, len(g))
		for i, c := range g {
			out[i] = nonStrict(c)
		}
		return out
	case presburger.Or:
		out := make(presburger.Or, len(g))
		for i, c := range g {
			out[i] = nonStrict(c)
		}
		return out
	case presburger.Not:
		return presburger.Not{F: nonStrict(g.F)}
	}
	return f
}
