package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	exploration "github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestProveInitialSetsRandom cross-checks prove.Check on random systems
// with initial sets (groups spread over several initial states, fixed,
// ranged or sized over parameters; shared variables starting in a range
// or at a parameter) against explicit exploration of their instances
// from every initial configuration, listed here from the spec's fields
// (initialConfigs, apart from gsst's Initials and InitialFormula) and
// explored by the language's semantics (successors, shared with
// TestProveConstructsRandom): a property proved must hold in every
// state reached from each; one refuted has been replayed from a
// concrete initial configuration by Check itself and must fail in the
// explored instance. The parametric models' Initial is checked against
// the same list: exactly the listed configurations satisfy it, on both
// levels.
func TestProveInitialSetsRandom(t *testing.T) {
	systems := 120
	if testing.Short() {
		systems = 16
	}
	r := rand.New(rand.NewSource(30))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	methods := map[string]int{}
	levels := map[counterabs.Level]int{}
	spreadParam, spreadRanged, sharedTerm, dependent := 0, 0, 0, 0
	rangeTerm, rangeOpen, engineRuns := 0, 0, 0
	premised := map[prove.Verdict]int{} // the verdicts on "c -> AG phi"
	narrowedBy := map[string]int{}      // the premises NarrowInitial folds, by property
	for i := range systems {
		sys := initialSetSystem(r, i)
		for g := range sys.Groups {
			if sys.InitOver != nil && sys.InitOver[g] != nil {
				switch grp := &sys.Groups[g]; {
				case grp.OverParams():
					spreadParam++
				case grp.Ranged:
					spreadRanged++
				}
			}
		}
		ranged := false // a range up to a parameter or with no greatest
		for j := range sys.Shared {
			switch v := &sys.Shared[j]; {
			case !v.InitTerm.IsConst():
				sharedTerm++
			case !v.InitHiTerm.IsConst():
				rangeTerm++
				ranged = true
			case v.InitNoHi:
				rangeOpen++
				ranged = true
			}
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		gm, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		models := []*counterabs.ParamModel{gm}
		if tm, err := counterabs.BuildParam(ctx, sys, s); err == nil && tm.Level == counterabs.TotalLevel {
			models = append(models, tm)
		}
		for _, in := range testsupport.Instances(sys, extParamMax, extSizeMax) {
			inits := initialConfigs(sys, in)
			for _, m := range models {
				checkInitial(t, i, m, in, inits)
			}
			reached := exploreFrom(sys, in, inits)
			if ranged || !testing.Short() {
				engineRuns += checkEngines(t, i, sys, in, rep)
			}
			for k, res := range rep.Results {
				premise, phi, _ := counterabs.PremisedSafety(sys.Properties[k].Formula)
				from := slices.DeleteFunc(slices.Clone(inits), func(st extState) bool {
					return !presburger.Eval(premise, st.valuation(sys, in))
				})
				reached := reached
				if len(from) < len(inits) {
					reached = exploreFrom(sys, in, from)
				}
				bad := false
				for _, st := range reached {
					if !presburger.Eval(phi, st.valuation(sys, in)) {
						bad = true
						break
					}
				}
				// Does the answer depend on the spread: fails from
				// some initial configuration, holds from the first?
				if bad && len(from) == len(inits) && !slices.ContainsFunc(exploreFrom(sys, in, inits[:1]), func(st extState) bool {
					return !presburger.Eval(phi, st.valuation(sys, in))
				}) {
					dependent++
				}
				switch {
				case res.Verdict == prove.Proved && bad:
					t.Errorf("system %d: %s (%s) proved (invariant %s), but fails at %v\n%s",
						i, sys.Properties[k].Name, sys.Properties[k].Text, res.InvariantText, in, testsupport.Describe(sys))
				case res.Verdict == prove.Refuted && !bad && slices.Equal(res.Sizes, in.Sizes) && slices.Equal(res.Params, in.Params):
					t.Errorf("system %d: %s (%s) refuted at %v, where exploration finds no violation\n%s",
						i, sys.Properties[k].Name, sys.Properties[k].Text, in, testsupport.Describe(sys))
				}
			}
		}
		for k, res := range rep.Results {
			if strings.HasPrefix(res.Property.Name, "premised") {
				premised[res.Verdict]++
				premise, _ := counterabs.Premise(sys.Properties[k].Formula)
				if narrowed, _, _, err := sys.NarrowInitial(premise); err != nil {
					t.Fatalf("system %d: %v", i, err)
				} else if narrowed != sys {
					narrowedBy[res.Property.Name]++
					// The narrowed question's answer is carried to
					// sys: a proof re-checked on its model from the
					// premise as written (and again here), a run
					// replayed on its instance.
					switch {
					case res.Verdict == prove.Proved && res.Invariant != nil && strings.Contains(res.LevelReason, "re-checked on the system as written"):
						checkAsWritten(t, ctx, s, i, sys, k, res)
						narrowedBy["carried proof"]++
					case res.Verdict == prove.Refuted && strings.Contains(res.LevelReason, "replayed on the system as written"):
						narrowedBy["carried run"]++
					case res.Verdict == prove.Proved || res.Verdict == prove.Refuted:
						t.Errorf("system %d: %s %v on the narrowed system, not carried to the system as written (%s)\n%s", i, res.Property.Name, res.Verdict, res.LevelReason, testsupport.Describe(sys))
					}
				}
			}
			counts[res.Verdict]++
			if res.Method != "" {
				methods[res.Verdict.String()+" by "+string(res.Method)]++
			}
			if res.Verdict != prove.Skipped {
				levels[res.Level]++
			}
			if res.Verdict == prove.Unknown && !(!sys.Fairness.Empty() && strings.Contains(res.Reason, "fair")) {
				t.Errorf("system %d: %s unknown: %s\n%s", i, res.Property.Name, res.Reason, testsupport.Describe(sys))
			}
		}
	}
	t.Logf("%d systems (spreads of %d groups over parameters, %d ranged; %d shared variables from a parameter, %d up to one, %d with no greatest), %v (with a premise %v, narrowing the initial set %v); %d (property, instance) pairs failing only from a spread; levels %v; answered by %v; %d instances through both engines",
		systems, spreadParam, spreadRanged, sharedTerm, rangeTerm, rangeOpen, counts, premised, narrowedBy, dependent, levels, methods, engineRuns)
	if narrowedBy["premised"] == 0 || narrowedBy["premised-shared"] == 0 || narrowedBy["premised-param"] == 0 || narrowedBy["carried proof"] == 0 || narrowedBy["carried run"] == 0 {
		t.Errorf("no premise of a kind narrows the initial set: %v", narrowedBy)
	}
	if rangeTerm == 0 || rangeOpen == 0 || engineRuns == 0 {
		t.Errorf("the sample exercises too little: %d ranges up to a parameter, %d with no greatest, %d instances through the engines", rangeTerm, rangeOpen, engineRuns)
	}
	if counts[prove.Proved] < systems/4 || counts[prove.Refuted] < systems/4 || dependent == 0 ||
		premised[prove.Proved] == 0 || premised[prove.Refuted] == 0 || spreadParam == 0 || spreadRanged == 0 || sharedTerm == 0 || levels[counterabs.TotalLevel] == 0 || levels[counterabs.GroupLevel] == 0 {
		t.Errorf("the sample exercises too little: %v, %d dependent, %d/%d/%d, levels %v", counts, dependent, spreadParam, spreadRanged, sharedTerm, levels)
	}
}

// initialSetSystem draws system i of the cross-check: constructsConfig's
// systems with initial sets (testsupport's, for groups of fixed size and
// bounded shared variables), and beside them a spread for a ranged group
// or one sized over parameters and, in a family, an unbounded shared
// variable starting at a parameter.
func initialSetSystem(r *rand.Rand, i int) *gsst.System {
	cfg := constructsConfig(i)
	cfg.May |= testsupport.InitialSets
	cfg.Fairness = testsupport.Fairness{}
	for {
		spec := testsupport.RandomSystem(r, cfg).Spec()
		for g := range spec.Groups {
			grp := &spec.Groups[g]
			if !grp.Ranged && !grp.OverParams() || r.Intn(3) == 0 || len(spec.States) < 2 {
				continue
			}
			spreadOver(r, spec, g)
		}
		// The ranges draw from alt, and r draws the rest as it did
		// before there were ranges over the parameters.
		alt := rand.New(rand.NewSource(int64(i)))
		for j := range spec.Shared {
			v := &spec.Shared[j]
			if !v.Unbounded || v.Lo > 0 || v.InitRange {
				continue
			}
			if len(spec.Params) > 0 && r.Intn(2) == 1 {
				if k := r.Intn(len(spec.Params)); !spec.Params[k].Fixed {
					v.InitTerm, v.InitText, v.Init = presburger.VarTerm(spec.ParamVar(k)), spec.Params[k].Name, v.Lo
					continue
				}
			}
			var open []int // the parameters that are not fixed
			for k := range spec.Params {
				if !spec.Params[k].Fixed {
					open = append(open, k)
				}
			}
			switch c := alt.Intn(3); {
			case c == 0 && len(open) > 0:
				// From the least of the domain to a parameter.
				k := open[alt.Intn(len(open))]
				v.InitRange, v.Init, v.InitHiTerm, v.InitHi = true, v.Lo, presburger.VarTerm(spec.ParamVar(k)), v.Lo
			case c == 1:
				// From its value up, with no greatest.
				v.InitRange, v.InitNoHi = true, true
			}
		}
		// The first property again, asked of the initial
		// configurations where some state is empty: "c -> AG phi".
		if f, ok := spec.Properties[0].Formula.(ctl.Unary); ok && f.Op == ctl.AG {
			s := r.Intn(len(spec.States))
			c := presburger.Compare(presburger.VarTerm(presburger.Var(s)), presburger.Eq, presburger.ConstTerm(0))
			pf := ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: c}, R: f}
			spec.Properties = append(spec.Properties, gsst.Property{Name: "premised", Formula: pf, Text: ctl.Format(pf, spec.VarName)})
			// And from those where a shared variable that starts in a
			// range of constants meets "x op c" (gsst's NarrowInitial
			// folds both premises into the initial set).
			pre := rand.New(rand.NewSource(int64(i) + 1000))
			for j := range spec.Shared {
				v := &spec.Shared[j]
				if !v.InitRange || !v.InitTerm.IsConst() || !v.InitHiTerm.IsConst() {
					continue
				}
				op := []presburger.Op{presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}[pre.Intn(6)]
				c := presburger.Compare(presburger.VarTerm(spec.SharedVar(j)), op, presburger.ConstTerm(int64(v.Init+pre.Intn(4)-1)))
				pf := ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: c}, R: f}
				spec.Properties = append(spec.Properties, gsst.Property{Name: "premised-shared", Formula: pf, Text: ctl.Format(pf, spec.VarName)})
				break
			}
			// And from those where a shared variable that starts at a
			// parameter's value meets "x op c" (folded into the
			// assumption, which may then pin the parameter).
			for j := range spec.Shared {
				v := &spec.Shared[j]
				if v.InitRange || v.InitTerm.IsConst() {
					continue
				}
				op := []presburger.Op{presburger.Eq, presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}[pre.Intn(7)]
				c := presburger.Compare(presburger.VarTerm(spec.SharedVar(j)), op, presburger.ConstTerm(int64(pre.Intn(3))))
				pf := ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: c}, R: f}
				spec.Properties = append(spec.Properties, gsst.Property{Name: "premised-param", Formula: pf, Text: ctl.Format(pf, spec.VarName)})
				break
			}
		}
		sys, err := gsst.New(spec)
		if err != nil {
			panic(err)
		}
		if !sys.SingleInitial() {
			return sys
		}
	}
}

