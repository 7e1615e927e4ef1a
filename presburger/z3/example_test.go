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

// ExampleSolver_Prove proves mutual exclusion for the readers/writers
// counter model with any number n >= 1 of processes: counters x0..x3
// count the processes in local states L1..L4, everybody starts in L1,
// each step moves one process on around the ring, and L3 -> L4 requires
// L4 to be empty. Bad is two processes in L4.
func ExampleSolver_Prove() {
	const m = 4
	x := func(i int) pb.Var { return pb.Var(i) }        // counters
	next := func(i int) pb.Var { return pb.Var(m + i) } // their values after a step
	n := pb.Var(2 * m)                                  // the number of processes
	names := []string{"x0", "x1", "x2", "x3", "x0'", "x1'", "x2'", "x3'", "n"}

	ts := pb.TransitionSystem{Params: []pb.Var{n}, Domain: []pb.Bound{pb.AtLeast(n, 1)}}
	init := []pb.Formula{pb.Compare(pb.VarTerm(x(0)), pb.Eq, pb.VarTerm(n))}
	for i := 0; i < m; i++ {
		ts.Vars = append(ts.Vars, x(i))
		ts.Next = append(ts.Next, next(i))
		ts.Domain = append(ts.Domain, pb.AtLeast(x(i), 0)) // a counter: 0..
		if i > 0 {
			init = append(init, pb.Compare(pb.VarTerm(x(i)), pb.Eq, pb.ConstTerm(0)))
		}
		// Move one process from L(i+1) to the next local state.
		step := []pb.Formula{pb.Compare(pb.VarTerm(x(i)), pb.Ge, pb.ConstTerm(1))}
		if i == m-2 {
			step = append(step, pb.Compare(pb.VarTerm(x(m-1)), pb.Eq, pb.ConstTerm(0)))
		}
		for k := 0; k < m; k++ {
			after := pb.VarTerm(x(k))
			switch k {
			case i:
				after = after.Sub(pb.ConstTerm(1))
			case (i + 1) % m:
				after = after.Add(pb.ConstTerm(1))
			}
			step = append(step, pb.Compare(pb.VarTerm(next(k)), pb.Eq, after))
		}
		ts.Trans = append(ts.Trans, pb.Conj(step...))
	}
	ts.Init = pb.Conj(init...)
	ts.Bad = pb.Compare(pb.VarTerm(x(m-1)), pb.Ge, pb.ConstTerm(2))

	a, err := z3.New(z3.Timeout(time.Minute)).Prove(context.Background(), ts, pb.Budget{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Verdict)
	fmt.Println(pb.Format(a.Invariant, func(v pb.Var) string { return names[v] }))
	// Output:
	// proved
	// x0 + x1 + x2 + x3 - n = 0 & x3 < 2
}
