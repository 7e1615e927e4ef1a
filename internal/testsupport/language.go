package testsupport

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The constructs RandomSystem draws on top of the paper's draws: shared
// variables and their updates, parameters (fixed or a family),
// broadcasts and rendezvous. The systems are small enough for Procs
// and FullSymmetry when Config keeps them small (2 groups of 2
// processes, at most 4 processes, is what the cross-checks use).

// SharedKinds names the kinds of shared variables RandomSystem draws.
var SharedKinds = []string{"bool", "enum", "bounded", "unbounded"}

// SharedKind returns the kind of v, one of SharedKinds.
func SharedKind(v *gsst.Shared) string {
	switch {
	case v.Bool:
		return "bool"
	case v.Values != nil:
		return "enum"
	case v.Unbounded:
		return "unbounded"
	}
	return "bounded"
}

// constructs decides which of the constructs cfg allows the system
// uses, and draws its shared variables and parameters.
func (gen *generator) constructs(cfg Config) {
	r, sp := gen.r, gen.sys
	use := func(c Constructs, percent int) bool {
		return cfg.Want&c != 0 || cfg.May&c != 0 && r.Intn(100) < percent
	}
	gen.language = true
	if use(SharedVars, 75) {
		for j := range 1 + r.Intn(3) {
			sp.Shared = append(sp.Shared, gen.sharedVar(j))
		}
	}
	switch {
	case cfg.Family:
		gen.family()
	case use(Params, 30):
		for k := range 1 + r.Intn(2) {
			sp.Params = append(sp.Params, gsst.Param{Name: fmt.Sprintf("t%d", k), Fixed: true, Value: r.Intn(2)})
		}
	}
	gen.broadcast = use(Broadcasts, 40)
	gen.rendezvous = use(Rendezvous, 40)
	if (cfg.Want|cfg.May)&StepConstructs == 0 {
		return // the draws of systems without them stay as they were
	}
	gen.selfLoops = use(SelfLoops, 40)
	gen.named = use(NamedSteps, 40)
	gen.environment = use(EnvironmentSteps, 40)
	gen.rdvBroadcast = gen.rendezvous && use(RendezvousBroadcasts, 40)
}

// nameTransitions names every transition t0, t1, ...: several may join
// the same two states.
func nameTransitions(sp *gsst.Spec) {
	for i := range sp.Transitions {
		sp.Transitions[i].Name = fmt.Sprintf("t%d", i)
	}
}

// drawEnvironment draws an environment step: an update, transfers, or
// both (transfers whenever the update assigns nothing), guarded half
// the time by a guard of the system's style.
func (gen *generator) drawEnvironment() gsst.Environment {
	r, sp := gen.r, gen.sys
	e := gsst.Environment{Guard: presburger.True}
	if len(sp.Shared) > 0 {
		e.Update = gen.update()
	}
	if len(e.Update.Assign) == 0 || r.Intn(2) == 0 {
		e.Broadcast = gen.transfers()
	}
	if r.Intn(2) == 0 {
		style := gen.style
		if r.Intn(2) == 0 {
			style = AnyGuards // group counters too: an environment step that breaks symmetry
		}
		e.Guard = gen.languageGuard(gen.formula(r.Intn(len(sp.States)), 1, style))
		e.Text = presburger.Format(e.Guard, sp.VarName)
	}
	return e
}

// sharedVar draws shared variable j of a random kind, with a random
// initial value.
func (gen *generator) sharedVar(j int) gsst.Shared {
	r := gen.r
	v := gsst.Shared{Name: fmt.Sprintf("v%d", j)}
	switch r.Intn(4) {
	case 0:
		v.Bool, v.Hi = true, 1
	case 1:
		for k := range 2 + r.Intn(2) {
			v.Values = append(v.Values, fmt.Sprintf("v%dk%d", j, k))
		}
		v.Hi = len(v.Values) - 1
	case 2:
		v.Hi = 1 + r.Intn(2)
	default:
		v.Unbounded = true
	}
	hi := v.Hi
	if v.Unbounded {
		hi = 1
	}
	if r.Intn(2) == 0 {
		v.Init = r.Intn(hi + 1)
	}
	return v
}

