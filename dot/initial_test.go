package dot_test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vsym/vsym/dot"
	"github.com/vsym/vsym/explore"
)

// TestInitialSets draws a system whose processes spread over two initial
// states: the skeleton's start point reaches both, and a counterexample
// that starts in another initial configuration than the first is drawn
// from it (explore.Lifted.Start), which Graphviz renders.
func TestInitialSets(t *testing.T) {
	src, err := os.ReadFile("../gsst/testdata/constructs/initial.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fam := load(t, "initial.yaml", src)
	sys, err := fam.InstantiateParams([]int{4, 1, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	skel, err := dot.Skeleton(sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"s0", "s1"} {
		if !strings.Contains(skel, "start -> "+s+" ") {
			t.Errorf("the start point does not reach %s:\n%s", s, skel)
		}
	}
	if !strings.Contains(skel, "correct any number") {
		t.Errorf("the skeleton does not say the processes start in any number:\n%s", skel)
	}
	rep, err := checkGroup(t, sys, explore.Properties("relay"))
	if err != nil {
		t.Fatal(err)
	}
	tr := rep.Properties[0].Trace
	if tr == nil || tr.Lifted == nil || tr.Lifted.Error != "" {
		t.Fatalf("no lifted counterexample: %+v", tr)
	}
	if got := tr.Lifted.Start.Totals(len(sys.States)); !slices.Equal(got, tr.States[0].Counters) || slices.Equal(got, sys.InitConfig().Totals(len(sys.States))) {
		t.Fatalf("the lifted trace starts at %v, the trace at %v (the first initial configuration is %v)", got, tr.States[0].Counters, sys.InitConfig().Totals(len(sys.States)))
	}
	text, err := dot.Trace(sys, tr, dot.ForProperty(sys.Properties[1]))
	if err != nil {
		t.Fatal(err)
	}
	checkRenders(t, text)
	label, _ := parse(t, text).object(t, "c0")
	want := []string{"total"}
	for _, c := range tr.States[0].Counters {
		want = append(want, strconv.Itoa(c))
	}
	if rows := tableRows(label); !slices.ContainsFunc(rows, func(r []string) bool { return slices.Equal(r, want) }) {
		t.Errorf("the first configuration has no row %v: %v", want, rows)
	}
}

// TestSharedInitialRanges checks that the shared-variable box states a
// range of initial values as the spec writes it (gsst's InitText), over
// the parameters in a family: it printed the least value alone ("= 0"
// for y, whose values start at f).
func TestSharedInitialRanges(t *testing.T) {
	src, err := os.ReadFile("../testdata/initial/ranged.yaml")
	if err != nil {
		t.Fatal(err)
	}
	skel, err := dot.Skeleton(load(t, "ranged.yaml", src))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"x: 0..5, initially 0..f", "y: 0..4, initially f..3", "<TD ALIGN=\"LEFT\">= f..3</TD>"} {
		if !strings.Contains(skel, want) {
			t.Errorf("the skeleton does not say %q:\n%s", want, skel)
		}
	}
}
