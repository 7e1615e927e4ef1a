package emit

import "github.com/vsym/vsym/presburger"

// Sides is a comparison T op 0 as the writers print it: positive
// monomials on the left, negated negative ones and the constant on the
// right (2*x_A - x_B + 3 >= 0 is 2*x_A >= x_B - 3), so that no printed
// term starts with a minus sign.
type Sides struct {
	Left, Right []presburger.Mono // every coefficient positive
	Const       int64             // added to Right
	Op          presburger.Op
}

// SplitCmp returns the Sides of c. Left is empty only when Right is too,
// and then c compares constants (Sides.Truth).
func SplitCmp(c presburger.Cmp) Sides {
	s := Sides{Const: -c.T.Const, Op: c.Op}
	for _, m := range c.T.Monos {
		if m.Coef > 0 {
			s.Left = append(s.Left, m)
		} else if m.Coef < 0 {
			s.Right = append(s.Right, presburger.Mono{Var: m.Var, Coef: -m.Coef})
		}
	}
	if len(s.Left) == 0 && len(s.Right) > 0 {
		// 0 op Right + k  <=>  Right op.Converse() -k
		s.Left, s.Right, s.Const, s.Op = s.Right, nil, -s.Const, s.Op.Converse()
	}
	return s
}

// Truth is the value of a comparison without monomials: 0 op Const.
func (s Sides) Truth() bool { return s.Op.Holds(-s.Const) }
