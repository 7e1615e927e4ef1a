package prove

import (
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// LinearInvariants exposes the linear invariants of m to the tests, as
// equalities over its variables, with the number that define a variable
// (and are eliminated before the prover runs).
func LinearInvariants(m *counterabs.ParamModel) (invs []presburger.Formula, pivots int) {
	for _, li := range linearInvariants(m, nil) {
		invs = append(invs, li.formula(m))
		if li.pivot >= 0 {
			pivots++
		}
	}
	return invs, pivots
}
