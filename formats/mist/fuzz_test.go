package mist_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/formats/mist"
)

// FuzzTranslate reads any input without panicking: either every error at
// a position of the file, or a system that gsst.New accepts and whose
// YAML reads back (formatstest.Fuzzed).
func FuzzTranslate(f *testing.F) {
	for _, pat := range []string{"testdata/*.spec", "testdata/needs/*.spec", "testdata/steps/*.spec", "testdata/initial/*.spec"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	for _, tc := range errorTests {
		f.Add([]byte(tc.src))
	}
	f.Add([]byte(""))
	f.Add([]byte("vars\nrules\ninit\ntarget\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		formatstest.Fuzzed(t, mist.Translate("f.spec", src), "f.spec")
	})
}
