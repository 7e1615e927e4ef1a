package gsst

import (
	"errors"
	"strings"
	"testing"
)

// TestNewcomerHints: mistakes a first-time author makes get an error that
// names the mistake, at the character that caused it.
func TestNewcomerHints(t *testing.T) {
	const head = "name: h\nstates: [N, T, C]\ngroups: {p: 2}\ninit: N\n"
	cases := []struct {
		name, src string
		line, col int
		want      []string // substrings of the one error
	}{
		{"property-block", head + "transitions:\n  - {from: N, to: T}\nproperties:\n  mutex: AG #C <= 1\n",
			8, 12, []string{"expected operand", "quote it", `only "AG" was read`, `"#C <= 1" was dropped`}},
		{"property-flow-mapping", head + "transitions:\n  - {from: N, to: T}\nproperties: {mutex: AG #C <= 1}\n",
			7, 24, []string{"invalid YAML", "unquoted # starts a comment", "cuts the flow mapping short", `"#C = 0"`}},
		{"guard-flow-mapping", head + "transitions:\n  - {from: N, to: T, guard: #C = 0}\n",
			6, 29, []string{"invalid YAML", "unquoted # starts a comment", "flow mapping"}},
		{"flow-list", head + "transitions:\n  - {from: N, to: T}\nproperties:\n  x: [AG #C <= 1]\n",
			8, 10, []string{"invalid YAML", "flow list"}},
		{"tab-indent", "name: t\nstates: [N, T]\ngroups:\n\tp: 1\n",
			4, 1, []string{"tab", "indent with spaces"}},
		{"tab-after-spaces", "name: t\nstates: [N, T]\ngroups:\n  \tp: 1\n",
			4, 3, []string{"tab", "indent with spaces"}},
		// A key indented too far or not far enough: the error is at the
		// key, whatever line the YAML library names.
		{"indent-deeper", "name: x\nstates: [N, T]\ngroups:\n  p: 1\n   q: 2\ninit: N\n",
			5, 4, []string{"mapping values are not allowed", `"q" is indented deeper than the line above`}},
		{"indent-deeper-item", head + "transitions:\n  - from: N\n     to: T\n",
			7, 6, []string{`"to" is indented deeper`}},
		{"indent-deeper-next-line", head + "transitions:\n  - {from: N, to: T}\nproperties:\n  a: \"AG #N >= 0\"\n   b: \"AG #T >= 0\"\n",
			9, 4, []string{"did not find expected key", `"b" is indented deeper`}},
		{"indent-between", "name: x\nstates: [N, T]\ngroups:\n    p: 1\n  q: 1\ninit: N\n",
			5, 3, []string{`"q" starts at column 3, where no enclosing block does (they start at columns 1, 5)`}},
		{"indent-top-level", "name: x\nstates: [N, T]\n groups:\n  p: 1\n",
			3, 2, []string{`"groups" is indented deeper`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := parseOneError(t, c.src)
			if e.Pos.Line != c.line || e.Pos.Col != c.col {
				t.Errorf("error %q at %d:%d, want %d:%d", e, e.Pos.Line, e.Pos.Col, c.line, c.col)
			}
			for _, w := range c.want {
				if !strings.Contains(e.Msg, w) {
					t.Errorf("error %q lacks %q", e.Msg, w)
				}
			}
		})
	}
}

