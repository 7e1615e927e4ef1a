package analysis

import (
	"context"
	"errors"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
)

// The one meaning of --engine auto, for every question (explore, dot
// --trace, check's reachability questions): explore.Auto, a race of the
// explicit engine and the BDD engine that returns the first report; the
// engines fill the same report, so the answer does not depend on which
// wins (docs/symbolic.md, "Choosing the engine").

// reachExplicitStates is the budget of reachable states of every engine
// but the last of a list check runs. A variable so that tests can lower
// it.
var reachExplicitStates int64 = 10_000_000

// EngineNames lists the names Engines takes.
const EngineNames = "explicit, bdd or auto"

// Engines returns the engines name selects for m, in the order to try
// them: the explicit engine, the BDD engine with the given tuning, or
// explore.Auto over both.
func Engines(name string, m *counterabs.Model, bdd symbolic.BDD) ([]explore.Engine, error) {
	switch name {
	case "explicit":
		return []explore.Engine{explicit.Engine{}}, nil
	case "bdd":
		return []explore.Engine{bdd}, nil
	case "auto":
		return []explore.Engine{explore.Auto{Explicit: explicit.Engine{}, Symbolic: bdd}}, nil
	}
	return nil, errkind.Errorf(errkind.Input, "unknown engine %q (want %s)", name, EngineNames)
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
