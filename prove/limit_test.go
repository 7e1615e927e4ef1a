package prove_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestRunPastMaxValue: a run that must start past the integers vsym
// represents (a premise "x > 10^9" on an unbounded variable) is a limit
// error, not an internal one (helper-72's review found "please report
// this").
func TestRunPastMaxValue(t *testing.T) {
	sys, err := gsst.Parse("big.yaml", []byte(`name: big
states: [A, B]
groups:
  p: "1.."
shared:
  x: {type: "0..", init: "0.."}
init: A
transitions:
  - {from: A, to: B, guard: "x >= 1"}
properties:
  big: "x > 1000000000 -> AG #B = 0"
`))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	_, err = prove.Check(context.Background(), sys, s, s)
	if !errors.Is(err, errkind.Limit) {
		t.Errorf("Check: %v (kind %v), want a limit error", err, errkind.Of(err))
	}
}
