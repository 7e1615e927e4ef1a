package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

// Shell completion: cobra's "vsym completion bash|zsh|fish|powershell"
// writes the script, and the script asks "vsym __complete ARGS..." for
// candidates. addCompletions teaches the commands what to offer: YAML
// files where a spec is expected, the property names of the spec already
// on the command line for --property and --trace, and the bundled specs
// for "gen example". docs/completion.md documents it.

// propertyFlags are the flags whose values are property names.
var propertyFlags = []string{"property", "trace"}

func addCompletions(root *cobra.Command) {
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		if strings.Contains(cmd.Use, "FILE") && cmd.ValidArgsFunction == nil {
			cmd.ValidArgsFunction = completeSpecs(strings.Contains(cmd.Use, "FILE..."))
		}
		for _, name := range propertyFlags {
			if cmd.Flags().Lookup(name) != nil {
				// Registering twice is the only error, and names are unique.
				_ = cmd.RegisterFlagCompletionFunc(name, completeProperties)
			}
		}
		if cmd.Name() == "example" && cmd.HasParent() && cmd.Parent().Name() == "gen" {
			cmd.ValidArgsFunction = completeExamples
		}
		for _, c := range cmd.Commands() {
			walk(c)
		}
	}
	walk(root)
}

// completeSpecs offers files ending in .yaml or .yml (and directories) as
// spec arguments: for as many arguments as the command takes.
func completeSpecs(many bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 && !many {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return []cobra.Completion{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
	}
}

// completeProperties offers the property names of the spec given as the
// first argument. The spec is read quietly: a missing or broken spec
// offers nothing and prints nothing. A comma-separated list (-p a,b)
// completes its last element and leaves out the names already in it.
func completeProperties(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	sys, err := gsst.Load(args[0])
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	done, partial := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done, partial = toComplete[:i+1], toComplete[i+1:]
	}
	given := map[string]bool{}
	for _, name := range strings.Split(done, ",") {
		given[name] = true
	}
	var out []cobra.Completion
	for _, p := range sys.Properties {
		if strings.HasPrefix(p.Name, partial) && !given[p.Name] {
			out = append(out, cobra.CompletionWithDesc(done+p.Name, p.Text))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeExamples offers the names of the bundled specs.
func completeExamples(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, f := range specs.List() {
		if name := strings.TrimSuffix(f, ".yaml"); strings.HasPrefix(name, toComplete) {
			out = append(out, name)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
