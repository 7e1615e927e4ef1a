package promela

import (
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestUnreadSharedVariable: a shared variable that no step reads or
// changes changes nothing in the concrete and the group-counter model
// but its declaration and the header lines that state it (issue 25):
// the processes keep their local states in local variables, and every
// guard and move is as without it.
func TestUnreadSharedVariable(t *testing.T) {
	plain, with := testsupport.WithUnreadShared(t, "../specs/readers-writers.yaml")
	a, err := Concrete(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Concrete(with)
	if err != nil {
		t.Fatal(err)
	}
	testsupport.OnlyAdds(t, "concrete", a.Text, b.Text, "bool spare = false;", " *")
	ma, err := counterabs.BuildGroup(plain)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := counterabs.BuildGroup(with)
	if err != nil {
		t.Fatal(err)
	}
	ra, err := Reduced(ma)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Reduced(mb)
	if err != nil {
		t.Fatal(err)
	}
	testsupport.OnlyAdds(t, "group-counter", ra.Text, rb.Text, "bool spare = false;", " *")
}
