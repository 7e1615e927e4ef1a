package detect

import (
	"context"
	"strings"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// HasInstance returns nil when the family sys describes has an instance,
// and otherwise an error of kind errkind.Input (a gsst.ErrorList, at the
// assumption or at a group's size): no values of its parameters (each at
// least 0) satisfy the assumption and give every group at least one
// process. A question about every instance of such a family would be
// answered vacuously: every property "holds", every transition is
// "symmetric", for no system at all. Certify and prove.Check refuse it
// with this error, as the rules refuse an empty range of sizes.
//
// A system whose parameters are all fixed (or that has none) always has
// an instance, its own: the rules and InstantiateParams saw to it. The
// solver's Unknown is an error of kind errkind.Unknown.
func HasInstance(ctx context.Context, sys *gsst.System, s presburger.Solver) error {
	free := freeParams(sys)
	if len(free) == 0 {
		return nil
	}
	if s == nil {
		return errNoSolver
	}
	bounds := sys.SizeBounds()
	for _, k := range free {
		bounds = append(bounds, presburger.AtLeast(sys.ParamVar(k), 0))
	}
	empty := func(f presburger.Formula) (bool, error) {
		ans, err := s.Solve(ctx, presburger.Problem{Bounds: bounds, F: f})
		switch {
		case err != nil:
			return false, err
		case ans.Result == presburger.Unknown:
			return false, errkind.Errorf(errkind.Unknown, "%s: whether the family has an instance is unknown: %s", sys.Name, ans.Reason)
		}
		return ans.Result == presburger.Unsat, nil
	}
	family := sys.InstanceCondition()
	none, err := empty(family)
	if err != nil || !none {
		return err
	}
	// Say why: the assumption alone, one group's size, or only their
	// combination.
	names := make([]string, len(free))
	for i, k := range free {
		names[i] = sys.Params[k].Name
	}
	params := "the parameters " + strings.Join(names, ", ") + " (each at least 0)"
	if len(names) == 1 {
		params = "the parameter " + names[0] + " (at least 0)"
	}
	var errs gsst.ErrorList
	var assume presburger.Formula = presburger.True
	if sys.Assume.Formula != nil {
		assume = sys.Assume.Formula
		noValues, err := empty(assume)
		if err != nil {
			return err
		}
		if noValues {
			errs.Add(sys.Assume.Pos, "the family has no instance: no values of %s satisfy the assumption %s", params, sys.Assume.Text)
			return errs
		}
	}
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if !grp.OverParams() {
			continue
		}
		atLeastOne := presburger.Compare(grp.SizeTerm, presburger.Ge, presburger.ConstTerm(1))
		zero, err := empty(presburger.Conj(assume, atLeastOne))
		if err != nil {
			return err
		}
		if zero {
			where := ""
			if sys.Assume.Formula != nil {
				where = " that satisfies the assumption " + sys.Assume.Text
			}
			errs.Add(grp.SizePos, "the family has no instance: group %s would have %s processes, fewer than one, at every value of %s%s", grp.Name, grp.SizeTermText, params, where)
		}
	}
	if len(errs) == 0 {
		if sys.Assume.Formula != nil {
			errs.Add(sys.Assume.Pos, "the family has no instance: no values of %s satisfy the assumption %s and give every group at least one process", params, sys.Assume.Text)
		} else {
			pos := gsst.Pos{File: sys.File}
			for g := range sys.Groups {
				if sys.Groups[g].OverParams() {
					pos = sys.Groups[g].SizePos
					break
				}
			}
			errs.Add(pos, "the family has no instance: no values of %s give every group at least one process", params)
		}
	}
	errs.Sort()
	return errs
}

// freeParams returns the indices of the parameters of sys not fixed.
func freeParams(sys *gsst.System) []int {
	var out []int
	for k := range sys.Params {
		if !sys.Params[k].Fixed {
			out = append(out, k)
		}
	}
	return out
}