// initialConfigs lists the initial configurations of sys at instance in
// from the spec's fields: each group's processes in its initial state,
// or spread in every way over the states of InitOver; each shared
// variable at its value, every value of its range, or its term's value.
func initialConfigs(sys *gsst.System, in testsupport.Instance) []extState {
	pv := func(v presburger.Var) int64 {
		if k, ok := sys.ParamOf(v); ok {
			return int64(in.Params[k])
		}
		return 0
	}
	rows := make([][][]int, len(sys.Groups))
	for g := range sys.Groups {
		first, _ := sys.InitState(g)
		if sys.InitOver == nil || sys.InitOver[g] == nil {
			row := slices.Clone(sys.Init[g])
			if grp := &sys.Groups[g]; grp.Ranged || grp.OverParams() {
				row = make([]int, len(sys.States))
				row[first] = in.Sizes[g]
			}
			rows[g] = [][]int{row}
			continue
		}
		rows[g] = spreads(in.Sizes[g], sys.InitOver[g], len(sys.States))
	}
	values := make([][]int, len(sys.Shared))
	for j := range sys.Shared {
		v := &sys.Shared[j]
		lo := v.Init
		if !v.InitTerm.IsConst() {
			lo = int(v.InitTerm.Eval(pv))
		}
		hi := lo
		switch {
		case v.InitNoHi:
			hi = extValueCap // beyond it, as the successors, nothing is explored
		case !v.InitHiTerm.IsConst():
			hi = int(v.InitHiTerm.Eval(pv))
		case v.InitRange:
			hi = v.InitHi
		}
		for x := lo; x <= hi; x++ {
			values[j] = append(values[j], x)
		}
	}
	var out []extState
	product(rows, values, func(st extState) { out = append(out, st) })
	return out
}

