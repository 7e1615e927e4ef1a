package mist_test

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/formats/mist"
)

var update = flag.Bool("update", false, "rewrite the converted YAML of testdata")

// TestConvert compares the YAML of every model of testdata that
// translates with testdata/NAME.yaml (-update rewrites them), and checks
// that it reads back as the same system.
func TestConvert(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.spec")
	// testdata/initial: nets with several initial markings (counters
	// that start in a range or at a parameter's value, places that may
	// start empty) and nets with no process.
	initial, _ := filepath.Glob("testdata/initial/*.spec")
	files = append(files, initial...)
	// testdata/steps: one net per kind of step.
	steps, _ := filepath.Glob("testdata/steps/*.spec")
	files = append(files, steps...)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			imp, err := mist.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			formatstest.Golden(t, imp, strings.TrimSuffix(file, ".spec")+".yaml", *update)
		})
	}
}
