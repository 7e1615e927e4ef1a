package gsst

// Test helpers of this package made visible to its external tests
// (package gsst_test), which may import packages that import gsst.
var (
	CompileSchema = compileSchema
	SchemaErrors  = schemaErrors
	YAMLToJSON    = yamlToJSON
)
