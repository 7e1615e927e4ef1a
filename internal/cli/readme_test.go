package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocExamples runs the examples of the README and of every document
// under docs/ that show a whole output: a line "$ vsym ..." in a console
// block, followed by the output up to the next "$ " line or the end of
// the block. Examples that elide output ("...") or use the shell (pipes,
// redirections, &&) are left out; the others must print exactly what
// the document shows, run from the repository root. Files other than
// the bundled specs are not at hand, so examples on them are left out
// too (the transcripts cover those). With -update, the outputs that
// differ are rewritten in the documents (read the diff before keeping
// it: an example shows what a user sees). The examples run one after
// another in the test's process (runInProcess), as the transcripts do,
// and a command shown twice runs once.
func TestDocExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no documents under docs/: %v", err)
	}
	for i, d := range docs {
		docs[i] = filepath.Join("docs", filepath.Base(d))
	}
	ran := 0
	rewrite := map[string]map[string]string{} // doc -> command -> output
	defer func() {
		for doc, outputs := range rewrite {
			path := filepath.Join(root, doc)
			data, err := os.ReadFile(path)
			if err == nil {
				err = os.WriteFile(path, []byte(rewriteExamples(string(data), outputs)), 0o644)
			}
			if err != nil {
				t.Error(err)
			}
		}
	}()
	// A command shown in several places runs once: what it prints is
	// compared with each.
	printed := map[string]string{}
	t.Run("examples", func(t *testing.T) {
		for _, doc := range append([]string{"README.md"}, docs...) {
			data, err := os.ReadFile(filepath.Join(root, doc))
			if err != nil {
				t.Fatal(err)
			}
			for _, ex := range consoleExamples(string(data)) {
				if strings.Contains(ex.output, "...") || strings.ContainsAny(ex.command, "|<>&;") || !onBundledSpecs(ex.command) {
					continue
				}
				ran++
				t.Run(doc+": "+ex.command, func(t *testing.T) {
					got, ok := printed[ex.command]
					if !ok {
						stdout, _, _ := runInProcess(t, root, nil, strings.Fields(strings.TrimPrefix(ex.command, "vsym ")), nil)
						got = string(stdout)
						printed[ex.command] = got
					}
					switch {
					case got == ex.output:
					case *update:
						if rewrite[doc] == nil {
							rewrite[doc] = map[string]string{}
						}
						rewrite[doc][ex.command] = got
					default:
						t.Errorf("%s shows:\n%s\nbut the command prints:\n%s", doc, ex.output, got)
					}
				})
			}
		}
	})
	if ran < 15 {
		t.Errorf("only %d examples checked", ran)
	}
}

type consoleExample struct{ command, output string }

// consoleExamples returns the commands of the ```console blocks of a
// Markdown text with the output shown after each, without the block's
// indentation (a block inside a list item is indented).
func consoleExamples(md string) []consoleExample {
	var out []consoleExample
	var cur *consoleExample
	in, indent := false, ""
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && strings.HasPrefix(trimmed, "```console"):
			in, indent = true, line[:len(line)-len(strings.TrimLeft(line, " "))]
		case in && strings.HasPrefix(trimmed, "```"):
			flush()
			in = false
		case in && strings.HasPrefix(trimmed, "$ "):
			flush()
			cmd := strings.TrimPrefix(trimmed, "$ ")
			if i := strings.Index(cmd, "  #"); i >= 0 {
				cmd = strings.TrimSpace(cmd[:i])
			}
			cur = &consoleExample{command: cmd}
		case in && cur != nil:
			if trimmed == "" {
				// A blank line ends the output shown.
				flush()
				continue
			}
			cur.output += strings.TrimPrefix(line, indent) + "\n"
		}
	}
	return out
}

// rewriteExamples returns md with the output shown after each command of
// its console blocks replaced by outputs[command], where it has one.
func rewriteExamples(md string, outputs map[string]string) string {
	var out []string
	in, skipping, indent := false, false, ""
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && strings.HasPrefix(trimmed, "```console"):
			in, indent = true, line[:len(line)-len(strings.TrimLeft(line, " "))]
		case in && strings.HasPrefix(trimmed, "```"):
			in, skipping = false, false
		case in && strings.HasPrefix(trimmed, "$ "):
			skipping = false
			cmd := strings.TrimPrefix(trimmed, "$ ")
			if i := strings.Index(cmd, "  #"); i >= 0 {
				cmd = strings.TrimSpace(cmd[:i])
			}
			if got, ok := outputs[cmd]; ok {
				out = append(out, line)
				for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
					out = append(out, indent+l)
				}
				skipping = true
				continue
			}
		case in && skipping && trimmed == "":
			skipping = false
		case skipping:
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// onBundledSpecs reports whether every file argument of a command line
// "vsym CMD ARGS" names a bundled spec (a command may have none, as
// "vsym gen example").
func onBundledSpecs(command string) bool {
	for _, a := range strings.Fields(command)[2:] {
		if strings.HasSuffix(a, ".yaml") && !strings.HasPrefix(a, "specs/") {
			return false
		}
	}
	return true
}
