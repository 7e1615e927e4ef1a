package emit

import (
	"strings"
	"testing"
)

func TestNamer(t *testing.T) {
	n := NewNamer(func(s string) bool { return s == "if" || s == "if_" }, func(s string) string {
		return strings.ReplaceAll(s, "-", "_")
	})
	tests := []struct{ in, want string }{
		{"x", "x"},
		{"x", "x_"},
		{"x", "x_2"},
		{"if", "if_2"}, // if and if_ reserved
		{"no-deadlock", "no_deadlock"},
		{"no_deadlock", "no_deadlock_"},
	}
	for _, tc := range tests {
		if got := n.Fresh(tc.in); got != tc.want {
			t.Errorf("Fresh(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestUncertifiedBanner(t *testing.T) {
	b := UncertifiedBanner("violated: T -> C", "--", 10)
	lines := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	if lines[0] != "-- ##########" || lines[len(lines)-1] != lines[0] {
		t.Errorf("bars wrong:\n%s", b)
	}
	for _, want := range []string{"-- ## WARNING: UNCERTIFIED MODEL", "NOT exact", "-- ## Certification outcome: violated: T -> C"} {
		if !strings.Contains(b, want) {
			t.Errorf("banner lacks %q:\n%s", want, b)
		}
	}
	if strings.Contains(UncertifiedBanner("", " *", 4), "outcome") {
		t.Error("empty status printed")
	}
}