// family makes the system a family: parameters t0 (and t1) not fixed,
// the first group (and each other one time in three) sized t0 + c or
// t1 + c for c in 0..1, or t0 - t1 + 1 (one process, the placeholder,
// in the state its row of Init names), and an assumption: the
// parameters at most 2 half the time, and t0 >= t1 or t0 >= 1 at times.
func (gen *generator) family() {
	r, sp := gen.r, gen.sys
	for k := range 1 + r.Intn(2) {
		sp.Params = append(sp.Params, gsst.Param{Name: fmt.Sprintf("t%d", k)})
	}
	t := func(k int) presburger.Term { return presburger.VarTerm(sp.ParamVar(k)) }
	for g := range sp.Groups {
		if g > 0 && r.Intn(3) != 0 {
			continue
		}
		grp := &sp.Groups[g]
		term := t(r.Intn(len(sp.Params))).Add(presburger.ConstTerm(int64(r.Intn(2))))
		if len(sp.Params) == 2 && r.Intn(4) == 0 {
			term = t(0).Sub(t(1)).Add(presburger.ConstTerm(1))
		}
		grp.SizeTerm, grp.SizeTermText = term, term.Format(sp.VarName)
		grp.Size, grp.Ranged, grp.Max = 1, false, 0
		sp.Init[g] = make([]int, len(sp.States))
		sp.Init[g][r.Intn(len(sp.States))] = 1
	}
	var assume []presburger.Formula
	if r.Intn(2) == 0 {
		for k := range sp.Params {
			assume = append(assume, presburger.Compare(t(k), presburger.Le, presburger.ConstTerm(2)))
		}
	}
	switch {
	case len(sp.Params) == 2 && r.Intn(3) == 0:
		assume = append(assume, presburger.Compare(t(0), presburger.Ge, t(1)))
	case r.Intn(4) == 0:
		assume = append(assume, presburger.Compare(t(0), presburger.Ge, presburger.ConstTerm(1)))
	}
	if len(assume) > 0 {
		sp.Assume.Formula = presburger.Conj(assume...)
		sp.Assume.Text = presburger.Format(sp.Assume.Formula, sp.VarName)
	}
}

// param returns, half the time, the term of a random parameter: its
// variable in a family, else its value; else 0.
func (gen *generator) param() presburger.Term {
	if len(gen.sys.Params) == 0 || gen.r.Intn(2) == 0 {
		return presburger.Term{}
	}
	return gen.paramTerm(gen.r.Intn(len(gen.sys.Params)))
}

// paramTerm is the term of parameter k: its variable in a family, else
// its value.
func (gen *generator) paramTerm(k int) presburger.Term {
	if p := gen.sys.Params[k]; p.Fixed {
		return presburger.ConstTerm(int64(p.Value))
	}
	return presburger.VarTerm(gen.sys.ParamVar(k))
}

// sharedAtom draws a comparison of a shared variable (plus, sometimes,
// another integer one) with a constant in its domain, or a small one.
func (gen *generator) sharedAtom() presburger.Formula {
	r, sp := gen.r, gen.sys
	j := r.Intn(len(sp.Shared))
	v := &sp.Shared[j]
	x := presburger.VarTerm(sp.SharedVar(j))
	switch SharedKind(v) {
	case "bool":
		return presburger.Compare(x, presburger.Eq, presburger.ConstTerm(int64(r.Intn(2))))
	case "enum":
		op := []presburger.Op{presburger.Eq, presburger.Ne}[r.Intn(2)]
		return presburger.Compare(x, op, presburger.ConstTerm(int64(r.Intn(len(v.Values)))))
	}
	lhs := x
	if i := r.Intn(len(sp.Shared)); i != j && r.Intn(3) == 0 && sp.Shared[i].Values == nil && !sp.Shared[i].Bool {
		lhs = lhs.Add(presburger.VarTerm(sp.SharedVar(i)))
	}
	k := presburger.ConstTerm(int64(r.Intn(3))).Add(gen.param())
	return presburger.Compare(lhs, presburger.Op(r.Intn(6)), k)
}

