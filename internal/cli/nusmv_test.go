package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const rwSpec = rwSystem + `properties:
  mutex: "AG #C <= 1"
  no-deadlock: "AG EX true"
  T: "AG (#T > 0 -> EF #C > 0)"
  until: "!E[#C = 0 U #C = 2]"
`

func TestNusmvCmd(t *testing.T) {
	dir := t.TempDir()
	rw := writeExploreFile(t, "rw.yaml", rwSpec)
	broken := "../../specs/readers-writers-broken.yaml"
	outFile := filepath.Join(dir, "rw.smv")
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   []string
		stderr   []string
		noStdout bool
	}{
		{"reduced", []string{"nusmv", rw}, ExitOK, []string{
			"-- Source: " + rw,
			"-- Certification: certified fully virtually symmetric (Theorem 6 checked with Z3).",
			"MODULE main", "x_T : 0..3;", "tr : {t_N_T, t_T_C, t_C_N, stutter};",
			"en_t_T_C := x_T >= 1 & x_C = 0;",
			"tr = t_N_T & en_t_N_T & x_T < 3 : x_T + 1;",
			"INVAR x_N + x_T + x_C = 3;",
			"TRANS (tr = stutter -> !en_any)",
			"CTLSPEC NAME mutex := AG (x_C <= 1);",
			"INVARSPEC NAME mutex_inv := x_C <= 1;",
			"CTLSPEC NAME no_deadlock := AG (EX TRUE);",
			"CTLSPEC NAME T_ := AG (x_T > 0 -> EF (x_C > 0));",
			"CTLSPEC NAME until := !(E [ x_C = 0 U x_C = 2 ]);",
		}, nil, false},
		{"concrete", []string{"nusmv", "--concrete", rw}, ExitOK, []string{
			"concrete (unreduced) model",
			"-- Certification: not checked (the concrete model needs none).\n-- This model is the system itself",
			"p_writer_2 : {N, T_, C};", "pick : 1..3;",
			"c_T_writer := toint(p_writer_1 = T_) + toint(p_writer_2 = T_);",
			"g_t_T_C_reader := x_C = 0 & c_T_writer = 0;",
			"CTLSPEC NAME mutex := AG (x_C <= 1);",
		}, nil, false},
		{"broken group", []string{"nusmv", broken}, ExitOK, []string{
			"group-counter model", "-- Certification: not fully virtually symmetric: transition T -> C breaks",
			"x_C_writer : 0..2;", "CTLSPEC NAME mutex := AG (x_C_reader + x_C_writer <= 1);",
		}, nil, false},
		{"broken total refused", []string{"nusmv", "--model", "total", broken}, ExitNo, nil, []string{
			"not fully virtually symmetric", "T -> C", "--force", "--model group",
		}, true},
		{"broken forced", []string{"nusmv", "--force", broken}, ExitOK, []string{
			"WARNING: UNCERTIFIED MODEL", "NOT exact", "MODULE main",
		}, []string{"warning", "not exact"}, false},
		{"broken concrete", []string{"nusmv", "--concrete", broken}, ExitOK, []string{
			"MODULE main",
			"verdicts are\n-- exact whatever",
		}, nil, false},
		{"to file", []string{"nusmv", "-o", outFile, rw}, ExitOK, nil, []string{"wrote", outFile}, true},
		{"force with concrete", []string{"nusmv", "--concrete", "--force", rw}, ExitBadInput, nil, []string{"--force"}, true},
		{"missing file", []string{"nusmv", filepath.Join(dir, "none.yaml")}, ExitBadInput, nil, []string{"none.yaml"}, true},
		{"unwritable output", []string{"nusmv", "-o", filepath.Join(dir, "no", "such", "dir.smv"), rw}, ExitBadInput, nil, []string{"dir.smv"}, true},
		{"negative timeout", []string{"nusmv", "--timeout", "-1s", rw}, ExitBadInput, nil, []string{"timeout"}, true},
		{"no file", []string{"nusmv"}, ExitBadInput, nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runVsym(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if tc.noStdout && stdout != "" {
				t.Errorf("unexpected stdout:\n%s", stdout)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}
	// The file written with -o holds exactly what stdout would.
	want, _, code := runVsym("nusmv", rw)
	if code != ExitOK {
		t.Fatal(code)
	}
	got, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("-o file differs from stdout output")
	}
}

// -o naming the input spec is refused before anything is written.
func TestNusmvRefusesToOverwriteInput(t *testing.T) {
	src, err := os.ReadFile("../../specs/mutex.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mutex.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	if code := Main([]string{"nusmv", path, "-o", path}, &out, &errb); code != ExitBadInput {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitBadInput, errb.String())
	}
	after, err := os.ReadFile(path)
	if err != nil || string(after) != string(src) {
		t.Fatalf("input spec changed (err %v)", err)
	}
}
