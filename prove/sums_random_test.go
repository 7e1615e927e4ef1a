package prove_test

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestShortenSumsRandom asks prove.Check about random parametric systems
// and their twins written in the "everybody elsewhere" style: every atom
// of a guard or a property that compares one total counter #S with a
// constant reads n minus the total counters of the other states instead
// (a zero test #S = 0 as #A + #B + .. = n), the same system over the
// integers since the total counters sum to n. Each verdict is checked against the exploration of
// every instance in a box (explore, the language's semantics written
// apart from the counter models): a property proved holds in each, one
// refuted fails in the instance named when it lies in the box. The
// twin's must be the original's, found by the same step of the search
// (counterabs.ShortenSums reads the twin's atoms as the original's: a
// step that reads the shapes of the atoms, the state equation or the
// backward search, answered the originals and not the twins without
// it) unless gsst's MayOccupy tells the two apart (alike), and a twin's
// invariant must be an inductive invariant of its
// model as written, its guards and property not rewritten (the
// identities the rewrite used are part of it: WithSumFacts).
const sumsSystems = 120

var sumsConfig = func() testsupport.Config {
	cfg := testsupport.Small(0, testsupport.AllConstructs&^testsupport.Params)
	cfg.Ranges, cfg.NGuards = true, true
	cfg.Properties, cfg.GroupProperties, cfg.Shape = 3, 1, testsupport.Safety
	return cfg
}()

