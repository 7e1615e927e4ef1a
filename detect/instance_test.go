package detect

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
)

// TestHasInstance: the families of issue 27 that have no instance are
// refused, at the assumption or at the size to blame, as bad input; a
// family with instances and a fixed system are not.
func TestHasInstance(t *testing.T) {
	solver := completeSolver(t)
	for _, c := range []struct {
		name, params, assume, sizes string
		want                        string // "" for an instance; else the position and a part of the message
	}{
		{"assumption never holds", "[t]", `"t < 0"`, "{p: t + 1}", `3:9: the family has no instance: no values of the parameter t (at least 0) satisfy the assumption t < 0`},
		{"negative size", "[t]", "", `{p: 2, q: "-t"}`, `4:19: the family has no instance: group q would have -t processes, fewer than one, at every value of the parameter t (at least 0)`},
		{"size zero where assumed", "[t, f]", `"t <= f & f <= t"`, "{p: 2, q: t - f}", `4:19: the family has no instance: group q would have t - f processes, fewer than one, at every value of the parameters t, f (each at least 0) that satisfies the assumption t <= f & f <= t`},
		{"only together", "[t, f]", "", "{p: t - f, q: f - t}", `4:13: the family has no instance: no values of the parameters t, f (each at least 0) give every group at least one process`},
		{"only together, assumed", "[t, f]", `"t <= 9"`, "{p: t - f, q: f - t}", `3:9: the family has no instance: no values of the parameters t, f (each at least 0) satisfy the assumption t <= 9 and give every group at least one process`},
		{"threshold", "[n, t, f]", `"n > 3*t & t >= f & f >= 0"`, "{correct: n - f}", ""},
		{"large values only", "[t]", `"t >= 1000000000"`, "{p: t - 999999999}", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "name: fam\nparams: " + c.params + "\n"
			if c.assume != "" {
				src += "assume: " + c.assume + "\n"
			} else {
				src += "# no assumption\n"
			}
			src += "groups: " + c.sizes + "\nstates: [N, T]\ninit: N\ntransitions:\n  - {from: N, to: T}\n"
			sys, err := gsst.Parse("fam.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			err = HasInstance(context.Background(), sys, solver)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("HasInstance: %v", err)
			case c.want == "":
				return
			case err == nil:
				t.Fatalf("HasInstance accepted a family with no instance")
			case errkind.Of(err) != errkind.Input:
				t.Errorf("kind %v, want input: %v", errkind.Of(err), err)
			case !strings.Contains(err.Error(), c.want):
				t.Errorf("error %q, want %q", err, c.want)
			}
			// Certification refuses it the same way.
			if _, cerr := Certify(context.Background(), sys, solver); cerr == nil || cerr.Error() != err.Error() {
				t.Errorf("Certify: %v, want %v", cerr, err)
			}
		})
	}
	// A fixed instance has itself, without a solver.
	sys, err := gsst.Parse("fam.yaml", []byte("name: one\nparams: [t]\ngroups: {p: t + 1}\nstates: [N, T]\ninit: N\ntransitions: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := sys.InstantiateParams([]int{2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := HasInstance(context.Background(), inst, nil); err != nil {
		t.Errorf("an instance: %v", err)
	}
}

// TestHasInstanceRandom compares HasInstance with enumeration on random
// families over two parameters bounded by the assumption (t, f <= 4),
// so that enumerating 0..4 decides whether an instance exists.
func TestHasInstanceRandom(t *testing.T) {
	solver := completeSolver(t)
	r := rand.New(rand.NewSource(27))
	term := func() (string, func(t, f int) int) {
		a, b, c := r.Intn(7)-3, r.Intn(7)-3, r.Intn(11)-5
		if a == 0 && b == 0 {
			a = 1
		}
		return fmt.Sprintf("%d*t + %d*f + %d", a, b, c), func(t, f int) int { return a*t + b*f + c }
	}
	var empty, nonEmpty int
	for i := range 300 {
		atoms := []string{"t <= 4", "f <= 4"}
		var checks []func(t, f int) bool
		for k := r.Intn(3); k > 0; k-- {
			text, val := term()
			switch r.Intn(3) {
			case 0:
				atoms = append(atoms, text+" >= 0")
				checks = append(checks, func(t, f int) bool { return val(t, f) >= 0 })
			case 1:
				atoms = append(atoms, text+" = 0")
				checks = append(checks, func(t, f int) bool { return val(t, f) == 0 })
			default:
				atoms = append(atoms, text+" < 0")
				checks = append(checks, func(t, f int) bool { return val(t, f) < 0 })
			}
		}
		var sizes []string
		var sizeVals []func(t, f int) int
		for g := range 1 + r.Intn(2) {
			text, val := term()
			sizes = append(sizes, fmt.Sprintf("g%d: %q", g, text))
			sizeVals = append(sizeVals, val)
		}
		src := fmt.Sprintf("name: fam\nparams: [t, f]\nassume: %q\ngroups: {%s}\nstates: [N, T]\ninit: N\ntransitions:\n  - {from: N, to: T}\n",
			strings.Join(atoms, " & "), strings.Join(sizes, ", "))
		sys, err := gsst.Parse("fam.yaml", []byte(src))
		if err != nil {
			t.Fatalf("family %d: %v\n%s", i, err, src)
		}
		want := false
		for tv := 0; tv <= 4 && !want; tv++ {
			for fv := 0; fv <= 4 && !want; fv++ {
				ok := true
				for _, c := range checks {
					ok = ok && c(tv, fv)
				}
				for _, s := range sizeVals {
					ok = ok && s(tv, fv) >= 1
				}
				want = ok
			}
		}
		err = HasInstance(context.Background(), sys, solver)
		var gl gsst.ErrorList
		switch {
		case want && err != nil:
			t.Fatalf("family %d has an instance, HasInstance: %v\n%s", i, err, src)
		case !want && (err == nil || !errors.As(err, &gl)):
			t.Fatalf("family %d has none, HasInstance: %v\n%s", i, err, src)
		case want:
			nonEmpty++
		default:
			empty++
		}
	}
	if empty == 0 || nonEmpty == 0 {
		t.Errorf("%d empty and %d non-empty families: both must occur", empty, nonEmpty)
	}
	t.Logf("%d families with no instance, %d with", empty, nonEmpty)
}
