package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for vsym: run with
// VSYM_RUN_MAIN=1 (under any name, such as a link called vsym), it is
// vsym. The shell-completion test puts such a link on PATH for the script
// that bash sources.
func TestMain(m *testing.M) {
	if os.Getenv("VSYM_RUN_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestCompleteCmd drives cobra's hidden __complete command, which the
// shell scripts call, and compares its whole output.
func TestCompleteCmd(t *testing.T) {
	rw := filepath.Join("..", "..", "specs", "readers-writers.yaml")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("states: [N\nproperties: {p: \"AG #N = 0\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const (
		noFile   = ":4\n" // ShellCompDirectiveNoFileComp
		yamlOnly = "yaml\nyml\n:8\n"
	)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"explore spec", []string{"explore", ""}, yamlOnly},
		{"check specs", []string{"check", rw, ""}, yamlOnly},
		{"abstract spec", []string{"abstract", ""}, yamlOnly},
		{"nusmv spec", []string{"nusmv", "--concrete", ""}, yamlOnly},
		{"dot spec", []string{"dot", "--check", ""}, yamlOnly},
		{"explore second spec", []string{"explore", rw, ""}, noFile},
		{"properties", []string{"explore", rw, "-p", ""},
			"mutex\tAG #C <= 1\nreachable\tEF #C = 1\ncan-progress\tAG (#T > 0 -> EF #C > 0)\n" + noFile},
		{"property prefix", []string{"explore", rw, "--property", "re"}, "reachable\tEF #C = 1\n" + noFile},
		{"property list", []string{"explore", rw, "-p", "mutex,"},
			"mutex,reachable\tEF #C = 1\nmutex,can-progress\tAG (#T > 0 -> EF #C > 0)\n" + noFile},
		{"property list prefix", []string{"explore", rw, "-p", "reachable,c"}, "reachable,can-progress\tAG (#T > 0 -> EF #C > 0)\n" + noFile},
		{"prove spec", []string{"prove", ""}, yamlOnly},
		{"prove properties", []string{"prove", rw, "-p", "m"}, "mutex\tAG #C <= 1\n" + noFile},
		{"trace", []string{"dot", rw, "--trace", "m"}, "mutex\tAG #C <= 1\n" + noFile},
		{"no spec yet", []string{"explore", "-p", ""}, noFile},
		{"broken spec", []string{"explore", bad, "-p", ""}, noFile},
		{"missing spec", []string{"dot", "nope.yaml", "--trace", ""}, noFile},
		{"examples", []string{"gen", "example", "readers-writers-"}, "readers-writers-broken\nreaders-writers-param\nreaders-writers-race\n" + noFile},
		{"shells", []string{"completion", ""}, "bash\tGenerate the autocompletion script for bash\nfish\tGenerate the autocompletion script for fish\npowershell\tGenerate the autocompletion script for powershell\nzsh\tGenerate the autocompletion script for zsh\n" + noFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runVsym(append([]string{"__complete"}, tt.args...)...)
			if code != ExitOK {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if stdout != tt.want {
				t.Errorf("stdout:\n%q\nwant:\n%q", stdout, tt.want)
			}
			// Cobra's own note on stderr, and nothing else: a broken spec
			// is read quietly.
			if !strings.HasPrefix(stderr, "Completion ended with directive:") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr %q", stderr)
			}
		})
	}
}

// TestCompletionScripts checks that each shell's script is written, and
// sources the bash script in a real bash: it must define the completion
// function and register it for vsym, and, run the way bash runs it on
// TAB, must offer what vsym __complete offers.
func TestCompletionScripts(t *testing.T) {
	for shell, want := range map[string]string{
		"bash":       "__start_vsym",
		"zsh":        "#compdef vsym",
		"fish":       "complete -c vsym",
		"powershell": "Register-ArgumentCompleter",
	} {
		stdout, stderr, code := runVsym("completion", shell)
		if code != ExitOK || !strings.Contains(stdout, want) {
			t.Errorf("completion %s: exit %d, stderr %q, script lacks %q", shell, code, stderr, want)
		}
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is not on PATH: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(self, filepath.Join(dir, "vsym")); err != nil {
		t.Fatal(err)
	}
	script, _, code := runVsym("completion", "bash")
	if code != ExitOK {
		t.Fatal("vsym completion bash failed")
	}
	file := filepath.Join(dir, "vsym.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	rw := filepath.Join("..", "..", "specs", "readers-writers.yaml")
	// The generated script uses _get_comp_words_by_ref of the
	// bash-completion package (which docs/completion.md asks users to
	// have). CI has bash without that package, so the test defines the
	// function the way bash-completion does for words without special
	// characters: the current word, the one before, all words and the
	// index of the current one. compopt works only while bash itself
	// runs a completion, so here it does nothing; COMP_TYPE 9 is TAB.
	prog := `
source "$1"
declare -F __start_vsym >/dev/null || { echo "no __start_vsym"; exit 1; }
complete -p vsym
_get_comp_words_by_ref() {
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	words=("${COMP_WORDS[@]}")
	cword=$COMP_CWORD
}
compopt() { :; }
complete_line() {
	COMP_TYPE=9
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	__start_vsym vsym "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	printf '%s|' "${COMPREPLY[@]}"
	echo
}
complete_line vsym explore "$2" -p rea
complete_line vsym dot "$2" --trace m
complete_line vsym gen example readers-writers-r
complete_line vsym expl
`
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog, "bash", file, rw)
	cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "VSYM_RUN_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	want := "complete -o default -F __start_vsym vsym\nreachable|\nmutex|\nreaders-writers-race|\nexplore|\n"
	if string(out) != want {
		t.Errorf("bash printed:\n%s\nwant:\n%s", out, want)
	}
}
