package cli

import (
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

const sizesFlag = "sizes for the groups whose size is a range, as group=k,...: every ranged group must be given (fixed groups may be left out); the command then works on that instance"

func addSizesFlag(f *pflag.FlagSet, p *string) { f.StringVar(p, "sizes", "", sizesFlag) }

// parseSizes reads "reader=3,writer=2" (spaces allowed around the
// parts) into sizes by group name.
func parseSizes(text string) (map[string]int, error) {
	out := map[string]int{}
	for _, part := range strings.Split(text, ",") {
		name, k, ok := strings.Cut(part, "=")
		name, k = strings.TrimSpace(name), strings.TrimSpace(k)
		size, err := strconv.Atoi(k)
		if !ok || name == "" || err != nil {
			return nil, errkind.Errorf(errkind.Input, "--sizes: %q is not group=size (write e.g. --sizes reader=3,writer=2)", strings.TrimSpace(part))
		}
		if _, dup := out[name]; dup {
			return nil, errkind.Errorf(errkind.Input, "--sizes: group %s given twice", name)
		}
		out[name] = size
	}
	return out, nil
}

// loadInstance loads a GSST file and returns the system a command that
// needs fixed sizes works on: the file's system when its sizes are fixed
// (and --sizes, if given, repeats them), or its instance of the sizes of
// --sizes, named after them. A ranged spec without --sizes is refused,
// naming the flag; every failure is bad input.
func loadInstance(cmd *cobra.Command, arg, sizes, command string) (*gsst.System, error) {
	sys, err := loadSpec(cmd, arg)
	if err != nil {
		return nil, err
	}
	file := displayName(arg)
	if sizes == "" {
		if !sys.Parametric() {
			return sys, nil
		}
		var example []string
		for g := range sys.Groups {
			if sys.Groups[g].Ranged {
				example = append(example, fmt.Sprintf("%s=%d", sys.Groups[g].Name, sys.Groups[g].Size))
			}
		}
		return nil, analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "group sizes are ranges (%s); %s needs fixed sizes: give them with --sizes, e.g. --sizes %s (vsym check certifies every size at once)",
			strings.Join(sys.RangedGroups(), ", "), command, strings.Join(example, ","))
	}
	named, err := parseSizes(sizes)
	if err != nil {
		return nil, err
	}
	ks, err := sys.SizesByName(named)
	if err != nil {
		return nil, analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "--sizes: %v", err)
	}
	inst, err := sys.Instantiate(ks)
	if err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	if inst != sys {
		inst.Name = fmt.Sprintf("%s [%s]", sys.Name, sys.FormatSizes(ks))
	}
	return inst, nil
}
