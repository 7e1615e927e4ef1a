package counterabs

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestParamModelsAgainstInstances builds the parametric models of random
// parametric systems (BuildParam: total-counter when certified for every
// size, else group-counter; and BuildParamGroup always) and compares
// them, at every instance of a small box, with the instance's semantics
// computed by enumerating its configurations and evaluating the guards
// with the oracles of internal/testsupport (Firing):
//
//   - initial values, pools and transitions (source, target, local
//     transition, group) are those of the instance;
//   - at GroupLevel, each guard holds at a configuration exactly when the
//     group can take the transition there;
//   - at TotalLevel, each guard (its local variables read off the
//     configurations with the totals) holds at a total vector exactly
//     when some configuration with those totals lets a process take the
//     transition, and every configuration with those totals agrees (the
//     system was certified for every size); on a third of the vectors the
//     guard gives the same with its locals free over a box;
//   - the atoms of the properties evaluate as the instance's do;
//   - TransitionSystem: Init holds at the initial vector and not at a
//     neighbour, each Trans[i] holds from a vector to its successor
//     exactly when the guard holds, and never to another vector.
//
// On a sample of total vectors, Z3 decides the guard with its local
// variables free over every integer, the reading a CHC solver gives them.
func TestParamModelsAgainstInstances(t *testing.T) {
	// -short: a third of the sample, each level still at least 7 times.
	systems, least := 170, 20
	if testing.Short() {
		systems, least = 60, 7
	}
	s := z3.New()
	r := rand.New(rand.NewSource(20261124))
	ctx := context.Background()
	levels := map[Level]int{}
	var instances, vectors, z3Checks int
	for i := range systems {
		sys := testsupport.RandomSystem(r, paramConfig)
		auto, err := BuildParam(ctx, sys, s)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		if (auto.Level == TotalLevel) != auto.Cert.Certified() {
			t.Fatalf("system %d: level %v, certified %v", i, auto.Level, auto.Cert.Certified())
		}
		group, err := BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		levels[auto.Level]++
		models := []*ParamModel{group}
		if auto.Level == TotalLevel {
			models = append(models, auto)
		}
		for _, sizes := range testsupport.Box(sys, paramBoxMax) {
			inst, err := sys.Instantiate(sizes)
			if err != nil {
				t.Fatalf("system %d sizes %v: %v", i, sizes, err)
			}
			instances++
			confs := testsupport.ConfigsByTotals(inst)
			for _, m := range models {
				where := fmt.Sprintf("system %d, %s level, sizes %v", i, m.Level, sizes)
				vectors += checkParamInstance(t, where, m, inst, sizes, confs)
				if m.Level == TotalLevel && r.Intn(4) == 0 {
					z3Checks += checkLocalsWithZ3(t, where, s, m, inst, sizes, confs, r)
				}
			}
		}
	}
	t.Logf("%d systems (%d total-level, %d group-level), %d instances, %d model states compared, %d guards decided by Z3",
		systems, levels[TotalLevel], levels[GroupLevel], instances, vectors, z3Checks)
	if levels[TotalLevel] < least || levels[GroupLevel] < least {
		t.Errorf("sample not mixed enough: %v", levels)
	}
}

