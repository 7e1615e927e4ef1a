package cli

import (
	"bytes"
	"fmt"
	"io"
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
// for "gen example", and the values of the flags that take one of a few
// (flagValues). docs/completion.md documents it.

// propertyFlags are the flags whose values are property names.
var propertyFlags = []string{"property", "trace"}

// flagValues returns the values a flag of cmd takes when they are a fixed
// few (--engine, --model, --output, --bdd-order), else nil.
func flagValues(cmd *cobra.Command, name string) []string {
	switch name {
	case "engine":
		return []string{"auto", "explicit", "bdd"}
	case "bdd-order":
		return []string{"auto", "interleaved", "blocked", "split"}
	case "model":
		if cmd.Name() == "nusmv" || cmd.Name() == "promela" {
			return []string{"auto", "total", "group", "concrete"}
		}
		return []string{"auto", "total", "group"}
	case "format":
		return []string{formatAuto, formatYAML, formatTA, formatSpec}
	case "output":
		if f := cmd.Flags().Lookup(name); f != nil && f.Usage == "output format: "+sarifFormats {
			return []string{"text", "json", "sarif"}
		}
		return []string{"text", "json"}
	}
	return nil
}

func addCompletions(root *cobra.Command) {
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		if strings.Contains(cmd.Use, "FILE") && cmd.ValidArgsFunction == nil {
			cmd.ValidArgsFunction = completeSpecs(strings.Contains(cmd.Use, "FILE..."))
		}
		// Registering twice is the only error, and names are unique.
		for _, name := range propertyFlags {
			if cmd.Flags().Lookup(name) != nil {
				_ = cmd.RegisterFlagCompletionFunc(name, completeProperties)
			}
		}
		for _, name := range []string{"sizes", "params"} {
			if cmd.Flags().Lookup(name) != nil {
				_ = cmd.RegisterFlagCompletionFunc(name, completeInstance(name))
			}
		}
		for _, name := range []string{"engine", "bdd-order", "model", "output", "format"} {
			if cmd.Flags().Lookup(name) != nil {
				_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(flagValues(cmd, name), cobra.ShellCompDirectiveNoFileComp))
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
	// Cobra's completion command, made here rather than when the command
	// line runs so that bash's can be replaced; each shell's command then
	// writes to the output of the run, which cobra's would have taken
	// from the root as it is now.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		for _, sh := range c.Commands() {
			sh.RunE = writeCompletion
		}
	}
}

// writeCompletion writes the completion script of the shell cmd is named
// after, with descriptions unless --no-descriptions is given.
func writeCompletion(cmd *cobra.Command, args []string) error {
	noDesc, _ := cmd.Flags().GetBool("no-descriptions")
	root, out := cmd.Root(), cmd.OutOrStdout()
	switch cmd.Name() {
	case "bash":
		return writeBashCompletion(root, out, !noDesc)
	case "zsh":
		if noDesc {
			return root.GenZshCompletionNoDesc(out)
		}
		return root.GenZshCompletion(out)
	case "fish":
		return root.GenFishCompletion(out, !noDesc)
	case "powershell":
		if noDesc {
			return root.GenPowerShellCompletion(out)
		}
		return root.GenPowerShellCompletionWithDesc(out)
	}
	return fmt.Errorf("internal error: no completion script for %s", cmd.Name())
}

// bashCommaFixes make cobra's bash script complete words with commas
// (-p mutex,<TAB>). The script compares what the user typed with each
// candidate quoted by printf %q, and bash 5.2's %q writes a comma as
// "\,", so "mutex,reachable" never matched "mutex,": after each of
// these lines, the quoted comma is unquoted again (a comma needs no
// quoting outside braces).
var bashCommaFixes = []struct{ line, fix string }{
	{`printf -v comp "%q" "${compline%%$tab*}" &>/dev/null || comp=$(printf "%q" "${compline%%$tab*}")`, `comp=${comp//\\,/,}`},
	{`COMPREPLY[0]=$(printf "%q" "${COMPREPLY[0]%%$tab*}")`, `COMPREPLY[0]=${COMPREPLY[0]//\\,/,}`},
	{`COMPREPLY[0]=$(printf "%q" "${COMPREPLY[0]}")`, `COMPREPLY[0]=${COMPREPLY[0]//\\,/,}`},
	{`IFS=$'\n' read -ra COMPREPLY -d '' < <(printf "%q\n" "${COMPREPLY[@]}")`, `COMPREPLY=("${COMPREPLY[@]//\\,/,}")`},
}

