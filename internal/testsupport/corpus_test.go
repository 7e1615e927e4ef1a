package testsupport

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected values of testdata/corpus from the oracles")

// writeCase rewrites the expected sections of c's archive.
func writeCase(t *testing.T, dir string, c *Case, trans []string, total, group *Level) {
	t.Helper()
	path := filepath.Join(dir, c.Name+".txtar")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := ParseArchive(data)
	var cert []byte
	for r, v := range trans {
		cert = append(cert, c.Sys.TransitionName(&c.Sys.Transitions[r])+": "+v+"\n"...)
	}
	files := []File{{"spec.yaml", c.Spec}}
	if sizes := a.Get("sizes"); sizes != nil {
		files = append(files, File{"sizes", sizes})
	}
	out := &Archive{Comment: a.Comment, Files: append(files,
		File{"certification", cert}, File{"total", total.Format(true)}, File{"group", group.Format(false)})}
	if err := os.WriteFile(path, out.Format(), 0o644); err != nil {
		t.Fatal(err)
	}
}
