package prove

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// A shared integer written with a wider domain than it ever takes (a
// net's lock place typed "0.." where it holds at most one token, or a
// bound written 0..K+5 and kept at K by the guards) is asked with the
// domain it takes: when x <= c holds initially and no step, from a
// state where it holds, writes x a value above c, the steps never leave
// 0..c, and the system with x typed lo..c has the same reachable
// states and runs. The backward search and the lemmas read a bounded
// variable's domain where they would have to find x <= c first (mist's
// bingham_h50 with its lock place as "0..": 0.03 s typed 0..1, 2.2 s
// so; queuedbusyflag with its bounded variables widened: 0.7 s against
// more than 20 s). The answers are carried back like every derived
// question's (derived.go): an invariant, with x <= c added, re-checked
// on the model of the system as written; a run replayed on its
// instance. What does not carry is asked again as written. Only AG phi
// and c -> AG phi are asked so.

// tightening lets the tests turn the narrowing off.
var tightening = true

// maxTightRounds bounds the rounds of tightBound: each raises the
// candidate bound to a value a step was found to write above it.
const maxTightRounds = 8

// maxTightBound is the greatest bound tried: a domain that wide reads
// like an unbounded one to the searches (the backward search does not
// read a bound above 100, docs/prove.md).
const maxTightBound = 100

// tightened is one variable of a narrowed system: its index among the
// shared variables and the greatest value it takes.
type tightened struct {
	index int
	hi    int
}

// tightDomains returns sys with every integer shared variable whose
// values stay at or below a constant less than its domain's greatest
// (tightBound) typed up to that constant, and the variables so narrowed;
// ok is false when there is none.
func tightDomains(ctx context.Context, sys *gsst.System, solver presburger.Solver) (*gsst.System, []tightened, bool, error) {
	var ts []tightened
	fires := sys.MayFire()
	for j := range sys.Shared {
		hi, ok, err := tightBound(ctx, sys, j, fires, solver)
		if err != nil {
			return nil, nil, false, err
		}
		if ok {
			ts = append(ts, tightened{index: j, hi: hi})
		}
	}
	if len(ts) == 0 {
		return nil, nil, false, nil
	}
	spec := sys.Spec()
	for _, t := range ts {
		v := &spec.Shared[t.index]
		v.Hi, v.Unbounded = t.hi, false
	}
	out, err := gsst.New(spec)
	if err != nil {
		// Not a system New takes (it should be): ask as written.
		return nil, nil, false, nil
	}
	return out, ts, true, nil
}

