package gsst

import (
	"os"
	"path/filepath"
	"strings"
)

// ParseFile parses the GSST file src into its syntax tree, without
// resolving names: the errors are those of YAML structure and of
// expression syntax. filename is used in positions. The File is nil only
// when src is not a YAML mapping at all; otherwise it holds whatever could
// be read, even when the error list is not empty.
func ParseFile(filename string, src []byte) (*File, error) {
	d := &decoder{file: filename, lines: splitLines(src)}
	var f *File
	if root := d.decodeYAML(src); root != nil {
		f = d.decodeFile(root)
	}
	d.errs.Sort()
	return f, d.errs.Err()
}

// An Option changes how Parse and Load read a file.
type Option func(*options)

type options struct {
	allSizes bool
}

// AllSizes reads the size of every group as the range 1.., whatever the
// file says (the sizes written must still be valid): the system is then
// the family of all instances of the design, for questions such as "is it
// fully virtually symmetric whatever the sizes?". A group whose init gives
// counts per state is an error under AllSizes, as for any ranged group.
func AllSizes() Option { return func(o *options) { o.allSizes = true } }

// Parse parses and checks the GSST file src. filename is used in
// positions and, when the file has no name key, as the system's name
// (without directory and extension). On failure the error is an ErrorList
// holding every error found in the file, sorted by position, and the
// System is nil.
func Parse(filename string, src []byte, opts ...Option) (*System, error) {
	var opt options
	for _, o := range opts {
		o(&opt)
	}
	f, err := ParseFile(filename, src)
	if f == nil {
		return nil, err
	}
	var errs ErrorList
	if err != nil {
		errs = err.(ErrorList)
	}
	spec, cerrs := check(f, filename, opt)
	errs = append(errs, cerrs...)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	if spec.Name == "" {
		base := filepath.Base(filename)
		spec.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	spec.mergeBlocks()
	return seal(spec), nil
}

// Load reads and parses the GSST file at path.
func Load(path string, opts ...Option) (*System, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src, opts...)
}
