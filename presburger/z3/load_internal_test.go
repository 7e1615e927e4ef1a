package z3

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// TestOpenRefuses opens libraries that cannot serve: a file that does
// not exist, and one that exists but lacks the Z3 API (the C library).
// Each gives a LoadError of kind Unknown with the loader's reason, and
// leaves the functions of the library already loaded in place: a query
// after them still gets its answer.
func TestOpenRefuses(t *testing.T) {
	if err := loadLibrary(); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, reason string }{
		{"/nonexistent/libz3.so", "cannot open shared object file"},
		{"libc.so.6", "undefined symbol: Z3_"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := open(tt.name)
			if err == nil {
				t.Fatal("opened")
			}
			if err.Library != tt.name || !strings.Contains(err.Reason, tt.reason) {
				t.Errorf("got library %q, reason %q; want %q and a reason with %q", err.Library, err.Reason, tt.name, tt.reason)
			}
			if msg := err.Error(); !strings.Contains(msg, "libz3-4") || !strings.Contains(msg, LibraryEnv) {
				t.Errorf("message %q names neither the package nor %s", msg, LibraryEnv)
			}
			if !errors.Is(err, errkind.Unknown) {
				t.Errorf("kind %v, want unknown", errkind.Of(err))
			}
		})
	}
	x := presburger.Var(0)
	a, err := New().Solve(context.Background(), presburger.Problem{
		Bounds: []presburger.Bound{{Var: x, Lo: 0, Hi: 3}},
		F:      presburger.Compare(presburger.VarTerm(x), presburger.Eq, presburger.ConstTerm(2)),
	})
	if err != nil || a.Result != presburger.Sat || a.Model[x] != 2 {
		t.Fatalf("after the refused libraries: %v, %v; want sat with x = 2", a, err)
	}
}

// TestVersionError checks that a library of another major or minor
// version than the headers' is refused, and another build is not.
func TestVersionError(t *testing.T) {
	tests := []struct {
		major, minor, build uint
		ok                  bool
	}{
		{4, 8, 12, true},
		{4, 8, 5, true},
		{4, 9, 0, false},
		{4, 7, 12, false},
		{5, 8, 12, false},
	}
	for _, tt := range tests {
		err := versionError("libz3.so.4", tt.major, tt.minor, tt.build)
		if (err == nil) != tt.ok {
			t.Errorf("%d.%d.%d: %v, want accepted %v", tt.major, tt.minor, tt.build, err, tt.ok)
		}
		if err != nil && !errors.Is(err, errkind.Unknown) {
			t.Errorf("%d.%d.%d: kind %v, want unknown", tt.major, tt.minor, tt.build, errkind.Of(err))
		}
	}
}
