package explore_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
)

// TestStateJSON: trace states are objects naming their counters, totals
// first in state order, then group counters group by group; decoding
// gives the same counters back.
func TestStateJSON(t *testing.T) {
	tr := firstTrace(t, "rw.yaml", `name: rw
states: [N, T, C]
groups: {reader: 1, writer: 2}
init: N
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: {reader: "#C = 0 & #T[writer] = 0", writer: "#C = 0"}}
  - {from: C, to: N}
properties:
  reach: "EF #C[writer] = 1"
`)
	if tr == nil || len(tr.States) < 2 {
		t.Fatalf("want a witness, got %+v", tr)
	}
	data, err := json.Marshal(tr.States[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"#N":3,"#T":0,"#C":0,"#N[reader]":1,"#T[reader]":0,"#C[reader]":0,"#N[writer]":2,"#T[writer]":0,"#C[writer]":0}`
	if string(data) != want {
		t.Errorf("initial state is %s, want %s", data, want)
	}
	whole, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var back explore.Trace
	if err := json.Unmarshal(whole, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.States) != len(tr.States) {
		t.Fatalf("decoded %d states, want %d", len(back.States), len(tr.States))
	}
	for i := range tr.States {
		if !reflect.DeepEqual(back.States[i].Counters, tr.States[i].Counters) || !reflect.DeepEqual(back.States[i].Groups, tr.States[i].Groups) {
			t.Errorf("state %d decoded as %+v, want %+v", i, back.States[i], tr.States[i])
		}
	}

	// A hand-made state names its counters by index.
	data, _ = json.Marshal(explore.State{Counters: []int{1, 2}, Groups: [][]int{{1, 0}, {0, 2}}})
	if want := `{"#0":1,"#1":2,"#0[0]":1,"#1[0]":0,"#0[1]":0,"#1[1]":2}`; string(data) != want {
		t.Errorf("hand-made state is %s, want %s", data, want)
	}
	for _, bad := range []string{`[1,2]`, `{"N":1}`, `{"#N":"x"}`} {
		var s explore.State
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("decoding %s: no error", bad)
		}
	}
}

// TestStateJSONShared: the shared values of a state are written last,
// under "shared", as the language writes them, and read back; an
// enumeration constant read back without its system is written back as
// read.
func TestStateJSONShared(t *testing.T) {
	tr := firstTrace(t, "lock.yaml", `name: lock
shared:
  lock: {type: bool, init: false}
  turn: {type: [reader, writer], init: writer}
  k: {type: 0..3, init: 2}
states: [N, C]
groups: {p: 2}
init: N
transitions:
  - {from: N, to: C, guard: "!lock", update: "lock := true; turn := reader"}
  - {from: C, to: N, update: "lock := false"}
properties:
  reach: "EF #C = 1"
`)
	if tr == nil || len(tr.States) != 2 {
		t.Fatalf("want a witness of two states, got %+v", tr)
	}
	data, err := json.Marshal(tr.States[1])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"#N":1,"#C":1,"#N[p]":1,"#C[p]":1,"shared":{"lock":true,"turn":"reader","k":2}}`
	if string(data) != want {
		t.Errorf("state is %s, want %s", data, want)
	}
	if got := tr.States[1].SharedText(); got != "lock=true turn=reader k=2" {
		t.Errorf("text %q", got)
	}
	var back explore.State
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Shared, []int{1, -1, 2}) || !reflect.DeepEqual(back.Counters, []int{1, 1}) {
		t.Errorf("decoded %+v", back)
	}
	again, _ := json.Marshal(back)
	if want := `{"#0":1,"#1":1,"#0[0]":1,"#1[0]":1,"shared":{"0":1,"1":"reader","2":2}}`; string(again) != want {
		t.Errorf("written back as %s, want %s", again, want)
	}
	// The lifted step carries the shared values after it.
	step, _ := json.Marshal(tr.Lifted.Steps[0])
	if !strings.HasSuffix(string(step), `"shared":{"lock":true,"turn":"reader","k":2}}`) {
		t.Errorf("lifted step %s", step)
	}
}

// firstTrace returns the explicit engine's trace of the first property
// of the system src on its group-counter model.
func firstTrace(t *testing.T, file, src string) *explore.Trace {
	t.Helper()
	sys, err := gsst.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explicit.Engine{}.Check(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Properties[0].Trace
}