// languageGuard puts the constructs into counter, a guard drawn as the
// paper's: a quarter of the time, with parameters, "#S >= t0" instead;
// with shared variables, a shared atom instead, or a conjunction or
// disjunction with shared atoms.
func (gen *generator) languageGuard(counter presburger.Formula) presburger.Formula {
	r, sp := gen.r, gen.sys
	if len(sp.Params) > 0 && r.Intn(4) == 0 {
		counter = presburger.Compare(presburger.VarTerm(sp.TotalVar(r.Intn(len(sp.States)))), presburger.Ge, gen.paramTerm(0))
	}
	if len(sp.Shared) == 0 {
		return counter
	}
	switch r.Intn(4) {
	case 0:
		return gen.sharedAtom()
	case 1:
		return presburger.Conj(counter, gen.sharedAtom())
	case 2:
		return presburger.Disj(gen.sharedAtom(), presburger.Conj(counter, gen.sharedAtom()))
	}
	return counter
}

// update draws an update: each shared variable assigned with
// probability one half.
func (gen *generator) update() gsst.Update {
	r, sp := gen.r, gen.sys
	var u gsst.Update
	var text []string
	for j := range sp.Shared {
		if r.Intn(2) == 0 {
			continue
		}
		v := &sp.Shared[j]
		x := sp.SharedVar(j)
		var val presburger.Term
		switch SharedKind(v) {
		case "bool":
			val = presburger.ConstTerm(int64(r.Intn(2)))
			if i := r.Intn(len(sp.Shared)); sp.Shared[i].Bool && r.Intn(3) == 0 {
				val = presburger.VarTerm(sp.SharedVar(i))
			}
		case "enum":
			val = presburger.ConstTerm(int64(r.Intn(len(v.Values))))
		case "bounded":
			switch r.Intn(4) {
			case 0:
				val = presburger.ConstTerm(int64(r.Intn(v.Hi + 1)))
			case 1:
				val = presburger.VarTerm(x).Add(presburger.ConstTerm(-1))
			default:
				val = presburger.VarTerm(x).Add(presburger.ConstTerm(1))
			}
		default:
			val = presburger.VarTerm(x).Add(presburger.ConstTerm(int64(1 + r.Intn(2)))).Add(gen.param())
		}
		u.Assign = append(u.Assign, gsst.Assign{Var: x, Value: val})
		text = append(text, v.Name+" := "+val.Format(sp.VarName))
	}
	u.Text = strings.Join(text, "; ")
	return u
}

// blockDraw is what the blocks of one transition share beyond the
// paper: whether they have one guard and one update, the update, and a
// shared integer whose blocks assign one value written two ways (-1 for
// none).
type blockDraw struct {
	sameGuard, sameUpdate bool
	first                 presburger.Formula // the first block's guard, for sameGuard
	update                gsst.Update
	equal                 int
}

// drawBlockShape draws what the blocks of a transition share: half the
// time one guard, half the time one update, and one time in three
// otherwise updates written differently per group with one effect.
func (gen *generator) drawBlockShape() *blockDraw {
	r, sp := gen.r, gen.sys
	s := &blockDraw{sameGuard: r.Intn(2) == 0, sameUpdate: r.Intn(2) == 0, equal: -1}
	s.update = gen.update()
	if !s.sameUpdate && r.Intn(3) == 0 {
		for _, j := range r.Perm(len(sp.Shared)) {
			if k := SharedKind(&sp.Shared[j]); k == "bounded" || k == "unbounded" {
				s.equal = j
				break
			}
		}
	}
	return s
}

