package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
)

// The --sizes flag of the commands that work on one structure (abstract,
// explore, nusmv): a spec whose group sizes are ranges describes a family
// of systems, and these commands need one of them. docs/gsst-format.md
// documents the convention: every ranged group must be given, fixed
// groups may be left out.

const (
	sizesFlag  = "sizes for the groups whose size is a range, as group=k,...: every ranged group must be given (fixed groups may be left out); the command then works on that instance"
	paramsFlag = "values of the spec's parameters, as name=k,...: every parameter must be given, and the values must satisfy the spec's assume; the command then works on that instance"
)

// addSizesFlag adds --sizes and --params, the flags that pick an
// instance of a family.
func addSizesFlag(f *pflag.FlagSet, sizes, params *string) {
	f.StringVar(sizes, "sizes", "", sizesFlag)
	f.StringVar(params, "params", "", paramsFlag)
}

// parseSizes reads "reader=3,writer=2" (spaces allowed around the
// parts) into sizes by group name.
func parseSizes(text string) (map[string]int, error) {
	return parseNamed(text, "--sizes", "group=size", "reader=3,writer=2", "group")
}

// parseParams reads "n=4,t=1,f=1" into values by parameter name.
func parseParams(text string) (map[string]int, error) {
	return parseNamed(text, "--params", "name=value", "n=4,t=1,f=1", "parameter")
}

// parseNamed reads a list of name=integer of the flag flag, each value
// a whole number within the limit of every value vsym computes with
// (gsst.MaxConstant); whatever is wrong with a part is said of it.
func parseNamed(text, flag, form, example, noun string) (map[string]int, error) {
	out := map[string]int{}
	for _, part := range strings.Split(text, ",") {
		name, k, ok := strings.Cut(part, "=")
		name, k = strings.TrimSpace(name), strings.TrimSpace(k)
		if !ok || name == "" || k == "" {
			return nil, errkind.Errorf(errkind.Input, "%s: %q is not %s (write e.g. %s %s)", flag, strings.TrimSpace(part), form, flag, example)
		}
		size, err := strconv.Atoi(k)
		switch {
		case errors.Is(err, strconv.ErrRange) || err == nil && (size > gsst.MaxConstant || size < -gsst.MaxConstant):
			return nil, errkind.Errorf(errkind.Input, "%s: %s=%s is out of range: the limit is %d", flag, name, k, gsst.MaxConstant)
		case err != nil:
			return nil, errkind.Errorf(errkind.Input, "%s: %s=%s: %q is not an integer (write e.g. %s %s)", flag, name, k, k, flag, example)
		}
		if _, dup := out[name]; dup {
			return nil, errkind.Errorf(errkind.Input, "%s: %s %s given twice", flag, noun, name)
		}
		out[name] = size
	}
	return out, nil
}

// loadInstance loads a GSST file and returns the system a command that
// needs fixed sizes works on: the file's system when its sizes are fixed
// and it has no parameters (and --sizes, if given, repeats them), or its
// instance of the sizes of --sizes and the parameter values of --params,
// named after them. A ranged spec without --sizes, or a spec with
// parameters without --params, is refused, naming the flag; every
// failure is bad input.
func loadInstance(cmd *cobra.Command, arg, sizes, params, command string) (*gsst.System, error) {
	// The flags are read first: what is wrong with them is wrong with
	// any spec.
	var namedSizes, namedParams map[string]int
	var err error
	if sizes != "" {
		if namedSizes, err = parseSizes(sizes); err != nil {
			return nil, err
		}
	}
	if params != "" {
		if namedParams, err = parseParams(params); err != nil {
			return nil, err
		}
	}
	sys, err := loadSpec(cmd, arg)
	if err != nil {
		return nil, err
	}
	file := displayName(arg)
	free, ranged := paramsExample(sys), sizesExample(sys)
	if params == "" && free != "" {
		return nil, analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "the spec has %s; %s needs an instance: give their values with --params, e.g. --params %s (vsym prove proves for every value)",
			parametersNamed(paramNames(sys)), command, free)
	}
	if sizes == "" && ranged != "" {
		return nil, analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "group sizes are ranges (%s); %s needs fixed sizes: give them with --sizes, e.g. --sizes %s (vsym check certifies every size at once)",
			strings.Join(sys.RangedGroups(), ", "), command, ranged)
	}
	if sizes == "" && params == "" {
		return sys, nil
	}
	var ks, values []int
	if sizes != "" {
		if ks, err = sys.SizesByName(namedSizes); err != nil {
			return nil, analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "--sizes: %v", err)
		}
	}
	if params != "" {
		if values, err = sys.ParamsByName(namedParams); err != nil {
			return nil, analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "--params: %v", err)
		}
	}
	var inst *gsst.System
	if len(sys.Params) > 0 {
		inst, err = sys.InstantiateParams(values, ks)
	} else {
		inst, err = sys.Instantiate(ks)
	}
	if err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	if inst != sys {
		var named []string
		if len(sys.Params) > 0 {
			named = append(named, sys.FormatParams(values))
		}
		if ks != nil && len(sys.RangedGroups()) > 0 {
			got := make([]int, len(inst.Groups))
			for g := range inst.Groups {
				got[g] = inst.Groups[g].Size
			}
			named = append(named, sys.FormatSizes(got))
		}
		inst.Name = fmt.Sprintf("%s [%s]", sys.Name, strings.Join(named, ", "))
	}
	return inst, nil
}

// paramsExample returns an example of --params for the parameters of
// sys that are not fixed, each value left to fill in ("n=…,t=…"), or ""
// when there are none.
func paramsExample(sys *gsst.System) string {
	free := paramNames(sys)
	if len(free) == 0 {
		return ""
	}
	return strings.Join(free, "=…,") + "=…"
}

// sizesExample returns an example of --sizes for the ranged groups of
// sys, each at the least size of its range ("reader=1,writer=1"), or ""
// when there are none.
func sizesExample(sys *gsst.System) string {
	var example []string
	for g := range sys.Groups {
		if sys.Groups[g].Ranged {
			example = append(example, fmt.Sprintf("%s=%d", sys.Groups[g].Name, sys.Groups[g].Size))
		}
	}
	return strings.Join(example, ",")
}

// instanceExample returns the flags that name an instance of sys, as
// loadInstance wants them: --params and --sizes as the spec needs them
// (paramsExample, sizesExample), none for a spec with one instance.
func instanceExample(sys *gsst.System) []string {
	var flags []string
	if p := paramsExample(sys); p != "" {
		flags = append(flags, "--params", p)
	}
	if s := sizesExample(sys); s != "" {
		flags = append(flags, "--sizes", s)
	}
	return flags
}

// paramNames returns the names of the parameters of sys not fixed.
func paramNames(sys *gsst.System) []string {
	var free []string
	for _, p := range sys.Params {
		if !p.Fixed {
			free = append(free, p.Name)
		}
	}
	return free
}

// parametersNamed names parameters: "the parameter k", "the parameters
// n, t, f".
func parametersNamed(names []string) string {
	if len(names) == 1 {
		return "the parameter " + names[0]
	}
	return "the parameters " + strings.Join(names, ", ")
}
