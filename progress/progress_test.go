package progress

import "testing"

type named struct{}

func (named) Name() string { return "z3" }

func TestNameOfAndReport(t *testing.T) {
	if got := NameOf(named{}); got != "z3" {
		t.Errorf("NameOf(named) = %q", got)
	}
	if got := NameOf(42); got != "" {
		t.Errorf("NameOf(42) = %q", got)
	}
	var nilFunc Func
	nilFunc.Report(Event{Phase: Parse}) // must not panic
	var got []Event
	Func(func(e Event) { got = append(got, e) }).Report(Event{Phase: Proof, K: 1, N: 2})
	if len(got) != 1 || got[0].Phase != Proof || got[0].K != 1 {
		t.Errorf("Report passed %+v", got)
	}
}
