package mist_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/mist"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

var update = flag.Bool("update", false, "rewrite the converted YAML of testdata")

// TestConvert compares the YAML of every net of testdata that translates
// with testdata/NAME.yaml (-update rewrites them), and checks that it
// reads back as the same system.
func TestConvert(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.spec")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			imp, err := mist.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := formats.Write(&b, imp); err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(file, ".spec") + ".yaml"
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
			readsBack(t, imp, b.Bytes())
		})
	}
}

// readsBack checks that yaml, the YAML of imp, reads back as the system
// imp translates to: the same states, groups, initial configuration,
// shared variables and properties, and the same reachable states in its
// smallest instance.
func readsBack(t *testing.T, imp *formats.Import, yaml []byte) {
	t.Helper()
	want, err := imp.System()
	if err != nil {
		t.Fatal(err)
	}
	got, err := gsst.Parse("converted.yaml", yaml)
	if err != nil {
		t.Fatalf("the YAML does not read back: %v\n%s", err, yaml)
	}
	switch {
	case got.Name != want.Name || !slices.Equal(got.States, want.States):
		t.Fatalf("read back as %s %v, want %s %v", got.Name, got.States, want.Name, want.States)
	case len(got.Groups) != len(want.Groups) || len(got.Shared) != len(want.Shared) || len(got.Properties) != len(want.Properties):
		t.Fatalf("read back with %d groups, %d shared variables, %d properties; want %d, %d, %d",
			len(got.Groups), len(got.Shared), len(got.Properties), len(want.Groups), len(want.Shared), len(want.Properties))
	}
	for g := range want.Groups {
		if got.Groups[g].Name != want.Groups[g].Name || got.Groups[g].SizeText() != want.Groups[g].SizeText() || !slices.Equal(got.Init[g], want.Init[g]) {
			t.Errorf("group %d read back as %s %s %v, want %s %s %v", g, got.Groups[g].Name, got.Groups[g].SizeText(), got.Init[g],
				want.Groups[g].Name, want.Groups[g].SizeText(), want.Init[g])
		}
	}
	for j := range want.Shared {
		if got.Shared[j].Name != want.Shared[j].Name || got.Shared[j].TypeText() != want.Shared[j].TypeText() || got.Shared[j].Init != want.Shared[j].Init {
			t.Errorf("shared variable %d read back as %+v, want %+v", j, got.Shared[j], want.Shared[j])
		}
	}
	for i := range want.Properties {
		if got.Properties[i].Name != want.Properties[i].Name || got.Properties[i].Text != want.Properties[i].Text {
			t.Errorf("property %d read back as %s: %s, want %s: %s", i, got.Properties[i].Name, got.Properties[i].Text, want.Properties[i].Name, want.Properties[i].Text)
		}
	}
	a, err := got.Smallest()
	if err != nil {
		t.Fatal(err)
	}
	b, err := want.Smallest()
	if err != nil {
		t.Fatal(err)
	}
	project := func(totals, shared []int) string { return key(totals) + " | " + key(shared) }
	ma, err := counterabs.BuildGroup(a)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := counterabs.BuildGroup(b)
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := modelReach(ma, 30, project), modelReach(mb, 30, project)
	if len(ra) != len(rb) {
		t.Fatalf("the YAML reaches %d states within 30 steps, the translation %d", len(ra), len(rb))
	}
	for k, d := range rb {
		if ra[k] != d {
			t.Fatalf("state %s: reached at depth %d from the YAML, %d from the translation", k, ra[k], d)
		}
	}
}
