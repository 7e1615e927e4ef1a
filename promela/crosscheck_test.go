package promela

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

// randomConfig is what the random cross-checks of this package draw:
// small systems (at most 4 processes, 2 per group, up to 5 transitions)
// with names that collide with Promela, C and the emitter's own, guards
// over total and group counters, and four properties biased to the CTL
// fragment that has LTL equivalents, the last of which may read group
// counters.
var randomConfig = testsupport.Config{MaxSize: 2, MaxProcesses: 4, MaxTransitions: 5, Names: testsupport.PromelaNames,
	Properties: 4, GroupProperties: 1, Shape: testsupport.Exportable}

// vsymVerdicts checks m with vsym's explicit engine and returns the
// verdict of every property by name, and the number of reachable states.
func vsymVerdicts(m *counterabs.Model) (map[string]bool, int64, error) {
	rep, err := explicit.Engine{}.Check(context.Background(), m, explore.Traces(false), explore.CountConcrete(false))
	if err != nil {
		return nil, 0, err
	}
	out := map[string]bool{}
	for _, p := range rep.Properties {
		out[p.Name] = p.Holds
	}
	return out, rep.ReachableStates.Int64(), nil
}

// crossStats counts what the random cross-check compared, so that a
// generator gone out of balance fails the test instead of checking
// nothing.
type crossStats struct {
	sync.Mutex
	models                      map[string]int // by kind: total, forced, group, concrete
	claims, existential, safety int
	liveness, fairRuns          int
	fairDiffers                 int // liveness verdicts that -f changed
	skipped                     int
}

func (s *crossStats) add(f func(s *crossStats)) {
	s.Lock()
	defer s.Unlock()
	f(s)
}

// spinCase is one model to check with Spin: the program, vsym's verdicts
// on the same model, and the number of states Spin must store (-1: not
// compared).
type spinCase struct {
	kind     string
	prog     *Program
	verdicts map[string]bool
	states   int64
}

// randomCase builds the model of the i-th random system: the unreduced
// system for even i; for odd i a counter model, total-level when Z3
// certifies the system (group-level for every third), else the
// group-level model or the forced total-level one in turn. vsym's
// verdicts come from its explicit engine on the same model (for the
// unreduced system, on the group-counter model, its exact quotient).
func randomCase(sys *gsst.System, i int) (*spinCase, error) {
	if i%2 == 0 {
		prog, err := Concrete(sys, Version("test"))
		if err != nil {
			return nil, err
		}
		gm, err := counterabs.BuildGroup(sys)
		if err != nil {
			return nil, err
		}
		v, _, err := vsymVerdicts(gm)
		if err != nil {
			return nil, err
		}
		return &spinCase{"concrete", prog, v, concreteStates(sys)}, nil
	}
	s := z3.New()
	cert, err := detect.Certify(context.Background(), sys, s)
	if err != nil {
		return nil, err
	}
	var m *counterabs.Model
	kind := "group"
	// The total-counter model cannot read group counters: it gets the
	// properties that read totals only (the command line picks the
	// group-counter model when some property reads group counters).
	var keep []int
	for j := range sys.Properties {
		if counterabs.PropertyLevel(sys, &sys.Properties[j]) == counterabs.TotalLevel {
			keep = append(keep, j)
		}
	}
	total := sys.WithProperties(keep...)
	switch {
	case cert.Certified() && (i/2)%3 != 0:
		kind = "total"
		m, err = counterabs.Build(context.Background(), total, s, s)
	case !cert.Certified() && (i/2)%2 == 0:
		kind = "forced"
		m, err = counterabs.Build(context.Background(), total, s, s, counterabs.Force())
	default:
		m, err = counterabs.BuildGroup(sys)
	}
	if err != nil {
		return nil, err
	}
	prog, err := Reduced(m, Version("test"))
	if err != nil {
		return nil, err
	}
	v, n, err := vsymVerdicts(m)
	if err != nil {
		return nil, err
	}
	return &spinCase{kind, prog, v, n}, nil
}

// concreteStates returns the number of states pan stores for the
// concrete program of sys: init's start-up state, then one per reachable
// state of the unreduced system, explored by the oracle on processes
// (testsupport.Procs).
func concreteStates(sys *gsst.System) int64 {
	return int64(testsupport.Procs(sys, 0).Len()) + 1
}

// checkWithSpin fails t unless spinAgrees.
func checkWithSpin(t *testing.T, c *spinCase, st *crossStats) {
	t.Helper()
	if err := spinAgrees(t, c, st); err != nil {
		t.Fatal(err)
	}
}