// checkParamInstance compares m with the instance inst of sizes; confs
// are inst's configurations by totals. It returns the number of model
// states compared.
func checkParamInstance(t *testing.T, where string, m *ParamModel, inst *gsst.System, sizes []int, confs map[string][][][]int) int {
	t.Helper()
	sys := m.System
	ms := len(sys.States)
	// Initial values and pools.
	zero := make([]int, len(m.Counters))
	val0 := paramValuation(m, zero, sizes)
	init := make([]int, len(m.Counters))
	for c := range m.Counters {
		init[c] = int(m.Init[c].Eval(val0))
		want := 0
		for g := range sys.Groups {
			if m.Level == TotalLevel || m.Counters[c].Group == g {
				want += inst.Init[g][m.Counters[c].State]
			}
		}
		if init[c] != want {
			t.Fatalf("%s: initial %s = %d, want %d", where, m.VarName(presburger.Var(c)), init[c], want)
		}
	}
	for _, p := range m.Pools {
		sum := 0
		for _, c := range p.Counters {
			sum += init[c]
		}
		if int64(sum) != p.Sum.Eval(val0) {
			t.Fatalf("%s: a pool's initial counters sum to %d, not its sum", where, sum)
		}
	}
	// Transitions in the order of the instance's models.
	var want []ParamTransition
	for i := range sys.Transitions {
		if m.Level == TotalLevel {
			// One per transition that some group with processes may take.
			if slices.ContainsFunc(sys.Transitions[i].Blocks, func(b gsst.Block) bool {
				return slices.ContainsFunc(b.Groups, func(g int) bool { return sys.Groups[g].Ranged || sys.Groups[g].Size > 0 })
			}) {
				want = append(want, ParamTransition{From: sys.Transitions[i].From, To: sys.Transitions[i].To, Local: i, Group: -1})
			}
			continue
		}
		for g := range sys.Groups {
			if sys.Transitions[i].BlockOf(g) != nil && (sys.Groups[g].Ranged || sys.Groups[g].Size > 0) {
				tr := &sys.Transitions[i]
				want = append(want, ParamTransition{From: g*ms + tr.From, To: g*ms + tr.To, Local: i, Group: g})
			}
		}
	}
	if len(want) != len(m.Transitions) {
		t.Fatalf("%s: %d transitions, want %d", where, len(m.Transitions), len(want))
	}
	for k, w := range want {
		got := m.Transitions[k]
		if got.From != w.From || got.To != w.To || got.Local != w.Local || got.Group != w.Group {
			t.Fatalf("%s: transition %d is %+v, want %+v", where, k, got, w)
		}
	}
	ts := m.TransitionSystem()
	atoms := func(props []Property, i int) []presburger.Formula { return ctl.Atoms(props[i].Formula) }

	compared := 0
	// check compares the model state x (with configurations confsX) with
	// the instance.
	check := func(x []int, confsX [][][]int) {
		compared++
		val := paramValuation(m, x, sizes)
		for k := range m.Transitions {
			tr := &m.Transitions[k]
			lt := &inst.Transitions[tr.Local]
			var got, ref bool
			if m.Level == GroupLevel {
				got = presburger.Eval(tr.Guard, val)
				ref = slices.Contains(testsupport.Firing(inst, lt, confsX[0]), tr.Group)
			} else {
				got = totalGuardHolds(m, tr, x, sizes, confsX)
				if len(tr.Locals) > 0 && len(tr.Locals) <= 6 && compared%3 == 0 {
					if free := totalGuardHoldsFree(m, tr, x, sizes); free != got {
						t.Fatalf("%s: %s at %v: the guard holds=%v with locals read off configurations, %v with free locals\n%s",
							where, m.TransitionName(tr), x, got, free, presburger.Format(tr.Guard, m.VarName))
					}
				}
				every := true
				for _, conf := range confsX {
					fires := len(testsupport.Firing(inst, lt, conf)) > 0
					ref = ref || fires
					every = every && fires
				}
				if ref != every {
					t.Fatalf("%s: %s: the system was certified for every size, but configurations with totals %v disagree", where, m.TransitionName(tr), x)
				}
			}
			if got != ref {
				t.Fatalf("%s: %s: guard %s is %v at %v, the instance says %v\n%s", where, m.TransitionName(tr),
					presburger.Format(tr.Guard, m.VarName), got, x, ref, testsupport.Describe(sys))
			}
			// The transition relation: to the successor exactly when
			// the guard holds, never to x itself.
			succ := append([]int(nil), x...)
			succ[tr.From]--
			succ[tr.To]++
			for _, next := range [][]int{succ, x} {
				step := stepValuation(m, val, next)
				holds := stepHolds(m, ts.Trans[k], step, confsX)
				if want := got && slices.Equal(next, succ); holds != want {
					t.Fatalf("%s: Trans of %s from %v to %v is %v, want %v", where, m.TransitionName(tr), x, next, holds, want)
				}
			}
		}
		// Property atoms, at one configuration with these totals.
		for i := range sys.Properties {
			ma, ia := atoms(m.Properties, i), ctl.Atoms(inst.Properties[i].Formula)
			for j := range ma {
				if presburger.Eval(ma[j], val) != presburger.Eval(ia[j], inst.Valuation(confsX[0], nil)) {
					t.Fatalf("%s: property %s: atom %s differs from the instance's at %v", where, sys.Properties[i].Name, presburger.Format(ma[j], m.VarName), x)
				}
			}
		}
	}
	if m.Level == TotalLevel {
		for _, list := range confs {
			x := make([]int, ms)
			for _, row := range list[0] {
				for s, k := range row {
					x[s] += k
				}
			}
			check(x, list)
		}
	} else {
		for _, list := range confs {
			for _, conf := range list {
				x := make([]int, len(m.Counters))
				for g, row := range conf {
					copy(x[g*ms:], row)
				}
				check(x, [][][]int{conf})
			}
		}
	}
	// Init holds at the initial vector, not at a neighbour.
	initVal := stepValuation(m, paramValuation(m, init, sizes), init)
	if !presburger.Eval(ts.Init, initVal) {
		t.Fatalf("%s: Init does not hold at %v", where, init)
	}
	if len(init) > 1 {
		other := append([]int(nil), init...)
		other[0]++
		other[1]--
		if presburger.Eval(ts.Init, stepValuation(m, paramValuation(m, other, sizes), other)) {
			t.Fatalf("%s: Init holds at %v too", where, other)
		}
	}
	return compared
}

