package mist_test

import (
	"testing"

	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/formats/mist"
)

// Each input's errors, every one at its line and column.
var errorTests = []struct {
	name, src string
	want      []string // "line:col: part of the message"
}{
	{"no vars", "rules\n", []string{"1:1: expected vars, the first section of a mist file, found \"rules\""}},
	{"unknown place", "vars x\nrules\n  x >= 1 -> y' = x;\ninit x = 1\ntarget x >= 1\n",
		[]string{"3:13: unknown place y (the vars section declares x)"}},
	{"missing integer", "vars x\nrules\n  x >= -> x' = x;\ninit x = 1\ntarget x >= 1\n",
		[]string{"3:8: expected an integer, found \"->\""}},
	{"subtracted place", "vars x y\nrules\n  x >= 1 -> x' = x - y;\ninit x = 1, y = 0\ntarget x >= 1\n",
		[]string{"3:22: rule 1 subtracts place y"}},
	{"duplicate place", "vars x y x\nrules\ninit x = 1, y = 0\ntarget x >= 1\n",
		[]string{"1:10: place x declared twice (first at f.spec:1:6)"}},
	{"constrained twice", "vars x\nrules\n  x >= 1, x = 2 -> x' = x;\ninit x = 1\ntarget x >= 1\n",
		[]string{"3:11: place x is constrained twice in one guard conjunction (first at f.spec:3:3)"}},
	{"empty interval", "vars x\nrules\n  x in [3, 1] -> x' = x;\ninit x = 1\ntarget x >= 1\n",
		[]string{"3:3: empty interval [3, 1] for place x"}},
	// mist does not read a file that sets a place to 2: the equations
	// are its only reading, and two of them for y contradict each other.
	{"assigned twice", "vars x y\nrules\n  x >= 1 -> y' = y + x, y' = 2;\ninit x = 1, y = 0\ntarget x >= 1\n",
		[]string{"3:25: rule 1 assigns y twice (first at f.spec:3:13)"}},
	{"mist reads it otherwise", "vars x y\nrules\n  x >= 1 -> x' = x - 1, y' = 0;\ninit x = 1, y = 0\ntarget x >= 1\n",
		[]string{"3:3: rule 1: mist reads this rule as y' = y, where its equations say y' = 0"}},
	{"illegal character", "vars x\nrules\n  x >= 1 -> x' = x @ 1;\ninit x = 1\ntarget x >= 1\n",
		[]string{"3:20: unexpected character '@'"}},
	{"integer too large", "vars x\nrules\n  x >= 99999999999 -> x' = x;\ninit x = 1\ntarget x >= 1\n",
		[]string{"3:8: integer 99999999999 is too large (the limit is 1000000000)"}},
	{"not UTF-8", "vars x\nrules\n  x >= 1 \xff -> x' = x;\ninit x = 1\ntarget x >= 1\n",
		[]string{"3:10: byte 0xff is not UTF-8 text"}},
	{"missing target", "vars x\nrules\n  x >= 1 -> x' = x;\ninit x = 1\n",
		[]string{"5:1: expected target, found end of file"}},
	{"two errors", "vars x\nrules\n  x >= 1 -> q' = x;\n  z >= 1 -> x' = x;\ninit x = 1\ntarget x >= 1\n",
		[]string{"3:13: unknown place q", "4:3: unknown place z"}},
	{"too many processes", "vars x\nrules\n  x >= 1 -> x' = x;\ninit x = 2000000\ntarget x >= 1\n",
		[]string{"4:6: group \"x\" has size 2000000, above the limit of 1000000 processes"}},
	{"missing construct", "vars u d\nrules\n  true -> d' = d + u - 2, u' = 2;\ninit u = 1, d = 2\ntarget d >= 3\n",
		[]string{"3:3: rule 1 moves several tokens and transfers the tokens of a place, and a token of u would stay in its place: needs a rendezvous that also broadcasts"}},
}

func TestErrors(t *testing.T) {
	for _, tc := range errorTests {
		t.Run(tc.name, func(t *testing.T) {
			imp := mist.Translate("f.spec", []byte(tc.src))
			err := imp.Err()
			if err == nil {
				_, err = imp.System()
			}
			formatstest.Errors(t, err, "f.spec", tc.want)
		})
	}
}

// TestExpectedResult reads the announced verdicts, wherever the comment
// is.
func TestExpectedResult(t *testing.T) {
	src := "#expected result: unsafe\nvars x\nrules\ninit x = 1\ntarget x >= 2 # expected result: safe\n"
	imp := mist.Translate("f.spec", []byte(src))
	if err := imp.Err(); err != nil {
		t.Fatal(err)
	}
	if len(imp.Expected) != 2 || imp.Expected[0].Text != "unsafe" || imp.Expected[0].Holds.String() != "fails" ||
		imp.Expected[1].Text != "safe" || imp.Expected[1].Holds.String() != "holds" || imp.Expected[1].Pos.Line != 5 {
		t.Errorf("expected results %+v", imp.Expected)
	}
}
