package bymc_test

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
)

var update = flag.Bool("update", false, "rewrite the converted YAML of testdata")

// TestConvert compares the YAML of every model of testdata that
// translates with testdata/NAME.yaml (-update rewrites them), and checks
// that it reads back as the same system.
func TestConvert(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.ta")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			imp, err := bymc.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			formatstest.Golden(t, imp, strings.TrimSuffix(file, ".ta")+".yaml", *update)
		})
	}
}
