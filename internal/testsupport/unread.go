package testsupport

import (
	"os"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// WithUnreadShared returns the spec in file, and the same spec with one
// more shared variable, spare (a boolean, initially false), that no
// guard, update or property reads: what issue 25 says changes nothing
// but its declaration. The spec must have a top-level "init:" line.
func WithUnreadShared(t testing.TB, file string) (plain, with *gsst.System) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	plain, err = gsst.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	if !strings.Contains(text, "\ninit:") {
		t.Fatalf("%s has no top-level init line", file)
	}
	with, err = gsst.Parse(file, []byte(strings.Replace(text, "\ninit:", "\nshared:\n  spare: {type: bool, init: false}\ninit:", 1)))
	if err != nil {
		t.Fatal(err)
	}
	return plain, with
}

// OnlyAdds fails unless text b is text a with lines added, each naming
// the variable spare or starting with header (a comment line of the
// model's header), one of them decl: what an unread shared variable may
// add to an emitted model.
func OnlyAdds(t testing.TB, what, a, b, decl, header string) {
	t.Helper()
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for _, l := range bl {
		if i < len(al) && l == al[i] {
			i++
			continue
		}
		if !strings.Contains(l, "spare") && !strings.HasPrefix(l, header) {
			t.Errorf("%s: line %q added by the unread variable is neither about it nor a header line", what, l)
		}
	}
	if i != len(al) {
		t.Fatalf("%s: the model without the variable is not a subsequence of the one with it; first line missing: %q\n%s", what, al[i], b)
	}
	if !strings.Contains(b, decl) {
		t.Errorf("%s: no %q in\n%s", what, decl, b)
	}
}
