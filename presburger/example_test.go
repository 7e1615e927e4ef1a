package presburger_test

import (
	"context"
	"fmt"

	pb "github.com/vsym/vsym/presburger"
)

func Example() {
	names := []string{"idle", "busy"}
	name := func(v pb.Var) string { return names[v] }
	idle, busy := pb.VarTerm(0), pb.VarTerm(1)
	// busy >= 1 & idle + busy = 3, as a guard over two counters.
	f := pb.Conj(pb.Compare(busy, pb.Ge, pb.ConstTerm(1)), pb.Compare(idle.Add(busy), pb.Eq, pb.ConstTerm(3)))
	fmt.Println(pb.Format(f, name))
	fmt.Println(pb.Format(pb.NNF(pb.Negation(f)), name))
	p := pb.Problem{Bounds: []pb.Bound{{Var: 0, Lo: 0, Hi: 3}, {Var: 1, Lo: 0, Hi: 3}}, F: pb.Conj(f, pb.Compare(idle, pb.Gt, busy))}
	a, _ := pb.BruteForce{}.Solve(context.Background(), p)
	fmt.Println(a.Result, a.Model[0], a.Model[1])
	// Output:
	// busy >= 1 & idle + busy = 3
	// busy < 1 | idle + busy < 3 | idle + busy > 3
	// sat 2 1
}
