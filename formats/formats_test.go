package formats_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

func TestConstructNames(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range formats.Constructs() {
		name := c.String()
		if name == "" || strings.HasPrefix(name, "Construct(") || seen[name] {
			t.Errorf("construct %d has the name %q", int(c), name)
		}
		seen[name] = true
	}
	if len(seen) != 8 {
		t.Errorf("%d constructs", len(seen))
	}
}

// TestErrAndWrite: the errors of an import, missing constructs among
// them, sorted by position; no YAML for an import with errors; the YAML
// of a hand-built one, notes included, reads back.
func TestErrAndWrite(t *testing.T) {
	imp := &formats.Import{Format: "spec", Source: "f.spec"}
	imp.Errors.Add(gsst.Pos{File: "f.spec", Line: 3, Col: 1}, "an error")
	imp.Need(formats.SplitInit, gsst.Pos{File: "f.spec", Line: 2, Col: 4}, "rule %d", 1)
	err := imp.Err()
	want := "f.spec:2:4: rule 1: needs an initial split of the processes other than one sum over locations (several sums, a free or bounded location), which the GSST language cannot state yet\nf.spec:3:1: an error"
	if err == nil || err.Error() != want {
		t.Fatalf("Err() = %v, want\n%s", err, want)
	}
	if err := formats.Write(&bytes.Buffer{}, imp); err == nil {
		t.Error("Write wrote an import with errors")
	}
	if got := imp.Needs(); len(got) != 1 || got[0] != formats.SplitInit {
		t.Errorf("Needs() = %v", got)
	}

	s := &gsst.Spec{Name: "yes", States: []string{"on", "off"}, Groups: []gsst.Group{{Name: "n", Size: 2}}, Init: [][]int{{2, 0}}}
	s.Shared = []gsst.Shared{{Name: "k", Lo: 0, Unbounded: true}}
	k := s.SharedVar(0)
	s.Transitions = []gsst.Transition{{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0},
		Guard:  presburger.Compare(presburger.VarTerm(k), presburger.Lt, presburger.ConstTerm(1)),
		Update: gsst.Update{Assign: []gsst.Assign{{Var: k, Value: presburger.VarTerm(k).Add(presburger.ConstTerm(1))}}}}}}}
	s.Properties = []gsst.Property{{Name: "p", Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(presburger.VarTerm(k), presburger.Le, presburger.ConstTerm(1))}}}}
	ok := &formats.Import{Spec: s, Notes: formats.Notes{Header: []string{"a header", "", "of two paragraphs"}, States: []string{"the first", ""},
		Transitions: [][]string{{"the one transition"}}, Trailer: []string{"the end"}}}
	var b bytes.Buffer
	if err := formats.Write(&b, ok); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"# a header\n#\n# of two paragraphs\n", "name: \"yes\"\n", "  - \"on\"  # the first\n", "  - \"off\"\n",
		"  \"n\": 2\n", "  # the one transition\n", "    guard: \"k < 1\"\n", "    update: \"k := k + 1\"\n", "  p: \"AG (k <= 1)\"\n", "# the end\n"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("the YAML lacks %q:\n%s", line, b.String())
		}
	}
	back, err := gsst.Parse("back.yaml", b.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if back.Name != "yes" || back.States[0] != "on" || back.Groups[0].Name != "n" || back.Properties[0].Text != "AG (k <= 1)" {
		t.Errorf("read back as %+v", back.Spec())
	}
}

// TestWriteTypes: every type of shared variable, an enumeration whose
// constants YAML would read as booleans among them, reads back from
// Write's YAML as written, with its initial value.
func TestWriteTypes(t *testing.T) {
	s := &gsst.Spec{Name: "types", States: []string{"A", "B"}, Groups: []gsst.Group{{Name: "g", Size: 2}}, Init: [][]int{{2, 0}}}
	s.Shared = []gsst.Shared{
		{Name: "k", Lo: 0, Unbounded: true, Init: 2},
		{Name: "r", Lo: 1, Hi: 3, Init: 3},
		{Name: "b", Bool: true, Lo: 0, Hi: 1, Init: 1},
		{Name: "e", Values: []string{"no", "yes", "mid"}, Lo: 0, Hi: 2, Init: 1},
	}
	for j := range s.Shared {
		s.Shared[j].InitTerm = presburger.ConstTerm(int64(s.Shared[j].Init))
	}
	s.Transitions = []gsst.Transition{{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}}}
	var b bytes.Buffer
	if err := formats.Write(&b, &formats.Import{Spec: s}); err != nil {
		t.Fatal(err)
	}
	back, err := gsst.Parse("back.yaml", b.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	for j := range s.Shared {
		want, got := &s.Shared[j], &back.Shared[j]
		if got.TypeText() != want.TypeText() || got.Init != want.Init {
			t.Errorf("%s read back as type %s, init %d; want %s, %d\n%s", want.Name, got.TypeText(), got.Init, want.TypeText(), want.Init, b.String())
		}
	}
}
