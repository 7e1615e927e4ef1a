package promela

import (
	"os"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// TestUnreadSharedVariable: a shared variable that no step reads or
// changes changes nothing in the concrete model but its declaration and
// the header lines that state it (issue 25): the processes keep their
// local states in local variables, and every guard and move is as
// without it.
func TestUnreadSharedVariable(t *testing.T) {
	src, err := os.ReadFile("../specs/readers-writers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := gsst.Parse("readers-writers.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	with, err := gsst.Parse("readers-writers.yaml", []byte(strings.Replace(string(src), "init: N\n", "shared:\n  spare: {type: bool, init: false}\ninit: N\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Concrete(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Concrete(with)
	if err != nil {
		t.Fatal(err)
	}
	var extra []string
	al, bl := strings.Split(a.Text, "\n"), strings.Split(b.Text, "\n")
	i := 0
	for _, l := range bl {
		if i < len(al) && l == al[i] {
			i++
			continue
		}
		extra = append(extra, l)
	}
	if i != len(al) {
		t.Fatalf("the model without the variable is not a subsequence of the one with it; first line missing: %q\n%s", al[i], b.Text)
	}
	for _, l := range extra {
		if !strings.Contains(l, "spare") && !strings.HasPrefix(l, " * ") {
			t.Errorf("line %q added by the unread variable is neither its declaration nor a header line", l)
		}
	}
	if !strings.Contains(b.Text, "bool spare = false;") {
		t.Errorf("no declaration of spare:\n%s", b.Text)
	}
}