// spreads returns every row of counts with size processes over the
// states of over (of states in all), any number in each.
func spreads(size int, over []int, states int) [][]int {
	var out [][]int
	var rec func(k int, row []int, left int)
	rec = func(k int, row []int, left int) {
		if k == len(over)-1 {
			row = slices.Clone(row)
			row[over[k]] = left
			out = append(out, row)
			return
		}
		for n := 0; n <= left; n++ {
			row[over[k]] = n
			rec(k+1, row, left-n)
		}
		row[over[k]] = 0
	}
	rec(0, make([]int, states), size)
	return out
}

// product calls visit with every configuration that takes one row of
// rows[g] for each group g and one value of values[j] for each shared
// variable j.
func product(rows [][][]int, values [][]int, visit func(extState)) {
	var groups func(g int, y [][]int, sh []int)
	groups = func(g int, y [][]int, sh []int) {
		if g == len(rows) {
			st := extState{shared: slices.Clone(sh)}
			for _, row := range y {
				st.y = append(st.y, slices.Clone(row))
			}
			visit(st)
			return
		}
		for _, row := range rows[g] {
			groups(g+1, append(slices.Clone(y), row), sh)
		}
	}
	var shared func(j int, cur []int)
	shared = func(j int, cur []int) {
		if j == len(values) {
			groups(0, nil, cur)
			return
		}
		for _, x := range values[j] {
			shared(j+1, append(slices.Clone(cur), x))
		}
	}
	shared(0, nil)
}

