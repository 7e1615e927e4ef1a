package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotStated: a specification of a .ta file that the translation
// does not state is listed, with its position and reason, in the JSON
// of explore and prove (not_stated) and in their text, after the
// verdicts of the others, which are given as usual; a command without
// verdicts (nusmv) warns of it on standard error.
func TestNotStated(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	file := "formats/bymc/testdata/unfair.ta"
	for _, args := range [][]string{
		{"explore", "--params", "N=2", "--no-traces", "--output", "json", file},
		{"prove", "--output", "json", file},
	} {
		stdout, stderr, code := runInProcess(t, root, nil, args, nil)
		if code != 1 { // good fails
			t.Fatalf("%v: exit %d, want 1\n%s", args, code, stderr)
		}
		var out struct {
			Properties []struct {
				Name string `json:"name"`
			} `json:"properties"`
			NotStated []notStatedJSON `json:"not_stated"`
		}
		if err := json.Unmarshal(stdout, &out); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout)
		}
		if len(out.Properties) != 2 || out.Properties[0].Name != "good" || out.Properties[1].Name != "done" {
			t.Errorf("%v: properties %+v, want good and done", args, out.Properties)
		}
		want := notStatedJSON{Name: "both", Pos: file + ":49:11", Why: "vsym translates [] f, <> c, f && f, c || f and c -> f (c a condition); this LTL formula has no CTL equivalent among them"}
		if len(out.NotStated) != 1 || out.NotStated[0] != want {
			t.Errorf("%v: not_stated %+v, want %+v", args, out.NotStated, want)
		}
	}
	// A command whose output has no verdicts warns of it.
	_, stderr, code := runInProcess(t, root, nil, []string{"nusmv", "--params", "N=2", file}, nil)
	if code != 0 || !strings.Contains(string(stderr), "vsym: warning: "+file+":49:11: property both is not stated: ") {
		t.Errorf("nusmv: exit %d, no warning of the specification not stated:\n%s", code, stderr)
	}
	stdout, _, _ := runInProcess(t, root, nil, []string{"prove", file}, nil)
	if !strings.HasSuffix(string(stdout), "property both: not stated ("+file+":49:11): vsym translates [] f, <> c, f && f, c || f and c -> f (c a condition); this LTL formula has no CTL equivalent among them\n") {
		t.Errorf("prove's text does not end with the specification not stated:\n%s", stdout)
	}
}
