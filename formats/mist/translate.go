package mist

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Load reads the mist file at path and translates it (Translate).
func Load(path string) (*formats.Import, error) { return formats.Load(path, Translate) }

// Translate parses the mist file src and translates it into a GSST:
//
//   - a place whose tokens the rules conserve is a local state, and each
//     of its tokens a process; the other places are shared counters,
//     integers from 0 (classify.go says which);
//   - the processes whose tokens start in place p form the group p, of
//     the size the init section gives p (a range for "p >= k"); a place
//     that may start empty spreads its group over p and a state that is
//     no place, outside, and a net with no process gets an observer
//     there, a process that never moves (outside.go says why both are
//     exact);
//   - a rule that moves one token is a transition, with the transfers
//     of its equations as a broadcast; one that moves several is a
//     rendezvous; its guard is the rule's constraints (less those its
//     movers imply), its update the equations of the counters;
//   - the target becomes the property safe, AG !(target): no reachable
//     marking covers the target, which is what mist's "safe" means.
//
// The result carries every error with its position in src; missing
// constructs are listed in Import.Missing.
func Translate(filename string, src []byte) *formats.Import {
	imp := &formats.Import{Format: "spec", Source: filename}
	f, err := ParseFile(filename, src)
	if err != nil {
		imp.Errors = err.(gsst.ErrorList)
	}
	if f == nil || err != nil {
		return imp
	}
	for _, c := range f.Expected {
		e := formats.Expected{Property: safeName, Text: c.Text, Pos: c.Pos}
		switch strings.ToLower(c.Text) {
		case "safe":
			e.Holds = formats.Yes
		case "unsafe":
			e.Holds = formats.No
		}
		imp.Expected = append(imp.Expected, e)
	}
	n, errs := Resolve(f)
	if len(errs) > 0 {
		imp.Errors = errs
		return imp
	}
	t := &translator{net: n, imp: imp, counter: n.counterPlaces()}
	t.translate()
	if len(imp.Missing) == 0 && len(imp.Errors) == 0 {
		if _, err := gsst.New(imp.Spec); err != nil {
			imp.Errors = append(imp.Errors, err.(gsst.ErrorList)...)
		}
	}
	return imp
}

// safeName is the name of the property the target becomes.
const safeName = "safe"

type translator struct {
	net         *Net
	imp         *formats.Import
	spec        *gsst.Spec
	counter     []bool // counter[p]: place p is a shared counter
	state       []int  // state[p]: the local state of a process place
	shared      []int  // shared[p]: the shared variable of a counter place
	transitions *formats.Transitions
}

func (t *translator) translate() {
	n := t.net
	f := n.File
	base := filepath.Base(f.Name)
	s := &gsst.Spec{Name: strings.TrimSuffix(base, filepath.Ext(base)), File: f.Name}
	t.spec = s
	t.imp.Spec = s
	notes := &t.imp.Notes
	t.state = make([]int, len(n.Places))
	t.shared = make([]int, len(n.Places))
	var counters []string
	for p, name := range n.Places {
		t.state[p], t.shared[p] = -1, -1
		if t.counter[p] {
			counters = append(counters, name)
			continue
		}
		t.state[p] = len(s.States)
		s.States = append(s.States, name)
		notes.States = append(notes.States, "place "+name)
	}
	notes.Header = append(notes.Header,
		fmt.Sprintf("Converted by vsym from %s, a Petri net with transfers in mist's format.", base),
		"Each token of a place whose tokens the rules conserve is a process, in the",
		"local state named after the place; group g holds the processes whose tokens",
		"start in place g.")
	if len(counters) > 0 {
		notes.Header = append(notes.Header,
			fmt.Sprintf("The rules add or take tokens of %s: these places are shared", strings.Join(counters, ", ")),
			"counters, integers from 0.")
	}
	if len(f.Header) > 0 {
		notes.Header = append(notes.Header, "", "The source's own comments:")
		for _, c := range f.Header {
			notes.Header = append(notes.Header, "  "+strings.TrimSpace(c.Text))
		}
	}
	t.groups()
	var atLeast []int // counter places that start with any number of tokens from some k up
	for p, name := range n.Places {
		if !t.counter[p] {
			continue
		}
		t.shared[p] = len(s.Shared)
		v := gsst.Shared{Name: formats.SafeName(name), Lo: 0, Unbounded: true, Pos: t.declPos(p), TypePos: t.declPos(p), InitPos: t.initPos(p)}
		note := "place " + name
		if v.Name != name {
			note += fmt.Sprintf(" (renamed: %s is reserved in GSST expressions)", name)
		}
		iv := n.Init[p]
		switch {
		case !iv.NoHi && iv.Lo == iv.Hi:
			v.Init = int(iv.Lo)
		case !iv.NoHi:
			// Every number of tokens in the interval (gsst/initial.go).
			v.Init, v.InitRange, v.InitHi = int(iv.Lo), true, int(iv.Hi)
		default:
			// Any number of tokens from iv.Lo up: the value of a
			// parameter of its own (counterInitParam, once every shared
			// variable is declared: a parameter's variable follows them).
			atLeast = append(atLeast, p)
		}
		s.Shared = append(s.Shared, v)
		notes.Shared = append(notes.Shared, note)
	}
	for _, p := range atLeast {
		t.counterInitParam(p)
	}
	t.transitions = formats.NewTransitions(s, &t.imp.Notes)
	for _, r := range n.Rules {
		t.rule(r)
	}
	t.property()
	for _, inv := range f.Invariants {
		var parts []string
		for _, c := range inv {
			parts = append(parts, fmt.Sprintf("%d*%s", c.K, c.Place.Name))
		}
		notes.Trailer = append(notes.Trailer, fmt.Sprintf("invariant given to mist (line %d): %s keeps its initial value", inv[0].Place.Pos.Line, strings.Join(parts, " + ")))
	}
}

