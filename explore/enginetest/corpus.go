package enginetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

// corpusCase is one archive with its models, built once per test binary
// (Z3 builds the total-counter model) and shared by every engine setting,
// and the oracle's state space on processes.
type corpusCase struct {
	c            *testsupport.Case
	group, total *counterabs.Model // total nil when no total-counter model can write the system (noTotal says why)
	noTotal      string
	tsys         *gsst.System // the system with its properties over total counters
	sp           *testsupport.ProcSpace
}

var corpusOnce struct {
	sync.Once
	cases []corpusCase
	err   error
}

// corpusCases loads the corpus and builds the models of every archive:
// the group-counter model, and the total-counter model with Z3, forced
// when the archive says the system is not certified.
func corpusCases() ([]corpusCase, error) {
	corpusOnce.Do(func() {
		cases, err := testsupport.LoadCorpus()
		if err != nil {
			corpusOnce.err = err
			return
		}
		solver := z3.New(z3.Timeout(20 * time.Second))
		for _, c := range cases {
			m, err := counterabs.BuildGroup(c.Sys)
			if err != nil {
				corpusOnce.err = err
				return
			}
			tsys := testsupport.TotalProperties(c.Sys)
			cc := corpusCase{c: c, group: m, tsys: tsys, sp: testsupport.Procs(c.Sys, 0)}
			if cc.noTotal = counterabs.GroupReason(tsys, false); cc.noTotal == "" {
				var opts []counterabs.Option
				if !c.Total.Exact {
					opts = append(opts, counterabs.Force())
				}
				cc.total, err = counterabs.Build(context.Background(), tsys, solver, solver, opts...)
				switch {
				case err != nil && !c.Total.Exact && errors.Is(err, errkind.Input) && testsupport.ConstructsOf(c.Sys) != 0:
					// Tracked: counterabs forces a total-counter model
					// on the paper's systems only, for now.
					cc.noTotal = "not yet: " + err.Error()
				case err != nil:
					corpusOnce.err = fmt.Errorf("%s: %w", c.Name, err)
					return
				}
			}
			corpusOnce.cases = append(corpusOnce.cases, cc)
		}
	})
	return corpusOnce.cases, corpusOnce.err
}

// corpus runs every archive of the known-answer corpus (the bundled
// specs, the paper's examples, small GR&W and ASR members, uncertified
// systems) through eng on both models and compares the reachable
// states, deadlocks, configurations and verdicts with the archive (and,
// with counts, checks that explore.MaxStates stops the search exactly
// beyond the archive's count);
// traces are checked on the oracle's graph of the model and lifted
// traces of exact models replayed.
func corpus(t *testing.T, s Suite) {
	if testing.Short() {
		t.Skip("uses Z3")
	}
	cases, err := corpusCases()
	if err != nil {
		t.Fatal(err)
	}
	counts := explore.NewConfig(s.Options...).CountStates
	var st Stats
	noTotal := 0
	for _, cc := range cases {
		c := cc.c
		t.Run(c.Name, func(t *testing.T) {
			sys, sp := c.Sys, cc.sp
			groupKey := func(i int) string { return fmt.Sprint(procCounters(sp, i), sp.States[i].Shared) }
			rep, err := s.Engine.Check(context.Background(), cc.group, s.Options...)
			if err != nil {
				t.Fatal(err)
			}
			if counts {
				if err := c.Group.Compare(Result(rep)); err != nil {
					t.Errorf("group: %v", err)
				}
			}
			CheckVerdicts(t, "group", sys, rep, sp.Graph, sp.Quotient(groupKey), groupStateKey, s.Shortest, &st)
			if counts {
				checkMaxStates(t, s, cc.group, c.Group.States)
			}

			if cc.total == nil {
				// The archive's total level is the truth about the
				// system's orbits, which no total-counter model of
				// counterabs writes: a broadcast restricted to groups,
				// or (not yet) a forced model of a system with
				// constructs. The group level above stands for it.
				t.Logf("no total-counter model: %s", cc.noTotal)
				noTotal++
				return
			}
			g := sp.Quotient(func(i int) string { return testsupport.OrbitKey(sys, sp.Owner, sp.States[i]) })
			if !c.Total.Exact {
				g = testsupport.Orbits(sys, 0)
			}
			arep, err := s.Engine.Check(context.Background(), cc.total, s.Options...)
			if err != nil {
				t.Fatal(err)
			}
			if counts {
				if err := c.Total.Compare(Result(arep)); err != nil {
					t.Errorf("total: %v", err)
				}
			}
			CheckVerdicts(t, "total", cc.tsys, arep, g, g, totalStateKey, s.Shortest, &st)
		})
	}
	t.Logf("%s: %d archives, both models (%d the group-counter model only, as no total-counter model writes them); %d verdicts, %d traces checked, %d lifted and replayed",
		s.Engine.Name(), len(cases), noTotal, st.Verdicts, st.Traces, st.Lifted)
}

