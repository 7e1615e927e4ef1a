package specs

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// List returns the names of the bundled specifications ("mutex.yaml",
// ...), sorted.
func List() []string {
	ents, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil // cannot happen: the embedded root always exists
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".yaml") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Read returns the bundled specification name, given with or without its
// ".yaml" extension.
func Read(name string) ([]byte, error) {
	if !strings.HasSuffix(name, ".yaml") {
		name += ".yaml"
	}
	if strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("specs: no bundled specification %q", name)
	}
	b, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("specs: no bundled specification %q (have %s)", name, strings.Join(List(), ", "))
	}
	return b, nil
}
