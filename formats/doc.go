// Package formats holds what vsym's readers of other tools' input files
// share: the description of an imported system (Import), the constructs
// that the GSST language cannot state yet and that a reader refuses by
// name (Construct, Missing), the verdicts a source file announces
// (Expected), the writer of an Import as commented GSST YAML (Write),
// which `vsym convert` prints, the one place where a translation adds a
// transition (Transitions, which merges steps between the same states
// with the same effect), and the Cursor the readers' scanners walk a
// source with.
//
// The readers live in the packages below it, one per format, each a
// scanner and a recursive-descent parser to a syntax tree with the
// source's positions, and a translation of that tree to a gsst.Spec:
//
//   - formats/bymc reads ByMC's threshold automata (.ta files);
//   - formats/mist reads mist's Petri nets with transfers (.spec files).
//
// A translation builds the gsst.Spec directly, with every position
// (gsst.Pos) pointing into the source file, and checks it with gsst.New
// like any hand-built spec, so that a semantic error is reported at the
// source's line and column too. It keeps the source's names (locations,
// rules, places, transitions, properties) and records, for the YAML,
// where each element came from.
//
// A property of the source that has no reading (an LTL formula with
// no CTL equivalent among those a reader translates) is refused alone
// (Import.Refused, a Refusal with its position and reason): the rest
// of the file is read, and the outputs list it beside the verdicts.
// What the language cannot state yet (Construct) is refused with an
// error at the source position that needs it, naming the construct; a
// translation asks for each such construct through one function of its
// own (constructs.go in each reader), so that when the language gains
// the construct only that function changes. docs/formats.md describes
// both formats, their meaning, the translation and the YAML each missing
// construct would take.
package formats
