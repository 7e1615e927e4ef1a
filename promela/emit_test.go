package promela

import (
	"errors"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

func TestNamer(t *testing.T) {
	n := newNamer()
	tests := []struct{ in, want string }{
		{"N", "N"},
		{"init", "init_"}, // Promela keyword
		{"U", "U_"},       // LTL until
		{"linux", "linux_"},
		{"int", "int_"},
		{"init_", "init__"}, // taken by the first init
		{"N", "N_"},         // taken
		{"N", "N_2"},
		{"no-deadlock", "no_deadlock"},
		{"1x", "v1x"},
		{"_pid", "v_pid"},
		{"", "v"},
		{"a b.c", "a_b_c"},
		{"x", "x"},
	}
	for _, tc := range tests {
		if got := n.fresh(tc.in); got != tc.want {
			t.Errorf("fresh(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, id := range []string{"x", "x_1", "Tt", "T", "st", "counters"} {
		if !IsIdent(id) {
			t.Errorf("IsIdent(%q) = false", id)
		}
	}
	for _, id := range []string{"", "1x", "_x", "x-1", "U", "X", "do", "od", "true", "skip", "int", "while", "unix", "now", "x.y"} {
		if IsIdent(id) {
			t.Errorf("IsIdent(%q) = true", id)
		}
	}
}

// identifier matches the words of an emitted model outside comments,
// strings of digits excepted.
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// TestIdentifiers: every name the emitters invent for the random systems'
// awkward names is a valid, unreserved identifier; keywords appear only
// where the emitter writes them itself.
func TestIdentifiers(t *testing.T) {
	own := map[string]bool{}
	for _, w := range strings.Fields(`byte short int mtype active proctype do od d_step else run init atomic
		ltl false true U`) {
		own[w] = true
	}
	r := rand.New(rand.NewSource(11))
	for i := 0; i < 50; i++ {
		sys := testsupport.RandomSystem(r, randomConfig)
		gm, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		red, err := Reduced(gm)
		if err != nil {
			t.Fatal(err)
		}
		con, err := Concrete(sys)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []*Program{red, con} {
			body := p.Text[strings.Index(p.Text, "*/")+2:]
			body = regexp.MustCompile(`/\*[^*]*\*/`).ReplaceAllString(body, "")
			for _, id := range identifier.FindAllString(body, -1) {
				if !own[id] && !IsIdent(id) && id != "define" {
					t.Fatalf("identifier %q in the model is not a valid, unreserved Promela identifier:\n%s", id, p.Text)
				}
			}
		}
	}
}

// TestErrors: what cannot be written in Promela is refused, and nothing is
// written.
func TestErrors(t *testing.T) {
	sys, err := gsst.Load("../specs/readers-writers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	x := func(v int, k int64) presburger.Term { return presburger.VarTerm(presburger.Var(v)).Scale(k) }
	model := func(guard presburger.Formula) *counterabs.Model {
		m, err := counterabs.Assemble(sys, counterabs.TotalLevel, []counterabs.Transition{
			{From: 0, To: 1, Guard: guard, Local: 0, Group: -1},
		}, true)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name string
		m    *counterabs.Model
		kind errkind.Kind
	}{
		{"guard beyond 32 bits", model(presburger.Compare(x(0, 1_000_000_000), presburger.Ge, presburger.ConstTerm(1))), errkind.Input},
		{"constant beyond 32 bits", model(presburger.Compare(x(0, 1), presburger.Le, presburger.ConstTerm(1<<40))), errkind.Input},
		{"quantified guard", model(presburger.Exists{Vars: []presburger.Bound{{Var: 9, Lo: 0, Hi: 1}}, Body: presburger.Compare(x(0, 1), presburger.Ge, presburger.ConstTerm(1))}), errkind.Internal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			err := WriteReduced(&b, tc.m)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %v is not of kind %v", err, tc.kind)
			}
			if b.Len() != 0 {
				t.Fatalf("wrote %d bytes despite error %v", b.Len(), err)
			}
		})
	}
	bad := []struct {
		name string
		f    func(s *gsst.Spec)
		kind errkind.Kind
	}{
		{"no processes", func(s *gsst.Spec) {
			for g := range s.Groups {
				s.Groups[g].Size = 0
				s.Init[g] = []int{0, 0, 0}
			}
		}, errkind.Input},
		{"too many processes", func(s *gsst.Spec) {
			s.Groups[1].Size = MaxConcreteProcesses
			s.Init[1][0] = MaxConcreteProcesses
		}, errkind.Limit},
	}
	for _, tc := range bad {
		t.Run("concrete "+tc.name, func(t *testing.T) {
			loaded, err := gsst.Load("../specs/readers-writers.yaml")
			if err != nil {
				t.Fatal(err)
			}
			spec := loaded.Spec()
			tc.f(spec)
			s, err := gsst.New(spec)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			err = WriteConcrete(&b, s)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %v is not of kind %v", err, tc.kind)
			}
			if b.Len() != 0 {
				t.Fatalf("wrote %d bytes despite error %v", b.Len(), err)
			}
		})
	}
	// The largest concrete model is accepted.
	s, err := gsst.Load("../specs/readers-writers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s.Groups[1].Size = MaxConcreteProcesses - 1
	s.Init[1][0] = MaxConcreteProcesses - 1
	if _, err := Concrete(s); err != nil {
		t.Fatalf("%d processes refused: %v", MaxConcreteProcesses, err)
	}
}

// TestSkippedProperties: properties Spin cannot read are left out with the
// reason, and the rest of the model is written.
func TestSkippedProperties(t *testing.T) {
	sys, err := gsst.Load("../specs/readers-writers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	big := ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(presburger.VarTerm(sys.TotalVar(2)).Scale(1_000_000_000), presburger.Le, presburger.ConstTerm(1))}}
	var long ctl.Formula = ctl.Atom{P: presburger.Compare(presburger.VarTerm(sys.TotalVar(2)), presburger.Le, presburger.ConstTerm(1))}
	for i := 0; i < 100; i++ {
		long = ctl.Binary{Op: ctl.And, L: long, R: ctl.Atom{P: presburger.Compare(presburger.VarTerm(sys.TotalVar(i%3)), presburger.Le, presburger.ConstTerm(3))}}
	}
	sys.Properties = append(sys.Properties,
		gsst.Property{Name: "big", Formula: big, Text: "AG 1000000000*#C <= 1"},
		gsst.Property{Name: "long", Formula: ctl.Unary{Op: ctl.AG, X: long}, Text: "AG (...)"})
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Reduced(m)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{"big": "beyond the 32-bit int", "long": "more than Spin's LTL translator accepts", "can-progress": "AG EF p"}
	for _, c := range p.Claims {
		want, skip := reasons[c.Property]
		switch {
		case skip && c.Exported():
			t.Errorf("%s exported as %s", c.Property, c.LTL)
		case skip && !strings.Contains(c.Skipped, want):
			t.Errorf("%s skipped because %q, want %q", c.Property, c.Skipped, want)
		case !skip && !c.Exported():
			t.Errorf("%s skipped: %s", c.Property, c.Skipped)
		}
	}
	if !strings.Contains(p.Text, "not exported: its LTL formula has") {
		t.Errorf("the header does not say why long is not exported")
	}
}

// TestLongestClaim: a claim just within maxLTL, built from the atoms
// Spin's re-printing lengthens most (coefficients, differences, negative
// constants, negations), is read by the real spin -a.
func TestLongestClaim(t *testing.T) {
	requireSpin(t)
	sys, err := gsst.Load("../specs/readers-writers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v := func(s int, k int64) presburger.Term { return presburger.VarTerm(sys.TotalVar(s)).Scale(k) }
	var f ctl.Formula = ctl.Atom{P: presburger.True}
	var claim string
	for i := 0; ; i++ {
		atom := ctl.Not{X: ctl.Atom{P: presburger.Compare(v(i%3, 2).Add(v((i+1)%3, -3)), presburger.Ne, presburger.ConstTerm(int64(-1-i%7)))}}
		g := ctl.Binary{Op: ctl.Or, L: f, R: atom}
		sys.Properties = []gsst.Property{{Name: "longest", Formula: ctl.Unary{Op: ctl.AG, X: g}, Text: "AG (...)"}}
		m, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Reduced(m)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Claims[0].Exported() {
			break
		}
		f, claim = g, p.Claims[0].LTL
	}
	if len(claim) < maxLTL-40 {
		t.Fatalf("longest exported claim has %d characters", len(claim))
	}
	sys.Properties = []gsst.Property{{Name: "longest", Formula: ctl.Unary{Op: ctl.AG, X: f}, Text: "AG (...)"}}
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Reduced(m)
	if err != nil {
		t.Fatal(err)
	}
	// spin -a reads and translates the claim; gcc would add nothing.
	if _, err := spinA(t, p); err != nil {
		t.Fatalf("a claim of %d characters: %v", len(claim), err)
	}
}

// TestUncertifiedHeader: a forced model says so prominently.
func TestUncertifiedHeader(t *testing.T) {
	sys, err := gsst.Load("../specs/readers-writers-broken.yaml")
	if err != nil {
		t.Fatal(err)
	}
	gm, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	// The broken system's total-counter model, forced: each transition
	// enabled whenever some configuration with these totals enables it.
	var trans []counterabs.Transition
	for i, tr := range sys.Transitions {
		g := presburger.Compare(presburger.VarTerm(presburger.Var(tr.From)), presburger.Ge, presburger.ConstTerm(1))
		trans = append(trans, counterabs.Transition{From: tr.From, To: tr.To, Guard: g, Local: i, Group: -1})
	}
	m, err := counterabs.Assemble(sys, counterabs.TotalLevel, trans, false)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Reduced(m, Source("specs/readers-writers-broken.yaml"), Certification("violated: T -> C"))
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(strings.SplitN(p.Text, "\n", 12)[:11], "\n")
	for _, want := range []string{"WARNING: UNCERTIFIED MODEL", "NOT exact", "violated: T -> C", "Source: specs/readers-writers-broken.yaml"} {
		if !strings.Contains(head, want) {
			t.Errorf("header lacks %q:\n%s", want, head)
		}
	}
	g, err := Reduced(gm, Certification("not fully virtually symmetric"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(g.Text, "UNCERTIFIED") || !strings.Contains(g.Text, "verdicts are exact") {
		t.Errorf("group-level header wrong:\n%s", g.Text[:600])
	}
}

// TestDeterministic: two emissions of the same input are identical.
func TestDeterministic(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 20; i++ {
		sys := testsupport.RandomSystem(r, randomConfig)
		m, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		a, err1 := Reduced(m)
		b, err2 := Reduced(m)
		c, err3 := Concrete(sys)
		d, err4 := Concrete(sys)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			t.Fatal(err1, err2, err3, err4)
		}
		if a.Text != b.Text || c.Text != d.Text {
			t.Fatal("output differs between runs")
		}
	}
}
