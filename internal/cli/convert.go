package cli

import (
	"github.com/spf13/cobra"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/formats"
)

func init() { register("convert", newConvertCmd) }

func newConvertCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "convert FILE",
		Short: "Write another tool's model (ByMC .ta, mist .spec) as GSST YAML",
		Long: `Convert reads a threshold automaton of ByMC (.ta, or .sk) or a Petri net with
transfers of mist (.spec) and writes the equivalent GSST in YAML, to
standard output or to the file given with -o, commented with the
source's names: each location, place, rule and specification is said
where it came from. Every command reads such files directly; convert
shows what they read, and gives a GSST to edit.

The format goes by the extension, or --format ta|spec. What the GSST
language cannot state yet (an initial split over several sums of
locations, a rendezvous that also broadcasts, ...) is refused with an
error at the source's line and column that names the construct.
docs/formats.md describes both formats and their translation.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := inputFormat(cmd, args[0])
			if err != nil {
				return err
			}
			if format == formatYAML {
				return errkind.Errorf(errkind.Input, "%s is a GSST file already (yaml); convert reads ByMC's .ta and mist's .spec files (--format ta or spec for another extension)", displayName(args[0]))
			}
			name, src, err := readInput(cmd, args[0])
			if err != nil {
				return err
			}
			imp := translate(format, name, src)
			if err := imp.Err(); err != nil {
				return errkind.Wrap(errkind.Input, err)
			}
			if _, err := imp.System(); err != nil {
				return errkind.Wrap(errkind.Input, err)
			}
			describeOutput(cmd, "the GSST of "+name)
			if err := formats.Write(cmd.OutOrStdout(), imp); err != nil {
				return errkind.Wrap(errkind.Unknown, err)
			}
			return nil
		},
	}
	addOutFlag(cmd.Flags(), &out, "the GSST")
	return cmd
}
