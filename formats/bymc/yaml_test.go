package bymc_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/internal/testsupport"
)

var update = flag.Bool("update", false, "rewrite the converted YAML of testdata")

// TestConvert compares the YAML of every automaton of testdata with
// testdata/NAME.yaml (-update rewrites them), and checks that it reads
// back as the same system.
func TestConvert(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.ta")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			imp, err := bymc.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := formats.Write(&b, imp); err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(file, ".ta") + ".yaml"
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := testsupport.FirstDiff(string(want), b.String()); d != "" {
				t.Errorf("%s differs (run with -update to rewrite): %s", golden, d)
			}
			formatstest.ReadsBack(t, imp, b.Bytes())
		})
	}
}
