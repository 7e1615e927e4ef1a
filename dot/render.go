package dot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoGraphviz is returned by Render when the dot program of Graphviz is
// not on PATH.
var ErrNoGraphviz = errors.New("the dot program of Graphviz is not on PATH")

// Formats are the output formats Render accepts, by file extension.
var Formats = []string{"svg", "png", "pdf"}

// FormatOf returns the format of an output file from its extension:
// "dot" for .dot and .gv (DOT text, nothing to render), or one of
// Formats. ok is false for any other extension.
func FormatOf(file string) (format string, ok bool) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(file), "."))
	switch ext {
	case "dot", "gv":
		return "dot", true
	}
	for _, f := range Formats {
		if ext == f {
			return f, true
		}
	}
	return ext, false
}

// Render runs Graphviz's dot on src and returns the picture in format (one
// of Formats).
func Render(ctx context.Context, src, format string) ([]byte, error) {
	known := false
	for _, f := range Formats {
		known = known || f == format
	}
	if !known {
		return nil, fmt.Errorf("dot: cannot render %q (want %s)", format, strings.Join(Formats, ", "))
	}
	prog, err := exec.LookPath("dot")
	if err != nil {
		return nil, ErrNoGraphviz
	}
	var out, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, prog, "-T"+format)
	cmd.Stdin = strings.NewReader(src)
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("dot -T%s failed: %s", format, msg)
	}
	return out.Bytes(), nil
}
