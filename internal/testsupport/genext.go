package testsupport

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// ExtConfig says what RandomExtended draws. The zero value draws every
// construct at random.
type ExtConfig struct {
	// Want lists constructs every system must use; Deny those none may.
	// The others are drawn at random.
	Want, Deny gsst.Extension
	// MaxProcesses bounds the processes (default 4).
	MaxProcesses int
	// Family draws families: parameters t0 (and t1) that are not fixed,
	// read by guards and updates (some block's guard differing from the
	// others' only from t0 = 4 on, or n = 7 for Ranges), one or two groups sized t0 + c, and
	// an assumption bounding the parameters by 2 half the time
	// (FoldParams gives the instances).
	Family bool
	// NewSteps also draws the steps issue 30 adds to the language:
	// self-loops (updating, broadcasting or idle), a second transition
	// between the same states (the transitions then named), rendezvous
	// that broadcast, and environment steps.
	NewSteps bool
	// Ranges draws families over group sizes instead: every group's
	// size a range k..k+1 or k.. (k at most 2), all its processes
	// starting in one state (Box and gsst.System.Instantiate give the
	// instances).
	Ranges bool
}

// SharedKind names the kinds of shared variables RandomExtended draws.
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

// RandomExtended draws a small system with the constructs beyond the
// paper, as cfg says: 2 to 4 local states, 1 or 2 groups of 1 or 2
// processes (at most cfg.MaxProcesses in all); up to 3 shared variables
// of each kind (bool, enumeration, bounded integer, unbounded integer
// with increments); transitions whose guards read counters and shared
// variables and whose updates (one for all groups half the time, else
// per group) assign shared variables; broadcasts, restricted to groups
// or not; rendezvous of 2 or 3 parts, with and without group
// restrictions; and parameters, folded into constants (a fixed
// instance: each parameter's value is recorded, every formula reads the
// constant). gsst.New accepts it. The systems are small enough for
// FullSymmetry and Procs.
func RandomExtended(r *rand.Rand, cfg ExtConfig) *gsst.System {
	if cfg.MaxProcesses == 0 {
		cfg.MaxProcesses = 4
	}
	use := func(x gsst.Extension, percent int) bool {
		return cfg.Want&x != 0 || cfg.Deny&x == 0 && r.Intn(100) < percent
	}
	for {
		m := 2 + r.Intn(3)
		d := 1 + r.Intn(2)
		sp := &gsst.Spec{Name: "random-ext", States: names(r, m, "S", nil, false)}
		n := 0
		for i := range d {
			size := 1 + r.Intn(2)
			n += size
			sp.Groups = append(sp.Groups, gsst.Group{Name: fmt.Sprintf("g%d", i), Size: size})
		}
		if n > cfg.MaxProcesses {
			continue
		}
		spread := r.Intn(2) == 0
		for _, g := range sp.Groups {
			row := make([]int, m)
			for range g.Size {
				if spread {
					row[r.Intn(m)]++
				} else {
					row[0]++
				}
			}
			sp.Init = append(sp.Init, row)
		}
		gen := &extGen{r: r, sys: sp, base: &generator{r: r, sys: sp, style: Guards(1 + r.Intn(int(AnyGuards)))}}
		if use(gsst.ExtShared, 75) {
			for j := range 1 + r.Intn(3) {
				sp.Shared = append(sp.Shared, gen.sharedVar(j))
			}
		}
		switch {
		case cfg.Ranges:
			for g := range sp.Groups {
				grp := &sp.Groups[g]
				grp.Ranged, grp.Max = true, gsst.Unbounded
				if r.Intn(2) == 0 {
					grp.Max = grp.Size + 1
				}
				sp.Init[g] = make([]int, m)
				sp.Init[g][r.Intn(m)] = grp.Size
			}
		case cfg.Family:
			gen.family(sp)
		case use(gsst.ExtParams, 30):
			for k := range 1 + r.Intn(2) {
				sp.Params = append(sp.Params, gsst.Param{Name: fmt.Sprintf("t%d", k), Fixed: true, Value: r.Intn(2)})
			}
		}
		pairs := shuffledPairs(r, m)
		broadcast := use(gsst.ExtBroadcast, 40)
		for i, pr := range pairs[:1+r.Intn(min(3, len(pairs)))] {
			if cfg.NewSteps && r.Intn(4) == 0 {
				pr[1] = pr[0] // a self-loop
			}
			t := gen.transition(pr[0], pr[1])
			if broadcast && (i == 0 || r.Intn(3) == 0) {
				t.Broadcast = gen.transfers()
			}
			sp.Transitions = append(sp.Transitions, t)
			if cfg.NewSteps && r.Intn(4) == 0 {
				again := gen.transition(pr[0], pr[1]) // a second one, named
				sp.Transitions = append(sp.Transitions, again)
			}
		}
		if cfg.NewSteps {
			for i := range sp.Transitions {
				sp.Transitions[i].Name = fmt.Sprintf("t%d", i)
			}
		}
		if use(gsst.ExtRendezvous, 40) {
			for range 1 + r.Intn(2) {
				rv := gen.rendezvous(cfg.NewSteps)
				if cfg.NewSteps && r.Intn(3) == 0 {
					rv.Broadcast = gen.transfers()
				}
				sp.Rendezvous = append(sp.Rendezvous, rv)
			}
		}
		if cfg.NewSteps && r.Intn(3) == 0 {
			e := gsst.Environment{Guard: presburger.True, Update: gen.update()}
			if len(e.Update.Assign) == 0 || r.Intn(2) == 0 {
				e.Broadcast = gen.transfers()
			}
			if r.Intn(2) == 0 {
				e.Guard = gen.guard(r.Intn(m))
				e.Text = presburger.Format(e.Guard, sp.VarName)
			}
			sp.Environment = append(sp.Environment, e)
		}
		if x := sp.Extensions(); x&cfg.Want != cfg.Want || x&cfg.Deny != 0 {
			continue
		}
		sys, err := gsst.New(sp)
		if err != nil {
			panic(fmt.Sprintf("testsupport: generated a bad extended system: %v\n%+v", err, sp))
		}
		return sys
	}
}

