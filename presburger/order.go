package presburger

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// SameUpToOrder reports whether f and g are one formula but for the
// order of the operands of their conjunctions and disjunctions, at any
// depth: two spellings of a condition that a person writes twice, once
// as "a & b" and once as "b & a", which a reader matching one against
// the other must take as the same.
func SameUpToOrder(f, g Formula) bool {
	return reflect.DeepEqual(f, g) || orderFree(f) == orderFree(g)
}

// orderFree returns a text of f in which the operands of each And and
// Or are sorted.
func orderFree(f Formula) string {
	switch f := f.(type) {
	case And:
		return "&(" + sortedKeys(f) + ")"
	case Or:
		return "|(" + sortedKeys(f) + ")"
	case Not:
		return "!(" + orderFree(f.F) + ")"
	case Exists:
		return fmt.Sprintf("E%v(%s)", f.Vars, orderFree(f.Body))
	case Cmp:
		// %v, not %#v: a nil and an empty list of monomials are one term.
		return fmt.Sprintf("%d:%v:%d", f.Op, f.T.Monos, f.T.Const)
	default:
		return fmt.Sprintf("%v", f)
	}
}

func sortedKeys(fs []Formula) string {
	keys := make([]string, len(fs))
	for i, f := range fs {
		keys[i] = orderFree(f)
	}
	slices.Sort(keys)
	return strings.Join(keys, ",")
}