// spinAgrees runs Spin on c and compares: the states pan stores with the
// reachable states vsym counts, and every exported claim's verdict with
// vsym's. Without -f the verdicts must be equal. For a liveness claim of
// the unreduced system pan also runs with -f (weak fairness), where only
// one direction must hold: fewer paths, so a universal property that
// vsym says holds must hold, and an existential one that holds under
// fairness must hold for vsym. st, when not nil, counts the comparisons.
func spinAgrees(tb testing.TB, c *spinCase, st *crossStats) error {
	if st == nil {
		st = &crossStats{models: map[string]int{}}
	}
	p, err := buildPan(tb, c.prog)
	if err != nil {
		return fmt.Errorf("%v\nmodel:\n%s", err, c.prog.Text)
	}
	n, err := p.stateCount()
	if err != nil {
		return err
	}
	if c.states >= 0 && n != c.states {
		return fmt.Errorf("pan stores %d states, vsym finds %d reachable\nmodel:\n%s", n, c.states, c.prog.Text)
	}
	if len(c.prog.Claims) != len(c.verdicts) {
		return fmt.Errorf("%d claims for %d properties", len(c.prog.Claims), len(c.verdicts))
	}
	for i := range c.prog.Claims {
		cl := &c.prog.Claims[i]
		want, ok := c.verdicts[cl.Property]
		if !ok {
			return fmt.Errorf("claim for %s, which vsym does not know", cl.Property)
		}
		if !cl.Exported() {
			st.add(func(s *crossStats) { s.skipped++ })
			continue
		}
		r, err := p.run(cl.PanArgs(false)...)
		if err != nil {
			return fmt.Errorf("%s: %v\nmodel:\n%s", cl.Property, err, c.prog.Text)
		}
		if got := cl.Holds(r.violated); got != want {
			return fmt.Errorf("property %s (%s), claim %s { %s }: Spin says holds=%v, vsym %v\nmodel:\n%s", cl.Property, cl.Text, cl.Name, cl.LTL, got, want, c.prog.Text)
		}
		st.add(func(s *crossStats) {
			s.claims++
			if cl.Existential {
				s.existential++
			}
			if cl.Safety {
				s.safety++
			} else {
				s.liveness++
			}
		})
		if !c.prog.Concrete || cl.Safety {
			continue
		}
		r, err = p.run(cl.PanArgs(true)...)
		if err != nil {
			return fmt.Errorf("%s under -f: %v\nmodel:\n%s", cl.Property, err, c.prog.Text)
		}
		fair := cl.Holds(r.violated)
		if !cl.Existential && want && !fair || cl.Existential && fair && !want {
			return fmt.Errorf("property %s (%s), claim %s { %s }: under weak fairness Spin says holds=%v, vsym (all paths) %v: fairness can only remove paths\nmodel:\n%s", cl.Property, cl.Text, cl.Name, cl.LTL, fair, want, c.prog.Text)
		}
		st.add(func(s *crossStats) {
			s.fairRuns++
			if fair != want {
				s.fairDiffers++
			}
		})
	}
	return nil
}

// TestSpinRandomSystems checks both exports on random small systems with
// the real Spin: every exported property's verdict, and the number of
// states, against vsym's explicit engine on the same model. Each system
// costs a gcc run; -short draws the first 8 of the 200 and checks the
// first model of each kind among them (constructs.first: total, forced,
// group, concrete), with every count asserted below scaled to the models
// checked or, for the kinds of claim, at least one each.
func TestSpinRandomSystems(t *testing.T) {
	requireSpin(t)
	systems := 200
	if testing.Short() {
		systems = 8
	}
	r := rand.New(rand.NewSource(20261123))
	st := &crossStats{models: map[string]int{}}
	spun := &constructs{}
	t.Run("systems", func(t *testing.T) {
		for i := 0; i < systems; i++ {
			sys := testsupport.RandomSystem(r, randomConfig)
			c, err := randomCase(sys, i)
			if err != nil {
				t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
			}
			st.models[c.kind]++
			if !spun.first(c.kind, sys) {
				continue
			}
			t.Run(fmt.Sprintf("%d-%s", i, c.kind), func(t *testing.T) {
				t.Parallel()
				defer func() {
					if t.Failed() {
						t.Log(testsupport.Describe(sys))
					}
				}()
				checkWithSpin(t, c, st)
			})
		}
	})
	t.Logf("models %v, %d through Spin; %d claims compared (%d existential, %d safety, %d liveness), %d properties not exported; %d liveness claims also under -f, %d of them changed by fairness",
		st.models, spun.ran, st.claims, st.existential, st.safety, st.liveness, st.skipped, st.fairRuns, st.fairDiffers)
	if t.Failed() {
		return
	}
	for _, kind := range []string{"total", "forced", "group", "concrete"} {
		if st.models[kind] < max(1, systems/20) {
			t.Errorf("only %d %s models: generator out of balance", st.models[kind], kind)
		}
	}
	// The balance of the generator is judged on the full run's 200
	// systems; -short's few models need each kind of claim at least once.
	checked := spun.ran
	half := checked / 2
	if testing.Short() {
		half = 1
	}
	if st.claims < 2*checked || st.existential < half || st.liveness < half || st.safety < half || st.skipped < max(1, checked/4) || st.fairRuns < max(1, checked/4) {
		t.Errorf("too few comparisons of some kind: generator out of balance")
	}
}
