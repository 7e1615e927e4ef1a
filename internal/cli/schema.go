package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/gsst"
)

func init() { register(newSchemaCmd) }

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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			schema := gsst.Schema()
			if out == "" {
				if _, err := cmd.OutOrStdout().Write(schema); err != nil {
					return withCode(ExitUnknown, err)
				}
				return nil
			}
			if err := os.WriteFile(out, schema, 0o644); err != nil {
				return withCode(ExitBadInput, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "vsym: wrote the GSST JSON Schema to %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the schema to this file instead of standard output")
	return cmd
}
