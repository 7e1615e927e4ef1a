package emit

import (
	"fmt"

	"github.com/vsym/vsym/gsst"
)

// Bound sets Header.Bound: the greatest value every unbounded shared
// variable takes in a concrete export (0: the default, BoundRule).
func Bound(b int) HeaderOption { return func(h *Header) { h.Bound = b } }

// BoundRule says, in words, how an export bounds an unbounded shared
// variable when no bound is given.
const BoundRule = "its initial value plus the number of processes"

// SharedHi returns the greatest value a concrete export gives shared
// variable v at an instance of n processes: its own for a bounded
// variable; for an unbounded one bound when bound > 0, else v.Init + n
// (BoundRule). A bound below the variable's initial value is an error.
func SharedHi(v *gsst.Shared, n, bound int) (int, error) {
	switch {
	case !v.Unbounded:
		return v.Hi, nil
	case bound <= 0:
		return v.Init + n, nil
	case bound < v.Init:
		return 0, fmt.Errorf("bound %d is below the initial value %d of shared variable %s", bound, v.Init, v.Name)
	}
	return bound, nil
}

// BoundText states the bound of unbounded shared variable v for a
// header: "nsent: 0..8 (unbounded in the spec; 8 = initial value 0 + 8
// processes, the default bound)".
func BoundText(v *gsst.Shared, hi, bound int) string {
	if bound > 0 {
		return fmt.Sprintf("%s: %d..%d (unbounded in the spec; bound %d, as asked)", v.Name, v.Lo, hi, hi)
	}
	return fmt.Sprintf("%s: %d..%d (unbounded in the spec; bound %d = initial value %d + %d processes, the default)", v.Name, v.Lo, hi, hi, v.Init, hi-v.Init)
}
