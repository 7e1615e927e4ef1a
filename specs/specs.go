package specs

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

//go:embed *.yaml threshold/*.yaml
var files embed.FS

// dirs are the directories of bundled specifications: this one, and
// threshold for the threshold-guarded algorithms (named
// "threshold/cc.yaml").
var dirs = []string{".", "threshold"}

// List returns the names of the bundled specifications ("mutex.yaml",
// ..., "threshold/cc.yaml", ...), sorted.
func List() []string {
	var out []string
	for _, dir := range dirs {
		ents, err := fs.ReadDir(files, dir)
		if err != nil {
			continue // cannot happen: the embedded directories exist
		}
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".yaml") {
				out = append(out, path.Join(dir, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return out
}

// Read returns the bundled specification name, given with or without its
// ".yaml" extension, as List names it.
func Read(name string) ([]byte, error) {
	if !strings.HasSuffix(name, ".yaml") {
		name += ".yaml"
	}
	if !slices.Contains(List(), name) {
		return nil, fmt.Errorf("specs: no bundled specification %q (have %s)", name, strings.Join(List(), ", "))
	}
	return files.ReadFile(name)
}
