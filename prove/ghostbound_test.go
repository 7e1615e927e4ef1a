package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestSumThresholdsRandom cross-checks the sum thresholds
// (ghostbound.go) and Houdini's filter on them against exploration of
// random BOSCO-like threshold automata (sumSystem) from every initial
// configuration (initial_random_test.go's listing and semantics, which
// share no code with the model or the lemmas):
//
//   - sum thresholds are generated, and the filter keeps some;
//   - every one the filter keeps holds in every configuration reached;
//   - the filter is what makes them hold: each candidate is also
//     offered one tighter (k*S <= b - 1), and some of those fail in a
//     configuration reached, which the filter must have dropped.
func TestSumThresholdsRandom(t *testing.T) {
	systems := 60
	if testing.Short() {
		systems = 16 // 0.2 CPU-seconds
	}
	r := rand.New(rand.NewSource(31))
	s := z3.New()
	ctx := context.Background()
	var generated, kept, keptSums, tightFail int
	for i := range systems {
		sys := sumSystem(t, r)
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		sums := prove.SumThresholds(m)
		if len(sums) == 0 {
			continue
		}
		generated += len(sums)
		var tight []presburger.Formula
		for _, f := range sums {
			or, ok := f.(presburger.Or)
			if !ok || len(or) != 2 {
				t.Fatalf("system %d: %s is not \"#c = 0 | bound\"", i, m.FormatFormula(f))
			}
			c, ok := or[1].(presburger.Cmp)
			if !ok || c.Op != presburger.Le {
				t.Fatalf("system %d: %s is not \"#c = 0 | k*S <= b\"", i, m.FormatFormula(f))
			}
			c.T = c.T.Add(presburger.ConstTerm(1))
			tight = append(tight, presburger.Disj(or[0], c))
		}
		// The linear invariants go with the candidates, as in prove.
		invs, _ := prove.LinearInvariants(m)
		ts := m.TransitionSystem().Question(presburger.False)
		survivors, err := prove.Houdini(ctx, s, ts, slices.Concat(invs, sums, tight))
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		key := func(f presburger.Formula) string { return presburger.Format(f, m.VarName) }
		offered := map[string]bool{}
		for _, f := range slices.Concat(sums, tight) {
			offered[key(f)] = true
		}
		survivors = slices.DeleteFunc(survivors, func(f presburger.Formula) bool { return !offered[key(f)] })
		kept += len(survivors)
		for _, f := range sums {
			if slices.ContainsFunc(survivors, func(g presburger.Formula) bool { return key(f) == key(g) }) {
				keptSums++
			}
		}
		failed := map[string]bool{}
		for _, in := range testsupport.Instances(sys, extParamMax, extSizeMax) {
			for _, st := range exploreFrom(sys, in, initialConfigs(sys, in)) {
				val := modelValuation(m, in, st)
				for _, f := range survivors {
					if !presburger.Eval(f, val) {
						t.Fatalf("system %d at %v, state %s: %s, kept by the filter, fails\n%s",
							i, in, st.key(), m.FormatFormula(f), testsupport.Describe(sys))
					}
				}
				for _, f := range tight {
					if !presburger.Eval(f, val) {
						failed[key(f)] = true
					}
				}
			}
		}
		tightFail += len(failed)
	}
	t.Logf("%d systems: %d sum thresholds generated, %d of them kept (%d candidates kept with the tighter copies); %d tighter copies fail in a configuration reached",
		systems, generated, keptSums, kept, tightFail)
	if generated == 0 || keptSums == 0 || tightFail == 0 {
		t.Errorf("the sample exercises too little: %d generated, %d kept, %d tighter failing", generated, keptSums, tightFail)
	}
}

// TestSumThresholdProvesBosco: BOSCO's lemma4_0 and lemma4_1 (ByMC's
// ISoLA'18 bosco.ta; "no process decides v while another falls back to
// the underlying consensus with the other value") are proved by the
// lemmas, a sum threshold among them ("#locU1 = 0 | 2*(#loc0 + nsnt0)
// <= N + T": Spacer found it before), and hold on every instance
// explored with parameters up to 5.
func TestSumThresholdProvesBosco(t *testing.T) {
	for _, name := range []string{"lemma4_0", "lemma4_1"} {
		r := provedByLemmasExplored(t, "bosco.ta", name)
		if !slices.ContainsFunc(r.Lemmas, func(l prove.Lemma) bool { return l.Kind == "sum threshold" }) {
			t.Errorf("%s: no sum threshold among the lemmas %v", name, r.Lemmas)
		}
	}
}