// tightBound returns a constant c below the greatest value of shared
// variable j's domain (or for one with none) such that x <= c is an
// inductive invariant of sys by itself: every initial value is at most
// c, and no step that may fire (fires, gsst's MayFire) enabled where
// x <= c (its guard, every variable in its domain, the values it writes
// in theirs) writes x a value above c. The candidate starts at the greatest initial value and the constants
// written to x, and each round raises it to a value a step was found
// to write above it, at most maxTightRounds times and up to
// maxTightBound and to maxTightBound above the domain's least value.
// ok is false when there is no such c: a boolean, an
// enumeration, a range of initial values with no greatest, one over the
// parameters, or a step that writes ever higher values.
func tightBound(ctx context.Context, sys *gsst.System, j int, fires []bool, solver presburger.Solver) (int, bool, error) {
	v := &sys.Shared[j]
	if v.Bool || v.Values != nil {
		return 0, false, nil
	}
	high, ok := v.InitHigh()
	if !ok || !high.IsConst() {
		return 0, false, nil
	}
	x := sys.SharedVar(j)
	c := high.Const
	steps := sys.Steps()
	type write struct {
		step  int
		value presburger.Term
	}
	var writes []write
	for i := range steps {
		if !fires[i] {
			// No run takes it, so it writes nothing; asked about, a
			// step with constants near 1e9 in its guard and writes can
			// cost Z3 minutes within its work budget (internal/cli's
			// TestExactAtTheLimits: x written 500000001*x6 +
			// 499999999*x3 + ... on steps out of states no process
			// enters).
			continue
		}
		for _, a := range steps[i].Update.Assign {
			if a.Var != x {
				continue
			}
			if v.Unbounded && raises(&steps[i], a, x, sys) {
				// A counter: every run that takes the step often enough
				// passes any bound (a net's place, a message count), and
				// a system has hundreds of them (mist's bingham with
				// every place a variable).
				return 0, false, nil
			}
			writes = append(writes, write{i, a.Value})
			if a.Value.IsConst() {
				c = max(c, a.Value.Const)
			}
		}
	}
	if len(writes) == 0 {
		// A constant: slicing and the models read it as one already.
		return 0, false, nil
	}
	// lo..c must be narrow as well as low: one from -1e9 reads like a
	// domain with no least value, and the queries would ask about
	// values near 1e9.
	limit := min(int64(maxTightBound), int64(v.Lo)+maxTightBound)
	if !v.Unbounded {
		limit = min(limit, int64(v.Hi)-1)
	}
	var domain []presburger.Bound
	for k := range sys.Shared {
		domain = append(domain, sys.Shared[k].Bounds(sys.SharedVar(k)))
	}
	for k := range sys.Params {
		domain = append(domain, presburger.Bound{Var: sys.ParamVar(k), Lo: 0, NoHi: true})
	}
	// above reports whether some step writing x, taken where x <= c,
	// writes it a value above c, and the greatest such value it found.
	above := func(c int64) (raised bool, to int64, err error) {
		to = c
		for _, w := range writes {
			st := &steps[w.step]
			f := presburger.Conj(st.Guard, sys.InDomain(&st.Update, sys.Shared),
				presburger.Compare(presburger.VarTerm(x), presburger.Le, presburger.ConstTerm(c)),
				presburger.Compare(w.value, presburger.Gt, presburger.ConstTerm(c)))
			a, err := solveIn(ctx, solver, domain, f)
			if err != nil {
				return false, 0, err
			}
			switch a.Result {
			case presburger.Unsat:
				continue
			case presburger.Sat:
				val, ok := evalTerm(w.value, a.Model)
				if !ok || val <= c {
					return true, 0, errNoBound
				}
				to, raised = max(to, val), true
			default:
				return true, 0, errNoBound
			}
		}
		return raised, to, nil
	}
	if c < int64(v.Lo) || c > limit {
		return 0, false, nil
	}
	// The widest bound first: no bound up to limit when it is not one.
	switch raised, _, err := above(limit); {
	case err == errNoBound || err == nil && raised:
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	for range maxTightRounds {
		raised, to, err := above(c)
		switch {
		case err == errNoBound:
			return 0, false, nil
		case err != nil:
			return 0, false, err
		case !raised:
			return int(c), true, nil
		}
		if c = to; c > limit {
			return 0, false, nil
		}
	}
	// Still rising after the rounds: limit is a bound (checked above),
	// but one so wide that it reads like none.
	return 0, false, nil
}

// errNoBound stops tightBound's search: a step writes a value the
// search cannot read, or the solver cannot tell.
var errNoBound = errors.New("no bound")

// raises reports whether assignment a of step st adds a positive
// constant to x (x := x + d) where neither the step's guard nor the
// domains of what it writes read x: from any value of x the step is
// enabled as often as from any other, so no bound on x is inductive
// unless the step is never enabled.
func raises(st *gsst.Step, a gsst.Assign, x presburger.Var, sys *gsst.System) bool {
	if len(a.Value.Monos) != 1 || a.Value.Monos[0] != (presburger.Mono{Var: x, Coef: 1}) || a.Value.Const <= 0 {
		return false
	}
	reads := presburger.FreeVars(presburger.Conj(st.Guard, sys.InDomain(&st.Update, sys.Shared)))
	return !slices.Contains(reads, x)
}

// evalTerm is t's value in m, false on overflow.
func evalTerm(t presburger.Term, m presburger.Model) (int64, bool) {
	sum := t.Const
	for _, mo := range t.Monos {
		p, ok := checked.Mul(mo.Coef, m[mo.Var])
		if !ok {
			return 0, false
		}
		if sum, ok = checked.Add(sum, p); !ok {
			return 0, false
		}
	}
	return sum, true
}

// checkTight is checkSplit on sys, with its safety properties asked of
// sys with its shared integers narrowed to the values they take
// (tightDomains) when it has some, and the answers carried back. It
// comes after the merge of a counter written as two places and the
// slicing (checkSliced): a merged pair has no greatest value (a bounded
// one would not merge), and a variable nothing reads is left out
// whatever its type, which a narrowed domain could make block a step.
func checkTight(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	if !tightening {
		return checkSplit(ctx, sys, prover, solver, opts...)
	}
	var routed []int
	for i := range sys.Properties {
		if _, _, safety := counterabs.PremisedSafety(sys.Properties[i].Formula); safety {
			routed = append(routed, i)
		}
	}
	if len(routed) == 0 {
		return checkSplit(ctx, sys, prover, solver, opts...)
	}
	checker := checkerOf(solver, opts)
	tight, ts, ok, err := tightDomains(ctx, sys, checker)
	if err != nil {
		return nil, err
	}
	if !ok {
		return checkSplit(ctx, sys, prover, solver, opts...)
	}
	sub, err := checkSplit(ctx, tight.WithProperties(routed...), prover, solver, progressAs(sys, routed, opts)...)
	if err != nil {
		return nil, err
	}
	var typed []string
	for _, t := range ts {
		typed = append(typed, fmt.Sprintf("%s as %d..%d", sys.Shared[t.index].Name, sys.Shared[t.index].Lo, t.hi))
	}
	note := "; " + strings.Join(typed, ", ") + ", the values it takes"
	if len(ts) > 1 {
		note = "; " + strings.Join(typed, ", ") + ", the values they take"
	}
	given := newGivenModels(sys, checker)
	rep := &Report{System: sys, Results: make([]Result, len(sys.Properties)), Cert: sub.Cert, Scope: sub.Scope}
	done := make([]bool, len(sys.Properties))
	again := make([]bool, len(sys.Properties))
	for k, i := range routed {
		r := sub.Results[k]
		r.Property = &sys.Properties[i]
		switch r.Verdict {
		case Proved:
			if r.proof == nil || r.Invariant == nil || r.Live != nil || len(r.Parts) > 0 || r.Sliced != nil {
				continue
			}
			carried, err := carryTight(ctx, given, checker, ts, sys.Properties[i].Name, &r)
			if err != nil {
				return nil, err
			}
			if !carried {
				continue
			}
			if r.LevelReason != "" {
				r.LevelReason += note + ", the invariant re-checked on the system as written"
			}
		case Refuted:
			if r.Sliced != nil || !liftRun(ctx, sys, i, &r) {
				again[i] = true
				continue
			}
			if r.LevelReason != "" {
				r.LevelReason += note + ", the run replayed on the system as written"
			}
		}
		// Proved and carried, refuted and replayed, or neither (unknown,
		// skipped: the same question of a system with the same runs).
		rep.Results[i], done[i] = r, true
	}
	var left []int
	for i := range sys.Properties {
		if !done[i] {
			left = append(left, i)
		}
	}
	if len(left) == 0 {
		return rep, nil
	}
	whole, err := askAsWritten(ctx, sys, rep, left, again, checkSplit, prover, solver, opts)
	if err != nil {
		return nil, err
	}
	if rep.Scope == "" {
		rep.Scope = whole.Scope
	}
	return rep, nil
}

// carryTight carries the proof of res, found on the narrowed system, to
// the model of the system as written (carryInto), its invariant
// strengthened by the narrowed bounds x <= c, which the system as
// written does not have in its domain: the check there is then the
// whole argument. ok is false, res unchanged, when it does not carry.
func carryTight(ctx context.Context, given *givenModels, checker presburger.Solver, ts []tightened, name string, res *Result) (bool, error) {
	from := res.proof.m
	parts := []presburger.Formula{res.Invariant}
	for _, t := range ts {
		name := given.sys.Shared[t.index].Name
		for k := range from.Shared {
			if from.System.Shared[from.SharedIndex(k)].Name == name {
				parts = append(parts, presburger.Compare(presburger.VarTerm(from.SharedVar(k)), presburger.Le, presburger.ConstTerm(int64(t.hi))))
			}
		}
	}
	saved := *res
	res.Invariant = presburger.Conj(parts...)
	carried, err := carryInto(ctx, given.at(ctx, from.Level), name, checker, res)
	if err != nil || !carried {
		*res = saved
		return false, err
	}
	return true, nil
}