// declPos is where the vars section declares place p.
func (t *translator) declPos(p int) gsst.Pos { return t.net.File.Vars[p].Pos }

// initPos is where the init section constrains place p, or the init
// keyword when it does not.
func (t *translator) initPos(p int) gsst.Pos {
	if c := t.net.InitAt[p]; c != nil {
		return c.Place.Pos
	}
	return t.net.File.InitPos
}

// groups makes a group of every process place that starts with tokens
// or may (mayBeEmpty), and an observer when no token starts in a
// process place (outside.go).
func (t *translator) groups() {
	n, s := t.net, t.spec
	starts, maybe := false, false
	for p := range n.Places {
		if iv := n.Init[p]; !t.counter[p] {
			starts = starts || iv.Lo > 0
			maybe = maybe || iv.Lo == 0 && (iv.NoHi || iv.Hi > 0)
		}
	}
	outside := -1
	if maybe || !starts {
		outside = t.addOutside()
	}
	spread := map[int][]int{} // the groups spread over a place and outside
	for p, name := range n.Places {
		if t.counter[p] {
			continue
		}
		iv := n.Init[p]
		switch {
		case !iv.NoHi && iv.Hi == 0:
			continue // no token
		case iv.Lo == 0:
			t.mayBeEmpty(p, outside, spread)
			continue
		}
		g := gsst.Group{Name: name, Size: int(iv.Lo), Pos: t.initPos(p), SizePos: t.initPos(p)}
		note := "the tokens that start in place " + name
		switch {
		case iv.NoHi:
			g.Ranged, g.Max = true, gsst.Unbounded
		case iv.Hi > iv.Lo:
			g.Ranged, g.Max = true, int(iv.Hi)
		}
		t.addGroup(g, t.state[p], note)
	}
	if len(spread) > 0 {
		s.InitOver = make([][]int, len(s.Groups))
		for g, over := range spread {
			s.InitOver[g] = over
		}
	}
	if len(s.Groups) == 0 {
		why := "the rules conserve the tokens of no place, so every place is a shared counter"
		if len(s.States) > 1 {
			why = fmt.Sprintf("no token starts in a place whose tokens are processes (%s)", strings.Join(s.States[:len(s.States)-1], ", "))
		}
		t.observer(outside, why)
	}
}

// addGroup adds group g, every process of it in state st (a spread over
// states is recorded apart), with its note, and returns its index.
func (t *translator) addGroup(g gsst.Group, st int, note string) int {
	s := t.spec
	row := make([]int, len(s.States))
	row[st] = g.Size
	s.Groups = append(s.Groups, g)
	s.Init = append(s.Init, row)
	s.InitPos = append(s.InitPos, gsst.InitPos{Pos: g.Pos})
	t.imp.Notes.Groups = append(t.imp.Notes.Groups, note)
	return len(s.Groups) - 1
}

// allGroups lists every group.
func (t *translator) allGroups() []int {
	out := make([]int, len(t.spec.Groups))
	for g := range out {
		out[g] = g
	}
	return out
}

