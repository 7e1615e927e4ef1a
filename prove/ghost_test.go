package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestGhostCandidatesRandom cross-checks the entry counts
// (entrycount.go) and the initial conditions carried by the ghost
// constants (ghost.go) against exploration of random systems from every
// initial configuration (initial_random_test.go's listing and
// semantics, which share no code with the model or the lemmas), with no
// filter in between:
//
//   - every entry count x - sum(S) >= x0 holds in every configuration
//     reached: the removal of the counters some step fills without
//     raising x is what makes it one; without it (S every counter empty
//     at the start) some candidate fails in a configuration reached;
//   - every condition a random premise on the initial counters becomes
//     holds in every configuration reached from the initial ones that
//     satisfy the premise; the premise itself, read again in those
//     configurations, fails in some.
func TestGhostCandidatesRandom(t *testing.T) {
	systems := 80
	if testing.Short() {
		systems = 24 // 0.2 CPU-seconds
	}
	r := rand.New(rand.NewSource(29))
	var entries, carried, uncheckedFail, rereadFail int
	for i := range systems {
		var sys *gsst.System
		switch i % 4 {
		case 0:
			sys = initialSetSystem(r, i)
		case 1:
			sys = testsupport.RandomSystem(r, constructsConfig(i))
		default:
			sys = randomThreshold(t, r, false)
		}
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		premise := initialPremise(r, m)
		ps := m.TransitionSystem()
		ts := ps.Question(presburger.False)
		ts.Init = presburger.Conj(ts.Init, premise)
		counts, carry := prove.EntryCounts(m), prove.Transported(m, ts)
		// The conditions carried from the premise, not from the model's
		// own initial set.
		own := map[string]bool{}
		for _, f := range prove.Transported(m, presburger.TransitionSystem{Init: ps.Init}) {
			own[m.FormatFormula(f)] = true
		}
		fromPremise := slices.ContainsFunc(carry, func(f presburger.Formula) bool { return !own[m.FormatFormula(f)] })
		entries, carried = entries+len(counts), carried+len(carry)
		unchecked := uncheckedEntryCounts(m)
		failed := map[int]bool{}
		reread := false
		for _, in := range testsupport.Instances(sys, extParamMax, extSizeMax) {
			inits := initialConfigs(sys, in)
			for _, st := range exploreFrom(sys, in, inits) {
				val := modelValuation(m, in, st)
				for _, f := range counts {
					if !presburger.Eval(f, val) {
						t.Fatalf("system %d at %v, state %s: entry count %s fails\n%s", i, in, st.key(), m.FormatFormula(f), testsupport.Describe(sys))
					}
				}
				for k, f := range unchecked {
					if !presburger.Eval(f, val) {
						failed[k] = true
					}
				}
			}
			from := slices.DeleteFunc(slices.Clone(inits), func(st extState) bool {
				return !presburger.Eval(premise, modelValuation(m, in, st))
			})
			for _, st := range exploreFrom(sys, in, from) {
				val := modelValuation(m, in, st)
				for _, f := range carry {
					if !presburger.Eval(f, val) {
						t.Fatalf("system %d at %v, state %s: %s, the premise %s carried over, fails\n%s",
							i, in, st.key(), m.FormatFormula(f), m.FormatFormula(premise), testsupport.Describe(sys))
					}
				}
				reread = reread || !presburger.Eval(premise, val)
			}
		}
		uncheckedFail += len(failed)
		if reread && fromPremise {
			rereadFail++
		}
	}
	t.Logf("%d systems: %d entry counts (%d unchecked ones fail), %d conditions carried (%d premises fail when read again)",
		systems, entries, uncheckedFail, carried, rereadFail)
	if entries == 0 || carried == 0 || uncheckedFail == 0 || rereadFail == 0 {
		t.Errorf("the sample exercises too little: %d entry counts, %d carried, %d unchecked failing, %d premises failing when read again",
			entries, carried, uncheckedFail, rereadFail)
	}
}