// TestForeignSyntaxHints: LTL's operators, the words and, or, not, and
// the <-> of NuSMV and Spin get an error that says what vsym writes
// instead, at the operator. The property is on line 8, its string from
// column 7.
func TestForeignSyntaxHints(t *testing.T) {
	const head = "name: h\nstates: [N, T, C]\ngroups: {p: 2}\ninit: N\ntransitions:\n  - {from: N, to: T}\nproperties:\n  a: "
	cases := []struct {
		prop string
		col  int
		want string // the whole message
	}{
		{`"G (#C <= 1)"`, 7, `G is LTL's "globally"; vsym reads CTL: write AG (on every path) or EG (on some path)`},
		{`"[] #C <= 1"`, 7, `[] is LTL's "globally"; vsym reads CTL: write AG (on every path) or EG (on some path)`},
		{`"AG (#T > 0 -> F #C > 0)"`, 21, `F is LTL's "finally"; vsym reads CTL: write AF (on every path) or EF (on some path)`},
		{`"EF <> #C = 1"`, 10, `<> is LTL's "finally"; vsym reads CTL: write AF (on every path) or EF (on some path)`},
		{`"AG X #C = 0"`, 10, `X is LTL's "next"; vsym reads CTL: write AX (on every path) or EX (on some path)`},
		{`"AG (#N > 0 U #C = 1)"`, 18, `expected ), found name "U": vsym reads CTL, where until is A[p U q] (on every path) or E[p U q] (on some path)`},
		{`"AG (#C <= 1 and #T >= 0)"`, 19, `expected ), found name "and": vsym writes and as &`},
		{`"AG #C = 0 or #T = 0"`, 17, `expected operator or end of expression, found name "or": vsym writes or as |`},
		{`"AG not #C = 2"`, 10, `vsym writes not as !`},
		{`"AG (#C = 1 <-> #T = 0)"`, 18, `vsym has no <-> (if and only if): write p <-> q as (p -> q) & (q -> p)`},
		{`"AG (#C = 1<->#T = 0)"`, 17, `vsym has no <-> (if and only if): write p <-> q as (p -> q) & (q -> p)`},
	}
	for _, c := range cases {
		t.Run(c.prop, func(t *testing.T) {
			e := parseOneError(t, head+c.prop+"\n")
			if e.Pos.Line != 8 || e.Pos.Col != c.col || e.Msg != c.want {
				t.Errorf("error %d:%d %q, want 8:%d %q", e.Pos.Line, e.Pos.Col, e.Msg, c.col, c.want)
			}
		})
	}
	// The aliases of other languages that vsym reads need no hint.
	if _, err := Parse("f.yaml", []byte(head+`"AG (#C == 0 && #T != 1 || #N >= 0)"`+"\n")); err != nil {
		t.Errorf("== && ||: %v", err)
	}
}

