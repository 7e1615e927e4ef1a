package nusmv

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// buildModel runs the real counter abstraction (Z3 as solver and
// projector), forcing it for a system that is not certified.
func buildModel(sys *gsst.System, force bool) (*counterabs.Model, error) {
	s := z3.New()
	var opts []counterabs.Option
	if force {
		opts = append(opts, counterabs.Force())
	}
	return counterabs.Build(context.Background(), sys, s, s, opts...)
}

// validIdent is the identifier rule of the NuSMV 2.6 scanner restricted
// to what the package promises: [A-Za-z_][A-Za-z0-9_]*, not a keyword.
var validIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func checkIdents(m *smvModel) error {
	var all []string
	all = append(all, m.declared...)
	for c := range m.consts {
		all = append(all, c)
	}
	sort.Strings(all)
	for _, id := range all {
		if !validIdent.MatchString(id) || keywords26[id] || !IsIdent(id) {
			return fmt.Errorf("identifier %q is not a valid, unreserved NuSMV identifier", id)
		}
	}
	return nil
}

// maxBox bounds the number of (state, input) valuations the range check
// enumerates.
const maxBox = 400_000

func boxSize(m *smvModel) int {
	size := 1
	for _, vs := range [][]smvVar{m.vars, m.ivars} {
		for _, v := range vs {
			size *= len(v.dom)
			if size > maxBox {
				return size
			}
		}
	}
	return size
}

// smallBox bounds the valuations the range check enumerates for the
// models of the corpus and the group-counter models of the random
// systems, which have more variables: the larger ones would take seconds
// each. The other models of the random systems are range-checked up to
// maxBox.
const smallBox = 50_000

// rangeCheckAndExplore runs NuSMV's range check on sm, when it has at
// most box valuations, and builds its reachable graph.
func rangeCheckAndExplore(sm *smvModel, box int) (*smvGraph, error) {
	if boxSize(sm) <= box {
		if err := sm.rangeCheck(); err != nil {
			return nil, fmt.Errorf("range check: %v", err)
		}
	}
	return sm.explore(100_000)
}

// verdicts holds, per property name, whether it holds in the initial
// state.
type verdicts map[string]bool

// ordered returns v in the order of props.
func (v verdicts) ordered(props []gsst.Property) []testsupport.PropertyVerdict {
	var out []testsupport.PropertyVerdict
	for _, p := range props {
		out = append(out, testsupport.PropertyVerdict{Name: p.Name, Holds: v[p.Name]})
	}
	return out
}

// checkSpecs evaluates the emitted specifications on the emitted graph g
// with the interpreter's own CTL checker and the GSST properties on the
// reference graph ref with the oracle (testsupport.Sat), and compares:
// same number and order, the same truth value in every state (toRef maps
// emitted states to reference states), and no INVARSPEC.
func checkSpecs(m *smvModel, g *smvGraph, ref *testsupport.Graph, toRef []int, props []gsst.Property) (verdicts, error) {
	if len(m.justice) > 0 {
		// This interpreter has no fair CTL: TestJusticeEdges checks the
		// constraints, and the real NuSMV the verdicts (explore's
		// TestNuSMV).
		return nil, fmt.Errorf("model has JUSTICE constraints; its CTL is fair CTL, which this interpreter does not evaluate")
	}
	if len(m.ctlspecs) != len(props) {
		return nil, fmt.Errorf("%d CTLSPECs for %d properties", len(m.ctlspecs), len(props))
	}
	if len(g.init) != 1 {
		return nil, fmt.Errorf("%d initial states, want 1", len(g.init))
	}
	out := verdicts{}
	for i, p := range props {
		sat, err := checkCTL(g.succ, g.smvCTL(m.ctlspecs[i].expr))
		if err != nil {
			return nil, fmt.Errorf("CTLSPEC %s: %v", m.ctlspecs[i].name, err)
		}
		want := testsupport.Sat(ref, p.Formula)
		out[p.Name] = sat[g.init[0]]
		for s := range g.states {
			if sat[s] != want[toRef[s]] {
				return nil, fmt.Errorf("property %s: emitted CTLSPEC %s is %v in %s, the oracle %v", p.Name, m.ctlspecs[i].name, sat[s], stateKey(g.states[s]), want[toRef[s]])
			}
		}
	}
	// Every emitted specification is checked above; an INVARSPEC would be
	// one more, and one that makes NuSMV compute the reachable states
	// forward even under -df, so none may be emitted.
	if len(m.invarspecs) != 0 {
		return nil, fmt.Errorf("%d INVARSPECs emitted, want none", len(m.invarspecs))
	}
	return out, nil
}