// rule translates one rule into a step.
func (t *translator) rule(r *NetRule) {
	var consumed, produced []int // process places, with multiplicity
	var transfers []gsst.Transfer
	counterChange := false
	for _, p := range r.Touched() {
		if t.counter[p] {
			counterChange = counterChange || !r.Identity(p)
			continue
		}
		for k := r.Add(p); k < 0; k++ {
			consumed = append(consumed, p)
		}
		for k := int64(0); k < r.Add(p); k++ {
			produced = append(produced, p)
		}
		if d := r.Dest(p); d[0] != p {
			transfers = append(transfers, gsst.Transfer{From: t.state[p], To: t.state[d[0]], Pos: r.Eqs[d[0]].Src.Place.Pos})
		}
	}
	switch k := len(consumed); {
	case k == 0 && (len(transfers) > 0 || counterChange):
		t.environment(r, transfers)
	case k == 0:
		t.idleStep(r)
	case k == 1:
		t.transition(r, consumed[0], produced[0], transfers)
	default:
		t.rendezvous(r, consumed, produced, transfers)
	}
}

// environment translates a rule that moves no single token of a
// process place: it changes counter places, moves every token of some
// process places to others, or both. It is an environment step: when
// the guard holds (and the counters stay nonnegative), every process in
// a transfer's source moves to its target and the counters take their
// new values, all read before the step, as the rule's equations say.
func (t *translator) environment(r *NetRule, transfers []gsst.Transfer) {
	guard, text := t.guard(r, map[int]int{})
	t.spec.Environment = append(t.spec.Environment, gsst.Environment{
		Name: fmt.Sprintf("rule%d", r.Rule.Index), Guard: guard, Text: text,
		Update: t.update(r), Broadcast: transfers, Pos: r.Rule.Pos,
	})
	t.imp.Notes.Environment = append(t.imp.Notes.Environment, t.ruleNote(r))
}

// transition translates a rule that moves one process, from a place
// whose tokens go to w (w itself, unless a transfer empties it) to v.
// When the guard does not say which of several such places the process
// comes from, the rule is one transition per place: together they are
// enabled exactly when one of the places has a token, and each has the
// rule's effect.
func (t *translator) transition(r *NetRule, w, v int, transfers []gsst.Transfer) {
	from := t.preimage(r, w)
	if len(from) > 1 {
		for _, q := range from {
			for _, b := range r.Guard {
				if b.Place == q && b.Lo >= 1 {
					from = []int{q}
					break
				}
			}
			if len(from) == 1 {
				break
			}
		}
	}
	// When u is v, the process stays where it is and every other process
	// of u goes where the rule moves u's tokens (a self-loop that
	// broadcasts): mist's rule keeps one token of u and moves the rest.
	for _, u := range from {
		note := t.ruleNote(r)
		if len(from) > 1 {
			note[len(note)-1] += fmt.Sprintf(" (when the token that moves comes from %s)", t.net.Places[u])
		}
		t.oneTransition(r, u, v, transfers, note)
	}
}

// oneTransition adds the transition u -> v of rule r, merged into the
// transition u -> v of an earlier rule with the same effect.
func (t *translator) oneTransition(r *NetRule, u, v int, transfers []gsst.Transfer, note []string) {
	guard, text := t.guard(r, map[int]int{u: 1})
	update := t.update(r)
	tr := gsst.Transition{
		From: t.state[u], To: t.state[v], Pos: r.Rule.Pos, Broadcast: transfers,
		Blocks: []gsst.Block{{Groups: t.allGroups(), Guard: guard, Text: text, Pos: r.Rule.Pos, Update: update}},
	}
	// Named, should another transition join u and v: one per rule and
	// source place of its moving token.
	name := fmt.Sprintf("rule%d_%s", r.Rule.Index, t.net.Places[u])
	t.transitions.Add(tr, name, t.transferSignature(transfers)+"|"+update.Text, note)
}

