package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/mist"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// What a FILE argument holds, for every command that reads one: a GSST
// in YAML, a ByMC threshold automaton (.ta) or a mist Petri net with
// transfers (.spec). The reader is chosen by the file's extension, or
// by --format; the other tools' files are translated into GSSTs
// (package formats) with every position in the source file, and the
// verdicts they announce ("#expected result: safe") are kept for the
// outputs to show beside vsym's.

// Input formats, as --format names them.
const (
	formatAuto = "auto"
	formatYAML = "yaml"
	formatTA   = "ta"
	formatSpec = "spec"
)

const formatHelp = "the format of FILE: yaml (GSST), ta (ByMC threshold automaton) or spec (mist Petri net with transfers); auto, the default, goes by the extension (.ta or .sk, .spec, anything else YAML)"

// addFormatFlags gives --format to every command of root that reads a
// FILE.
func addFormatFlags(root *cobra.Command) {
	for _, c := range root.Commands() {
		if strings.Contains(c.Use, "FILE") {
			c.Flags().String("format", formatAuto, formatHelp)
		}
	}
}

// formatArgs returns the flags that name cmd's input format in a
// suggested command: --format as given, or none when the extension
// names it.
func formatArgs(cmd *cobra.Command) []string {
	if f := flagOf(cmd, "format"); f != nil && f.Changed && f.Value.String() != formatAuto {
		return []string{"--format", f.Value.String()}
	}
	return nil
}

// inputFormat returns the format of the file named arg for cmd: its
// --format, or the one its extension names.
func inputFormat(cmd *cobra.Command, arg string) (string, error) {
	format := formatAuto
	if f := flagOf(cmd, "format"); f != nil {
		format = f.Value.String()
	}
	switch format {
	case formatYAML, formatTA, formatSpec:
		return format, nil
	case formatAuto:
	default:
		return "", errkind.Errorf(errkind.Input, "unknown --format %q (want yaml, ta or spec)", format)
	}
	switch strings.ToLower(filepath.Ext(arg)) {
	case ".ta", ".sk":
		return formatTA, nil
	case ".spec":
		return formatSpec, nil
	}
	return formatYAML, nil
}

// readSpec reads and checks src, the file named name, in its format: a
// GSST file with gsst.Parse and opts, another tool's file through its
// translation, whose announced verdicts the session keeps. --all-sizes
// reads every group of a translated file as 1.., as gsst.AllSizes does
// for a GSST file.
func readSpec(cmd *cobra.Command, format, name string, src []byte, opts ...gsst.Option) (*gsst.System, error) {
	imp := translate(format, name, src)
	if imp == nil {
		sys, err := gsst.Parse(name, src, opts...)
		if err != nil {
			return nil, errkind.Wrap(errkind.Input, err)
		}
		return sys, nil
	}
	if err := imp.Err(); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	if f := flagOf(cmd, "all-sizes"); f != nil && f.Value.String() == "true" {
		if err := allSizes(imp.Spec); err != nil {
			return nil, errkind.Wrap(errkind.Input, err)
		}
	}
	sys, err := gsst.New(imp.Spec)
	if err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	if len(imp.Refused) > 0 && cmd != nil {
		sessionOf(cmd).notStated = imp.Refused
		if !listsNotStated[cmd.Name()] {
			for _, r := range imp.Refused {
				fmt.Fprintf(cmd.ErrOrStderr(), "vsym: warning: %s\n", r)
			}
		}
	}
	if len(imp.Expected) > 0 && cmd != nil {
		s := sessionOf(cmd)
		if s.expected == nil {
			s.expected = map[string][]formats.Expected{}
		}
		for _, e := range imp.Expected {
			s.expected[e.Property] = append(s.expected[e.Property], e)
		}
	}
	return sys, nil
}

// flagOf returns cmd's flag name, nil without the flag (or a command:
// tests load specs without one).
func flagOf(cmd *cobra.Command, name string) *pflag.Flag {
	if cmd == nil {
		return nil
	}
	return cmd.Flags().Lookup(name)
}

// translate reads src, another tool's file in format, into a GSST; nil
// for a GSST file (yaml).
func translate(format, name string, src []byte) *formats.Import {
	switch format {
	case formatTA:
		return bymc.Translate(name, src)
	case formatSpec:
		return mist.Translate(name, src)
	}
	return nil
}

// allSizes reads every group of s as the range 1.., as gsst.AllSizes
// does for a file: a group that starts spread over several states has
// no such reading.
func allSizes(s *gsst.Spec) error {
	var errs gsst.ErrorList
	for g := range s.Groups {
		grp := &s.Groups[g]
		st, ok := s.InitState(g)
		if !ok {
			errs.Add(grp.Pos, "group %q starts in several states: with --all-sizes every group is read as 1.., which starts in one state", grp.Name)
			continue
		}
		grp.Size, grp.Ranged, grp.Max = 1, true, gsst.Unbounded
		grp.SizeTerm, grp.SizeTermText = presburger.Term{}, ""
		for i := range s.Init[g] {
			s.Init[g][i] = 0
		}
		s.Init[g][st] = 1
	}
	return errs.Err()
}

// listsNotStated are the commands whose report lists the properties of
// the file that its translation does not state; the others warn of
// them on standard error, so that no property is dropped unsaid.
var listsNotStated = map[string]bool{"explore": true, "prove": true}

// notStatedJSON is a property of the file read that its translation
// does not state: its name, where it is and why.
type notStatedJSON struct {
	Name string `json:"name"`
	Pos  string `json:"pos"`
	Why  string `json:"why"`
}

// notStated returns the properties of the file read that its
// translation does not state (none for a GSST file).
func notStated(cmd *cobra.Command) []notStatedJSON {
	var out []notStatedJSON
	for _, r := range sessionOf(cmd).notStated {
		out = append(out, notStatedJSON{Name: r.Property, Pos: r.Pos.String(), Why: r.Why})
	}
	return out
}

// writeNotStated writes a line for each property of the file that was
// not stated, after the verdicts of the others.
func writeNotStated(w io.Writer, list []notStatedJSON) {
	for _, r := range list {
		fmt.Fprintf(w, "property %s: not stated (%s): %s\n", r.Name, r.Pos, r.Why)
	}
}

// expectedText returns what the file announces for property name, as
// written ("safe"; several announcements joined by ", "), or "".
func expectedText(cmd *cobra.Command, name string) string {
	var texts []string
	for _, e := range sessionOf(cmd).expected[name] {
		texts = append(texts, e.Text)
	}
	return strings.Join(texts, ", ")
}

// loadByExtension reads the spec at path in the format its extension
// names, without a command (for shell completion).
func loadByExtension(path string) (*gsst.System, error) {
	var load func(string) (*formats.Import, error)
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ta", ".sk":
		load = bymc.Load
	case ".spec":
		load = mist.Load
	default:
		return gsst.Load(path)
	}
	imp, err := load(path)
	if err != nil {
		return nil, err
	}
	return imp.System()
}