// stepValuation extends val with the next-state counters next.
func stepValuation(m *ParamModel, val func(presburger.Var) int64, next []int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		if i := int(v) - m.NumVars(); i >= 0 && i < len(next) {
			return int64(next[i])
		}
		return val(v)
	}
}

// stepHolds evaluates a formula of TransitionSystem.Trans on a step
// valuation, its local variables (if any) read off some configuration of
// confs.
func stepHolds(m *ParamModel, trans presburger.Formula, step func(presburger.Var) int64, confs [][][]int) bool {
	for _, conf := range confs {
		val := func(v presburger.Var) int64 {
			if v > m.NVar() && int(v) < m.NumVars() {
				c := m.locals[v-m.NVar()-1]
				return int64(conf[c.Group][c.State])
			}
			return step(v)
		}
		if presburger.Eval(trans, val) {
			return true
		}
	}
	return false
}

// checkLocalsWithZ3 decides, for a few total vectors of an instance, each
// guard of m with the counters and sizes fixed and the local variables
// free over every integer, and compares with the instance. It returns
// the number of guards decided.
func checkLocalsWithZ3(t *testing.T, where string, s presburger.Solver, m *ParamModel, inst *gsst.System, sizes []int, confs map[string][][][]int, r *rand.Rand) int {
	t.Helper()
	done := 0
	for _, list := range confs {
		if r.Intn(3) != 0 {
			continue
		}
		x := make([]int, len(m.Counters))
		for _, row := range list[0] {
			for st, k := range row {
				x[st] += k
			}
		}
		val := paramValuation(m, x, sizes)
		for k := range m.Transitions {
			tr := &m.Transitions[k]
			if len(tr.Locals) == 0 {
				continue
			}
			f := presburger.Subst(tr.Guard, func(v presburger.Var) presburger.Term {
				if slices.Contains(tr.Locals, v) {
					return presburger.VarTerm(v)
				}
				return presburger.ConstTerm(val(v))
			})
			var bounds []presburger.Bound
			for _, v := range tr.Locals {
				bounds = append(bounds, presburger.AnyInt(v))
			}
			ans, err := s.Solve(context.Background(), presburger.Problem{Bounds: bounds, F: f})
			if err != nil {
				t.Fatal(err)
			}
			ref := false
			for _, conf := range list {
				ref = ref || len(testsupport.Firing(inst, &inst.Transitions[tr.Local], conf)) > 0
			}
			if ans.Result == presburger.Unknown || (ans.Result == presburger.Sat) != ref {
				t.Fatalf("%s: %s at %v with free locals: Z3 %v (%s), the instance says %v", where, m.TransitionName(tr), x, ans.Result, ans.Reason, ref)
			}
			done++
		}
	}
	return done
}