// initialPremise draws a condition on the initial counters of m: one
// counter that some initial configuration occupies against another, or
// against 0 or 1.
func initialPremise(r *rand.Rand, m *counterabs.ParamModel) presburger.Formula {
	var open []int
	for c := range m.Counters {
		if _, fixed := m.InitialValue(c); !fixed {
			open = append(open, c)
		}
	}
	if len(open) == 0 {
		open = []int{r.Intn(len(m.Counters))}
	}
	x := func(c int) presburger.Term { return presburger.VarTerm(presburger.Var(c)) }
	a := open[r.Intn(len(open))]
	switch b := open[r.Intn(len(open))]; {
	case b != a:
		return presburger.Compare(x(a), presburger.Gt, x(b))
	case r.Intn(2) == 0:
		return presburger.Compare(x(a), presburger.Eq, presburger.ConstTerm(0))
	default:
		return presburger.Compare(x(a), presburger.Ge, presburger.ConstTerm(1))
	}
}

// uncheckedEntryCounts is the entry counts without the removal: for each
// shared variable x, x - (every counter empty at the start) >= x0.
func uncheckedEntryCounts(m *counterabs.ParamModel) []presburger.Formula {
	var out []presburger.Formula
	for j := range m.Shared {
		v := len(m.Counters) + j
		x0, _ := m.InitialValue(v)
		t := presburger.VarTerm(m.StateVar(v))
		for c := range m.Counters {
			if init, fixed := m.InitialValue(c); fixed && init.IsConst() && init.Const == 0 {
				t = t.Sub(presburger.VarTerm(presburger.Var(c)))
			}
		}
		out = append(out, presburger.Compare(t, presburger.Ge, x0))
	}
	return out
}

// TestPremiseCasesRandom cross-checks the liveness verdicts of premises
// split into cases (ghost.go) against testsupport's fair-CTL oracle,
// one initial configuration at a time (testsupport.EachInitial): random
// systems whose runs settle, groups spread over initial states, and the
// property "(c1 | c2) -> !E[a U EG (a & j)]" with c1, c2 comparing the
// counters of states. A property proved holds from every initial
// configuration at every size of the box; one refuted fails from some
// configuration of its instance.
func TestPremiseCasesRandom(t *testing.T) {
	c := checkPremiseCases(t, 40, true)
	t.Logf("%d settling systems: %v", c.systems, c.verdicts)
	if c.verdicts[prove.Proved] == 0 || c.verdicts[prove.Refuted] == 0 {
		t.Errorf("the random sample exercises too little: %v", c.verdicts)
	}
}

// TestPremiseCasesCheckMatters shows that accepting a split premise
// when some case is proved, not every one, is caught: the disjunction
// of the cases proved fails the re-check on the whole question (an
// internal error), or the oracle contradicts the verdict.
func TestPremiseCasesCheckMatters(t *testing.T) {
	if testing.Short() {
		t.Skip("3 CPU-seconds; the full run shows it")
	}
	restore := prove.AcceptSomeCase()
	defer restore()
	c := checkPremiseCases(t, 40, false)
	t.Logf("with a case enough, %d errors and %d wrong verdicts on %d systems", c.errors, c.wrong, c.systems)
	if c.errors+c.wrong == 0 {
		t.Errorf("nothing caught with one case accepted for all: the check is not exercised")
	}
}

// premiseCaseCounts are what a run of checkPremiseCases saw.
type premiseCaseCounts struct {
	systems       int
	verdicts      map[prove.Verdict]int
	errors, wrong int
}

