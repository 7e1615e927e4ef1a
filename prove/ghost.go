package prove

import (
	"context"
	"math/big"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Ghost constants: what a premise on the initial configuration says,
// carried to every configuration of the run.
//
// A premise such as ByMC's cc "#loc0 > #loc1 + T" (more processes start
// with 0 than with 1, by a margin) reads the counters where they start;
// after the first step the counters have moved and the premise, read
// again, is false, so neither the lemmas nor the prover can use it. Add
// to the model a constant g_c for each state variable c whose initial
// value is not fixed (a counter of the initial locations): g_c = c in
// the initial state, never changed by a step. The constants change no
// run, and the premise holds of them for ever. When some weight vector
// y that no step changes (a linear invariant of the steps, linear.go:
// stepRows) is 1 at c and 0 at every other such variable, y.x = g_c +
// (y's part over the variables of fixed initial value, at their initial
// values) in every state of the run, which defines g_c by the state:
// #loc0 + nsnt00 in cc, every process that leaves loc0 adding one
// message. Substituting those terms for the initial counters in a
// condition of the initial states gives a condition of every state,
// constant along the run and true at its start: an inductive invariant
// over the model's own variables, with no constant left (cc: #loc0 +
// nsnt00 > #loc1 + nsnt01 + T). It is offered as a lemma candidate like
// the others (lemma.go: candidates), so Houdini's filter checks it
// (initiation and consecution by the solver) and every proof that uses
// it is re-checked: the algebra here only guesses.

// transported returns, for each conjunct of ts.Init that reads a state
// variable whose initial value m does not fix, the conjunct with each
// such variable replaced by its ghost term (ghostTerms) and every other
// state variable by its initial value; conjuncts that read a variable
// with no ghost term are left out.
func transported(m *counterabs.ParamModel, ts presburger.TransitionSystem) []presburger.Formula {
	if m.SingleInitial() {
		return nil
	}
	state := map[presburger.Var]int{}
	for i := range m.NumState() {
		state[m.StateVar(i)] = i
	}
	// The conjuncts that read an open variable, and those variables.
	var conds []presburger.Formula
	read := map[int]bool{}
	for _, f := range presburger.Conjuncts(ts.Init) {
		var open []int
		for _, v := range presburger.FreeVars(f) {
			if i, isState := state[v]; isState {
				if _, fixed := m.InitialValue(i); !fixed {
					open = append(open, i)
				}
			}
		}
		if len(open) > 0 {
			conds = append(conds, f)
			for _, i := range open {
				read[i] = true
			}
		}
	}
	if len(conds) == 0 || len(read) > maxGhosts {
		return nil
	}
	terms := ghostTerms(m, read)
	init := initTerms(m)
	var out []presburger.Formula
	for _, f := range conds {
		ok := true
		for _, v := range presburger.FreeVars(f) {
			if i, isState := state[v]; isState && read[i] {
				_, has := terms[i]
				ok = ok && has
			}
		}
		if !ok {
			continue
		}
		g, fits := presburger.SubstExact(f, func(v presburger.Var) presburger.Term {
			i, isState := state[v]
			if !isState {
				return presburger.VarTerm(v)
			}
			if t, has := terms[i]; has {
				return t
			}
			return init[i]
		})
		if fits {
			out = append(out, g)
		}
	}
	return out
}

// maxGhosts bounds the ghost constants of one question: each costs an
// elimination over the steps' effects.
const maxGhosts = 16

// ghostTerms returns, for each state variable c of want (whose initial
// values m does not fix), a term over the state and the parameters that
// equals c's initial value in every state of every run, when the steps'
// linear invariants give one (see above): y.x minus y's part over the
// other variables at their fixed initial values, y integral with y_c =
// 1 and 0 at every other variable whose initial value is open.
func ghostTerms(m *counterabs.ParamModel, want map[int]bool) map[int]presburger.Term {
	k := m.NumState()
	if k > maxLinearVars {
		return nil
	}
	var open []int
	for i := range k {
		if _, fixed := m.InitialValue(i); !fixed {
			open = append(open, i)
		}
	}
	dom := domainBounds(m.Ranges())
	steps := stepRows(m, dom, emptyCounters(m))
	init := initTerms(m)
	out := map[int]presburger.Term{}
	for _, c := range open {
		if !want[c] {
			continue
		}
		// y orthogonal to the steps and 0 at the other open variables;
		// c last in the order, so that it stays free when it can.
		rows := append([]sparseRow(nil), steps...)
		for _, o := range open {
			if o != c {
				rows = append(rows, sparseRow{o: big.NewRat(1, 1)})
			}
		}
		pivots := eliminateRows(rows, func(a, b int) bool {
			if (a == c) != (b == c) {
				return b == c
			}
			return a < b
		})
		if _, isPivot := pivots[c]; isPivot {
			continue
		}
		if t, ok := ghostTerm(m, init, pivots, c); ok {
			out[c] = t
		}
	}
	return out
}

// ghostTerm is y.x minus y's part at the fixed initial values, for y the
// kernel vector of the free variable c (1 at c, 0 at the other free
// ones), ok false when y is not integral or a coefficient does not fit.
func ghostTerm(m *counterabs.ParamModel, init []presburger.Term, pivots map[int]sparseRow, c int) (presburger.Term, bool) {
	t := presburger.VarTerm(m.StateVar(c))
	for p, row := range pivots {
		r, ok := row[c]
		if !ok {
			continue
		}
		if !r.IsInt() || !r.Num().IsInt64() || !inLimit(r.Num().Int64()) {
			return presburger.Term{}, false
		}
		y := -r.Num().Int64()
		// y_p (x_p - x_p0): the variable's change since the start.
		d, fits := presburger.VarTerm(m.StateVar(p)).SubExact(init[p])
		if !fits {
			return presburger.Term{}, false
		}
		if d, fits = d.ScaleExact(y); !fits {
			return presburger.Term{}, false
		}
		if t, fits = t.AddExact(d); !fits {
			return presburger.Term{}, false
		}
	}
	return t, true
}

// A premise that is a disjunction (cc: "#loc0 > #loc1 + T | #loc1 >
// #loc0 + T") carries over only as a disjunction, and the facts that
// follow from it differ by case (no process votes 1 when most start
// with 0, none votes 0 in the other case): no conjunction of lemmas
// states them. The initial set is the union of the premise's cases, so
// a configuration is reachable exactly when it is reachable from one of
// them: AG phi holds exactly when it holds from each, and the
// disjunction of the cases' inductive invariants is an inductive
// invariant of the whole (each is closed under the steps, and so is
// their union), which the caller re-checks on the whole question.

// everyCase is proveByCases's key check, that every case is proved;
// only the test that shows a wrong split caught turns it off.
var everyCase = true

// maxPremiseCases bounds the cases a premise is split into.
const maxPremiseCases = 4

// premiseCases returns the cases of premise, the disjuncts of its
// disjunctive normal form, when there are 2 to maxPremiseCases of them
// and each reads a state variable of m; nil otherwise.
func premiseCases(m *counterabs.ParamModel, premise presburger.Formula) []presburger.Formula {
	dnf := presburger.DNF(premise)
	if len(dnf) < 2 || len(dnf) > maxPremiseCases {
		return nil
	}
	state := map[presburger.Var]bool{}
	for i := range m.NumState() {
		state[m.StateVar(i)] = true
	}
	out := make([]presburger.Formula, len(dnf))
	for k, c := range dnf {
		out[k] = presburger.Conj(c...)
		if !slices.ContainsFunc(presburger.FreeVars(out[k]), func(v presburger.Var) bool { return state[v] }) {
			return nil
		}
	}
	return out
}

// proveByCases is proveOne on m from the initial states satisfying
// premise and rest, split into the premise's cases (premiseCases) when
// it has some: each case is asked with its share of the work, and when
// every case is proved, res is proved with the disjunction of their
// invariants (not re-checked here: the caller checks it on the whole
// question) and no lemmas (each case's hold from its own initial states
// only); else res is the first case that is not proved.
func proveByCases(ctx context.Context, cfg config, m *counterabs.ParamModel, premise, rest, phi presburger.Formula, prover presburger.Prover, solver presburger.Solver, res *Result) error {
	cases := premiseCases(m, premise)
	if cases == nil {
		return proveOne(ctx, cfg, m, presburger.Conj(premise, rest), phi, "", nil, nil, prover, solver, res)
	}
	cfg.maxWork = max(cfg.maxWork/int64(len(cases)), 1)
	var invs []presburger.Formula
	for _, c := range cases {
		var sub Result
		if err := proveOne(ctx, cfg, m, presburger.Conj(c, rest), phi, "", nil, nil, prover, solver, &sub); err != nil {
			return err
		}
		if sub.Verdict != Proved {
			if !everyCase {
				continue
			}
			*res = sub
			return nil
		}
		invs = append(invs, sub.Invariant)
	}
	if len(invs) == 0 {
		return proveOne(ctx, cfg, m, presburger.Conj(premise, rest), phi, "", nil, nil, prover, solver, res)
	}
	res.Verdict, res.Invariant = Proved, presburger.Disj(invs...)
	return nil
}
