package bymc_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/gsst"
)

// FuzzTranslate reads any input without panicking: either every error at
// a position of the file, or a system that gsst.New accepts and whose
// YAML reads back.
func FuzzTranslate(f *testing.F) {
	for _, pat := range []string{"testdata/*.ta", "testdata/needs/*.ta", "testdata/isola18/*.ta"} {
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
		imp := bymc.Translate("f.ta", src)
		if err := imp.Err(); err != nil {
			list, ok := err.(gsst.ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.File != "f.ta" || e.Pos.Line < 1 || e.Pos.Col < 1 {
					t.Fatalf("error without a position: %v", e)
				}
			}
			return
		}
		sys, err := imp.System()
		if err != nil {
			t.Fatalf("translation accepted, gsst.New refuses: %v", err)
		}
		var b bytes.Buffer
		if err := formats.Write(&b, imp); err != nil {
			t.Fatal(err)
		}
		back, err := gsst.Parse("f.yaml", b.Bytes())
		if err != nil {
			t.Fatalf("the YAML does not read back: %v\n%s", err, b.String())
		}
		if len(back.States) != len(sys.States) || len(back.Transitions) != len(sys.Transitions) || len(back.Properties) != len(sys.Properties) {
			t.Fatalf("the YAML reads back as another system:\n%s", b.String())
		}
	})
}