// sumSystem draws a threshold automaton like BOSCO's: a group of 1..3
// processes spread over two initial states I0 and I1, each process
// leaving I0 (I1) for S0 (S1) counting itself in x (y), so that #I0 + x
// and #I1 + y never change; then from S0 and S1 to D0, D1 or U under
// conjunctions of thresholds on x, y and n, the group's size, and
// sometimes a step that raises x or y with no process leaving I0 or
// I1, which breaks those sums.
func sumSystem(t *testing.T, r *rand.Rand) *gsst.System {
	head, rules := sumSpec(r)
	return parseSums(t, head, rules)
}

// sumSpec returns sumSystem's text: the declarations, and one line per
// rule.
func sumSpec(r *rand.Rand) (head string, rules []string) {
	head = "name: sums\nshared:\n  x: {type: \"0..\", init: 0}\n  y: {type: \"0..\", init: 0}\n" +
		"states: [I0, I1, S0, S1, D0, D1, U]\ngroups:\n  p: 1..3\ninit:\n  p: [I0, I1]\ntransitions:\n"
	rules = []string{"  - {from: I0, to: S0, update: \"x := x + 1\"}\n", "  - {from: I1, to: S1, update: \"y := y + 1\"}\n"}
	atoms := []string{"x >= 1", "x < 2", "y >= 1", "y < 1", "y < 2", "2*x >= n", "2*y < n", "2*x < n + 1", "x + y >= n - 1", "x >= n - 1"}
	for _, from := range []string{"S0", "S1"} {
		for _, to := range []string{"D0", "D1", "U"} {
			if r.Intn(3) == 0 {
				continue
			}
			var g []string
			for range 1 + r.Intn(3) {
				g = append(g, atoms[r.Intn(len(atoms))])
			}
			rule := fmt.Sprintf("  - {from: %s, to: %s, guard: \"%s\"", from, to, strings.Join(g, " & "))
			if r.Intn(8) == 0 {
				rule += ", update: \"x := x + 1\""
			}
			rules = append(rules, rule+"}\n")
		}
	}
	return head, rules
}

func parseSums(t *testing.T, head string, rules []string) *gsst.System {
	src := head + strings.Join(rules, "")
	sys, err := gsst.Parse("sums.yaml", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return sys
}

// TestSumThresholdsOrder checks that the sum thresholds do not depend on
// the order the rules are written in: a bound is proposed when every
// guard into the counter implies it, whichever guard comes first (the
// first guard's bounds alone were tried before, and bosco written
// backwards lost the bound its lemma4 properties need). Each random
// system, with up to three rules into a state, is read as written,
// backwards and shuffled.
func TestSumThresholdsOrder(t *testing.T) {
	systems := 200
	if testing.Short() {
		systems = 60
	}
	r := rand.New(rand.NewSource(7))
	texts := func(sys *gsst.System) []string {
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range prove.SumThresholds(m) {
			out = append(out, m.FormatFormula(f))
		}
		slices.Sort(out)
		return out
	}
	var differ, generated int
	for i := range systems {
		head, rules := sumSpec(r)
		// A third rule into one state: the guards into it are then
		// merged from rules written in some order.
		_, more := sumSpec(r)
		rules = append(rules, more[2:]...)
		for j, rule := range rules {
			rules[j] = strings.Replace(rule, "{", fmt.Sprintf("{name: r%d, ", j), 1)
		}
		want := texts(parseSums(t, head, rules))
		generated += len(want)
		back := slices.Clone(rules)
		slices.Reverse(back)
		shuffled := slices.Clone(rules)
		r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		for name, order := range map[string][]string{"backwards": back, "shuffled": shuffled} {
			if got := texts(parseSums(t, head, order)); !slices.Equal(got, want) {
				differ++
				t.Errorf("system %d %s: sum thresholds\n%s\nas written:\n%s\nrules:\n%s",
					i, name, strings.Join(got, "\n"), strings.Join(want, "\n"), strings.Join(rules, ""))
			}
		}
		if differ > 3 {
			t.FailNow()
		}
	}
	if generated == 0 {
		t.Fatal("no sum threshold generated: the test checks nothing")
	}
	t.Logf("%d systems, %d sum thresholds", systems, generated)
}
