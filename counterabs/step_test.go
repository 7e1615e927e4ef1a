package counterabs

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// cacheSystem is a tiny cache protocol beyond the paper: I -> S reads,
// I -> M writes and invalidates every other cache in S (a broadcast),
// M -> I writes back and counts the write-backs in a shared variable;
// a rendezvous moves a cache in S and one in M to I together.
func cacheSystem(t *testing.T, restrict bool) *gsst.System {
	t.Helper()
	sp := &gsst.Spec{Name: "cache", States: []string{"I", "S", "M"},
		Groups: []gsst.Group{{Name: "a", Size: 2}, {Name: "b", Size: 1}}, Init: [][]int{{2, 0, 0}, {1, 0, 0}}}
	sp.Shared = []gsst.Shared{{Name: "wb", Lo: 0, Hi: 2}}
	wb := presburger.VarTerm(sp.SharedVar(0))
	all := []int{0, 1}
	noM := cmp(presburger.VarTerm(sp.TotalVar(2)), presburger.Eq, 0)
	tr := gsst.Transfer{From: 1, To: 0}
	if restrict {
		tr.Groups = []int{1}
	}
	sp.Transitions = []gsst.Transition{
		{From: 0, To: 1, Blocks: []gsst.Block{{Groups: all, Guard: noM}}},
		{From: 0, To: 2, Blocks: []gsst.Block{{Groups: all, Guard: noM}}, Broadcast: []gsst.Transfer{tr}},
		{From: 2, To: 0, Blocks: []gsst.Block{{Groups: all, Guard: presburger.True,
			Update: gsst.Update{Assign: []gsst.Assign{{Var: sp.SharedVar(0), Value: wb.Add(presburger.ConstTerm(1))}}, Text: "wb := wb + 1"}}}},
	}
	sp.Rendezvous = []gsst.Rendezvous{{Parts: []gsst.Part{{From: 1, To: 0}, {From: 2, To: 0}}, Guard: presburger.True}}
	sys, err := gsst.New(sp)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestGroupModelSteps: the group-counter model of a system with a
// broadcast, an update and a rendezvous has the transitions the contract
// says, each named and remembering its step, and its steps do what the
// language says.
func TestGroupModelSteps(t *testing.T) {
	m, err := BuildGroup(cacheSystem(t, true))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range m.Transitions {
		names = append(names, m.TransitionName(&m.Transitions[i]))
	}
	want := []string{"I -> S [a]", "I -> S [b]", "I -> M [a]", "I -> M [b]", "M -> I [a]", "M -> I [b]",
		"rendezvous S -> I [a], M -> I [a]", "rendezvous S -> I [a], M -> I [b]", "rendezvous S -> I [b], M -> I [a]", "rendezvous S -> I [b], M -> I [b]"}
	if !slices.Equal(names, want) {
		t.Errorf("transitions %q, want %q", names, want)
	}
	if m.NumVars() != 7 || m.SharedVar(0) != 6 || !slices.Equal(m.Init, []int{2, 0, 0, 1, 0, 0, 0}) {
		t.Errorf("variables %d, shared at %d, init %v", m.NumVars(), m.SharedVar(0), m.Init)
	}
	// The restricted transfer moves group b only.
	if tr := m.Transitions[2].Transfers; !slices.Equal(tr, []Move{{From: m.Counter(1, 1), To: m.Counter(0, 1)}}) {
		t.Errorf("transfers of I -> M [a]: %v", tr)
	}
	// Step: a in I -> M; b's process in S goes to I, a's in S stays.
	x := []int{1, 1, 0, 0, 1, 0, 2}
	if got := mustStep(t, m, &m.Transitions[2], x); !slices.Equal(got, []int{0, 1, 1, 1, 0, 0, 2}) {
		t.Errorf("I -> M [a] from %v: %v", x, got)
	}
	// The update: wb + 1, disabled at the top of its domain.
	x = []int{1, 0, 1, 1, 0, 0, 1}
	wbInc := &m.Transitions[4]
	if got := mustStep(t, m, wbInc, x); got[6] != 2 {
		t.Errorf("M -> I [a] from %v: %v", x, got)
	}
	val := func(x []int) func(presburger.Var) int64 { return func(v presburger.Var) int64 { return int64(x[v]) } }
	if x[6] = 2; presburger.Eval(wbInc.Guard, val(x)) {
		t.Errorf("M -> I [a] enabled where wb would leave 0..2: %s", presburger.Format(wbInc.Guard, m.VarName))
	}
	// Each transition remembers its step and groups: I -> M [a] is the
	// second step taken by a, the rendezvous by (b, a) the fourth step.
	if tr := m.Transitions[2]; !slices.Equal(tr.Steps, []int{1}) || !slices.Equal(tr.Groups, []int{0}) || m.StepOf(&tr).Origin.Transition != 1 {
		t.Errorf("I -> M [a] takes steps %v by groups %v", tr.Steps, tr.Groups)
	}
	if tr := m.Transitions[8]; !slices.Equal(tr.Steps, []int{3}) || !slices.Equal(tr.Groups, []int{1, 0}) || m.StepOf(&tr).Origin.Rendezvous != 0 {
		t.Errorf("%s takes steps %v by groups %v", m.TransitionName(&tr), tr.Steps, tr.Groups)
	}
}

// TestStepTransferSkipsMovers: a transfer moves the processes of its
// source that are not movers; a mover arriving in the source stays.
func TestStepTransferSkipsMovers(t *testing.T) {
	m := &Model{Counters: make([]Counter, 3)}
	tr := &Transition{From: 0, To: 1, Transfers: []Move{{From: 1, To: 2}, {From: 0, To: 1}}}
	// 2 in counter 0 (one moves to 1, the other is transferred to 1),
	// 1 in counter 1 (transferred to 2); the mover stays in 1.
	if got := mustStep(t, m, tr, []int{2, 1, 0}); !slices.Equal(got, []int{0, 2, 1}) {
		t.Errorf("Step: %v, want [0 2 1]", got)
	}
}

// TestAssembleChecksSteps: Assemble refuses, as bad input, a transition
// that does not do what its step does.
func TestAssembleChecksSteps(t *testing.T) {
	sys := cacheSystem(t, false)
	good, err := BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name string
		edit func(tr *Transition)
	}{
		{"transfer across pools", func(tr *Transition) { tr.Transfers = []Move{{From: 0, To: 3}} }},
		{"transfer to itself", func(tr *Transition) { tr.Transfers = []Move{{From: 1, To: 1}} }},
		{"assign a counter", func(tr *Transition) { tr.Assign = []Assign{{Var: 0, Value: presburger.ConstTerm(1)}} }},
		{"assign reading a counter", func(tr *Transition) {
			tr.Assign = []Assign{{Var: 6, Value: presburger.VarTerm(0)}}
		}},
		{"assign twice", func(tr *Transition) {
			tr.Assign = []Assign{{Var: 6, Value: presburger.ConstTerm(0)}, {Var: 6, Value: presburger.ConstTerm(1)}}
		}},
		{"second mover of a local transition", func(tr *Transition) { tr.Also = []Move{{From: 0, To: 1}} }},
		{"rendezvous of one process", func(tr *Transition) { tr.Local, tr.Rendezvous = -1, 0 }},
		{"unknown rendezvous", func(tr *Transition) { tr.Local, tr.Rendezvous, tr.Also = -1, 5, []Move{{From: 0, To: 1}} }},
	}
	for _, c := range bad {
		trans := slices.Clone(good.Transitions)
		c.edit(&trans[0])
		if _, err := Assemble(sys, GroupLevel, trans, true); err == nil || errkind.Of(err) != errkind.Input {
			t.Errorf("%s: %v, want an input error", c.name, err)
		}
	}
	if _, err := Assemble(sys, GroupLevel, good.Transitions, true); err != nil {
		t.Errorf("the model's own transitions: %v", err)
	}
}

