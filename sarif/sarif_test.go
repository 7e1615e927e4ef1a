package sarif

import (
	"bytes"
	"encoding/json"
	"net/url"
	"testing"
)

func TestFileURI(t *testing.T) {
	tests := map[string]string{
		"specs/rw.yaml":        "specs/rw.yaml",
		"../specs/rw.yaml":     "../specs/rw.yaml",
		"my specs/a b.yaml":    "my%20specs/a%20b.yaml",
		"a:b/c.yaml":           "./a:b/c.yaml",
		"100%/x#1.yaml":        "100%25/x%231.yaml",
		"/work/specs/rw.yaml":  "file:///work/specs/rw.yaml",
		"/tmp/with space.yaml": "file:///tmp/with%20space.yaml",
	}
	for path, want := range tests {
		got := FileURI(path)
		if got != want {
			t.Errorf("FileURI(%q) = %q, want %q", path, got, want)
		}
		// The URI must read back as the same path.
		u, err := url.Parse(got)
		if err != nil || (u.Path != path && u.Path != "./"+path) {
			t.Errorf("FileURI(%q) = %q reads back as %v, %v", path, got, u, err)
		}
	}
}

func TestRunAdd(t *testing.T) {
	run := NewRun(Driver{Name: "t", Rules: []Rule{
		{ID: "a", DefaultConfiguration: Configuration{Level: Error}},
		{ID: "b", DefaultConfiguration: Configuration{Level: Note}},
	}})
	run.Add("b", Text{Text: "at a place"}, "f.yaml", 3, 7)
	run.Add("a", Text{Text: "about the file"}, "f.yaml", 0, 0)
	var buf bytes.Buffer
	if err := Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleIndex int             `json:"ruleIndex"`
				Level     string          `json:"level"`
				Locations json.RawMessage `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	res := log.Runs[0].Results
	if log.Version != "2.1.0" || log.Schema != SchemaURI || len(res) != 2 {
		t.Fatalf("log %s", buf.String())
	}
	if res[0].RuleIndex != 1 || res[0].Level != "note" || !bytes.Contains(res[0].Locations, []byte(`"startLine": 3`)) {
		t.Errorf("first result %+v", res[0])
	}
	if res[1].RuleIndex != 0 || res[1].Level != "error" || bytes.Contains(res[1].Locations, []byte("region")) {
		t.Errorf("second result %+v", res[1])
	}
	empty := NewRun(Driver{Name: "t"})
	buf.Reset()
	if err := Write(&buf, empty); err != nil || !bytes.Contains(buf.Bytes(), []byte(`"results": []`)) || !bytes.Contains(buf.Bytes(), []byte(`"rules": []`)) {
		t.Errorf("clean run: %v %s", err, buf.String())
	}
}
