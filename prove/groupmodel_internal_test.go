package prove

import (
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
)

// groupModel parses src, a system in vsym's YAML named file, and
// returns its group-counter model: the model the internal tests take
// apart, which needs no solver to build.
func groupModel(t *testing.T, file, src string) *counterabs.ParamModel {
	t.Helper()
	sys, err := gsst.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