// compareGraphs checks that the emitted graph g, with states mapped to
// reference keys by key, has exactly the reference's states and edges,
// including the stutter loops at deadlocks. It returns, per emitted
// state, the index of the matching reference state.
func compareGraphs(g *smvGraph, key func([]value) string, ref *testsupport.Graph) ([]int, error) {
	if len(g.states) != ref.Len() {
		return nil, fmt.Errorf("emitted model reaches %d states, reference %d", len(g.states), ref.Len())
	}
	keys := make([]string, len(g.states))
	for i, s := range g.states {
		k := key(s)
		if _, ok := ref.Index[k]; !ok {
			return nil, fmt.Errorf("emitted model reaches %s, which the reference does not", k)
		}
		keys[i] = k
	}
	if k := keys[g.init[0]]; k != ref.Keys[ref.Init] {
		return nil, fmt.Errorf("initial state %s, reference %s", k, ref.Keys[ref.Init])
	}
	for i := range g.states {
		if len(g.succ[i]) == 0 {
			return nil, fmt.Errorf("emitted model deadlocks in %s", keys[i])
		}
		var got, want []string
		for _, j := range g.succ[i] {
			got = append(got, keys[j])
		}
		for _, j := range ref.Succ[ref.Index[keys[i]]] {
			want = append(want, ref.Keys[j])
		}
		sort.Strings(got)
		sort.Strings(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return nil, fmt.Errorf("successors of %s: emitted %v, reference %v", keys[i], got, want)
		}
	}
	toRef := make([]int, len(keys))
	for i, k := range keys {
		toRef[i] = ref.Index[k]
	}
	return toRef, nil
}

// emitted is what the interpreter found in an emitted model: its
// reachable states, its deadlocks (states with the stutter step to
// themselves: where nothing moves, or where a forced model's
// MayDeadlock holds besides its moves; a counter transition always
// changes the counters) and the verdict of each specification.
type emitted struct {
	states, deadlocks int
	verdicts          verdicts
}

func newEmitted(g *smvGraph, v verdicts) *emitted {
	e := &emitted{states: len(g.states), verdicts: v}
	for i, succ := range g.succ {
		if slices.Contains(succ, i) {
			e.deadlocks++
		}
	}
	return e
}

// result is what the interpreter says, for testsupport.Level.Compare.
func (e *emitted) result(exact bool, props []gsst.Property) testsupport.Result {
	return testsupport.Result{Exact: exact, States: int64(e.states), Deadlocks: int64(e.deadlocks), Concrete: -1, Verdicts: e.verdicts.ordered(props)}
}

// checkReducedText checks the emitted reduced model text of m, of either
// level, against the oracle's graph of what m must be (reference) by
// explicit exploration of both.
func checkReducedText(m *counterabs.Model, text string, box int) (*emitted, error) {
	sm, err := parseSMV(text)
	if err != nil {
		return nil, fmt.Errorf("parse: %v", err)
	}
	if err := checkIdents(sm); err != nil {
		return nil, err
	}
	if len(sm.vars) != len(m.Counters) {
		return nil, fmt.Errorf("%d state variables, want one per counter (%d)", len(sm.vars), len(m.Counters))
	}
	if len(sm.invars) != 0 {
		// The reachable states keep the sums anyway; an INVAR stating
		// them costs NuSMV an arithmetic BDD over every counter.
		return nil, fmt.Errorf("%d INVAR constraints, want none", len(sm.invars))
	}
	hi := m.Bounds()
	for i, v := range sm.vars {
		if len(v.dom) != int(hi[i].Hi)+1 || v.dom[0] != intVal(0) {
			return nil, fmt.Errorf("variable %s does not range over 0..%d", v.name, hi[i].Hi)
		}
	}
	g, err := rangeCheckAndExplore(sm, box)
	if err != nil {
		return nil, err
	}
	ref, refKey := reference(m)
	key := func(s []value) string {
		x := make([]int, len(s))
		for i, v := range s {
			x[i] = int(v.i)
		}
		return refKey(x)
	}
	toRef, err := compareGraphs(g, key, ref)
	if err != nil {
		return nil, err
	}
	v, err := checkSpecs(sm, g, ref, toRef, m.System.Properties)
	return newEmitted(g, v), err
}

