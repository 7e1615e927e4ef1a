package prove

import (
	"context"
	"slices"
	"strconv"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// A property "c -> f" is f's question from the initial configurations
// where c holds. When the system's initial set can state part of c
// (gsst's NarrowInitial: "x = 0" on a shared integer that starts in
// "0..", "#T[g] = 0" on a group that starts spread over [S, T]), the
// property is asked of the system with that initial set, with what is
// left of c as its premise: the backward search reads the initial values
// a system states, and a premise only as a check of the states it finds
// (mist's kanban with a place's initial value so written was unknown
// after 10 s, and is refuted at once).

// numbered names variables by number, for keys.
func numbered(v presburger.Var) string { return "v" + strconv.Itoa(int(v)) }

// narrowPremises lets the tests of the steps that read a premise as a
// check (the lemmas, the ghost constants) ask premises as written.
var narrowPremises = true

// checkNarrowed is check on sys, each property whose premise narrows
// the initial set asked of the narrowed system, together with the
// others whose premise is written alike.
func checkNarrowed(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	if !narrowPremises {
		return check(ctx, sys, prover, solver, opts...)
	}
	type question struct {
		sys    *gsst.System
		folded string // the premise's conjuncts folded into sys's initial set, as text
		props  []gsst.Property
		index  []int // into sys.Properties
		// assumes says that the question's assumption says more than
		// sys's (a conjunct folded into it), so that its scope is not
		// sys's.
		assumes bool
	}
	type narrowing struct {
		q    *question // nil when the premise narrows nothing
		rest presburger.Formula
	}
	var asked []*question
	byPremise := map[string]narrowing{}
	var plain []int
	for i, p := range sys.Properties {
		premise, g := counterabs.Premise(p.Formula)
		if premise == presburger.True {
			plain = append(plain, i)
			continue
		}
		key := presburger.Format(premise, numbered)
		n, seen := byPremise[key]
		if !seen {
			narrowed, folded, rest, err := sys.NarrowInitial(premise)
			if err != nil {
				return nil, err
			}
			if narrowed != sys {
				// A conjunct folded into the assumption ("x0 = 0" on x0
				// that starts at the parameter x0_0) may pin a
				// parameter: the stages read the constant best.
				if narrowed, _, err = narrowed.PinParams(); err != nil {
					return nil, err
				}
			}
			n.rest = rest
			if narrowed != sys {
				n.q = &question{sys: narrowed, folded: sys.FormatFormula(folded), assumes: narrowed.Assume.Text != sys.Assume.Text}
				asked = append(asked, n.q)
			}
			byPremise[key] = n
		}
		q, rest := n.q, n.rest
		if q == nil {
			plain = append(plain, i)
			continue
		}
		f := g
		if rest != presburger.True {
			f = ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: rest}, R: g}
		}
		q.props = append(q.props, gsst.Property{Name: p.Name, Formula: f, Text: p.Text, Pos: p.Pos})
		q.index = append(q.index, i)
	}
	if len(asked) == 0 {
		return check(ctx, sys, prover, solver, opts...)
	}
	if len(plain) > 0 {
		asked = append([]*question{{sys: sys.WithProperties(plain...), index: plain}}, asked...)
	}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	checker := checkerOf(solver, opts)
	var given *givenModels // sys's models, built when a narrowed proof first needs one
	rep := &Report{System: sys, Results: make([]Result, len(sys.Properties))}
	for _, q := range asked {
		qs := q.sys
		if q.props != nil {
			var err error
			if qs, err = q.sys.WithDerivedProperties(q.props); err != nil {
				return nil, err
			}
		}
		// Progress counts the properties of sys, not of the question.
		at := map[string]int{}
		for _, i := range q.index {
			at[sys.Properties[i].Name] = i
		}
		report := func(e progress.Event) {
			if i, ok := at[e.Item]; ok && e.K > 0 {
				e.K, e.N = i+1, len(sys.Properties)
			}
			cfg.progress.Report(e)
		}
		sub, err := check(ctx, qs, prover, solver, append(opts, OnProgress(report))...)
		if err != nil {
			return nil, err
		}
		if rep.Cert == nil {
			rep.Cert = sub.Cert
		}
		if rep.Scope == "" && !q.assumes {
			rep.Scope = sub.Scope
		}
		for k, i := range q.index {
			res := sub.Results[k]
			res.Property = &sys.Properties[i]
			if q.folded != "" {
				// The answer of the narrowed question, carried to sys:
				// the invariant re-checked from the premise as written,
				// the run replayed on sys's instance from a
				// configuration where the premise holds.
				carried := false
				if res.Invariant != nil && res.Live == nil && res.proof != nil {
					if given == nil {
						given = newGivenModels(sys, checker)
					}
					if carried, err = carryInto(ctx, given.at(ctx, res.proof.m.Level), sys.Properties[i].Name, checker, &res); err != nil {
						return nil, err
					}
				}
				if res.Trace != nil {
					carried = liftRun(ctx, sys, i, &res)
				}
				if res.LevelReason != "" {
					res.LevelReason += "; asked from the initial configurations where " + q.folded + " (the premise's part that the initial set states)"
					switch {
					case carried && res.Trace != nil:
						res.LevelReason += ", the run replayed on the system as written"
					case carried:
						res.LevelReason += ", the invariant re-checked on the system as written, from the premise"
					}
				}
				if !carried {
					// The certificate is of the narrowed question (its
					// reason says so), no invariant of sys.
					res.proof = nil
				}
			}
			rep.Results[i] = res
		}
	}
	if rep.Scope == "" && slices.ContainsFunc(asked, func(q *question) bool { return q.assumes }) {
		// Every question narrowed the assumption: the scope is sys's,
		// read on its model as check reads it.
		if given == nil {
			given = newGivenModels(sys, checker)
		}
		if m := given.at(ctx, counterabs.GroupLevel); m != nil && m.Scope != "" {
			rep.Scope = m.Scope + emptyGroups(ctx, solver, m)
		}
	}
	return rep, nil
}
