package gsst_test

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

func TestInstantiateParams(t *testing.T) {
	sys := loadExample(t, "threshold")
	inst, err := sys.InstantiateParams([]int{7, 2, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if inst.Parametric() || inst.N() != 6 || inst.Groups[0].OverParams() || !reflect.DeepEqual(inst.Init, [][]int{{6, 0, 0, 0}}) {
		t.Errorf("instance: parametric %v, n %d, groups %+v, init %v", inst.Parametric(), inst.N(), inst.Groups, inst.Init)
	}
	for k, want := range []int{7, 2, 1} {
		if p := inst.Params[k]; !p.Fixed || p.Value != want {
			t.Errorf("param %+v", p)
		}
	}
	again, err := gsst.New(inst.Spec())
	if err != nil || !reflect.DeepEqual(again, inst) {
		t.Errorf("New(instance.Spec()): %v", err)
	}
	if got := presburger.Format(inst.Transitions[1].Blocks[0].Guard, inst.VarName); got != "nsent >= 2" {
		t.Errorf("guard %s", got)
	}
	if got := ctl.Format(inst.Properties[1].Formula, inst.VarName); got != "AG (nsent <= 7)" {
		t.Errorf("property %s", got)
	}
	if sys.Params[0].Fixed || !sys.Groups[0].OverParams() {
		t.Error("InstantiateParams changed the family")
	}
	for _, tt := range []struct {
		params, sizes []int
		want          string
	}{
		{[]int{3, 1, 1}, nil, "threshold: n=3, t=1, f=1 do not satisfy the assumption n > 3*t & t >= f & f >= 0"},
		{[]int{4, 1}, nil, "2 parameter values for 3 parameters"},
		{[]int{4, 1, -1}, nil, "parameter f = -1 is outside 0..1000000000"},
		{[]int{4, 1, 1}, []int{2}, "group correct has the size n - f = 3 with n=4, t=1, f=1, not 2"},
		{[]int{4, 1, 1}, []int{1, 1}, "2 sizes for 1 groups"},
		{[]int{gsst.MaxProcesses + 5, 1, 1}, nil, "would have 1000004 processes, above the limit of 1000000"},
	} {
		_, err := sys.InstantiateParams(tt.params, tt.sizes)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, errkind.Input) {
			t.Errorf("InstantiateParams(%v, %v) = %v, want an input error containing %q", tt.params, tt.sizes, err, tt.want)
		}
	}
	if _, err := sys.InstantiateParams([]int{4, 1, 1}, []int{-1}); err != nil {
		t.Errorf("size -1 for a size over the parameters: %v", err)
	}
	if _, err := sys.Instantiate([]int{3}); err == nil || !strings.Contains(err.Error(), "the parameters n, t, f need values") {
		t.Errorf("Instantiate of a family with parameters: %v", err)
	}
	if _, err := sys.Smallest(); err == nil || !strings.Contains(err.Error(), "give their values (--params n=…,t=…,f=…)") || !errors.Is(err, errkind.Input) {
		t.Errorf("Smallest: %v", err)
	}
	if err := sys.NeedFixed("a counter model"); err == nil || !strings.Contains(err.Error(), "a counter model needs an instance of the system (give their values with --params n=…,t=…,f=…)") {
		t.Errorf("NeedFixed: %v", err)
	}
	if err := inst.NeedFixed("a counter model"); err != nil {
		t.Errorf("NeedFixed of the instance: %v", err)
	}

	// A size that would be below 1, and a size range beside parameters.
	empty, err := gsst.Parse("e.yaml", []byte(`
params: [n, f]
states: [A, B]
groups: {p: n - f, q: 1..}
init: A
transitions:
  - {from: A, to: B, guard: "#B < n - f"}
`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := empty.InstantiateParams([]int{2, 2}, []int{-1, 1}); err == nil || !strings.Contains(err.Error(), "with n=2, f=2, group p would have n - f = 0 processes; every group needs at least one") {
		t.Errorf("empty group: %v", err)
	}
	if _, err := empty.InstantiateParams([]int{2, 1}, nil); err == nil || !strings.Contains(err.Error(), "1 sizes for 2 groups") && !strings.Contains(err.Error(), "0 sizes for 2 groups") {
		t.Errorf("ranged group without sizes: %v", err)
	}
	mixed, err := empty.InstantiateParams([]int{5, 1}, []int{-1, 3})
	if err != nil || mixed.N() != 7 || !reflect.DeepEqual(mixed.Init, [][]int{{4, 0}, {3, 0}}) {
		t.Fatalf("mixed instance: %v %+v", err, mixed)
	}
	if got := presburger.Format(mixed.Transitions[0].Blocks[0].Guard, mixed.VarName); got != "#B < 4" {
		t.Errorf("mixed guard %s", got)
	}
}

// TestInstantiateParamsN: when the parameters do not include n, n is the
// number of processes, folded to the instance's.
func TestInstantiateParamsN(t *testing.T) {
	sys, err := gsst.Parse("n.yaml", []byte(`
params: [f]
states: [A, B]
groups: {p: f + 1, q: 2}
init: A
transitions:
  - {from: A, to: B, guard: "#B < n - f"}
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := presburger.Format(sys.Transitions[0].Blocks[0].Guard, sys.VarName); got != "#B - n + f < 0" {
		t.Errorf("family guard %s", got)
	}
	inst, err := sys.InstantiateParams([]int{3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := presburger.Format(inst.Transitions[0].Blocks[0].Guard, inst.VarName); got != "#B < 3" || inst.N() != 6 {
		t.Errorf("instance guard %s, n %d", got, inst.N())
	}
}

func TestParamsByName(t *testing.T) {
	sys := loadExample(t, "threshold")
	got, err := sys.ParamsByName(map[string]int{"n": 4, "t": 1, "f": 0})
	if err != nil || !reflect.DeepEqual(got, []int{4, 1, 0}) {
		t.Errorf("ParamsByName = %v, %v", got, err)
	}
	_, err = sys.ParamsByName(map[string]int{"n": 4, "x": 1, "f": -2})
	want := "parameter f = -2 is negative; no parameter named x (the parameters are n, t, f); no value given for the parameter t"
	if err == nil || err.Error() != want || !errors.Is(err, errkind.Input) {
		t.Errorf("ParamsByName errors:\n got %v\nwant %s", err, want)
	}
	if _, err := loadExample(t, "lock").ParamsByName(map[string]int{"n": 1}); err == nil || !strings.Contains(err.Error(), "no parameter named n (the system has no parameters)") {
		t.Errorf("no parameters: %v", err)
	}
	if _, err := sys.SizesByName(map[string]int{"correct": 3}); err == nil || !strings.Contains(err.Error(), "the size of group correct is n - f, given by the parameters") {
		t.Errorf("SizesByName of a size over parameters: %v", err)
	}
	if got, err := sys.SizesByName(nil); err != nil || !reflect.DeepEqual(got, []int{-1}) {
		t.Errorf("SizesByName(nil) = %v, %v", got, err)
	}
}

// paramTemplate is a spec over parameters n, t, f with every place a
// parameter may appear; written out with values in place of the names
// it must give the instance InstantiateParams gives.
const paramTemplate = `
name: tmpl
params: [n, t, f]
assume: "n > 2*t & t >= f"
shared:
  c: {type: "0..", init: 0}
  m: {type: 0..9, init: 0}
  ok: {type: bool, init: false}
states: [A, B, C]
groups:
  g: "n - f"
  h: "t + 1"
  k: 2
init: A
transitions:
  - from: A
    to: B
    guard: {g: "c >= t + 1 - f & #B[g] < n", "h, k": "2*t - f < #C + c"}
    update: {g: "c := c + 1; m := t", h: "ok := true; m := n - t - f"}
  - from: B
    to: C
    guard: "c >= n - t - f | ok"
    broadcast:
      - A -> C [h]
  - {from: C, to: A, update: "c := c + f"}
rendezvous:
  - parts: [{from: B, to: A}, {from: A, to: C, groups: [k]}]
    guard: "#A >= t"
    update: "m := 2*f + t"
properties:
  p: "AG (c <= 3*n - t)"
  q: "EF (#C >= n - f & m = t)"
fairness:
  justice: ["#A < n + t"]
`

var paramWord = regexp.MustCompile(`\b[ntf]\b`)

// withValues writes the template with the parameters' values in place of
// their names, as a spec without parameters.
func withValues(n, t, f int) string {
	vals := map[string]int{"n": n, "t": t, "f": f}
	var b strings.Builder
	for _, line := range strings.Split(paramTemplate, "\n") {
		switch {
		case strings.HasPrefix(line, "params:"), strings.HasPrefix(line, "assume:"):
			continue
		case strings.HasPrefix(line, "  g:"):
			line = "  g: " + strconv.Itoa(n-f)
		case strings.HasPrefix(line, "  h:"):
			line = "  h: " + strconv.Itoa(t+1)
		case strings.Contains(line, "\""):
			line = paramWord.ReplaceAllStringFunc(line, func(w string) string { return "(" + strconv.Itoa(vals[w]) + ")" })
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// TestInstantiateParamsMatchesParse compares InstantiateParams with the
// parse of the spec written with the values, on random values that
// satisfy the assumption.
func TestInstantiateParamsMatchesParse(t *testing.T) {
	sys, err := gsst.Parse("tmpl.yaml", []byte(paramTemplate))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(2021))
	compared, refused := 0, 0
	for range 500 {
		n, tt, f := r.Intn(9), r.Intn(4), r.Intn(4)
		inst, err := sys.InstantiateParams([]int{n, tt, f}, nil)
		if !(n > 2*tt && tt >= f) {
			if err == nil || !strings.Contains(err.Error(), "do not satisfy the assumption") {
				t.Fatalf("n=%d t=%d f=%d outside the assumption: %v", n, tt, f, err)
			}
			refused++
			continue
		}
		if n-f < 1 {
			if err == nil || !strings.Contains(err.Error(), "every group needs at least one") {
				t.Fatalf("n=%d f=%d: %v", n, f, err)
			}
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("n=%d t=%d f=%d: %v", n, tt, f, err)
		}
		text := withValues(n, tt, f)
		fixed, err := gsst.Parse("tmpl.yaml", []byte(text))
		if err != nil {
			t.Fatalf("n=%d t=%d f=%d: %v\n%s", n, tt, f, err, text)
		}
		if a, b := describeAll(inst), describeAll(fixed); a != b {
			t.Fatalf("n=%d t=%d f=%d: InstantiateParams and Parse differ\n%s\n---\n%s", n, tt, f, a, b)
		}
		compared++
	}
	if compared < 100 || refused < 100 {
		t.Errorf("%d instances compared, %d refused: too few", compared, refused)
	}
}

// describeAll prints what describe does and the shared variables,
// updates, broadcasts, rendezvous and justice conditions.
func describeAll(sys *gsst.System) string {
	var b strings.Builder
	b.WriteString(describe(sys))
	term := func(t presburger.Term) string { return t.Format(sys.VarName) }
	update := func(u gsst.Update) string {
		var parts []string
		for _, a := range u.Assign {
			parts = append(parts, sys.VarName(a.Var)+" := "+term(a.Value))
		}
		return strings.Join(parts, "; ")
	}
	for _, v := range sys.Shared {
		fmt.Fprintf(&b, "shared %s %s %d\n", v.Name, v.TypeText(), v.Init)
	}
	for i := range sys.Transitions {
		tr := &sys.Transitions[i]
		for _, blk := range tr.Blocks {
			fmt.Fprintf(&b, "%s %v update %s\n", sys.TransitionName(tr), blk.Groups, update(blk.Update))
		}
		for _, x := range tr.Broadcast {
			fmt.Fprintf(&b, "%s transfer %d -> %d %v\n", sys.TransitionName(tr), x.From, x.To, x.Groups)
		}
	}
	for i := range sys.Rendezvous {
		r := &sys.Rendezvous[i]
		fmt.Fprintf(&b, "%s %v: %s; %s\n", sys.RendezvousName(r), r.Parts[1].Groups, presburger.Format(r.Guard, sys.VarName), update(r.Update))
	}
	for _, j := range sys.Fairness.Justice {
		fmt.Fprintf(&b, "justice %s\n", presburger.Format(j.Formula, sys.VarName))
	}
	return b.String()
}

// TestInstanceCondition checks the family's condition against
// InstantiateParams: the values it accepts are those that make an
// instance, with the instance's sizes and n.
func TestInstanceCondition(t *testing.T) {
	sys, err := gsst.Parse("tmpl.yaml", []byte(paramTemplate))
	if err != nil {
		t.Fatal(err)
	}
	cond := sys.InstanceCondition()
	bounds := sys.SizeBounds()
	holds := func(vals map[presburger.Var]int64) bool {
		for _, b := range bounds {
			if !b.Contains(vals[b.Var]) {
				return false
			}
		}
		return presburger.Eval(cond, func(v presburger.Var) int64 { return vals[v] })
	}
	checked := 0
	for n := range 8 {
		for tt := range 4 {
			for f := range 4 {
				inst, err := sys.InstantiateParams([]int{n, tt, f}, nil)
				vals := map[presburger.Var]int64{sys.ParamVar(0): int64(n), sys.ParamVar(1): int64(tt), sys.ParamVar(2): int64(f)}
				if err != nil {
					// The sizes the terms give do not make these values
					// an instance either.
					vals[sys.SizeVar(0)], vals[sys.SizeVar(1)], vals[sys.SizeVar(2)] = int64(n-f), int64(tt+1), 2
					vals[sys.NVar()] = int64(n-f) + int64(tt+1) + 2
					if holds(vals) {
						t.Errorf("n=%d t=%d f=%d: refused (%v), but the condition holds", n, tt, f, err)
					}
					continue
				}
				for g := range inst.Groups {
					vals[sys.SizeVar(g)] = int64(inst.Groups[g].Size)
				}
				vals[sys.NVar()] = int64(inst.N())
				if !holds(vals) {
					t.Errorf("n=%d t=%d f=%d: an instance, but the condition fails", n, tt, f)
				}
				vals[sys.SizeVar(0)]++
				vals[sys.NVar()]++
				if holds(vals) {
					t.Errorf("n=%d t=%d f=%d: the condition holds with a wrong size", n, tt, f)
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d instances", checked)
	}
}

// TestInstanceFoldsEnvironment: an instance folds n and the parameters
// in the environment steps' guards and updates, as in every other
// formula (they were left over the family's variables, and explore,
// nusmv and prove's lasso search failed on them with an internal error;
// helper-72's review).
func TestInstanceFoldsEnvironment(t *testing.T) {
	sys, err := gsst.Parse("env.yaml", []byte(`name: env
params: [k]
assume: "k >= 1"
states: [I, M]
groups:
  c: "1.."
init: I
shared:
  x: {type: "0..", init: 0}
transitions:
  - {from: I, to: M}
environment:
  - guard: "n >= 2 & x < k"
    update: "x := x + k"
    broadcast: ["M -> I"]
properties:
  z: "AG #M <= n"
`))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := sys.InstantiateParams([]int{3}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	family := map[presburger.Var]bool{inst.NVar(): true, inst.ParamVar(0): true}
	for _, st := range inst.Steps() {
		if st.Origin.Environment < 0 {
			continue
		}
		reads := presburger.FreeVars(st.Guard)
		for _, a := range st.Update.Assign {
			reads = append(reads, presburger.FreeVars(presburger.Compare(a.Value, presburger.Eq, presburger.ConstTerm(0)))...)
		}
		for _, v := range reads {
			if family[v] {
				t.Errorf("the instance's environment step reads %s: guard %s", inst.VarName(v), inst.FormatFormula(st.Guard))
			}
		}
		if got := inst.FormatFormula(st.Guard); got != "x < 3" {
			t.Errorf("the instance's environment guard is %s, want x < 3 (n = 2 folded)", got)
		}
	}
}
