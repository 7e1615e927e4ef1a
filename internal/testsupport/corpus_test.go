package testsupport

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected values of testdata/corpus from the oracles")

// writeCase rewrites the expected sections of c's archive.
func writeCase(t *testing.T, dir string, c *Case, cert []string, total, group *Level) {
	t.Helper()
	path := filepath.Join(dir, c.Name+".txtar")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := ParseArchive(data)
	var lines []byte
	for k, name := range ItemNames(c.Sys) {
		lines = append(lines, name+": "+cert[k]+"\n"...)
	}
	files := []File{{"spec.yaml", c.Spec}}
	for _, name := range []string{"sizes", "params"} {
		if data := a.Get(name); data != nil {
			files = append(files, File{name, data})
		}
	}
	out := &Archive{Comment: a.Comment, Files: append(files,
		File{"certification", lines}, File{"total", total.Format(true)}, File{"group", group.Format(false)})}
	if err := os.WriteFile(path, out.Format(), 0o644); err != nil {
		t.Fatal(err)
	}
}