func TestShortenSumsRandom(t *testing.T) {
	systems := sumsSystems
	if testing.Short() {
		systems /= 4
	}
	// Joining case splits (gsst's JoinCases, before every stage) reads
	// the guards' shapes too, and may drop a split written one way and
	// not the other: the test is of the stages after it, which
	// ShortenSums makes read the twins alike.
	defer prove.SetCaseJoining(false)()
	r := rand.New(rand.NewSource(19))
	s := z3.New()
	ctx := context.Background()
	done, atoms, sameMethod, unlike := 0, 0, 0, 0
	counts := map[prove.Verdict]int{}
	levels := map[counterabs.Level]int{} // the model each twin's property was answered on
	for i := 0; done < systems && i < 50*systems; i++ {
		sys := testsupport.RandomSystem(r, sumsConfig)
		twin, changed := allOthers(t, sys)
		if changed == 0 {
			continue
		}
		done++
		atoms += changed
		same := alike(sys, twin)
		if !same {
			unlike++
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(randomWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		trep, err := prove.Check(ctx, twin, s, s, prove.MaxWork(randomWork))
		if err != nil {
			t.Fatalf("system %d, twin: %v\n%s", i, err, testsupport.Describe(twin))
		}
		// Every instance of the box, explored (explore, of the
		// constructs' cross-check: the language's semantics written
		// apart from counterabs), and the properties each violates.
		insts := testsupport.Instances(twin, 0, boxMax)
		fails := make([][]bool, len(insts))
		for n, inst := range insts {
			fails[n] = make([]bool, len(twin.Properties))
			for _, st := range explore(twin, inst) {
				for k := range twin.Properties {
					fails[n][k] = fails[n][k] || failsAt(twin.Properties[k].Formula, st.valuation(twin, inst))
				}
			}
		}
		for k, res := range trep.Results {
			p, orig := &twin.Properties[k], rep.Results[k]
			counts[res.Verdict]++
			levels[res.Level]++
			switch res.Verdict {
			case prove.Proved:
				for n, inst := range insts {
					if fails[n][k] {
						t.Errorf("system %d, twin's %s (%s): proved (%s), fails at %v\n%s", i, p.Name, p.Text, res.InvariantText, inst, testsupport.Describe(twin))
					}
				}
				checkAsWritten(t, ctx, s, i, twin, k, res)
			case prove.Refuted:
				for n, inst := range insts {
					if !fails[n][k] && slices.Equal(inst.Sizes, res.Sizes) {
						t.Errorf("system %d, twin's %s (%s): refuted at %v, where exploration finds no violation\n%s", i, p.Name, p.Text, inst, testsupport.Describe(twin))
					}
				}
			}
			// (The identities conjoined make the property inductive at
			// times, where the original needed the state equation.)
			induction := res.Verdict == prove.Proved && res.Method == prove.ByInduction
			if res.Verdict != orig.Verdict || res.Method != orig.Method && !induction && same {
				t.Errorf("system %d, %s: the twin (%s) %v by %q, the original (%s) %v by %q\n%s",
					i, p.Name, p.Text, res.Verdict, res.Method, sys.Properties[k].Text, orig.Verdict, orig.Method, testsupport.Describe(twin))
			} else if res.Method != "" {
				sameMethod++
			}
		}
	}
	t.Logf("%d systems (%d not alike), %d atoms written as everybody elsewhere; the twins' verdicts %v, %d by the original's step; on the total-counter model %d, the group-counter one %d",
		done, unlike, atoms, counts, sameMethod, levels[counterabs.TotalLevel], levels[counterabs.GroupLevel])
	if done < systems || counts[prove.Proved] < done/2 || counts[prove.Refuted] < done/2 ||
		levels[counterabs.TotalLevel] < done/4 || levels[counterabs.GroupLevel] < done/4 {
		t.Errorf("the sample exercises too little: %d systems, %v, levels %v", done, counts, levels)
	}
}

// alike reports whether the group-counter models of sys and its twin
// read their atoms alike, as ShortenSums makes them: gsst's MayOccupy,
// which reads the guards as written, gives both the same states, and
// processes may enter two states or more. The models leave out the
// counters MayOccupy rules out, reading them as 0, so that a twin's atom
// "n - #T - .. op c" over states nobody enters reads the sizes alone,
// decided by their ranges, where the original's "#S op c" is not: "n -
// #S1 = 0", S1 entered by nobody, is "n = 0", false for n >= 1, and
// "#S0 = 0" false only by the pool's identity. (With a state entered
// besides S, the twin's atom reads its counters, and ShortenSums writes
// it as the original's.)
func alike(sys, twin *gsst.System) bool {
	occ := sys.MayOccupy()
	if !slices.EqualFunc(occ, twin.MayOccupy(), slices.Equal) {
		return false
	}
	entered := 0
	for s := range sys.States {
		if slices.ContainsFunc(occ, func(row []bool) bool { return row[s] }) {
			entered++
		}
	}
	return entered >= 2
}

// allOthers returns sys with every atom of its guards and properties
// that compares one total counter #S with a constant (c*#S op k, the
// shortest form of the atom) reading n - (the other states' total
// counters) in its place, and the number of atoms so written.
func allOthers(t *testing.T, sys *gsst.System) (*gsst.System, int) {
	t.Helper()
	spec := sys.Spec()
	changed := 0
	var atom func(f presburger.Formula) presburger.Formula
	atom = func(f presburger.Formula) presburger.Formula {
		switch f := f.(type) {
		case presburger.Cmp:
			if len(f.T.Monos) != 1 {
				return f
			}
			total, g, ok := spec.Counter(f.T.Monos[0].Var)
			if !ok || g >= 0 {
				return f
			}
			others := presburger.VarTerm(spec.NVar())
			for st := range spec.States {
				if st != total {
					others = others.Sub(presburger.VarTerm(spec.TotalVar(st)))
				}
			}
			changed++
			return presburger.Compare(f.T.Subst(func(v presburger.Var) presburger.Term {
				if v == spec.TotalVar(total) {
					return others
				}
				return presburger.VarTerm(v)
			}), f.Op, presburger.Term{})
		case presburger.Not:
			return presburger.Not{F: atom(f.F)}
		case presburger.And:
			out := make(presburger.And, len(f))
			for i, g := range f {
				out[i] = atom(g)
			}
			return out
		case presburger.Or:
			out := make(presburger.Or, len(f))
			for i, g := range f {
				out[i] = atom(g)
			}
			return out
		}
		return f
	}
	for i := range spec.Transitions {
		for j := range spec.Transitions[i].Blocks {
			if b := &spec.Transitions[i].Blocks[j]; b.Guard != nil {
				b.Guard = atom(b.Guard)
				b.Text = presburger.Format(b.Guard, spec.VarName)
			}
		}
	}
	for i := range spec.Rendezvous {
		if rv := &spec.Rendezvous[i]; rv.Guard != nil {
			rv.Guard = atom(rv.Guard)
			rv.Text = presburger.Format(rv.Guard, spec.VarName)
		}
	}
	for i := range spec.Properties {
		p := &spec.Properties[i]
		p.Formula = ctl.MapAtoms(p.Formula, atom)
		p.Text = ctl.Format(p.Formula, spec.VarName)
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("%v\n%s", err, testsupport.Describe(sys))
	}
	return out, changed
}

// checkAsWritten checks that res's invariant, a proof of property k of
// sys, is an inductive invariant of sys's model at res's level with the
// guards and the property as written (no ShortenSums), without the
// steps no run takes (as prove reads it) and excluding the property's
// bad states.
func checkAsWritten(t *testing.T, ctx context.Context, s presburger.Solver, i int, sys *gsst.System, k int, res prove.Result) {
	t.Helper()
	m := provedModel(t, ctx, s, i, sys, k, res)
	premise, phi, _ := counterabs.PremisedSafety(m.Properties[0].Formula)
	ts := m.TransitionSystem().Question(presburger.Negation(phi))
	ts.Init = presburger.Conj(ts.Init, premise)
	if err := presburger.CheckInvariant(ctx, s, ts, res.Invariant); err != nil {
		t.Errorf("system %d, %s (%s): the invariant %s is no certificate for the model as written: %v\n%s",
			i, sys.Properties[k].Name, sys.Properties[k].Text, res.InvariantText, err, testsupport.Describe(sys))
	}
	// The lemmas listed are part of the certificate: each follows from
	// the invariant, over the same model's variables (a lemma of a
	// derived system's model must be carried with the invariant).
	for _, l := range res.Lemmas {
		f := presburger.Conj(res.Invariant, presburger.Negation(l.Formula))
		var bounds []presburger.Bound
		for _, v := range presburger.FreeVars(f) {
			bounds = append(bounds, presburger.AnyInt(v))
		}
		if a, err := s.Solve(ctx, presburger.Problem{Bounds: bounds, F: f}); err != nil || a.Result != presburger.Unsat {
			t.Errorf("system %d, %s: the lemma %s (%s) does not follow from the invariant %s: %v %v\n%s",
				i, sys.Properties[k].Name, l.Text, l.Kind, res.InvariantText, a.Result, err, testsupport.Describe(sys))
		}
	}
}

// provedModel is the safety model res's invariant, a proof of property
// k of sys, is of, as prove reads it: the sliced system's when res was
// sliced, at res's level, the group-counter model built step by step,
// and the steps no run takes left out (firing).
func provedModel(t *testing.T, ctx context.Context, s presburger.Solver, i int, sys *gsst.System, k int, res prove.Result) *counterabs.ParamModel {
	t.Helper()
	if res.Sliced != nil {
		sys = res.Sliced // the invariant is of its model
	}
	one := sys.WithProperties(k)
	var m *counterabs.ParamModel
	var err error
	if res.Level == counterabs.TotalLevel {
		m, err = counterabs.BuildParamTotal(ctx, one, s)
	} else {
		m, err = counterabs.BuildParamGroup(one, counterabs.RunSteps())
	}
	if err == nil {
		m, err = prove.Firing(ctx, s, m)
	}
	if err != nil {
		t.Fatalf("system %d, %s: %v", i, sys.Properties[k].Name, err)
	}
	return m
}
