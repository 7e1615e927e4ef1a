package detect

import (
	"time"

	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

func init() {
	solvers = append(solvers, struct {
		name     string
		s        presburger.Solver
		complete bool
	}{"z3", z3.New(z3.Timeout(20 * time.Second)), true})
}