type extGen struct {
	r    *rand.Rand
	sys  *gsst.Spec
	base *generator // counter guards
}

// sharedVar draws shared variable j of a random kind, with a random
// initial value.
func (gen *extGen) sharedVar(j int) gsst.Shared {
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

// param returns, half the time, the term of a random parameter: its
// variable in a family, else its value, folded; else 0.
func (gen *extGen) param() presburger.Term {
	if len(gen.sys.Params) == 0 || gen.r.Intn(2) == 0 {
		return presburger.Term{}
	}
	return gen.paramTerm(gen.r.Intn(len(gen.sys.Params)))
}

// paramTerm is the term of parameter k: its variable in a family, else
// its value.
func (gen *extGen) paramTerm(k int) presburger.Term {
	if p := gen.sys.Params[k]; p.Fixed {
		return presburger.ConstTerm(int64(p.Value))
	}
	return presburger.VarTerm(gen.sys.ParamVar(k))
}

// family makes sp a family: parameters t0 (and t1) not fixed, the first
// group (and the second, one time in three) sized t0 + c for c in 0..1
// (one process, the placeholder, in the state its row of Init names),
// and half the time the assumption "t0 <= 2 & t1 <= 2".
func (gen *extGen) family(sp *gsst.Spec) {
	r := gen.r
	for k := range 1 + r.Intn(2) {
		sp.Params = append(sp.Params, gsst.Param{Name: fmt.Sprintf("t%d", k)})
	}
	for g := range sp.Groups {
		if g > 0 && r.Intn(3) != 0 {
			continue
		}
		grp := &sp.Groups[g]
		grp.SizeTerm = presburger.VarTerm(sp.ParamVar(r.Intn(len(sp.Params)))).Add(presburger.ConstTerm(int64(r.Intn(2))))
		grp.SizeTermText = grp.SizeTerm.Format(sp.VarName)
		grp.Size = 1
		sp.Init[g] = make([]int, len(sp.States))
		sp.Init[g][r.Intn(len(sp.States))] = 1
	}
	if r.Intn(2) == 0 {
		var bound []presburger.Formula
		for k := range sp.Params {
			bound = append(bound, presburger.Compare(presburger.VarTerm(sp.ParamVar(k)), presburger.Le, presburger.ConstTerm(2)))
		}
		sp.Assume.Formula = presburger.Conj(bound...)
		sp.Assume.Text = presburger.Format(sp.Assume.Formula, sp.VarName)
	}
}

// sharedAtom draws a comparison of a shared variable (plus, sometimes,
// another integer one) with a constant in its domain, or a small one.
func (gen *extGen) sharedAtom() presburger.Formula {
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

// guard draws a guard for a step from u: a counter guard, a shared
// atom, or a combination.
func (gen *extGen) guard(u int) presburger.Formula {
	r := gen.r
	counter := gen.base.formula(u, 1, gen.base.style)
	if len(gen.sys.Params) > 0 && r.Intn(4) == 0 {
		// #S >= t: a parameter in a counter guard.
		counter = presburger.Compare(presburger.VarTerm(gen.sys.TotalVar(r.Intn(len(gen.sys.States)))), presburger.Ge, gen.paramTerm(0))
	}
	if len(gen.sys.Shared) == 0 {
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
func (gen *extGen) update() gsst.Update {
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

// transition draws the blocks, guards and updates of u -> v: half the
// time one guard and one update for all blocks.
func (gen *extGen) transition(u, v int) gsst.Transition {
	r, sp := gen.r, gen.sys
	t := gsst.Transition{From: u, To: v}
	blocks := drawBlocks(r, len(sp.Groups))
	sameGuard, sameUpdate := r.Intn(2) == 0, r.Intn(2) == 0
	guard, update := gen.guard(u), gen.update()
	// Updates written differently per group with one effect: under the
	// guard x = k, "x := k + 1" and "x := x + 1" assign the same value.
	equal := -1
	if !sameUpdate && r.Intn(3) == 0 {
		for _, j := range r.Perm(len(sp.Shared)) {
			if k := SharedKind(&sp.Shared[j]); k == "bounded" || k == "unbounded" {
				equal = j
				break
			}
		}
	}
	for i, gs := range blocks {
		slices.Sort(gs)
		b := gsst.Block{Groups: gs, Guard: guard, Update: update}
		if !sameGuard {
			b.Guard = gen.guard(u)
		}
		if !sameUpdate {
			b.Update = gen.update()
		}
		if equal >= 0 {
			b.Guard, b.Update = gen.equalUpdate(guard, equal, i)
		}
		if i > 0 && i == len(blocks)-1 && gen.sys.Parametric() && r.Intn(4) == 0 {
			// In a family, a block that differs from the others only
			// from t0 = 4 on (n = 7 on, for ranges): a violation beyond
			// small instances.
			big := presburger.Compare(presburger.VarTerm(gen.sys.NVar()), presburger.Ge, presburger.ConstTerm(7))
			if len(gen.sys.Params) > 0 {
				big = presburger.Compare(gen.paramTerm(0), presburger.Ge, presburger.ConstTerm(4))
			}
			b.Guard = presburger.Disj(b.Guard, big)
		}
		if b.Guard != presburger.True {
			b.Text = presburger.Format(b.Guard, sp.VarName)
		}
		t.Blocks = append(t.Blocks, b)
	}
	return t
}

// equalUpdate returns guard & x = 0 for shared variable j, and the
// update x := 1 (i even) or x := x + 1 (i odd): one effect, two texts.
func (gen *extGen) equalUpdate(guard presburger.Formula, j, i int) (presburger.Formula, gsst.Update) {
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
func (gen *extGen) groups() []int {
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
func (gen *extGen) transfers() []gsst.Transfer {
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

// rendezvous draws a rendezvous of 2 parts (3 one time in four); with
// stay, a part may leave its process where it is.
func (gen *extGen) rendezvous(stay bool) gsst.Rendezvous {
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
		if stay && r.Intn(4) == 0 {
			to = from
		}
		rv.Parts = append(rv.Parts, gsst.Part{From: from, To: to, Groups: gen.groups()})
	}
	rv.Guard = presburger.True
	if r.Intn(3) != 0 {
		rv.Guard = gen.guard(rv.Parts[0].From)
		rv.Text = presburger.Format(rv.Guard, sp.VarName)
	}
	rv.Update = gen.update()
	return rv
}

// describeExt prints what Describe prints of the constructs beyond the
// paper.
func describeExt(sys *gsst.System) string {
	var b []byte
	for _, v := range sys.Shared {
		b = fmt.Appendf(b, "  shared %s: %s init %s\n", v.Name, v.TypeText(), v.ValueName(v.Init))
	}
	for _, p := range sys.Params {
		b = fmt.Appendf(b, "  param %s = %d\n", p.Name, p.Value)
	}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for _, blk := range t.Blocks {
			if blk.Update.Text != "" {
				b = fmt.Appendf(b, "  %s %v update %s\n", sys.TransitionName(t), blk.Groups, blk.Update.Text)
			}
		}
		for _, tr := range t.Broadcast {
			b = fmt.Appendf(b, "  %s broadcast %s -> %s %v\n", sys.TransitionName(t), sys.States[tr.From], sys.States[tr.To], tr.Groups)
		}
	}
	for _, rv := range sys.Rendezvous {
		b = append(b, "  rendezvous"...)
		for _, p := range rv.Parts {
			b = fmt.Appendf(b, " %s->%s%v", sys.States[p.From], sys.States[p.To], p.Groups)
		}
		b = fmt.Appendf(b, " guard %s update %s\n", presburger.Format(rv.Guard, sys.VarName), rv.Update.Text)
	}
	return string(b)
}

// FoldParams returns the instance of a family with parameters at the
// given values, built here from the definition (and not by gsst's own
// instantiation, which it checks): every parameter fixed at its value
// and folded into every guard and update as a constant, each group sized
// over the parameters given its size there with all its processes in
// the state its row of Init names, and no assumption. ok is false when
// the values break the assumption or give a group fewer than 1 process:
// no instance.
func FoldParams(sys *gsst.System, values []int) (inst *gsst.System, ok bool) {
	sp := sys.Spec()
	val := func(v presburger.Var) int64 {
		if k, isParam := sp.ParamOf(v); isParam {
			return int64(values[k])
		}
		panic(fmt.Sprintf("testsupport: a size or an assumption reads %s", sp.VarName(v)))
	}
	if f := sp.Assume.Formula; f != nil && !presburger.Eval(f, val) {
		return nil, false
	}
	sub := func(v presburger.Var) presburger.Term {
		if k, isParam := sp.ParamOf(v); isParam {
			return presburger.ConstTerm(int64(values[k]))
		}
		return presburger.VarTerm(v)
	}
	for g := range sp.Groups {
		grp := &sp.Groups[g]
		if !grp.OverParams() {
			continue
		}
		size := int(grp.SizeTerm.Eval(val))
		if size < 1 {
			return nil, false
		}
		state, _ := sp.InitState(g)
		grp.Size, grp.SizeTerm, grp.SizeTermText = size, presburger.Term{}, ""
		sp.Init[g] = make([]int, len(sp.States))
		sp.Init[g][state] = size
	}
	foldUpdate := func(u *gsst.Update) {
		u.Assign = slices.Clone(u.Assign)
		for i := range u.Assign {
			u.Assign[i].Value = u.Assign[i].Value.Subst(sub)
		}
	}
	for i := range sp.Transitions {
		t := &sp.Transitions[i]
		for b := range t.Blocks {
			t.Blocks[b].Guard = presburger.Subst(t.Blocks[b].Guard, sub)
			foldUpdate(&t.Blocks[b].Update)
		}
	}
	for i := range sp.Rendezvous {
		sp.Rendezvous[i].Guard = presburger.Subst(sp.Rendezvous[i].Guard, sub)
		foldUpdate(&sp.Rendezvous[i].Update)
	}
	for k := range sp.Params {
		sp.Params[k].Fixed, sp.Params[k].Value = true, values[k]
	}
	sp.Assume = gsst.Assumption{}
	sp.Properties = nil
	sp.Fairness = gsst.Fairness{}
	inst, err := gsst.New(sp)
	if err != nil {
		panic(fmt.Sprintf("testsupport: instance at %v: %v", values, err))
	}
	return inst, true
}