// exploreFrom returns the configurations of the instance reachable from
// inits by the language's semantics (successors).
func exploreFrom(sys *gsst.System, in testsupport.Instance, inits []extState) []extState {
	seen := map[string]bool{}
	var queue []extState
	for _, st := range inits {
		if k := st.key(); !seen[k] {
			seen[k] = true
			queue = append(queue, st)
		}
	}
	for i := 0; i < len(queue); i++ {
		for _, st := range successors(sys, in, queue[i]) {
			if k := st.key(); !seen[k] {
				seen[k] = true
				queue = append(queue, st)
			}
		}
	}
	return queue
}

// checkInitial checks m.Initial at instance in against inits: every
// listed configuration satisfies it, and every configuration of the
// instance (each group's processes anywhere, shared values within
// their domain up to extValueCap) that satisfies it has the model's
// values of a listed one. The second half runs where there are at most
// maxCandidates configurations.
func checkInitial(t *testing.T, i int, m *counterabs.ParamModel, in testsupport.Instance, inits []extState) {
	t.Helper()
	const maxCandidates = 4000
	sys := m.System
	key := func(st extState) (string, bool) {
		val := modelValuation(m, in, st)
		var x []int64
		for k := range m.NumState() {
			x = append(x, val(m.StateVar(k)))
		}
		return fmt.Sprint(x), presburger.Eval(m.Initial, val)
	}
	want := map[string]bool{}
	for _, st := range inits {
		k, ok := key(st)
		if !ok {
			t.Fatalf("system %d at %v: the %s-counter model's Initial %s is false in the initial configuration %s\n%s",
				i, in, m.Level, m.FormatFormula(m.Initial), st.key(), testsupport.Describe(sys))
		}
		want[k] = true
	}
	// Every configuration of the instance.
	rows := make([][][]int, len(sys.Groups))
	count := 1
	all := make([]int, len(sys.States))
	for s := range all {
		all[s] = s
	}
	for g := range sys.Groups {
		rows[g] = spreads(in.Sizes[g], all, len(sys.States))
		count *= len(rows[g])
	}
	values := make([][]int, len(sys.Shared))
	for j := range sys.Shared {
		v := &sys.Shared[j]
		hi := v.Hi
		if v.Unbounded {
			hi = extValueCap
		}
		for x := v.Lo; x <= hi; x++ {
			values[j] = append(values[j], x)
		}
		count *= len(values[j])
	}
	if count > maxCandidates {
		return
	}
	product(rows, values, func(st extState) {
		if k, ok := key(st); ok && !want[k] {
			t.Fatalf("system %d at %v: the %s-counter model's Initial %s holds in %s, no initial configuration\n%s",
				i, in, m.Level, m.FormatFormula(m.Initial), st.key(), testsupport.Describe(sys))
		}
	})
}