// TestVariablesNamedLikeLTL: shared variables named F, G and X (Cubicle's
// swimming pool has F and G) read as variables wherever a binary
// operator follows, a minus included ("F - 1" is not "finally -1").
func TestVariablesNamedLikeLTL(t *testing.T) {
	src := "name: h\nstates: [A, B]\ngroups: {p: 1..}\ninit: A\nshared:\n" +
		"  F: {type: 0..3, init: 0}\n  G: {type: 0..3, init: 3}\n  X: {type: \"0..\", init: 0}\n" +
		"transitions:\n" +
		"  - {from: A, to: B, guard: \"F - 1 >= 0 & G-1 >= 0\", update: \"F := F - 1; G := G - 1; X := X - 0\"}\n" +
		"  - {from: B, to: A, guard: \"F + 1 <= 3\", update: \"F := F + 1\"}\n" +
		"properties: {m: \"AG (F - G <= 3 & X - 1 < 5)\"}\n"
	if _, err := Parse("f.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
}

// TestNoHintWhenQuoted: a # inside quotes, and a comment after a quoted
// or well-formed value, are fine and get no hint.
func TestNoHintWhenQuoted(t *testing.T) {
	src := "name: h\nstates: [N, T, C]\ngroups: {p: 2}\ninit: N\ntransitions:\n" +
		"  - {from: N, to: T, guard: \"#C = 0\"}   # a comment with #C\n" +
		"properties: {m: \"AG #C <= 1\"} # fine\n"
	if _, err := Parse("f.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	// A genuine syntax error in a quoted property is not blamed on #.
	bad := "name: h\nstates: [N]\ngroups: {p: 2}\ninit: N\ntransitions: []\nproperties:\n  m: \"AG\"  # comment\n"
	_, err := Parse("f.yaml", []byte(bad))
	if err == nil || strings.Contains(err.Error(), "quote it") {
		t.Errorf("want a plain syntax error, got %v", err)
	}
}

func TestParenthesize(t *testing.T) {
	cases := []struct {
		in, want string
		relies   bool
	}{
		{"AG #C <= 1", "AG (#C <= 1)", false},
		{"EF #C = 1", "EF (#C = 1)", false},
		{"EG #T >= 1 | #C >= 1", "(EG (#T >= 1)) | (#C >= 1)", true},
		{"EG (#T >= 1 | #C >= 1)", "EG ((#T >= 1) | (#C >= 1))", false},
		{"AG (#T > 0 -> EF #C > 0)", "AG ((#T > 0) -> (EF (#C > 0)))", false},
		{"AG #T > 0 -> EF #C > 0", "(AG (#T > 0)) -> (EF (#C > 0))", true},
		{"#N = 3 & #T < 1 | #C > 2", "((#N = 3) & (#T < 1)) | (#C > 2)", true},
		{"a & b & c", "a & b & c", false},
		{"(a & b) & c", "a & b & c", false},
		{"a & (b & c)", "a & (b & c)", false},
		{"a -> b -> c", "a -> (b -> c)", true},
		{"!#C = 0", "!(#C = 0)", false},
		{"!a & b", "(!a) & b", true},
		{"A[#N >= 1 U 2*#C + #T[w] - 3 != 0]", "A[(#N >= 1) U ((((2 * #C) + #T[w]) - 3) != 0)]", false},
		{"-#C + 1 > 0", "((-#C) + 1) > 0", false},
		{"E[a | b U c] & d", "E[(a | b) U c] & d", false},
		{"((true))", "true", false},
	}
	for _, c := range cases {
		x, err := ParseExpr(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := Parenthesize(x); got != c.want {
			t.Errorf("Parenthesize(%s) = %s, want %s", c.in, got, c.want)
		}
		if got := ReliesOnPrecedence(x); got != c.relies {
			t.Errorf("ReliesOnPrecedence(%s) = %v, want %v", c.in, got, c.relies)
		}
		// The printed form parses to the same grouping and is a fixed
		// point.
		y, err := ParseExpr(c.want)
		if err != nil {
			t.Fatalf("%s does not parse: %v", c.want, err)
		}
		if again := Parenthesize(y); again != c.want {
			t.Errorf("Parenthesize is not a fixed point: %s -> %s", c.want, again)
		}
		if ReliesOnPrecedence(y) {
			t.Errorf("the parenthesised %s still relies on precedence", c.want)
		}
	}
}

// TestWritten: Written prints each case of TestParenthesize as written
// (each is written with single spaces), its grouping the parse's.
func TestWritten(t *testing.T) {
	for _, in := range []string{
		"AG #C <= 1", "EG #T >= 1 | #C >= 1", "AG (#T > 0 -> EF #C > 0)", "#N = 3 & #T < 1 | #C > 2",
		"(a & b) & c", "a & (b & c)", "a -> b -> c", "!#C = 0", "!(a & b)", "A[#N >= 1 U 2 * #C + #T[w] - 3 != 0]",
		"-#C + 1 > 0", "E[a | b U c] & d", "((true))", "AG ((p -> AF q) & (#AC >= 1 -> AF (#V0 = 0 & #V1 = 0)))",
	} {
		x, err := ParseExpr(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got := Written(x)
		if got != in {
			t.Errorf("Written(%s) = %s", in, got)
		}
		if y, err := ParseExpr(got); err != nil || Parenthesize(y) != Parenthesize(x) {
			t.Errorf("Written(%s) = %s parses otherwise (%v)", in, got, err)
		}
	}
}

// TestTemporal: Temporal tells a CTL formula from a condition on one
// state, wherever its temporal operator is.
func TestTemporal(t *testing.T) {
	for in, want := range map[string]bool{
		"#C <= 1": false, "!(a & b) | -#C + 1 > 0": false, "((true))": false, "a -> b -> c": false,
		"AG #C <= 1": true, "a & b & !EF c": true, "!EF c & a & b": true, "(a | E[a U b]) -> c": true, "a -> AX b": true,
	} {
		x, err := ParseExpr(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := Temporal(x); got != want {
			t.Errorf("Temporal(%s) = %v, want %v", in, got, want)
		}
	}
}

// TestParenthesizeLongChain: a chain of a hundred thousand & prints flat
// without deep recursion.
func TestParenthesizeLongChain(t *testing.T) {
	parts := make([]string, 100000)
	for i := range parts {
		parts[i] = "#N >= 0"
	}
	x, err := ParseExpr(strings.Join(parts, " & "))
	if err != nil {
		t.Fatal(err)
	}
	got := Parenthesize(x)
	if want := "(" + strings.Join(parts, ") & (") + ")"; got != want {
		t.Errorf("long chain printed wrongly (%d bytes, want %d)", len(got), len(want))
	}
}

// parseOneError parses src as f.yaml and returns its only error.
func parseOneError(t *testing.T, src string) *Error {
	t.Helper()
	_, err := Parse("f.yaml", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("want one error, got %v", err)
	}
	return list[0]
}
