package analysis

import (
	"context"
	"errors"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
)

// The one meaning of --engine auto, for every question (explore, dot
// --trace, check's reachability questions):
//
//  1. When the model's counter space (Model.CounterSpace) is at most
//     autoBDDThreshold, the explicit engine.
//  2. Else, when every question is one of reachability, EF of a state
//     formula without fairness constraints, which one forward search of
//     the reachable states answers: the explicit engine within a budget
//     of reachExplicitStates reachable states, and the BDD engine when
//     the search outgrows it (or the memory bound).
//  3. Else the BDD engine.
//
// Measured (docs/symbolic.md): the explicit engine stores and expands
// states at a few million per second, while the BDD engine's cost on
// these models is dominated by a fixed setup of some tens of
// milliseconds and grows with the BDD sizes, not the state count. On
// GR&W (m = 10) the two meet between 92,378 counter vectors (n = 10:
// both 0.02 s of CPU) and 293,930 (n = 12: 0.07 s against 0.06 s); at
// 1.3 million (n = 15) the BDD engine is five times faster. But the
// reachable states are often far fewer than the counter space (the
// shared-reading lock with 100 readers and 100 writers: 530,351
// reachable of 26 million vectors, 0.5 s explicit, minutes backwards
// with BDDs), and a reachability question needs nothing but them; at a
// few million states per second the budget keeps the attempt to
// seconds.

// autoBDDThreshold is the counter-space size above which auto no longer
// takes the explicit engine alone (rule 1). A variable so that tests can
// lower it.
var autoBDDThreshold float64 = 200_000

// reachExplicitStates is the explicit engine's budget of reachable
// states under rule 2. A variable so that tests can lower it.
var reachExplicitStates int64 = 10_000_000

// EngineNames lists the names Engines takes.
const EngineNames = "explicit, bdd or auto"

// Engines returns the engines name selects for m, in the order to try
// them: the explicit engine, the BDD engine with the given tuning, or for
// auto those the rule above gives. Every engine but the last runs within
// the budget reachExplicitStates.
func Engines(name string, m *counterabs.Model, bdd symbolic.BDD) ([]explore.Engine, error) {
	switch name {
	case "explicit":
		return []explore.Engine{explicit.Engine{}}, nil
	case "bdd":
		return []explore.Engine{bdd}, nil
	case "auto":
		switch {
		case m.CounterSpace() <= autoBDDThreshold:
			return []explore.Engine{explicit.Engine{}}, nil
		case reachabilityOnly(m):
			return []explore.Engine{explicit.Engine{}, bdd}, nil
		}
		return []explore.Engine{bdd}, nil
	}
	return nil, errkind.Errorf(errkind.Input, "unknown engine %q (want %s)", name, EngineNames)
}

// reachabilityOnly reports whether every property of m is EF of a state
// formula and m has no fairness constraints: questions that one forward
// search of the reachable states answers.
func reachabilityOnly(m *counterabs.Model) bool {
	if len(m.Justice) > 0 || len(m.Properties) == 0 {
		return false
	}
	for _, p := range m.Properties {
		u, ok := p.Formula.(ctl.Unary)
		if !ok || u.Op != ctl.EF || !stateFormula(u.X) {
			return false
		}
	}
	return true
}

// stateFormula reports whether f has no temporal operator.
func stateFormula(f ctl.Formula) bool {
	switch f := f.(type) {
	case ctl.Atom:
		return true
	case ctl.Not:
		return stateFormula(f.X)
	case ctl.Binary:
		return stateFormula(f.L) && stateFormula(f.R)
	}
	return false
}

// check checks m with engines in order: each but the last within the
// budget reachExplicitStates (and maxStates, the caller's bound, when
// it is smaller); a state or memory limit there hands the question to
// the next engine, unless it was the caller's own bound. It returns the
// report and the names of the engines that ran.
func check(ctx context.Context, engines []explore.Engine, m *counterabs.Model, maxStates int64, opts ...explore.Option) (*explore.Report, []string, error) {
	var ran []string
	for k, e := range engines {
		ran = append(ran, e.Name())
		bound, last := maxStates, k == len(engines)-1
		if !last && (bound <= 0 || bound > reachExplicitStates) {
			bound = reachExplicitStates
		}
		rep, err := e.Check(ctx, m, append(opts, explore.MaxStates(bound))...)
		var le *explore.LimitError
		ownBound := errors.As(err, &le) && le.Kind == "states" && bound == maxStates
		if last || err == nil || !errors.Is(err, errkind.Limit) || ownBound || ctx.Err() != nil {
			return rep, ran, err
		}
	}
	return nil, ran, errkind.Errorf(errkind.Internal, "no engine to run")
}