// transferSignature writes transfers in a canonical order.
func (t *translator) transferSignature(transfers []gsst.Transfer) string {
	var parts []string
	for _, x := range transfers {
		parts = append(parts, fmt.Sprintf("%d>%d", x.From, x.To))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// preimage lists the process places whose tokens r moves to w.
func (t *translator) preimage(r *NetRule, w int) []int {
	var out []int
	for q := range t.net.Places {
		if !t.counter[q] && r.Coef(w, q) > 0 {
			out = append(out, q)
		}
	}
	return out
}

// rendezvous translates a rule that moves several processes: the tokens
// it takes, in place order, paired with those it puts, in place order,
// with the transfers of its equations as a broadcast. A token taken from
// place w comes from a place whose tokens the rule moves to w (w itself
// when it keeps them). When the guard does not say which (a bound on one
// such place that holds every token taken), the rule is one rendezvous
// per choice of places for its tokens: together they are enabled
// exactly when the places hold the tokens taken, as the rule is, and
// each has the rule's effect. A choice whose pairing would leave a
// process where it is, with no other to swap targets with, is refused.
func (t *translator) rendezvous(r *NetRule, consumed, produced []int, transfers []gsst.Transfer) {
	need := map[int]int{} // tokens taken from each place w
	for _, w := range consumed {
		need[w]++
	}
	// choices[i]: the ways to draw the tokens of the i-th place w, each
	// a list of source places with repetition, in place order.
	ws := sortedKeys(need)
	choices := make([][][]int, len(ws))
	for i, w := range ws {
		k := need[w]
		from := t.preimage(r, w)
		for _, q := range from {
			if slices.ContainsFunc(r.Guard, func(b Bound) bool { return b.Place == q && b.Lo >= int64(k) }) {
				from = []int{q}
				break
			}
		}
		choices[i] = multisets(from, k)
	}
	split := false
	for _, c := range choices {
		split = split || len(c) > 1
	}
	var rec func(i int, sources []int)
	rec = func(i int, sources []int) {
		if i < len(ws) {
			for _, c := range choices[i] {
				rec(i+1, append(slices.Clone(sources), c...))
			}
			return
		}
		t.oneRendezvous(r, sources, produced, transfers, split)
	}
	rec(0, nil)
}

// multisets lists the multisets of k elements of from, each sorted.
func multisets(from []int, k int) [][]int {
	if k == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for i, q := range from {
		for _, rest := range multisets(from[i:], k-1) {
			out = append(out, append([]int{q}, rest...))
		}
	}
	return out
}

// oneRendezvous adds the rendezvous of rule r whose movers leave the
// places sources (with repetition), for the places targets they go to.
func (t *translator) oneRendezvous(r *NetRule, sources, produced []int, transfers []gsst.Transfer, split bool) {
	targets := slices.Clone(produced)
	// A process that would stay where it is swaps targets with another.
	for i := range sources {
		if sources[i] != targets[i] {
			continue
		}
		j := slices.IndexFunc(sources, func(q int) bool { return q != sources[i] })
		if j < 0 || targets[j] == sources[i] {
			t.rendezvousBroadcast(r, fmt.Sprintf("a token of %s would stay in its place", t.net.Places[sources[i]]))
			return
		}
		targets[i], targets[j] = targets[j], targets[i]
	}
	movers := map[int]int{}
	parts := make([]gsst.Part, len(sources))
	var from []string
	for i := range sources {
		movers[sources[i]]++
		parts[i] = gsst.Part{From: t.state[sources[i]], To: t.state[targets[i]], Pos: r.Rule.Pos}
		from = append(from, t.net.Places[sources[i]])
	}
	guard, text := t.guard(r, movers)
	rv := gsst.Rendezvous{Parts: parts, Broadcast: transfers, Guard: guard, Text: text, Update: t.update(r), Pos: r.Rule.Pos}
	note := t.ruleNote(r)
	if split {
		rv.Name = fmt.Sprintf("rule%d_%s", r.Rule.Index, strings.Join(from, "_"))
		note[len(note)-1] += fmt.Sprintf(" (when the tokens taken come from %s)", strings.Join(from, ", "))
	}
	t.spec.Rendezvous = append(t.spec.Rendezvous, rv)
	t.imp.Notes.Rendezvous = append(t.imp.Notes.Rendezvous, note)
}

// ruleNote is the comment before a step: the rule as written and the
// comments before it.
func (t *translator) ruleNote(r *NetRule) []string {
	var out []string
	for _, c := range r.Rule.Doc {
		if _, ok := expectedResult(c.Text); !ok && strings.TrimSpace(c.Text) != "" {
			out = append(out, strings.TrimSpace(c.Text))
		}
	}
	out = append(out, fmt.Sprintf("rule %d (line %d): %s", r.Rule.Index, r.Rule.Pos.Line, r.Rule.Text))
	if r.MistRead {
		var eqs []string
		for _, p := range r.Touched() {
			if !r.Identity(p) {
				eqs = append(eqs, fmt.Sprintf("%s' = %s", t.net.Places[p], t.net.equation(r, p)))
			}
		}
		out = append(out, "it assigns a place twice; read as mist reads it: "+strings.Join(eqs, ", "))
	}
	return out
}

// atom is a constraint on one place: the counter (#p) of a process
// place, the variable of a counter place.
func (t *translator) atom(p int, op presburger.Op, k int64) (presburger.Formula, string) {
	s := t.spec
	var v presburger.Var
	name := ""
	if t.counter[p] {
		v = s.SharedVar(t.shared[p])
		name = s.Shared[t.shared[p]].Name
	} else {
		v = s.TotalVar(t.state[p])
		name = "#" + t.net.Places[p]
	}
	return presburger.Compare(presburger.VarTerm(v), op, presburger.ConstTerm(k)), name + " " + op.String() + " " + strconv.FormatInt(k, 10)
}

// bounds translates a conjunction of bounds, leaving out the lower
// bounds that movers[p] processes in p already imply.
func (t *translator) bounds(bs []Bound, movers map[int]int) (presburger.Formula, string) {
	var fs []presburger.Formula
	var texts []string
	add := func(f presburger.Formula, text string) {
		fs = append(fs, f)
		texts = append(texts, text)
	}
	for _, b := range bs {
		p := b.Place
		if !b.NoHi && b.Lo == b.Hi {
			add(t.atom(p, presburger.Eq, b.Lo))
			continue
		}
		implied := int64(movers[p])
		if t.counter[p] {
			implied = 0
		}
		if b.Lo > implied {
			add(t.atom(p, presburger.Ge, b.Lo))
		}
		if !b.NoHi {
			add(t.atom(p, presburger.Le, b.Hi))
		}
	}
	if len(fs) == 0 {
		return presburger.True, ""
	}
	return presburger.Conj(fs...), strings.Join(texts, " & ")
}

// guard is the guard of a step of rule r whose movers leave the places
// of movers.
func (t *translator) guard(r *NetRule, movers map[int]int) (presburger.Formula, string) {
	return t.bounds(r.Guard, movers)
}

// update is what r does to the counters: each counter's equation.
func (t *translator) update(r *NetRule) gsst.Update {
	s := t.spec
	var u gsst.Update
	var texts []string
	for _, p := range r.Touched() {
		if !t.counter[p] || r.Identity(p) {
			continue
		}
		e := r.Eqs[p]
		term := presburger.ConstTerm(e.Add)
		var parts []string
		for _, q := range e.Places {
			term = term.Add(presburger.VarTerm(s.SharedVar(t.shared[q])))
			parts = append(parts, s.Shared[t.shared[q]].Name)
		}
		text := strings.Join(parts, " + ")
		switch k := e.Add; {
		case text == "":
			text = strconv.FormatInt(k, 10)
		case k > 0:
			text += " + " + strconv.FormatInt(k, 10)
		case k < 0:
			text += " - " + strconv.FormatInt(-k, 10)
		}
		u.Assign = append(u.Assign, gsst.Assign{Var: s.SharedVar(t.shared[p]), Value: term})
		texts = append(texts, s.Shared[t.shared[p]].Name+" := "+text)
	}
	if len(texts) > 0 {
		u.Text = strings.Join(texts, "; ")
		u.Pos = r.Rule.Arrow
	}
	return u
}

// property makes the target the property safe: AG !(target).
func (t *translator) property() {
	n := t.net
	var fs []presburger.Formula
	var texts []string
	for _, conj := range n.Target {
		f, text := t.bounds(conj, nil)
		if text == "" {
			text = "true"
		}
		fs = append(fs, f)
		texts = append(texts, text)
	}
	target := strings.Join(texts, " | ")
	if len(texts) > 1 {
		for i := range texts {
			if strings.Contains(texts[i], "&") {
				texts[i] = "(" + texts[i] + ")"
			}
		}
		target = strings.Join(texts, " | ")
	}
	f := ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Negation(presburger.Disj(fs...))}}
	s := t.spec
	s.Properties = append(s.Properties, gsst.Property{Name: safeName, Formula: f, Text: "AG !(" + target + ")", Pos: n.File.TargetPos})
	var srcs []string
	for _, conj := range n.File.Target {
		var parts []string
		for _, c := range conj {
			parts = append(parts, constraintText(c))
		}
		srcs = append(srcs, strings.Join(parts, ", "))
	}
	note := []string{fmt.Sprintf("target (line %d): no reachable marking covers %s", n.File.TargetPos.Line, strings.Join(srcs, ", or "))}
	for _, e := range t.imp.Expected {
		note = append(note, fmt.Sprintf("expected result (line %d): %s", e.Pos.Line, e.Text))
	}
	t.imp.Notes.Properties = append(t.imp.Notes.Properties, note)
}

// constraintText writes a constraint as mist does.
func constraintText(c *Constraint) string {
	switch c.Op {
	case Eq:
		return fmt.Sprintf("%s = %d", c.Place.Name, c.K)
	case In:
		return fmt.Sprintf("%s in [%d, %d]", c.Place.Name, c.K, c.Hi)
	}
	return fmt.Sprintf("%s >= %d", c.Place.Name, c.K)
}