// groupStateKey and totalStateKey name a trace state as the quotients
// of the oracle's state space on processes do: group counters (total
// counters) and shared values.
func groupStateKey(x explore.State) string { return fmt.Sprint(x.Groups, sharedOf(x)) }
func totalStateKey(x explore.State) string { return fmt.Sprint(x.Counters, sharedOf(x)) }

// checkMaxStates checks that explore.MaxStates bounds the reachable
// states of m, of which there are n: a bound of n lets the run finish,
// a bound of n-1 stops it with the state limit and no report.
func checkMaxStates(t *testing.T, s Suite, m *counterabs.Model, n int64) {
	t.Helper()
	if _, err := s.Engine.Check(context.Background(), m, append(s.Options, explore.MaxStates(n))...); err != nil {
		t.Errorf("MaxStates(%d) on %d states: %v", n, n, err)
	}
	if n < 2 {
		return
	}
	rep, err := s.Engine.Check(context.Background(), m, append(s.Options, explore.MaxStates(n-1))...)
	var lim *explore.LimitError
	if !errors.As(err, &lim) || lim.Kind != "states" || lim.Limit != n-1 || !errors.Is(err, errkind.Limit) || rep != nil {
		t.Errorf("MaxStates(%d) on %d states: report %v, error %v; want the state limit", n-1, n, rep != nil, err)
	}
}

// Stats counts what CheckVerdicts checked, so a test that silently
// checks nothing can fail.
type Stats struct {
	Verdicts                         int
	Traces, Lassos, Lifted, Stutters int
}

// CheckVerdicts compares every verdict of rep, a report on a model of
// sys, with the naive checker on truth (the unreduced system, or a graph
// with the same verdicts), checks every trace on g, the graph of the
// model the engine explored, whose states key names (shortest as
// shortest says), and on an exact model replays every lifted trace on
// the unreduced system.
func CheckVerdicts(t *testing.T, mode string, sys *gsst.System, rep *explore.Report, truth, g *testsupport.Graph, key func(explore.State) string, shortest testsupport.Shortest, st *Stats) {
	t.Helper()
	if len(rep.Properties) != len(sys.Properties) {
		t.Fatalf("%s: %d results for %d properties", mode, len(rep.Properties), len(sys.Properties))
	}
	// The segments name subformulas of the model's properties: at the
	// total level they are the system's, at the group level translated.
	modelFormula := func(i int) ctl.Formula { return sys.Properties[i].Formula }
	text := func(f ctl.Formula) string { return ctl.FormatAtoms(f, sys.VarName, sys.TypedAtom) }
	if rep.Model == counterabs.GroupLevel {
		gm, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		modelFormula = func(i int) ctl.Formula { return gm.Properties[i].Formula }
		text = gm.FormatProperty
	}
	for i, p := range rep.Properties {
		f := sys.Properties[i].Formula
		st.Verdicts++
		if want := testsupport.Holds(truth, f); p.Holds != want {
			t.Errorf("%s: %s = %s: engine says %v, oracle %v", mode, p.Name, ctl.Format(f, sys.VarName), p.Holds, want)
			continue
		}
		subs := testsupport.Subformulas(f, modelFormula(i), text)
		if err := testsupport.CheckEngineTrace(g, f, p.Holds, Trace(p.Trace, key), subs, shortest); err != nil {
			t.Errorf("%s %s: %v", mode, p.Name, err)
		}
		if p.Trace != nil {
			st.Traces++
			if p.Trace.Loop >= 0 {
				st.Lassos++
			}
			if rep.Exact {
				for _, tr := range append([]*explore.Trace{p.Trace}, p.Trace.Branches...) {
					if _, err := testsupport.Replay(sys, Trace(tr, key)); err != nil {
						t.Errorf("%s %s: %v", mode, p.Name, err)
					}
					st.Lifted++
					for _, s := range tr.Lifted.Steps {
						if s.Stutter {
							st.Stutters++
							break
						}
					}
				}
			}
		}
	}
}