// TestParamModelsKnown runs the instance comparison on hand-made
// parametric systems, among them one whose guards read group counters of
// a state other than the source (so the existential's locals cover two
// states), and checks the level BuildParam chooses.
func TestParamModelsKnown(t *testing.T) {
	parse := func(src string) *gsst.System {
		sys, err := gsst.Parse("known.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	// Block a reads the group counters of X and T, which are not the
	// source of N -> T; both blocks ask the same of the totals, so it is
	// certified.
	other := `
states: [N, T, X]
groups: {a: 1.., b: 2..}
init: N
transitions:
  - from: N
    to: T
    guard: {a: "#X[a] + #X[b] >= 1 & #T[a] + #T[b] <= n - 2", b: "#X >= 1 & #T <= n - 2"}
  - {from: T, to: X}
  - {from: X, to: N}
properties:
  few: "AG #T <= n - 1"
`
	broken := `
states: [N, T, C]
groups: {reader: 1.., writer: 1..}
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard: {reader: "#C = 0 & #T = 2", writer: "#C = 0"}
  - {from: C, to: N}
properties:
  mutex: "AG #C <= 1"
  writers: "AG #C[writer] <= 1"
`
	s := z3.New()
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		src   string
		level Level
	}{
		{"readers-writers", paramRW, TotalLevel},
		{"other state", other, TotalLevel},
		{"broken", broken, GroupLevel},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := parse(tt.src)
			m, err := BuildParam(ctx, sys, s)
			if err != nil {
				t.Fatal(err)
			}
			if m.Level != tt.level {
				t.Fatalf("level %v (%s), want %v", m.Level, m.Reason, tt.level)
			}
			for _, sizes := range testsupport.Box(sys, paramBoxMax) {
				inst, err := sys.Instantiate(sizes)
				if err != nil {
					t.Fatal(err)
				}
				confs := testsupport.ConfigsByTotals(inst)
				checkParamInstance(t, fmt.Sprintf("%s sizes %v", tt.name, sizes), m, inst, sizes, confs)
				if m.Level == TotalLevel {
					checkLocalsWithZ3(t, tt.name, s, m, inst, sizes, confs, rand.New(rand.NewSource(1)))
				}
			}
		})
	}
	// The broken system without its group-counter property is not
	// certified: BuildParamTotal refuses it with a witness, BuildParam
	// says why it took the group level.
	sys := parse(broken).WithProperties(0)
	if _, err := BuildParamTotal(ctx, sys, s); err == nil {
		t.Error("BuildParamTotal accepted an uncertified system")
	} else if nc, ok := err.(*NotCertifiedError); !ok || nc.Witness == nil || nc.Witness.Sizes == nil {
		t.Errorf("BuildParamTotal: %v", err)
	}
	m, err := BuildParam(ctx, sys, s)
	if err != nil || m.Level != GroupLevel || m.Reason == "" || m.Cert == nil {
		t.Errorf("BuildParam on the broken system: %v, %+v", err, m)
	}
}

