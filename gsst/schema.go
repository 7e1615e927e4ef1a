package gsst

import (
	"bytes"
	_ "embed"
)

//go:embed gsst.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft-07) of the GSST file format, for
// editors and other tools that validate YAML against a schema. It checks
// the shape of a file: required and unknown keys, name patterns, group
// sizes, the forms of init and guard, the properties mapping. What a
// schema cannot express (unknown states and groups, self-loops, initial
// counts that add up, the guard and property language) only Parse checks.
// Every file Parse accepts satisfies the schema; the tests check that on
// the bundled specifications, the generated families and random mutants.
func Schema() []byte { return bytes.Clone(schemaJSON) }