// checkPremiseCases draws systems from a fixed seed until it has
// settling ones (a tenth of them in -short: 0.6 CPU-seconds), proves the premised
// property of each, and compares the verdict with the oracle; with
// report set a contradiction or an error is a test error, else it is
// counted.
func checkPremiseCases(t *testing.T, systems int, report bool) premiseCaseCounts {
	if testing.Short() {
		systems /= 10
	}
	r := rand.New(rand.NewSource(31))
	s := z3.New()
	ctx := context.Background()
	c := premiseCaseCounts{verdicts: map[prove.Verdict]int{}}
	fail := func(counter *int, format string, args ...any) {
		*counter++
		if report {
			t.Errorf(format, args...)
		}
	}
	for c.systems < systems {
		sys := randomThreshold(t, r, true)
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		if !prove.Settles(m) {
			continue
		}
		i := c.systems
		c.systems++
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			fail(&c.errors, "system %d: %v\n%s", i, err, testsupport.Describe(sys))
			if !report {
				t.Logf("system %d: %v", i, err)
			}
			continue
		}
		const k = 0
		res, p := rep.Results[k], &sys.Properties[k]
		c.verdicts[res.Verdict]++
		holds := func(sizes []int) bool {
			inst, err := sys.Instantiate(sizes)
			if err != nil {
				t.Fatalf("system %d at %v: %v", i, sizes, err)
			}
			ones, err := testsupport.EachInitial(inst)
			if err != nil {
				t.Fatalf("system %d at %v: %v", i, sizes, err)
			}
			for _, one := range ones {
				if !procOracle(one).Holds(one.Properties[k].Formula) {
					return false
				}
			}
			return true
		}
		switch res.Verdict {
		case prove.Proved:
			for _, sizes := range testsupport.Box(sys, boxMax) {
				if !holds(sizes) {
					fail(&c.wrong, "system %d: %s (%s) proved with invariant %s, but fails at %s\n%s",
						i, p.Name, p.Text, res.InvariantText, sys.FormatSizes(sizes), testsupport.Describe(sys))
					break
				}
			}
		case prove.Refuted:
			if holds(res.Sizes) {
				fail(&c.wrong, "system %d: %s (%s) refuted at %s, where it holds\n%s", i, p.Name, p.Text, sys.FormatSizes(res.Sizes), testsupport.Describe(sys))
			}
		case prove.Skipped:
			fail(&c.wrong, "system %d: %s (%s) skipped: %s", i, p.Name, p.Text, res.Reason)
		}
	}
	return c
}