// checkConcreteText checks the emitted concrete model text against the
// unreduced system (testsupport.Unreduced) by explicit exploration of
// both.
func checkConcreteText(sys *gsst.System, text string, box int) (*emitted, error) {
	sm, err := parseSMV(text)
	if err != nil {
		return nil, fmt.Errorf("parse: %v", err)
	}
	if err := checkIdents(sm); err != nil {
		return nil, err
	}
	if len(sm.vars) != sys.N() {
		return nil, fmt.Errorf("%d state variables, want one per process (%d)", len(sm.vars), sys.N())
	}
	dom := sm.vars[0].dom
	if len(dom) != len(sys.States) {
		return nil, fmt.Errorf("process variables range over %d values, want %d states", len(dom), len(sys.States))
	}
	for _, v := range sm.vars {
		if fmt.Sprint(v.dom) != fmt.Sprint(dom) {
			return nil, fmt.Errorf("variable %s has domain %v, others %v", v.name, v.dom, dom)
		}
	}
	g, err := rangeCheckAndExplore(sm, box)
	if err != nil {
		return nil, err
	}
	ref := testsupport.Unreduced(sys)
	key := func(s []value) string {
		v := make([]int, len(s))
		for i, x := range s {
			v[i] = -1
			for j, d := range dom {
				if d == x {
					v[i] = j
				}
			}
		}
		return fmt.Sprint(v)
	}
	toRef, err := compareGraphs(g, key, ref.Graph)
	if err != nil {
		return nil, err
	}
	v, err := checkSpecs(sm, g, ref.Graph, toRef, sys.Properties)
	return newEmitted(g, v), err
}

// checkAll emits the reduced model m (total-counter), with group the
// group-counter model, and the concrete model of sys and checks each
// against its reference. The group and concrete models are exact, so
// their verdicts agree; the total model's agree with them when it is
// exact.
func checkAll(t *testing.T, sys *gsst.System, m *counterabs.Model, group bool) {
	t.Helper()
	models := []*counterabs.Model{m}
	if group {
		g, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, g)
	}
	var vs []verdicts
	for _, mod := range models {
		red, err := Reduced(mod, Version("test"))
		if err != nil {
			t.Fatalf("Reduced %s: %v\n%s", mod.Level, err, testsupport.Describe(sys))
		}
		box := maxBox
		if mod.Level == counterabs.GroupLevel {
			box = smallBox
		}
		e, err := checkReducedText(mod, red, box)
		if err != nil {
			t.Fatalf("reduced %s model: %v\nsystem:\n%s\nmodel:\n%s", mod.Level, err, testsupport.Describe(sys), red)
		}
		vs = append(vs, e.verdicts)
	}
	con, err := Concrete(sys, Version("test"))
	if err != nil {
		t.Fatalf("Concrete: %v\n%s", err, testsupport.Describe(sys))
	}
	e, err := checkConcreteText(sys, con, maxBox)
	if err != nil {
		t.Fatalf("concrete model: %v\nsystem:\n%s\nmodel:\n%s", err, testsupport.Describe(sys), con)
	}
	if group && !maps.Equal(vs[1], e.verdicts) {
		t.Fatalf("group-counter and concrete verdicts differ: %v, %v\n%s", vs[1], e.verdicts, testsupport.Describe(sys))
	}
	for name, holds := range vs[0] {
		if m.Exact && holds != e.verdicts[name] {
			t.Fatalf("certified system, but property %s holds %v on the total model, %v on the concrete\n%s", name, holds, e.verdicts[name], testsupport.Describe(sys))
		}
	}
}

func bundledSpecs(t testing.TB) []string {
	files, err := filepath.Glob("../specs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled specs found: %v", err)
	}
	return files
}

// shortUnreduced bounds the concrete state spaces TestCorpus interprets
// under -short: it leaves out asr-param and asr-n4-r2-b2 (274 and 299
// states, about 3.5 CPU-s); the ASR family stays with asr-n3-r3-b1
// and asr-n5-r2-b1.
const shortUnreduced = 200