// checkEngines checks both engines on the group-counter model of sys's
// instance in against rep, prove's verdicts for every size (under
// -short, of the systems with a range up to a parameter or with no
// greatest only): a property
// proved holds there, one refuted at in fails there, and the explicit
// and BDD engines agree. An instance whose shared variable starts in a
// range with no greatest is refused by the model, naming the variable.
// It returns 1 when the engines ran.
func checkEngines(t *testing.T, i int, sys *gsst.System, in testsupport.Instance, rep *prove.Report) int {
	t.Helper()
	inst, err := sys.InstantiateParams(in.Params, in.Sizes)
	if err != nil {
		return 0 // outside the family (an empty range, say)
	}
	gm, err := counterabs.BuildGroup(inst)
	if open := inst.FiniteInitial(); open != nil {
		if err == nil || errkind.Of(err) != errkind.Input || err.Error() != open.Error() {
			t.Errorf("system %d at %v: a range with no greatest value gave the group-counter model %v, want the refusal %v", i, in, err, open)
		}
		return 0
	}
	if err != nil {
		t.Fatalf("system %d at %v: %v", i, in, err)
	}
	ctx := context.Background()
	var verdicts [2]map[string]bool
	for e, engine := range []exploration.Engine{explicit.Engine{}, symbolic.DefaultBDD()} {
		r, err := engine.Check(ctx, gm, exploration.MaxStates(20000), exploration.Traces(false))
		if errkind.Of(err) == errkind.Limit {
			return 0 // a shared variable grows without end
		}
		if err != nil {
			t.Fatalf("system %d at %v: %s: %v", i, in, engine.Name(), err)
		}
		verdicts[e] = map[string]bool{}
		for _, p := range r.Properties {
			verdicts[e][p.Name] = p.Holds
		}
	}
	for _, res := range rep.Results {
		name := res.Property.Name
		x, b := verdicts[0][name], verdicts[1][name]
		switch {
		case x != b:
			t.Errorf("system %d at %v: %s: explicit says %v, BDD %v\n%s", i, in, name, x, b, testsupport.Describe(sys))
		case res.Verdict == prove.Proved && !x:
			t.Errorf("system %d at %v: %s proved for every size, fails at the instance\n%s", i, in, name, testsupport.Describe(sys))
		case res.Verdict == prove.Refuted && x && slices.Equal(res.Sizes, in.Sizes) && slices.Equal(res.Params, in.Params):
			t.Errorf("system %d at %v: %s refuted there, holds by exploration\n%s", i, in, name, testsupport.Describe(sys))
		}
	}
	return 1
}