// TestParamTransitionSystemBMC uses TransitionSystem as a prover will:
// Z3 unrolls it k steps from Init, with the sizes free in their ranges
// (open above), and asks for a state violating a safety property. For
// printers (specs/printers.yaml) capacity fails after six steps (three
// joins, three prints) and not before, at sizes with n >= 3; the
// readers/writers and GR&W mutual exclusion have no violation within the
// depths tried.
func TestParamTransitionSystemBMC(t *testing.T) {
	grw := `
states: [L1, L2, L3, L4]
groups: {g1: 1.., g2: 1.., g3: 1..}
init: L1
transitions:
  - {from: L1, to: L2}
  - {from: L2, to: L3}
  - from: L3
    to: L4
    guard: {g1: "#L4 = 0", g2: "#L4 = 0 & #L3[g1] = 0", g3: "#L4 = 0 & #L3[g1] = 0 & #L3[g2] = 0"}
  - {from: L4, to: L1}
properties:
  mutex: "AG #L4 <= 1"
`
	s := z3.New()
	ctx := context.Background()
	for _, tt := range []struct {
		name     string
		src      string
		level    Level
		depths   []int
		violated int // the least depth with a violation; 0: none within depths
	}{
		{"printers", paramPrinters, TotalLevel, []int{5, 6}, 6},
		{"readers-writers", paramRW, TotalLevel, []int{6}, 0},
		{"grw", grw, TotalLevel, []int{5}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys, err := gsst.Parse(tt.name+".yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []*ParamModel{mustParam(t, ctx, sys, s), mustGroup(t, sys)} {
				if m == nil {
					continue
				}
				phi, ok := SafetyFormula(m.Properties[0].Formula)
				if !ok {
					t.Fatal("not a safety property")
				}
				ts := m.TransitionSystem()
				for _, k := range tt.depths {
					f, bounds, stateVar := unroll(m, ts, k, presburger.Negation(phi))
					ans, err := s.Solve(ctx, presburger.Problem{Bounds: bounds, F: f})
					if err != nil {
						t.Fatal(err)
					}
					want := presburger.Unsat
					if tt.violated > 0 && k >= tt.violated {
						want = presburger.Sat
					}
					if ans.Result != want {
						t.Fatalf("%s level, depth %d: %v (%s), want %v", m.Level, k, ans.Result, ans.Reason, want)
					}
					if ans.Result == presburger.Sat {
						n := ans.Model[m.NVar()]
						last := ans.Model[stateVar(k, 2)]
						if m.Level == GroupLevel {
							last = ans.Model[stateVar(k, 2)] + ans.Model[stateVar(k, 5)]
						}
						if n < 3 || last != 3 {
							t.Errorf("%s level: violation at n = %d with #Printing = %d; want n >= 3 and 3", m.Level, n, last)
						}
					}
				}
			}
		})
	}
}

