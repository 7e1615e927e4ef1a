package z3_test

import (
	"context"
	"testing"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

func TestProveGRW(t *testing.T) {
	s := z3.New()
	a, err := s.Prove(context.Background(), grw(4, true).system())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v %s %v %s", a.Verdict, pb.Format(a.Invariant, name), a.Counterexample, a.Reason)
	a, err = s.Prove(context.Background(), grw(4, false).system())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v %v %v %s", a.Verdict, a.Invariant, a.Counterexample, a.Reason)
}