// writeBashCompletion writes cobra's bash script with bashCommaFixes;
// it fails when the script no longer has a line to fix, so that a new
// cobra cannot drop a fix unnoticed.
func writeBashCompletion(root *cobra.Command, out io.Writer, desc bool) error {
	var buf bytes.Buffer
	if err := root.GenBashCompletionV2(&buf, desc); err != nil {
		return err
	}
	script := buf.String()
	for _, f := range bashCommaFixes {
		i := strings.Index(script, f.line)
		if i < 0 {
			return fmt.Errorf("internal error: the bash completion script has no line %q to fix", f.line)
		}
		start := strings.LastIndexByte(script[:i], '\n') + 1
		indent := script[start:i]
		end := i + len(f.line)
		script = script[:end] + "\n" + indent + f.fix + script[end:]
	}
	_, err := io.WriteString(out, script)
	return err
}

// completeSpecs offers files ending in .yaml or .yml (and directories) as
// spec arguments: for as many arguments as the command takes.
func completeSpecs(many bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 && !many {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return []cobra.Completion{"yaml", "yml", "ta", "sk", "spec"}, cobra.ShellCompDirectiveFilterFileExt
	}
}

// completeProperties offers the property names of the spec given as the
// first argument. The spec is read quietly: a missing or broken spec
// offers nothing and prints nothing. A comma-separated list (-p a,b)
// completes its last element and leaves out the names already in it.
func completeProperties(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	sys := specArg(args)
	if sys == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names, descs []string
	for _, p := range sys.Properties {
		names, descs = append(names, p.Name), append(descs, p.Text)
	}
	return completeList(toComplete, names, descs, func(s string) string { return s }), cobra.ShellCompDirectiveNoFileComp
}

// specArg reads the spec given as the first argument, quietly: nil when
// there is none or it does not load.
func specArg(args []string) *gsst.System {
	if len(args) == 0 {
		return nil
	}
	sys, err := loadByExtension(args[0])
	if err != nil {
		return nil
	}
	return sys
}

// completeList completes the last element of a comma-separated list
// among names (each described by descs), leaving out the names already
// in it; key gives the name an element of the list stands for.
func completeList(toComplete string, names, descs []string, key func(string) string) []cobra.Completion {
	done, partial := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done, partial = toComplete[:i+1], toComplete[i+1:]
	}
	given := map[string]bool{}
	for _, name := range strings.Split(done, ",") {
		given[key(name)] = true
	}
	var out []cobra.Completion
	for i, name := range names {
		if strings.HasPrefix(name, partial) && !given[key(name)] {
			out = append(out, cobra.CompletionWithDesc(done+name, descs[i]))
		}
	}
	return out
}

// completeInstance offers, for --sizes, "group=" for each ranged group of
// the spec given as the first argument, and for --params, "name=" for
// each of its parameters, as a comma-separated list; the shell then
// waits for the value. The spec is read quietly, as for properties.
func completeInstance(flag string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		sys := specArg(args)
		if sys == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names, descs []string
		if flag == "sizes" {
			for _, g := range sys.Groups {
				if g.Ranged {
					names, descs = append(names, g.Name+"="), append(descs, "size in "+g.SizeText())
				}
			}
		} else {
			for _, p := range sys.Params {
				names, descs = append(names, p.Name+"="), append(descs, "parameter")
			}
		}
		key := func(s string) string { name, _, _ := strings.Cut(s, "="); return name }
		return completeList(toComplete, names, descs, key), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
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