// languageBlock puts the constructs into block i of n of a transition,
// whose guard the paper's draws gave: the guard with shared atoms and
// parameters, the update; in a family, the last block (of several)
// differing from the others only from t0 = 4 on (n = 7 on, with
// ranges) one time in four: a violation beyond small instances.
func (gen *generator) languageBlock(b *gsst.Block, s *blockDraw, i, n int) {
	r, sp := gen.r, gen.sys
	if s.sameGuard && i > 0 {
		b.Guard = s.first
	} else {
		b.Guard = gen.languageGuard(b.Guard)
		s.first = b.Guard
	}
	b.Update = s.update
	if !s.sameUpdate {
		b.Update = gen.update()
	}
	if s.equal >= 0 {
		b.Guard, b.Update = gen.equalUpdate(b.Guard, s.equal, i)
	}
	if i > 0 && i == n-1 && sp.Parametric() && r.Intn(4) == 0 {
		big := presburger.Compare(presburger.VarTerm(sp.NVar()), presburger.Ge, presburger.ConstTerm(7))
		if len(sp.Params) > 0 {
			big = presburger.Compare(gen.paramTerm(0), presburger.Ge, presburger.ConstTerm(4))
		}
		b.Guard = presburger.Disj(b.Guard, big)
	}
}

// equalUpdate returns guard & x = 0 for shared variable j, and the
// update x := 1 (i even) or x := x + 1 (i odd): one effect, two texts.
func (gen *generator) equalUpdate(guard presburger.Formula, j, i int) (presburger.Formula, gsst.Update) {
	sp := gen.sys
	x := presburger.VarTerm(sp.SharedVar(j))
	val := presburger.ConstTerm(1)
	if i%2 == 1 {
		val = x.Add(presburger.ConstTerm(1))
	}
	g := presburger.Conj(guard, presburger.Compare(x, presburger.Eq, presburger.ConstTerm(0)))
	u := gsst.Update{Assign: []gsst.Assign{{Var: sp.SharedVar(j), Value: val}}, Text: sp.Shared[j].Name + " := " + val.Format(sp.VarName)}
	return g, u
}

// groups returns nil (every group) two times in three, else a random
// nonempty sorted set of groups.
func (gen *generator) groups() []int {
	r, d := gen.r, len(gen.sys.Groups)
	if r.Intn(3) != 0 {
		return nil
	}
	var out []int
	for g := range d {
		if r.Intn(2) == 0 {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		out = []int{r.Intn(d)}
	}
	return out
}

// transfers draws the transfers of a broadcast: 1 or 2, from distinct
// sources.
func (gen *generator) transfers() []gsst.Transfer {
	r, m := gen.r, len(gen.sys.States)
	var out []gsst.Transfer
	for _, from := range r.Perm(m)[:1+r.Intn(min(2, m))] {
		to := r.Intn(m - 1)
		if to >= from {
			to++
		}
		out = append(out, gsst.Transfer{From: from, To: to, Groups: gen.groups()})
	}
	return out
}

// drawRendezvous draws a rendezvous of 2 parts (3 one time in four),
// its guard (true one time in three, else a guard of the style of the
// system's from its first part's source) and its update.
func (gen *generator) drawRendezvous() gsst.Rendezvous {
	r, sp := gen.r, gen.sys
	m := len(sp.States)
	k := 2
	if r.Intn(4) == 0 {
		k = 3
	}
	var rv gsst.Rendezvous
	for range k {
		from := r.Intn(m)
		to := r.Intn(m - 1)
		if to >= from {
			to++
		}
		if gen.selfLoops && r.Intn(4) == 0 {
			to = from // this part stays
		}
		rv.Parts = append(rv.Parts, gsst.Part{From: from, To: to, Groups: gen.groups()})
	}
	if gen.rdvBroadcast && r.Intn(2) == 0 {
		rv.Broadcast = gen.transfers()
	}
	rv.Guard = presburger.True
	if r.Intn(3) != 0 {
		rv.Guard = gen.languageGuard(gen.formula(rv.Parts[0].From, 1, gen.style))
		rv.Text = presburger.Format(rv.Guard, sp.VarName)
	}
	rv.Update = gen.update()
	return rv
}
