package formats

import (
	"fmt"

	"github.com/vsym/vsym/presburger"
)

func sprintf(format string, args ...any) string {
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// isTrue reports whether f is the formula true.
func isTrue(f presburger.Formula) bool {
	b, ok := f.(presburger.Bool)
	return ok && bool(b)
}
