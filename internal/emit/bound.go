package emit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
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
// up to gsst.MaxValue (BoundRule). A bound below the variable's initial
// value, or beyond gsst.MaxValue, is an error.
func SharedHi(v *gsst.Shared, n, bound int) (int, error) {
	switch {
	case !v.Unbounded:
		return v.Hi, nil
	case bound <= 0:
		return min(v.InitMax()+n, gsst.MaxValue), nil
	case bound < v.InitMax():
		return 0, fmt.Errorf("bound %d is below the initial value %d of shared variable %s", bound, v.InitMax(), v.Name)
	case bound > gsst.MaxValue:
		return 0, fmt.Errorf("bound %d of shared variable %s is beyond the limit of %d on a shared variable's value", bound, v.Name, gsst.MaxValue)
	}
	return bound, nil
}

// BoundText states the bound of unbounded shared variable v for a
// header: "nsent: 0..8 (unbounded in the spec; 8 = initial value 0 + 8
// processes, the default bound)", or the limit when the default reaches it.
func BoundText(v *gsst.Shared, hi, bound int) string {
	switch {
	case bound > 0:
		return fmt.Sprintf("%s: %d..%d (unbounded in the spec; bound %d, as asked)", v.Name, v.Lo, hi, hi)
	case hi == gsst.MaxValue:
		return fmt.Sprintf("%s: %d..%d (unbounded in the spec; bound %d, the limit on a shared variable's value, the default)", v.Name, v.Lo, hi, hi)
	}
	return fmt.Sprintf("%s: %d..%d (unbounded in the spec; bound %d = initial value %d + %d processes, the default)", v.Name, v.Lo, hi, hi, v.InitMax(), hi-v.InitMax())
}

// Domains returns the domains of the shared variables of sys in an
// export that cuts every unbounded variable j at hi[j] (SharedHi): what
// gsst.Spec.InDomain reads when a step's update must stay within the
// export's ranges.
func Domains(sys *gsst.System, hi []int) []gsst.Shared {
	out := slices.Clone(sys.Shared)
	for j := range out {
		if out[j].Unbounded {
			out[j].Hi, out[j].Unbounded = hi[j], false
		}
	}
	return out
}

// Over returns the condition that the assignments as take some unbounded
// variable beyond its bound hi[j], nil when they assign none.
func Over(sys *gsst.System, hi []int, as []gsst.Assign) presburger.Formula {
	var fs []presburger.Formula
	for _, a := range as {
		j, _ := sys.SharedOf(a.Var)
		if sys.Shared[j].Unbounded {
			fs = append(fs, presburger.Compare(a.Value, presburger.Gt, presburger.ConstTerm(int64(hi[j]))))
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return presburger.Disj(fs...)
}

// PartsText writes the parts of a step: "P -> P2, C -> C2 [consumer]".
func PartsText(sys *gsst.System, ps []gsst.Part) string {
	var parts []string
	for _, pt := range ps {
		parts = append(parts, sys.States[pt.From]+" -> "+sys.States[pt.To]+GroupsText(sys, pt.Groups))
	}
	return strings.Join(parts, ", ")
}

// GroupsText writes a restriction to groups, " [g, h]", or "" for nil.
func GroupsText(sys *gsst.System, groups []int) string {
	if groups == nil {
		return ""
	}
	var gs []string
	for _, g := range groups {
		gs = append(gs, sys.Groups[g].Name)
	}
	return " [" + strings.Join(gs, ", ") + "]"
}

// HasUnbounded reports whether sys has an unbounded shared variable.
func HasUnbounded(sys *gsst.System) bool {
	for j := range sys.Shared {
		if sys.Shared[j].Unbounded {
			return true
		}
	}
	return false
}

// ParamsText states the parameter values of an instance, "" when it has
// none: "t = 1, f = 0".
func ParamsText(sys *gsst.System) string {
	var ps []string
	for _, pa := range sys.Params {
		ps = append(ps, fmt.Sprintf("%s = %d", pa.Name, pa.Value))
	}
	return strings.Join(ps, ", ")
}

// Linear writes the linear term t as its positive part (with the
// constant) minus its negative part in parentheses, "x + 1 - (y)", with
// variables named by name: a syntax NuSMV and Promela share.
func Linear(t presburger.Term, name func(presburger.Var) (string, error)) (string, error) {
	var pos, neg []string
	for _, m := range t.Monos {
		v, err := name(m.Var)
		if err != nil {
			return "", err
		}
		c := m.Coef
		if c < 0 {
			c = -c
		}
		if c != 1 {
			v = strconv.FormatInt(c, 10) + "*" + v
		}
		if m.Coef > 0 {
			pos = append(pos, v)
		} else {
			neg = append(neg, v)
		}
	}
	l := strings.Join(pos, " + ")
	switch {
	case len(pos) == 0:
		l = strconv.FormatInt(t.Const, 10)
	case t.Const > 0:
		l += " + " + strconv.FormatInt(t.Const, 10)
	case t.Const < 0:
		l += " - " + strconv.FormatInt(-t.Const, 10)
	}
	if len(neg) == 0 {
		return l, nil
	}
	return l + " - (" + strings.Join(neg, " + ") + ")", nil
}
