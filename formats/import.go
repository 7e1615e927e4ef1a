package formats

import (
	"fmt"
	"os"

	"github.com/vsym/vsym/gsst"
)

// Import is a system read from another tool's file: the gsst.Spec it
// translates to, what the YAML writer says about where each element
// came from, and the verdicts the file announces. Positions in the Spec
// point into the source file.
type Import struct {
	// Format names the source format: "ta" (ByMC) or "spec" (mist).
	Format string
	// Source is the file name, as in positions.
	Source string
	// Spec is the translation; complete only when Err is nil.
	Spec *gsst.Spec
	// Notes are the comments Write puts beside the elements of Spec.
	Notes Notes
	// Expected are the verdicts the file announces.
	Expected []Expected
	// Missing are the elements of the file that need a construct the
	// GSST language lacks; Errors every other error (syntax, names,
	// values).
	Missing []Missing
	Errors  gsst.ErrorList
	// Refused are the properties of the file that the translation does
	// not state, each with its reason. They are not errors: the rest of
	// the file is read, and every output shows them beside the verdicts
	// of the others.
	Refused []Refusal
}

// Refusal is a property of the source file that the translation does
// not state: its name, its position in the source and why.
type Refusal struct {
	Property string
	Pos      gsst.Pos
	Why      string
}

// String says where the property is and why it is not stated.
func (r Refusal) String() string {
	return fmt.Sprintf("%s: property %s is not stated: %s", r.Pos, r.Property, r.Why)
}

// Expected is a verdict a source file announces for one property: mist's
// "#expected result: safe" line, say, is about the property that its
// target is not covered.
type Expected struct {
	Property string   // the property's name in Spec
	Text     string   // the announced verdict as written ("safe")
	Pos      gsst.Pos // of the announcement
	// Holds says what the announcement means for the property: Yes (it
	// holds), No (it fails) or Unknown (a text the reader does not
	// know).
	Holds Verdict
}

// Verdict is the truth an announcement gives a property.
type Verdict int

const (
	Unknown Verdict = iota
	Yes
	No
)

func (v Verdict) String() string { return [...]string{"unknown", "holds", "fails"}[v] }

// Notes are comment lines for the YAML of an Import, beside the element
// of the Spec at the same index. A line is written after "# "; an empty
// slice or string writes nothing.
type Notes struct {
	Header      []string   // at the top of the file
	States      []string   // beside each state (one line)
	Groups      []string   // beside each group
	Shared      []string   // beside each shared variable
	Params      []string   // beside each parameter
	Assume      []string   // before the assumption
	Transitions [][]string // before each transition
	Rendezvous  [][]string // before each rendezvous
	Environment [][]string // before each environment step
	Justice     []string   // beside each justice condition
	Properties  [][]string // before each property
	Trailer     []string   // at the end (what was left out, and why)
}

// Err returns every error of the import, missing constructs included,
// sorted by position, or nil.
func (imp *Import) Err() error {
	errs := append(gsst.ErrorList(nil), imp.Errors...)
	for _, m := range imp.Missing {
		errs.Add(m.Pos, "%s", m.Message())
	}
	errs.Sort()
	return errs.Err()
}

// System checks the translation with gsst.New and returns the system,
// or every error of the import.
func (imp *Import) System() (*gsst.System, error) {
	if err := imp.Err(); err != nil {
		return nil, err
	}
	return gsst.New(imp.Spec)
}

// Need records that the element at pos needs construct c.
func (imp *Import) Need(c Construct, pos gsst.Pos, format string, args ...any) {
	imp.Missing = append(imp.Missing, Missing{Construct: c, Pos: pos, What: sprintf(format, args...)})
}

// Needs returns the constructs the import is missing, each once, in the
// order of the Construct constants.
func (imp *Import) Needs() []Construct {
	seen := map[Construct]bool{}
	for _, m := range imp.Missing {
		seen[m.Construct] = true
	}
	var out []Construct
	for _, c := range Constructs() {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out
}

// Load reads the file at path and translates it with translate (a
// reader's Translate).
func Load(path string, translate func(filename string, src []byte) *Import) (*Import, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return translate(path, src), nil
}