// TestTotalModelSteps: the total-counter model of the cache system has
// one transition per local transition and the rendezvous, with constant
// moves and the unrestricted transfer on total counters; a
// group-restricted broadcast and a forced model are refused with the
// reason in words.
func TestTotalModelSteps(t *testing.T) {
	ctx := context.Background()
	m, err := Build(ctx, cacheSystem(t, false), bf, proj)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Transitions) != 4 || !m.Exact {
		t.Fatalf("%d transitions, exact %v", len(m.Transitions), m.Exact)
	}
	if tr := m.Transitions[1]; !slices.Equal(tr.Transfers, []Move{{From: 1, To: 0}}) {
		t.Errorf("I -> M transfers %v", tr.Transfers)
	}
	r := m.Transitions[3]
	if r.Local != -1 || r.Rendezvous != 0 || !slices.Equal(r.Also, []Move{{From: 2, To: 0}}) || m.TransitionName(&r) != "rendezvous S -> I, M -> I" {
		t.Errorf("rendezvous transition %+v named %q", r, m.TransitionName(&r))
	}
	_, err = Build(ctx, cacheSystem(t, true), bf, proj)
	if err == nil || errkind.Of(err) != errkind.Input || !strings.Contains(err.Error(), "some groups only") {
		t.Errorf("group-restricted broadcast: %v", err)
	}
	if why := GroupReason(cacheSystem(t, true), false); !strings.Contains(why, "broadcast of I -> M") {
		t.Errorf("GroupReason: %q", why)
	}
	_, err = Build(ctx, cacheSystem(t, false), bf, proj, Force())
	if err == nil || errkind.Of(err) != errkind.Input || !strings.Contains(err.Error(), "forced") || !strings.Contains(err.Error(), "I -> M broadcasts") {
		t.Errorf("forced: %v", err)
	}
	var nc *NotCertifiedError
	if errors.As(err, &nc) {
		t.Errorf("forced: a NotCertifiedError")
	}
}

// mustStep is m.Step on a model whose values stay far inside
// gsst.MaxValue.
func mustStep(t *testing.T, m *Model, tr *Transition, x []int) []int {
	t.Helper()
	y, err := m.Step(tr, x)
	if err != nil {
		t.Fatal(err)
	}
	return y
}
