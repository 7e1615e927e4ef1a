package cli

import (
	"github.com/spf13/cobra"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
)

func init() { register("schema", newSchemaCmd) }

func newSchemaCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the GSST format, for editors",
		Long: `Schema prints the JSON Schema (draft-07) of the GSST file format, to
standard output or to the file given with -o. Editors that validate YAML
against a schema (VS Code and others through the YAML language server)
then complete keys, show their descriptions and flag malformed specs as
you type. Write it next to your specs and name it in the first line of
each spec:

  vsym schema -o gsst.schema.json
  # yaml-language-server: $schema=gsst.schema.json

The schema checks the shape of a file (required and unknown keys, names,
group sizes, the forms of init and guard); vsym check still reports what
a schema cannot see, such as unknown states or a malformed guard.
docs/gsst-format.md describes the format.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			describeOutput(cmd, "the GSST JSON Schema")
			if _, err := cmd.OutOrStdout().Write(gsst.Schema()); err != nil {
				return errkind.Wrap(errkind.Unknown, err)
			}
			return nil
		},
	}
	addOutFlag(cmd.Flags(), &out, "the schema")
	return cmd
}
