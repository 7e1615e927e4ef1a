package bymc_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
)

// FuzzTranslate reads any input without panicking: either every error at
// a position of the file, or a system that gsst.New accepts and whose
// YAML reads back (formatstest.Fuzzed).
func FuzzTranslate(f *testing.F) {
	for _, pat := range []string{"testdata/*.ta", "testdata/needs/*.ta", "testdata/isola18/*.ta", "testdata/random19/*.ta"} {
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
	f.Fuzz(func(t *testing.T, src []byte) {
		formatstest.Fuzzed(t, bymc.Translate("f.ta", src), "f.ta")
	})
}