func TestCorpus(t *testing.T) {
	cases, err := testsupport.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if x := testsupport.ConstructsOf(c.Sys); x != 0 {
				corpusThroughNuSMV(t, c, x)
				return
			}
			if testing.Short() && c.Group.Unreduced > shortUnreduced {
				t.Skipf("-short: %d concrete states, more than %d (the interpreter takes seconds; the full run checks it)", c.Group.Unreduced, shortUnreduced)
			}
			sys, tsys := c.Sys, testsupport.TotalProperties(c.Sys)
			ref, err := refModel(tsys)
			if err != nil {
				t.Fatal(err)
			}
			if ref.Exact != c.Total.Exact {
				t.Errorf("brute force says certified %v, the archive %v", ref.Exact, c.Total.Exact)
			}
			built, err := buildModel(tsys, !c.Total.Exact)
			if err != nil {
				t.Fatal(err)
			}
			group, err := counterabs.BuildGroup(sys)
			if err != nil {
				t.Fatal(err)
			}
			type run struct {
				name string
				m    *counterabs.Model
				want *testsupport.Level
			}
			runs := []run{{"total (counterabs.Build)", built, c.Total}, {"group", group, c.Group}}
			if len(testsupport.BruteForce(sys).Vectors) <= 30 {
				// The brute-force model's guards list counter vectors one by
				// one: beyond a few dozen the interpreter's range check,
				// which evaluates them in every valuation, takes too long.
				runs = append(runs, run{"total (brute-force model)", ref, c.Total})
			}
			for _, run := range runs {
				text, err := Reduced(run.m, Version("test"))
				if err != nil {
					t.Fatalf("%s: %v", run.name, err)
				}
				e, err := checkReducedText(run.m, text, smallBox)
				if err != nil {
					t.Fatalf("%s: %v", run.name, err)
				}
				if err := run.want.Compare(e.result(run.m.Exact, run.m.System.Properties)); err != nil {
					t.Errorf("%s: %v", run.name, err)
				}
			}
			text, err := Concrete(sys, Version("test"))
			if err != nil {
				t.Fatal(err)
			}
			e, err := checkConcreteText(sys, text, smallBox)
			if err != nil {
				t.Fatal(err)
			}
			r := e.result(true, sys.Properties)
			if r.States != c.Group.Unreduced {
				t.Errorf("concrete: %d states, want %d", r.States, c.Group.Unreduced)
			}
			r.States, r.Deadlocks = c.Group.States, c.Group.Deadlocks // counted on the group quotient
			if err := c.Group.Compare(r); err != nil {
				t.Errorf("concrete: %v", err)
			}
		})
	}
	t.Logf("%d archives: reduced total (brute-force model and counterabs.Build), reduced group and concrete text run by the interpreter (or, for the systems with constructs, by NuSMV)", len(cases))
}

// specName matches the name of an emitted specification.
var specName = regexp.MustCompile(`(?m)^(?:CTLSPEC|INVARSPEC) NAME (\S+) :=`)

