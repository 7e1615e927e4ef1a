package z3_test

import (
	"context"
	"fmt"
	"time"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

func ExampleSolver_Solve() {
	x, y := pb.Var(0), pb.Var(1)
	X, Y := pb.VarTerm(x), pb.VarTerm(y)
	p := pb.Problem{
		Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 10}, {Var: y, Lo: 0, Hi: 10}},
		F:      pb.Conj(pb.Compare(X.Add(Y), pb.Eq, pb.ConstTerm(7)), pb.Compare(X.Sub(Y), pb.Eq, pb.ConstTerm(1))),
	}
	a, err := z3.New(z3.Timeout(10*time.Second)).Solve(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Result, a.Model[x], a.Model[y])
	// Output: sat 4 3
}

func ExampleSolver_Project() {
	x, y := pb.Var(0), pb.Var(1)
	p := pb.Problem{
		Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 5}, {Var: y, Lo: 0, Hi: 5}},
		F:      pb.Compare(pb.Sum(x, y), pb.Eq, pb.ConstTerm(7)),
	}
	// Which x in 0..5 have a y in 0..5 with x + y = 7?
	f, r, err := z3.New().Project(context.Background(), p, []pb.Var{x})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r, pb.Format(f, func(pb.Var) string { return "x" }))
	// Output: sat x >= 2
}
