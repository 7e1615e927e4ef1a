package gsst

import (
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// TestSpecs checks the bundled specifications in full.
func TestSpecs(t *testing.T) {
	type block struct {
		groups []int
		guard  string
	}
	type trans struct {
		edge   string
		blocks []block
	}
	props := []string{"mutex AG (#C <= 1)", "reachable EF (#C = 1)", "can-progress AG ((#T > 0) -> EF (#C > 0))"}
	tests := []struct {
		file   string
		groups []Group
		trans  []trans
	}{
		{"mutex.yaml", []Group{{Name: "proc", Size: 3}}, []trans{
			{"N -> T", []block{{[]int{0}, "true"}}},
			{"T -> C", []block{{[]int{0}, "#C = 0"}}},
			{"C -> N", []block{{[]int{0}, "true"}}},
		}},
		{"readers-writers.yaml", []Group{{Name: "reader", Size: 1}, {Name: "writer", Size: 2}}, []trans{
			{"N -> T", []block{{[]int{0, 1}, "true"}}},
			{"T -> C", []block{{[]int{0}, "#C = 0 & #T[writer] = 0"}, {[]int{1}, "#C = 0"}}},
			{"C -> N", []block{{[]int{0, 1}, "true"}}},
		}},
		{"readers-writers-broken.yaml", []Group{{Name: "reader", Size: 1}, {Name: "writer", Size: 2}}, []trans{
			{"N -> T", []block{{[]int{0, 1}, "true"}}},
			{"T -> C", []block{{[]int{0}, "#C = 0 & #T = 2"}, {[]int{1}, "#C = 0"}}},
			{"C -> N", []block{{[]int{0, 1}, "true"}}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "specs", tt.file)
			sys, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimSuffix(tt.file, ".yaml"); sys.Name != want {
				t.Errorf("name %q, want %q", sys.Name, want)
			}
			if sys.File != path {
				t.Errorf("file %q, want %q", sys.File, path)
			}
			if !reflect.DeepEqual(sys.States, []string{"N", "T", "C"}) {
				t.Errorf("states %v", sys.States)
			}
			if len(sys.Groups) != len(tt.groups) {
				t.Fatalf("groups %v, want %v", sys.Groups, tt.groups)
			}
			for i, g := range sys.Groups {
				if g.Name != tt.groups[i].Name || g.Size != tt.groups[i].Size || g.Pos.Line == 0 {
					t.Errorf("group %d: %+v, want %+v", i, g, tt.groups[i])
				}
				if want := []int{g.Size, 0, 0}; !reflect.DeepEqual(sys.Init[i], want) {
					t.Errorf("init of %s: %v, want %v", g.Name, sys.Init[i], want)
				}
			}
			if len(sys.Transitions) != len(tt.trans) {
				t.Fatalf("%d transitions, want %d", len(sys.Transitions), len(tt.trans))
			}
			for i, want := range tt.trans {
				tr := &sys.Transitions[i]
				if got := sys.TransitionName(tr); got != want.edge {
					t.Errorf("transition %d is %s, want %s", i, got, want.edge)
				}
				var got []block
				for _, b := range tr.Blocks {
					got = append(got, block{b.Groups, presburger.Format(b.Guard, sys.VarName)})
					if b.Pos.Line == 0 {
						t.Errorf("%s: block without position", want.edge)
					}
				}
				if !reflect.DeepEqual(got, want.blocks) {
					t.Errorf("%s: blocks %v, want %v", want.edge, got, want.blocks)
				}
			}
			var got []string
			for _, p := range sys.Properties {
				got = append(got, p.Name+" "+ctl.Format(p.Formula, sys.VarName))
			}
			if !reflect.DeepEqual(got, props) {
				t.Errorf("properties %q, want %q", got, props)
			}
		})
	}
}

func TestInitForms(t *testing.T) {
	const head = "states: [N, T, C]\ngroups: {a: 2, b: 3}\ntransitions: []\n"
	tests := []struct {
		init string
		want [][]int
	}{
		{"init: T", [][]int{{0, 2, 0}, {0, 3, 0}}},
		{"init: {a: C, b: N}", [][]int{{0, 0, 2}, {3, 0, 0}}},
		{"init: {b: {N: 1, C: 2}, a: {T: 2, N: 0}}", [][]int{{0, 2, 0}, {1, 0, 2}}},
		{"init:\n  a: N\n  b:\n    T: 3", [][]int{{2, 0, 0}, {0, 3, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.init, func(t *testing.T) {
			sys, err := Parse("i.yaml", []byte(head+tt.init+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(sys.Init, tt.want) {
				t.Errorf("init %v, want %v", sys.Init, tt.want)
			}
		})
	}
}

func TestBlocks(t *testing.T) {
	const src = `
states: [N, T]
groups: {a: 1, b: 1, c: 1, d: 1}
init: N
transitions:
  - {from: N, to: T, guard: "#T = 0"}
  - from: T
    to: N
    guard:
      "c, a": "#N = 1"
      d: "#N[d] = 0"
`
	sys, err := Parse("b.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	t0, t1 := &sys.Transitions[0], &sys.Transitions[1]
	if len(t0.Blocks) != 1 || !reflect.DeepEqual(t0.Blocks[0].Groups, []int{0, 1, 2, 3}) {
		t.Errorf("single guard: blocks %+v, want one block with every group", t0.Blocks)
	}
	if len(t1.Blocks) != 2 || !reflect.DeepEqual(t1.Blocks[0].Groups, []int{0, 2}) || !reflect.DeepEqual(t1.Blocks[1].Groups, []int{3}) {
		t.Errorf("guard map: blocks %+v, want {a,c} and {d}", t1.Blocks)
	}
	if t1.BlockOf(1) != nil {
		t.Errorf("group b is in no key but can take T -> N")
	}
	if b := t1.BlockOf(3); b == nil || b.Text != "#N[d] = 0" || b.Pos != (Pos{"b.yaml", 11, 10}) {
		t.Errorf("block of d: %+v", b)
	}
}

// TestFileErrors covers inputs that cannot carry error markers.
func TestFileErrors(t *testing.T) {
	tests := []struct {
		name, src string
		pos       string // "line:col", or "" for no line
		msg       string
	}{
		{"empty", "", "1:1", "empty file"},
		{"blank", "\n\n  \n", "1:1", "empty file"},
		{"comment only", "# nothing here\n", "1:1", "empty file"},
		{"null document", "~\n", "1:1", "empty file"},
		{"scalar", "hello\n", "1:1", "expected a mapping with keys states, groups, init, transitions, found \"hello\""},
		{"list", "- a\n- b\n", "1:1", "expected a mapping with keys .*, found a list"},
		{"garbage", "states: [N, T\ngroups: {", "", "invalid YAML"},
		{"bad indentation", "states: [N]\n\tgroups: 1\n", "", "invalid YAML"},
		{"unclosed quote", "states: [N]\nname: \"abc\n", "", "invalid YAML"},
		{"two documents", "states: [N]\n---\nstates: [T]\n", "2:1", "more than one YAML document"},
		{"binary", "\x00\x01\x02", "", "invalid YAML"},
		{"alias", "states: &s [N, T]\ngroups: {p: 1}\ninit: *s\ntransitions: []\n", "3:7", "YAML aliases are not supported"},
		{"missing all", "name: x\n", "1:1", `missing key "groups"`},
		{"missing transitions", "states: [N]\ngroups: {p: 1}\ninit: N\n", "1:1", `missing key "transitions"`},
		{"empty states", "states: []\ngroups: {p: 1}\ninit: N\ntransitions: []\n", "1:9", "empty list of states"},
		{"no groups", "states: [N]\ngroups: {}\ninit: N\ntransitions: []\n", "2:9", "no groups"},
		{"non-scalar key", "states: [N]\ngroups: {[p]: 1}\ninit: N\ntransitions: []\n", "2:10", "expected groups key, found a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			re := regexp.MustCompile(tt.msg)
			for _, e := range err.(ErrorList) {
				pos := ""
				if e.Pos.Line != 0 {
					pos = fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Col)
				}
				if re.MatchString(e.Msg) && (tt.pos == "" || pos == tt.pos) {
					return
				}
			}
			t.Errorf("no error at %q matching %q in:\n%v", tt.pos, tt.msg, err)
		})
	}
}

func TestNameFromFile(t *testing.T) {
	src := []byte("states: [N, C]\ngroups: {p: 2}\ninit: N\ntransitions: [{from: N, to: C}]\n")
	sys, err := Parse("dir/my-system.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if sys.Name != "my-system" {
		t.Errorf("name %q, want my-system", sys.Name)
	}
	if len(sys.Properties) != 0 {
		t.Errorf("properties %v, want none", sys.Properties)
	}
}

// TestErrorFormat checks how an error list prints: every error, sorted,
// each with file:line:col.
func TestErrorFormat(t *testing.T) {
	src := "states: [N, C]\ngroups: {p: 2}\ninit: Q\ntransitions:\n  - {from: N, to: C, guard: \"#X = 0\"}\n"
	_, err := Parse("./s.yaml", []byte(src))
	want := "./s.yaml:3:7: unknown local state \"Q\" in init\n" +
		"./s.yaml:5:31: unknown local state \"X\" in guard of N -> C"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "none.yaml")); err == nil {
		t.Error("Load of a missing file succeeded")
	}
}

// TestLineEndings checks that CRLF and CR files parse like LF files, with
// the same positions.
func TestLineEndings(t *testing.T) {
	src := "states: [N, C]\ngroups: {p: 2}\ninit: N\ntransitions:\n  - {from: N, to: C, guard: \"#C = 0 & #X = 1\"}\n"
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		t.Run(fmt.Sprintf("%q", eol), func(t *testing.T) {
			_, err := Parse("e.yaml", []byte(strings.ReplaceAll(src, "\n", eol)))
			want := `e.yaml:5:40: unknown local state "X" in guard of N -> C`
			if err == nil || err.Error() != want {
				t.Errorf("got %v, want %s", err, want)
			}
		})
	}
}

// TestBadGuardKey checks that a guard key without any valid group name
// is not read as a guard shared by every group.
func TestBadGuardKey(t *testing.T) {
	src := "states: [N, C]\ngroups: {p: 2}\ninit: N\ntransitions:\n  - from: N\n    to: C\n    guard: {\"1a\": \"true\", p: \"true\"}\n"
	_, err := Parse("k.yaml", []byte(src))
	want := `k.yaml:7:14: group name "1a" in guard key is not a name`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