// corpusThroughNuSMV checks an archive of a system with constructs x,
// which the interpreter of this package's tests does not read (it
// knows the paper's models only: one variable per counter or process),
// with the real NuSMV: the concrete model, the group-counter model and
// the total-counter model (when counterabs builds one) must reach the
// archive's states and give its verdicts, and no unbounded variable may
// pass the default bound.
func corpusThroughNuSMV(t *testing.T, c *testsupport.Case, x testsupport.Constructs) {
	bin := os.Getenv("NUSMV")
	if bin == "" {
		t.Skipf("%s uses %s, which this test's interpreter of NuSMV text does not read: set NUSMV to a NuSMV 2.6 binary to run it through NuSMV", c.Name, x)
	}
	sys, tsys := c.Sys, testsupport.TotalProperties(c.Sys)
	check := func(name, text string, states int64, want *testsupport.Level) {
		t.Helper()
		got, reachable := testsupport.RunNuSMV(t, bin, text, true, "-df")
		if ok, has := got["bound_ok"]; has && !ok {
			t.Errorf("%s: NuSMV says a run passes the bound of an unbounded variable", name)
		}
		if int64(reachable) != states {
			t.Errorf("%s: NuSMV reaches %d states, the archive says %d", name, reachable, states)
		}
		// The specifications, but for the bound check, are the
		// properties in order, under NuSMV names.
		var names []string
		for _, m := range specName.FindAllStringSubmatch(text, -1) {
			if m[1] != "bound_ok" {
				names = append(names, m[1])
			}
		}
		if len(names) != len(want.Properties) {
			t.Fatalf("%s: %d specifications for %d properties", name, len(names), len(want.Properties))
		}
		for i, p := range want.Properties {
			if v, ok := got[names[i]]; !ok || v != p.Holds {
				t.Errorf("%s: property %s (%s): NuSMV says %v (reported %v), the archive %v", name, p.Name, names[i], v, ok, p.Holds)
			}
		}
	}
	text, err := Concrete(sys, Version("test"))
	if err != nil {
		t.Fatal(err)
	}
	check("concrete", text, c.Group.Unreduced, c.Group)
	group, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	if text, err = Reduced(group, Version("test")); err != nil {
		t.Fatal(err)
	}
	check("group", text, c.Group.States, c.Group)
	if why := counterabs.GroupReason(tsys, false); why != "" {
		t.Logf("no total-counter model: %s", why)
		return
	}
	total, err := buildModel(tsys, !c.Total.Exact)
	if err != nil && !c.Total.Exact && errors.Is(err, errkind.Input) {
		t.Logf("no total-counter model, not yet: %v", err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if text, err = Reduced(total, Version("test")); err != nil {
		t.Fatal(err)
	}
	check("total", text, c.Total.States, c.Total)
}

// TestRandomSystems checks the emitters on random small systems with
// awkward names, against the oracles: the reduced total-counter model
// built by definition (refModel) and by counterabs.Build, the reduced
// group-counter model and the concrete model. -short draws 40 of the
// 120 systems (each kind of check still on every third or fourth).
func TestRandomSystems(t *testing.T) {
	r := rand.New(rand.NewSource(20261122))
	certified, total := 0, 0
	n := 120
	if testing.Short() {
		n = 40
	}
	for i := 0; i < n; i++ {
		sys := randomSystem(r, 4)
		ref, err := refModel(testsupport.TotalProperties(sys))
		if err != nil {
			t.Fatal(err)
		}
		if i%4 == 1 {
			quantify(ref)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			checkAll(t, sys, ref, true)
			if i%3 == 0 {
				m, err := buildModel(testsupport.TotalProperties(sys), !ref.Exact)
				if err != nil {
					t.Fatalf("counterabs.Build: %v\n%s", err, testsupport.Describe(sys))
				}
				checkAll(t, sys, m, false)
			}
		})
		total++
		if ref.Exact {
			certified++
		}
	}
	// The cross-check of verdicts only bites on certified systems; make
	// sure the generator produces enough of both kinds.
	if certified < total/4 || certified == total {
		t.Fatalf("%d of %d random systems certified: generator out of balance", certified, total)
	}
	t.Logf("%d of %d random systems certified; each emitted reduced (brute-force model, %d with quantified guards), group-counter and concrete, %d also from counterabs.Build", certified, total, (total+2)/4, (total+2)/3)
}

// quantify rewrites every guard g_r of m into the equivalent
// "exists z in 0..N: x_From = z & z >= 1 & g_r", so that the emitter's
// expansion of bounded quantifiers is checked end to end.
func quantify(m *counterabs.Model) {
	z := presburger.Var(1000)
	for i, t := range m.Transitions {
		x := presburger.VarTerm(presburger.Var(t.From))
		body := presburger.Conj(
			presburger.Compare(x, presburger.Eq, presburger.VarTerm(z)),
			presburger.Compare(presburger.VarTerm(z), presburger.Ge, presburger.ConstTerm(1)),
			t.Guard)
		m.Transitions[i].Guard = presburger.Exists{Vars: []presburger.Bound{{Var: z, Lo: 0, Hi: int64(m.N)}}, Body: body}
	}
}

// TestMutationsAreCaught feeds deliberately broken variants of emitted
// text to the checker: each must be rejected, or the semantic tests above
// could not fail.
func TestMutationsAreCaught(t *testing.T) {
	sys, err := gsst.Load("../specs/mutex.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := refModel(sys)
	if err != nil {
		t.Fatal(err)
	}
	red, err := Reduced(m)
	if err != nil {
		t.Fatal(err)
	}
	con, err := Concrete(sys)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checkReducedText(m, red, maxBox); err != nil {
		t.Fatalf("unmutated reduced model rejected: %v", err)
	}
	if _, err := checkConcreteText(sys, con, maxBox); err != nil {
		t.Fatalf("unmutated concrete model rejected: %v", err)
	}
	tests := []struct {
		name     string
		concrete bool
		old, new string
	}{
		{"stutter always allowed", false, "-> !en_any)", "-> TRUE)"},
		{"no increment bound", false, " & x_T < 3 : x_T + 1;", " : x_T + 1;"},
		{"minus glued to name", false, "x_N - 1;", "x_N-1;"},
		{"reserved variable name", false, "x_T", "T"}, // every occurrence
		{"negation without parentheses", false, "en_t_T_C := x_T >= 1 & x_C = 0;", "en_t_T_C := x_T >= 1 & !x_C = 0 = FALSE;"},
		{"decrement lost", false, ": x_N - 1;", ": x_N;"},
		{"guard dropped", false, "en_t_T_C := x_T >= 1 & x_C = 0;", "en_t_T_C := x_T >= 1;"},
		{"property atom", false, "CTLSPEC NAME mutex := AG (x_C <= 1);", "CTLSPEC NAME mutex := AG (x_C <= 0);"},
		{"INVARSPEC twin", false, "CTLSPEC NAME mutex := AG (x_C <= 1);", "CTLSPEC NAME mutex := AG (x_C <= 1);\nINVARSPEC NAME mutex_inv := x_C <= 1;"},
		{"concrete count node", true, "n_C_ge2_p2 := p_proc_2 = C & n_C_ge1_p3;", "n_C_ge2_p2 := p_proc_2 = C | n_C_ge1_p3;"},
		{"concrete count term lost", true, "n_C_ge1 := p_proc_1 = C | p_proc_2 = C | p_proc_3 = C;", "n_C_ge1 := p_proc_1 = C | p_proc_2 = C;"},
		{"concrete stutter always allowed", true, "-> !en_any)", "-> TRUE)"},
		{"concrete guard dropped", true, "g_t_T_C_proc := !n_C_ge1;", "g_t_T_C_proc := TRUE;"},
		{"concrete wrong process picked", true, "pick = 2 & p_proc_2 = N : T_;", "pick = 1 & p_proc_2 = N : T_;"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := red
			if tc.concrete {
				src = con
			}
			if !strings.Contains(src, tc.old) {
				t.Fatalf("emitted text lacks %q:\n%s", tc.old, src)
			}
			mut := strings.Replace(src, tc.old, tc.new, 1)
			if tc.name == "reserved variable name" {
				mut = strings.ReplaceAll(src, tc.old, tc.new)
			}
			var err error
			if tc.concrete {
				_, err = checkConcreteText(sys, mut, maxBox)
			} else {
				_, err = checkReducedText(m, mut, maxBox)
			}
			if err == nil {
				t.Fatalf("mutation %q -> %q not detected", tc.old, tc.new)
			}
			t.Logf("caught: %v", err)
		})
	}
}

func TestNamer(t *testing.T) {
	n := newNamer()
	tests := []struct{ in, want string }{
		{"N", "N"},
		{"T", "T_"},       // LTL "triggered" operator
		{"case", "case_"}, // keyword
		{"T_", "T__"},     // taken by the first T
		{"N", "N_"},       // taken
		{"N", "N_2"},
		{"no-deadlock", "no_deadlock"},
		{"1x", "_1x"},
		{"", "_"},
		{"a b.c", "a_b_c"},
		{"AG", "AG_"},
		{"next", "next_"},
		{"x", "x"},
	}
	for _, tc := range tests {
		if got := n.fresh(tc.in); got != tc.want {
			t.Errorf("fresh(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, id := range []string{"x", "x_1", "_", "Tt", "stutter"} {
		if !IsIdent(id) {
			t.Errorf("IsIdent(%q) = false", id)
		}
	}
	for _, id := range []string{"", "1x", "x-1", "T", "A", "E", "U", "case", "TRUE", "count", "toint", "x.y", "a$"} {
		if IsIdent(id) {
			t.Errorf("IsIdent(%q) = true", id)
		}
	}
	// The package's list must cover the 2.6 scanner's.
	for w := range keywords26 {
		if !IsReserved(w) {
			t.Errorf("%q is a NuSMV 2.6 keyword but not reserved here", w)
		}
	}
}

func TestCompare(t *testing.T) {
	x := func(i int, c int64) presburger.Term { return presburger.VarTerm(presburger.Var(i)).Scale(c) }
	name := func(v presburger.Var) (string, error) { return []string{"a", "b", "c"}[v], nil }
	tests := []struct {
		f    presburger.Formula
		want string
	}{
		{presburger.Compare(x(0, 1), presburger.Ge, presburger.ConstTerm(1)), "a >= 1"},
		{presburger.Compare(x(0, 2).Add(x(1, -1)).Add(presburger.ConstTerm(3)), presburger.Ge, presburger.ConstTerm(0)), "2*a >= b - 3"},
		{presburger.Compare(x(0, -1), presburger.Lt, presburger.ConstTerm(-2)), "a > 2"},
		{presburger.Compare(x(0, 1), presburger.Le, presburger.ConstTerm(-1)), "a <= -1"},
		{presburger.Compare(x(0, 1).Add(x(2, 1)), presburger.Eq, x(1, 1).Add(presburger.ConstTerm(2))), "a + c = b + 2"},
		{presburger.Conj(presburger.Compare(x(0, 1), presburger.Eq, presburger.ConstTerm(0)), presburger.Disj(presburger.Compare(x(1, 1), presburger.Ne, presburger.ConstTerm(1)), presburger.Compare(x(2, 1), presburger.Gt, presburger.ConstTerm(0)))), "a = 0 & (b != 1 | c > 0)"},
		{presburger.Compare(x(0, 1), presburger.Ne, presburger.ConstTerm(0)), "a != 0"},
		{presburger.Not{F: presburger.Compare(x(0, 1), presburger.Eq, presburger.ConstTerm(0))}, "!(a = 0)"},
		{presburger.Not{F: presburger.Disj(presburger.Compare(x(0, 1), presburger.Eq, presburger.ConstTerm(0)), presburger.Compare(x(1, 1), presburger.Eq, presburger.ConstTerm(0)))}, "!(a = 0 | b = 0)"},
		{presburger.True, "TRUE"},
		{presburger.Compare(x(0, 1), presburger.Ge, presburger.ConstTerm(-5)), "a >= -5"},
		{presburger.Exists{Vars: []presburger.Bound{{Var: 2, Lo: 0, Hi: 1}}, Body: presburger.Compare(x(0, 1), presburger.Eq, x(2, 1))}, "a = 0 | a = 1"},
	}
	for _, tc := range tests {
		got, err := formula(tc.f, arith(name, func(presburger.Var) int64 { return 10 }))
		if err != nil {
			t.Fatal(err)
		}
		if got.s != tc.want {
			t.Errorf("formula = %q, want %q", got.s, tc.want)
		}
	}
}

// TestErrors: what the emitters cannot write is refused with nothing
// written. Models come checked from counterabs, so the reduced emitter
// refuses only what NuSMV cannot express (guards beyond its integers,
// quantifiers too large to expand); the concrete emitter refuses only
// what exceeds its own limits (a system checked by gsst.New).
func TestErrors(t *testing.T) {
	sys, err := gsst.Load("../specs/readers-writers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good, err := refModel(sys)
	if err != nil {
		t.Fatal(err)
	}
	mod := func(f func(m *counterabs.Model)) *counterabs.Model {
		m := *good
		m.Init = append([]int(nil), good.Init...)
		m.Transitions = append([]counterabs.Transition(nil), good.Transitions...)
		f(&m)
		return &m
	}
	big := presburger.Exists{Vars: []presburger.Bound{{Var: 100, Lo: 0, Hi: 1 << 20}}, Body: presburger.True}
	tests := []struct {
		name string
		m    *counterabs.Model
	}{
		{"group counter in guard", mod(func(m *counterabs.Model) {
			m.Transitions[1].Guard = presburger.Compare(presburger.VarTerm(sys.GroupVar(1, 1)), presburger.Eq, presburger.ConstTerm(0))
		})},
		{"huge quantifier", mod(func(m *counterabs.Model) { m.Transitions[0].Guard = big })},
		{"overflowing quantifier", mod(func(m *counterabs.Model) {
			m.Transitions[0].Guard = presburger.Exists{Vars: []presburger.Bound{{Var: 100, Lo: -1 << 62, Hi: 1 << 62}}, Body: presburger.True}
		})},
		{"product of quantifiers", mod(func(m *counterabs.Model) {
			m.Transitions[0].Guard = presburger.Exists{Vars: []presburger.Bound{{Var: 100, Lo: 0, Hi: 99}, {Var: 101, Lo: 0, Hi: 99}}, Body: presburger.True}
		})},
		{"constant beyond 32 bits", mod(func(m *counterabs.Model) {
			m.Transitions[0].Guard = presburger.Compare(presburger.VarTerm(0), presburger.Le, presburger.ConstTerm(1<<40))
		})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteReduced(&b, tc.m); err == nil {
				t.Fatal("no error")
			} else if b.Len() != 0 {
				t.Fatalf("wrote %d bytes despite error %v", b.Len(), err)
			}
		})
	}
	bad := []struct {
		name string
		f    func(s *gsst.Spec)
	}{
		{"too many processes", func(s *gsst.Spec) {
			s.Groups[1].Size = MaxConcreteProcesses
			s.Init[1][0] = MaxConcreteProcesses
		}},
		{"constant beyond 32 bits", func(s *gsst.Spec) {
			s.Transitions[1].Blocks[0].Guard = presburger.Compare(presburger.VarTerm(0), presburger.Le, presburger.ConstTerm(1<<40))
		}},
	}
	for _, tc := range bad {
		t.Run("concrete "+tc.name, func(t *testing.T) {
			loaded, err := gsst.Load("../specs/readers-writers.yaml")
			if err != nil {
				t.Fatal(err)
			}
			spec := loaded.Spec()
			tc.f(spec)
			s, err := gsst.New(spec)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := WriteConcrete(&b, s); err == nil {
				t.Fatal("no error")
			} else if b.Len() != 0 {
				t.Fatalf("wrote %d bytes despite error %v", b.Len(), err)
			}
		})
	}
}

// TestUncertifiedHeader: a forced model must say so prominently.
func TestUncertifiedHeader(t *testing.T) {
	sys, err := gsst.Load("../specs/readers-writers-broken.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := refModel(sys)
	if err != nil {
		t.Fatal(err)
	}
	if m.Exact {
		t.Fatal("readers-writers-broken certified by brute force")
	}
	text, err := Reduced(m, Source("specs/readers-writers-broken.yaml"), Certification("violated: T -> C"))
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(strings.SplitN(text, "\n", 12)[:10], "\n")
	for _, want := range []string{"WARNING: UNCERTIFIED MODEL", "NOT exact", "violated: T -> C", "Source: specs/readers-writers-broken.yaml"} {
		if !strings.Contains(head, want) {
			t.Errorf("header lacks %q:\n%s", want, head)
		}
	}
	m.Exact = true
	text, err = Reduced(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "UNCERTIFIED") || !strings.Contains(text, "verdicts are exact") {
		t.Errorf("certified header wrong:\n%s", text[:400])
	}
}

// TestDeterministic: two emissions of the same input are identical.
func TestDeterministic(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 20; i++ {
		sys := randomSystem(r, 4)
		m, err := refModel(testsupport.TotalProperties(sys))
		if err != nil {
			t.Fatal(err)
		}
		a, err1 := Reduced(m)
		b, err2 := Reduced(m)
		c, err3 := Concrete(sys)
		d, err4 := Concrete(sys)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			t.Fatal(err1, err2, err3, err4)
		}
		if a != b || c != d {
			t.Fatal("output differs between runs")
		}
	}
}

// goldenCase is one input of the golden tests.
type goldenCase struct {
	name string
	sys  func() (*gsst.System, error)
}

func goldenCases(t *testing.T) []goldenCase {
	var out []goldenCase
	for _, file := range bundledSpecs(t) {
		file := file
		if sys, err := gsst.Load(file); err == nil && sys.Parametric() {
			continue // a family of systems, not one model to keep
		}
		out = append(out, goldenCase{strings.TrimSuffix(filepath.Base(file), ".yaml"), func() (*gsst.System, error) {
			sys, err := gsst.Load(file)
			if sys != nil {
				sys.File = "specs/" + filepath.Base(file)
			}
			return sys, err
		}})
	}
	return append(out, familyCases()...)
}

// TestGolden compares both emitted models of every bundled spec and of a
// few family members with the files under testdata/ (go test -update
// rewrites them).
func TestGolden(t *testing.T) {
	for _, gc := range goldenCases(t) {
		t.Run(gc.name, func(t *testing.T) {
			sys, err := gc.sys()
			if err != nil {
				t.Fatal(err)
			}
			var m *counterabs.Model
			if counterabs.SpecLevel(sys) == counterabs.GroupLevel {
				// Its properties or fairness read group counters: the
				// group-counter model, as vsym nusmv writes it.
				m, err = counterabs.BuildGroup(sys)
			} else if testsupport.ConstructsOf(sys) != 0 {
				m, err = oracleModel(t, sys)
			} else {
				var ref *counterabs.Model
				if ref, err = refModel(sys); err == nil {
					m, err = buildModel(sys, !ref.Exact)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			opts := []Option{Source(sys.File), Version("test")}
			if m.Level == counterabs.TotalLevel && !m.Exact {
				opts = append(opts, Certification("not fully virtually symmetric"))
			}
			red, err := Reduced(m, opts...)
			if err != nil {
				t.Fatal(err)
			}
			con, err := Concrete(sys, opts...)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", gc.name+".smv"), red)
			golden(t, filepath.Join("testdata", gc.name+".concrete.smv"), con)
		})
	}
}

// oracleModel returns the model vsym nusmv writes for a system with constructs
// whose properties read total counters: the total-counter model
// when the system is fully virtually symmetric, the group-counter model
// (exact) otherwise, as a total-counter model is never forced beyond the
// paper. The process-level oracle (testsupport.FullSymmetry) decides the
// symmetry, and the certification must agree with it.
func oracleModel(t *testing.T, sys *gsst.System) (*counterabs.Model, error) {
	t.Helper()
	sym := testsupport.FullSymmetry(sys, 2).Symmetric
	m, err := buildModel(sys, false)
	var nc *counterabs.NotCertifiedError
	switch {
	case sym:
		return m, err
	case err == nil:
		t.Fatalf("%s is not fully virtually symmetric (testsupport.FullSymmetry), yet certified", sys.Name)
	case !errors.As(err, &nc):
		return nil, err
	}
	return counterabs.BuildGroup(sys)
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./nusmv -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the emitted text (run go test ./nusmv -update after checking the change):\n%s", path, testsupport.FirstDiff(string(want), got))
	}
}
