package gsst_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

const initialSpec = `params: [n, t, f]
assume: "n > 3*t & t >= f & f >= 0"
states: [V0, V1, SE, AC]
groups:
  correct: n - f
  extra: 2
init:
  correct: [V1, V0]
  extra: [AC, V0]
shared:
  nsent: {type: "0..", init: 0}
  x: {type: "0..10", init: t}
  y: {type: "0..3", init: 1..2}
  z: {type: "0..", init: n - f}
transitions:
  - {from: V1, to: SE, guard: "true", update: "nsent := nsent + 1"}
  - {from: SE, to: AC, guard: "nsent >= n - t - f"}
`

func TestInitialSets(t *testing.T) {
	sys, err := gsst.Parse("init.yaml", []byte(initialSpec))
	if err != nil {
		t.Fatal(err)
	}
	if sys.SingleInitial() {
		t.Fatal("SingleInitial on a system with spread groups")
	}
	if got := sys.InitOver; !slices.Equal(got[0], []int{0, 1}) || !slices.Equal(got[1], []int{0, 3}) {
		t.Errorf("InitOver = %v, want [[0 1] [0 3]] (states in increasing order)", got)
	}
	if y := sys.Shared[2]; !y.InitRange || y.Init != 1 || y.InitHi != 2 {
		t.Errorf("y: range %v %d..%d, want 1..2", y.InitRange, y.Init, y.InitHi)
	}
	if got := sys.InitText(3); got != "n - f" {
		t.Errorf("InitText(z) = %q", got)
	}
	if _, err := sys.Initials(); err == nil {
		t.Error("Initials of a family did not fail")
	}
	inst, err := sys.InstantiateParams([]int{4, 1, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if inst.Shared[1].Init != 1 || inst.Shared[3].Init != 3 || !inst.Shared[3].InitTerm.IsConst() {
		t.Errorf("instance folds x to %d and z to %d, want 1 and 3", inst.Shared[1].Init, inst.Shared[3].Init)
	}
	confs, err := inst.Initials()
	if err != nil {
		t.Fatal(err)
	}
	// correct: 3 processes over 2 states (4 ways), extra: 2 over 2 (3
	// ways), y: 2 values.
	if len(confs) != 4*3*2 {
		t.Fatalf("%d initial configurations, want 24", len(confs))
	}
	if first := inst.InitConfig(); !slices.EqualFunc(confs[0].Counts, first.Counts, slices.Equal) || !slices.Equal(confs[0].Shared, first.Shared) {
		t.Errorf("the first initial configuration %v is not InitConfig %v", confs[0], first)
	}
	// Every configuration of the instance with counters up to the sizes
	// and y in its domain: in Initials exactly when InitialFormula holds.
	f := inst.InitialFormula()
	in := map[string]bool{}
	for _, c := range confs {
		in[key(c)] = true
	}
	seen := 0
	var rec func(c gsst.Config, g, s int)
	rec = func(c gsst.Config, g, s int) {
		if g == len(inst.Groups) {
			for yv := 0; yv <= 3; yv++ {
				for xv := 0; xv <= 2; xv++ {
					c.Shared = []int{0, xv, yv, 3}
					val := inst.Valuation(c.Counts, c.Shared)
					if got, want := presburger.Eval(f, val), in[key(c)]; got != want {
						t.Errorf("InitialFormula at %v = %v, Initials says %v", c, got, want)
					}
					if got, want := inst.IsInitial(c), in[key(c)]; got != want {
						t.Errorf("IsInitial(%v) = %v, Initials says %v", c, got, want)
					}
					totals := c.Totals(len(inst.States))
					if _, ok, known := inst.InitialWith(totals, c.Counts, c.Shared); ok != in[key(c)] || !known {
						t.Errorf("InitialWith(%v) = %v (known %v), Initials says %v", c, ok, known, in[key(c)])
					}
					if _, _, known := inst.InitialWith(totals, nil, nil); known {
						t.Errorf("InitialWith(%v) from totals alone says it knows, with two groups spread", totals)
					}
					if in[key(c)] {
						seen++
					}
				}
			}
			return
		}
		if s == len(inst.States) {
			rec(c, g+1, 0)
			return
		}
		for k := 0; k <= inst.Groups[g].Size; k++ {
			c.Counts[g][s] = k
			rec(c, g, s+1)
		}
		c.Counts[g][s] = 0
	}
	counts := make([][]int, len(inst.Groups))
	for g := range counts {
		counts[g] = make([]int, len(inst.States))
	}
	rec(gsst.Config{Counts: counts}, 0, 0)
	if seen != 24 {
		t.Errorf("the enumeration met %d initial configurations, want 24", seen)
	}
}

// TestInitialWithTotals checks InitialWith from total counters alone,
// on an instance with one group spread over its initial states beside
// one that starts in one state and shares one of them: for every
// choice of totals up to the sizes and values of the shared variable
// in a range, it finds the first configuration of Initials with those
// totals and the least shared values, and nothing where there is none.
func TestInitialWithTotals(t *testing.T) {
	sys, err := gsst.Parse("totals.yaml", []byte(`states: [A, B, C]
groups: {p: 3, q: 2}
init:
  p: [A, B]
  q: B
shared:
  y: {type: "0..3", init: 1..2}
transitions:
  - {from: A, to: C}
`))
	if err != nil {
		t.Fatal(err)
	}
	confs, err := sys.Initials()
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for a := 0; a <= 5; a++ {
		for b := 0; b <= 5; b++ {
			for c := 0; c <= 5; c++ {
				totals := []int{a, b, c}
				var want *gsst.Config
				for i := range confs {
					if slices.Equal(confs[i].Totals(3), totals) && confs[i].Shared[0] == 1 {
						want = &confs[i]
						break
					}
				}
				got, ok, known := sys.InitialWith(totals, nil, nil)
				switch {
				case !known:
					t.Fatalf("InitialWith(%v): not known with one group spread", totals)
				case ok != (want != nil):
					t.Errorf("InitialWith(%v) = %v, Initials has one: %v", totals, ok, want != nil)
				case ok && key(got) != key(*want):
					t.Errorf("InitialWith(%v) = %v, want %v", totals, got, *want)
				}
				if ok {
					found++
				}
			}
		}
	}
	if found != 4 {
		t.Errorf("%d totals of initial configurations, want 4 (p's 3 processes over A and B)", found)
	}
	if _, ok, _ := sys.InitialWith([]int{3, 2, 0}, nil, []int{3}); ok {
		t.Error("InitialWith accepts y = 3, outside its initial range 1..2")
	}
}

func key(c gsst.Config) string {
	var b strings.Builder
	for _, row := range c.Counts {
		for _, k := range row {
			b.WriteString(string(rune('0' + k)))
		}
		b.WriteByte('/')
	}
	for _, v := range c.Shared {
		b.WriteString(string(rune('0' + v)))
	}
	return b.String()
}

func TestInitialSetErrors(t *testing.T) {
	for _, tc := range []struct{ init, shared, want string }{
		{"init: []", "", "4:7: empty list of initial states"},
		{"init: {g: [A, A]}", "", `state "A" is listed twice in init`},
		{"init: {g: [A, Z]}", "", `unknown local state "Z" in init`},
		{"init: A", "x: {type: bool, init: 0..1}", "a range of initial values needs an integer variable"},
		{"init: A", "x: {type: 0..3, init: 2..1}", "empty range of initial values 2..1 of x"},
		{"init: A", "x: {type: 0..3, init: 2..5}", "initial value 5 of x is outside its domain 0..3"},
		{"init: A", `x: {type: 0..3, init: "k + #A"}`, "initial value of x"},
		{"init: A", "x: {type: [a, b], init: k}", "initial value k of x is not one of its constants [a, b]"},
		{"init: A", `x: {type: 0..3, init: "2*k"}`, "ok"},
		{"init: A", `x: {type: bool, init: k}`, "initial value of boolean variable x must be true or false"},
		{"init: A", `x: {type: "0..", init: ".."}`, `range of initial values ".." has no bound`},
		{"init: A", `x: {type: "0..", init: "0..#A"}`, "initial value of x"},
		{"init: A", `x: {type: "0..", init: "0..k +"}`, "7:33: expected operand"},
		{"init: A", `x: {type: bool, init: "0..k"}`, "a range of initial values needs an integer variable"},
		{"init: A", `x: {type: [a, b], init: "a.."}`, "a range of initial values needs an integer variable"},
		{"init: A", `x: {type: "0..", init: "0..k"}`, "ok"},
		{"init: A", `x: {type: "0..", init: "k.."}`, "ok"},
		{"init: A", `x: {type: "0..", init: "..k"}`, "ok"},
		{"init: A", `x: {type: 0..3, init: "2.."}`, "ok"},
		{"init: A", `x: {type: 0..3, init: "4.."}`, "initial value 4 of x is outside its domain 0..3"},
		{"init: A", `x: {type: "0..", init: "3..1"}`, "empty range of initial values 3..1 of x"},
		{"init: A", `x: {type: "0..", init: "0..2000000000"}`, "beyond the limit"},
	} {
		src := "params: [k]\nstates: [A, B]\ngroups: {g: 2}\n" + tc.init + "\ntransitions: []\n"
		if tc.shared != "" {
			src += "shared:\n  " + tc.shared + "\n"
		}
		_, err := gsst.Parse("e.yaml", []byte(src))
		if tc.want == "ok" {
			if err != nil {
				t.Errorf("%s / %s: %v", tc.init, tc.shared, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s / %s: error %v, want %q", tc.init, tc.shared, err, tc.want)
		}
	}
}

// TestInitialSetsReadBack writes random systems with initial sets as
// YAML (testsupport.YAML) and reads them back: the same initial
// configurations, in the same order.
func TestInitialSetsReadBack(t *testing.T) {
	r := rand.New(rand.NewSource(30))
	for k := range 40 {
		sys := testsupport.RandomSystem(r, testsupport.Small(testsupport.InitialSets, testsupport.SharedVars))
		src := testsupport.YAML(sys)
		back, err := gsst.Parse("back.yaml", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", k, err, src)
		}
		want, err1 := sys.Initials()
		got, err2 := back.Initials()
		if err1 != nil || err2 != nil {
			t.Fatalf("system %d: %v, %v", k, err1, err2)
		}
		if len(got) != len(want) {
			t.Fatalf("system %d: %d initial configurations read back, want %d\n%s", k, len(got), len(want), src)
		}
		for i := range want {
			if key(got[i]) != key(want[i]) {
				t.Fatalf("system %d: initial configuration %d reads back as %v, want %v\n%s", k, i, got[i], want[i], src)
			}
		}
	}
}

// TestInitialRangeBounds checks ranges of initial values whose bounds are
// expressions over the parameters or left out: what each stands for in
// the system's initial formula, at an instance (folded, and listed when
// finite), the parameter values they exclude, and the refusal, at the
// range's position, of the stages that list a range with no greatest.
func TestInitialRangeBounds(t *testing.T) {
	const src = `params: [f]
states: [A, B]
groups: {g: 2}
init: A
shared:
  open: {type: "0..", init: "1.."}
  upto: {type: "0..", init: "0..f"}
  from: {type: "0..", init: "f..f + 1"}
  low:  {type: "0..3", init: "..2"}
  top:  {type: "0..3", init: "2.."}
transitions:
  - {from: A, to: B, update: "open := open + 1"}
`
	sys, err := gsst.Parse("r.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sys.SingleInitial() {
		t.Fatal("SingleInitial with ranges of initial values")
	}
	for j, want := range []string{"1..", "0..f", "f..f + 1", "0..2", "2..3"} {
		if got := sys.InitText(j); got != want {
			t.Errorf("InitText(%d) = %q, want %q", j, got, want)
		}
	}
	// The initial formula, evaluated: f = 2, g's processes in A.
	val := func(shared []int) func(presburger.Var) int64 {
		base := sys.ValuationOf(gsst.Config{Counts: [][]int{{2, 0}}, Shared: shared, Params: []int{2}})
		return base
	}
	init := sys.InitialFormula()
	for _, c := range []struct {
		shared []int
		want   bool
	}{
		{[]int{1, 0, 2, 0, 2}, true},
		{[]int{1000, 2, 3, 2, 3}, true},
		{[]int{0, 0, 2, 0, 2}, false}, // open below its least
		{[]int{1, 3, 2, 0, 2}, false}, // upto above f
		{[]int{1, 0, 1, 0, 2}, false}, // from below f
		{[]int{1, 0, 4, 0, 2}, false}, // from above f + 1
		{[]int{1, 0, 2, 3, 2}, false}, // low above 2
		{[]int{1, 0, 2, 0, 1}, false}, // top below 2
	} {
		if got := presburger.Eval(init, val(c.shared)); got != c.want {
			t.Errorf("InitialFormula at %v = %v, want %v", c.shared, got, c.want)
		}
	}
	inst, err := sys.InstantiateParams([]int{2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = inst.FiniteInitial()
	if err == nil || !strings.HasPrefix(err.Error(), "r.yaml:6:29: ") || !strings.Contains(err.Error(), "shared variable open starts at any value from 1 up") || !strings.Contains(err.Error(), "vsym prove") {
		t.Fatalf("FiniteInitial = %v, want the refusal at the range", err)
	}
	if _, err2 := inst.Initials(); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("Initials = %v, want %v", err2, err)
	}
	capped := inst.InitialsUpTo(1)
	confs, err := capped.Initials()
	if err != nil {
		t.Fatal(err)
	}
	// open 1..1, upto 0..2, from 2..3, low 0..2, top 2..3.
	if len(confs) != 1*3*2*3*2 {
		t.Errorf("%d initial configurations with open capped at 1, want 36", len(confs))
	}
	for _, c := range confs {
		if !presburger.Eval(init, val(c.Shared)) {
			t.Errorf("listed configuration %v is not initial", c.Shared)
		}
	}
	if inst.FiniteInitial() == nil || capped.FiniteInitial() != nil || capped.InitialsUpTo(5) != capped {
		t.Error("InitialsUpTo changed the instance, or left it infinite")
	}
	// f = 0 makes no range empty; the instance condition holds at f = 0
	// and at f = 5, but not where from's range leaves its domain.
	if _, err := sys.InstantiateParams([]int{0}, nil); err != nil {
		t.Errorf("f = 0: %v", err)
	}
	bad := `params: [f]
states: [A]
groups: {g: 1}
init: A
shared:
  x: {type: "0..3", init: "f..3"}
transitions: []
`
	fam, err := gsst.Parse("b.yaml", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fam.InstantiateParams([]int{4}, nil); err == nil || !strings.Contains(err.Error(), "outside its domain") {
		t.Errorf("f = 4 with init f..3 on 0..3: %v, want the value outside the domain", err)
	}
	cond := fam.InstanceCondition()
	for f, want := range map[int]bool{0: true, 3: true, 4: false} {
		pv := func(v presburger.Var) int64 {
			if _, ok := fam.ParamOf(v); ok {
				return int64(f)
			}
			if v == fam.NVar() || v == fam.SizeVar(0) {
				return 1
			}
			return 0
		}
		if got := presburger.Eval(cond, pv); got != want {
			t.Errorf("InstanceCondition at f = %d: %v, want %v", f, got, want)
		}
	}
}

// TestWithRangedSizes: the family of a system's large fixed groups has
// the system as its instance at their sizes (the same initial
// configurations, every one of them listed), leaves alone the groups
// at or below the bound and those that start in several states at
// fixed counts, and says when there is nothing to range.
func TestWithRangedSizes(t *testing.T) {
	sys, err := gsst.Parse("fixed.yaml", []byte(`states: [A, B, C]
groups: {p: 7, q: 3, r: 6}
init:
  p: [A, B]
  q: B
  r: {A: 2, C: 4}
shared:
  y: {type: "0..3", init: 1}
transitions:
  - {from: A, to: C, guard: "#B <= n - 2"}
`))
	if err != nil {
		t.Fatal(err)
	}
	fam, ok, err := sys.WithRangedSizes(5)
	if err != nil || !ok {
		t.Fatalf("WithRangedSizes(5) = %v, %v", ok, err)
	}
	if g := fam.Groups; !g[0].Ranged || g[0].Size != 1 || g[0].Max != gsst.Unbounded || g[1].Ranged || g[2].Ranged {
		t.Fatalf("family groups %+v: want p ranging from 1, q and r fixed", g)
	}
	inst, err := fam.Instantiate([]int{7, 3, 6})
	if err != nil {
		t.Fatal(err)
	}
	want, err := sys.Initials()
	if err != nil {
		t.Fatal(err)
	}
	got, err := inst.Initials()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) != 8 {
		t.Fatalf("the family at p=7 has %d initial configurations, the system %d (want 8)", len(got), len(want))
	}
	for i := range want {
		if key(got[i]) != key(want[i]) {
			t.Errorf("initial configuration %d: %v, want %v", i, got[i], want[i])
		}
	}
	if _, ok, err := sys.WithRangedSizes(7); ok || err != nil {
		t.Errorf("WithRangedSizes(7) = %v, %v: no group is larger than 7", ok, err)
	}
}

// TestInitialRangeOfOneValue: a range of one value, "45..45", is the
// value 45, and a system whose variables start so has one initial
// configuration.
func TestInitialRangeOfOneValue(t *testing.T) {
	sys, err := gsst.Parse("one.yaml", []byte(`states: [A]
groups: {p: 1}
init: A
shared:
  x: {type: "0..", init: 45..45}
  y: {type: "0..3", init: 2..3}
transitions:
  - {from: A, to: A, update: "x := x + 1"}
`))
	if err != nil {
		t.Fatal(err)
	}
	if x := sys.Shared[0]; x.InitRange || x.Init != 45 {
		t.Errorf("x: range %v, init %d; want the value 45", x.InitRange, x.Init)
	}
	if y := sys.Shared[1]; !y.InitRange || y.Init != 2 || y.InitHi != 3 {
		t.Errorf("y: range %v %d..%d, want 2..3", y.InitRange, y.Init, y.InitHi)
	}
	spec := sys.Spec()
	spec.Shared = spec.Shared[:1]
	if one, err := gsst.New(spec); err != nil || !one.SingleInitial() {
		t.Errorf("with x alone: SingleInitial %v (err %v), want one initial configuration", err == nil && one.SingleInitial(), err)
	}
}
