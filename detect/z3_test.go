package detect

import (
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

func init() {
	solvers = append(solvers, struct {
		name     string
		s        presburger.Solver
		complete bool
	}{"z3", z3.New(), true})
}