func mustParam(t *testing.T, ctx context.Context, sys *gsst.System, s presburger.Solver) *ParamModel {
	t.Helper()
	m, err := BuildParamTotal(ctx, sys, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustGroup(t *testing.T, sys *gsst.System) *ParamModel {
	t.Helper()
	m, err := BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// unroll returns Init(x0) & step(x0, x1) & ... & step(x(k-1), xk) &
// bad(xk), where step is the disjunction of Trans with fresh locals at
// each step, and the bounds of every variable: the counters of state j
// are variables of their own (stateVar(j, i)), the parameters are shared.
func unroll(m *ParamModel, ts ParamSystem, k int, bad presburger.Formula) (presburger.Formula, []presburger.Bound, func(j, i int) presburger.Var) {
	c := len(ts.Vars)
	base := presburger.Var(m.NumVars() + c) // above every variable of ts
	stateVar := func(j, i int) presburger.Var { return base + presburger.Var(j*c+i) }
	next := base + presburger.Var((k+1)*c) // fresh locals from here
	var bounds []presburger.Bound
	for _, b := range ts.Domain {
		if int(b.Var) >= c {
			bounds = append(bounds, b) // a parameter
		}
	}
	for j := 0; j <= k; j++ {
		for i := range c {
			bounds = append(bounds, presburger.AtLeast(stateVar(j, i), 0))
		}
	}
	at := func(j int, f presburger.Formula, fresh map[presburger.Var]presburger.Var) presburger.Formula {
		return presburger.Rename(f, func(v presburger.Var) presburger.Var {
			switch i := int(v); {
			case i < c:
				return stateVar(j, i)
			case i >= m.NumVars() && i < m.NumVars()+c:
				return stateVar(j+1, i-m.NumVars())
			case v > m.NVar() && i < m.NumVars():
				w, ok := fresh[v]
				if !ok {
					w = next
					next++
					fresh[v] = w
				}
				return w
			}
			return v
		})
	}
	parts := []presburger.Formula{at(0, ts.Init, nil)}
	for j := 0; j < k; j++ {
		var steps []presburger.Formula
		fresh := map[presburger.Var]presburger.Var{}
		for _, tr := range ts.Trans {
			steps = append(steps, at(j, tr, fresh))
		}
		parts = append(parts, presburger.Disj(steps...))
		for _, w := range fresh {
			bounds = append(bounds, presburger.AnyInt(w))
		}
	}
	parts = append(parts, at(k, bad, nil))
	return presburger.Conj(parts...), bounds, stateVar
}

// Parametric specs of the tests: readers/writers (Fig. 1(b)) and
// specs/printers.yaml with their comments left out.
const (
	paramRW = `
states: [N, T, C]
groups: {reader: 1.., writer: 1..3}
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard: {reader: "#C = 0 & #T[writer] = 0", writer: "#C = 0"}
  - {from: C, to: N}
properties:
  mutex: "AG #C <= 1"
`
	paramPrinters = `
states: [Idle, Queued, Printing]
groups: {staff: 1.., guest: 1..}
init: Idle
transitions:
  - from: Idle
    to: Queued
    guard: {staff: "#Printing < 2", guest: "#Printing < 2 & #Idle[staff] = 0"}
  - {from: Queued, to: Printing}
  - {from: Printing, to: Idle}
properties:
  capacity: "AG #Printing <= 2"
`
)

// TestStutters checks which transitions Stutters reports at both levels
// of the model: those whose step leaves every counter and shared
// variable as it was, whatever their guard.
func TestStutters(t *testing.T) {
	src := `
name: stutters
states: [A, B]
groups: {p: 2, q: 1}
init: A
shared:
  x: {type: "0..3", init: 0}
transitions:
  - {name: idle, from: A, to: A}
  - {name: guarded_idle, from: B, to: B, guard: "x >= 1"}
  - {name: same_x, from: A, to: A, update: "x := x"}
  - {name: bump, from: A, to: A, guard: "x < 3", update: "x := x + 1"}
  - {name: move, from: A, to: B}
  - {name: flush, from: B, to: B, broadcast: [A -> B]}
rendezvous:
  - parts:
      - {from: A, to: A, groups: [p]}
      - {from: B, to: B, groups: [q]}
`
	sys, err := gsst.Parse("stutters.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"idle": true, "guarded_idle": true, "same_x": true, "rendezvous": true}
	for _, m := range []*ParamModel{mustGroup(t, sys), mustParam(t, context.Background(), sys, presburger.BruteForce{})} {
		seen := map[string]bool{}
		for i := range m.Transitions {
			tr := &m.Transitions[i]
			name := "rendezvous"
			if tr.Local >= 0 {
				name = sys.Transitions[tr.Local].Name
			}
			seen[name] = true
			if got := m.Stutters(tr); got != want[name] {
				t.Errorf("%v level, %s (%s): Stutters = %v, want %v", m.Level, name, m.TransitionName(tr), got, want[name])
			}
		}
		if len(seen) != 7 {
			t.Errorf("%v level: transitions of %d of the 7 steps: %v", m.Level, len(seen), seen)
		}
	}
}
