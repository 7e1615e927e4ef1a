// Package sarif writes SARIF 2.1.0 logs (the OASIS Static Analysis
// Results Interchange Format), which code-review tools such as GitHub
// code scanning show as annotations at the lines they point at.
//
// It holds the part of the SARIF object model that vsym needs: one run of
// one tool, its rules, and results with a message and a physical location
// (file, line, column). It knows nothing of GSSTs: the command line turns
// certification and exploration reports into results. Columns are counted
// in Unicode code points, as vsym counts them, and the run says so
// (columnKind). The JSON field names and nesting are those of the SARIF
// 2.1.0 schema, which the tests validate every log against.
package sarif