// randomThreshold draws a threshold automaton in the language (ByMC's
// kind): a group of 1..3 processes spread over two initial states, two
// more states and a crashed one, transitions forward only (so that the
// runs settle) guarded by thresholds over two message counters, which
// they raise at times, crashes counted by nf under nf < 1, and
// self-loops. With live set it has ByMC's justice ("every process
// leaves the initial states", "a transition enabled for ever is
// taken") and the property "split": (c1 | c2) -> !E[a U EG (a & j)],
// c1 and c2 comparing the initial states' counters.
func randomThreshold(t *testing.T, r *rand.Rand, live bool) *gsst.System {
	states := []string{"I0", "I1", "A", "B", "CR"}
	var b strings.Builder
	b.WriteString("name: ta\nshared:\n  x: {type: \"0..\", init: 0}\n  y: {type: \"0..\", init: 0}\n  nf: {type: \"0..\", init: 0}\n")
	fmt.Fprintf(&b, "states: [%s]\ngroups:\n  p: 1..3\ninit:\n  p: [I0, I1]\ntransitions:\n", strings.Join(states, ", "))
	guards := []string{"true", "x >= 1", "x + y >= 2", "y < 1", "x >= 2", "x + y >= n - 1"}
	updates := []string{"", "x := x + 1", "y := y + 1", "x := x + 1; y := y + 1"}
	// The processes leaving I0 (I1) count themselves in x (y) as they
	// go, mostly: then the initial counters are ghost terms.
	counted := []bool{r.Intn(3) > 0, r.Intn(3) > 0}
	var justice []string
	for from := range 4 {
		update := func() string {
			if from < 2 && counted[from] {
				return []string{"x := x + 1", "y := y + 1"}[from]
			}
			return updates[r.Intn(len(updates))]
		}
		for to := max(from+1, 2); to < 4; to++ {
			if r.Intn(3) == 0 {
				continue
			}
			g, u := guards[r.Intn(len(guards))], update()
			fmt.Fprintf(&b, "  - {name: t%d%d, from: %s, to: %s, guard: \"%s\"", from, to, states[from], states[to], g)
			if u != "" {
				fmt.Fprintf(&b, ", update: \"%s\"", u)
			}
			b.WriteString("}\n")
			justice = append(justice, fmt.Sprintf("(#%s = 0 | !(%s))", states[from], g))
		}
		if r.Intn(2) == 0 {
			u := "nf := nf + 1"
			if v := update(); v != "" {
				u += "; " + v
			}
			fmt.Fprintf(&b, "  - {from: %s, to: CR, guard: \"nf < 1\", update: \"%s\"}\n", states[from], u)
		}
		if r.Intn(2) == 0 {
			fmt.Fprintf(&b, "  - {from: %s, to: %s}\n", states[from], states[from])
		}
	}
	b.WriteString("  - {name: send0, from: I0, to: A, update: \"x := x + 1\"}\n  - {name: send1, from: I1, to: B, update: \"y := y + 1\"}\n")
	if live {
		fmt.Fprintf(&b, "fairness:\n  justice:\n    - \"#I0 = 0 & #I1 = 0 & %s\"\n", strings.Join(justice, " & "))
		compare := func() string {
			return fmt.Sprintf("#%s > #%s + %d", states[r.Intn(2)], states[r.Intn(2)], r.Intn(2))
		}
		q := fmt.Sprintf("#%s %s", states[2+r.Intn(2)], []string{"= 0", ">= 1", "<= 1"}[r.Intn(3)])
		j := []string{"x < 2", "y >= 1", "true", "#A = 0"}[r.Intn(4)]
		fmt.Fprintf(&b, "properties:\n  split: \"(%s | %s) -> !E[!(%s) U EG (!(%s) & %s)]\"\n", compare(), compare(), q, q, j)
	}
	sys, err := gsst.Parse("ta.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	return sys
}

// TestGhostISoLA18 proves the ISoLA'18 liveness specifications that need
// the methods of entrycount.go and ghost.go (docs/prove.md), from ByMC's
// files as published: bosco's fast0 (the premise's condition on the
// parameters), c1cs's fast0 and cf1s's termination (entry counts), cc's
// termination (its premise carried by the ghost constants, split into
// its two cases).
func TestGhostISoLA18(t *testing.T) {
	cases := []struct{ file, property string }{
		{"bosco.ta", "fast0"},
		{"c1cs.ta", "fast0"},
		{"cf1s.ta", "termination"},
		{"cc.ta", "termination"},
	}
	if testing.Short() {
		t.Skip("4 CPU-seconds; TestPublicSuites (analysis) proves every ISoLA'18 file")
	}
	s := z3.New()
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.file, c.property), func(t *testing.T) {
			imp, err := bymc.Load(filepath.Join("..", "formats", "bymc", "testdata", "isola18", c.file))
			if err != nil {
				t.Fatal(err)
			}
			sys, err := imp.System()
			if err != nil {
				t.Fatal(err)
			}
			k := slices.IndexFunc(sys.Properties, func(p gsst.Property) bool { return p.Name == c.property })
			if k < 0 {
				t.Fatalf("no property %s", c.property)
			}
			rep, err := prove.Check(context.Background(), sys.WithProperties(k), s, s)
			if err != nil {
				t.Fatal(err)
			}
			if res := rep.Results[0]; res.Verdict != prove.Proved || res.Live == nil || !res.Live.Settled {
				t.Errorf("%s: %v (%s), want proved by settling", c.property, res.Verdict, res.Reason)
			}
		})
	}
}
