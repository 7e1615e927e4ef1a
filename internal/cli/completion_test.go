package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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
	withParams := filepath.Join(t.TempDir(), "guarded.yaml")
	if err := os.WriteFile(withParams, []byte(paramSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	rwParam := filepath.Join("..", "..", "specs", "readers-writers-param.yaml")
	const (
		noSpace   = ":6\n"                          // ShellCompDirectiveNoFileComp | ShellCompDirectiveNoSpace
		noFile    = ":4\n"                          // ShellCompDirectiveNoFileComp
		specFiles = "yaml\nyml\nta\nsk\nspec\n:8\n" // GSST, ByMC and mist files
	)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"explore spec", []string{"explore", ""}, specFiles},
		{"check specs", []string{"check", rw, ""}, specFiles},
		{"abstract spec", []string{"abstract", ""}, specFiles},
		{"nusmv spec", []string{"nusmv", "--concrete", ""}, specFiles},
		{"dot spec", []string{"dot", "--check", ""}, specFiles},
		{"explore second spec", []string{"explore", rw, ""}, noFile},
		{"properties", []string{"explore", rw, "-p", ""},
			"mutex\tAG #C <= 1\nreachable\tEF #C = 1\ncan-progress\tAG (#T > 0 -> EF #C > 0)\n" + noFile},
		{"property prefix", []string{"explore", rw, "--property", "re"}, "reachable\tEF #C = 1\n" + noFile},
		{"property list", []string{"explore", rw, "-p", "mutex,"},
			"mutex,reachable\tEF #C = 1\nmutex,can-progress\tAG (#T > 0 -> EF #C > 0)\n" + noFile},
		{"property list prefix", []string{"explore", rw, "-p", "reachable,c"}, "reachable,can-progress\tAG (#T > 0 -> EF #C > 0)\n" + noFile},
		{"sizes", []string{"explore", rwParam, "--sizes", ""}, "reader=\tsize in 1..\nwriter=\tsize in 1..\n" + noSpace},
		{"sizes list", []string{"nusmv", rwParam, "--sizes", "reader=2,"}, "reader=2,writer=\tsize in 1..\n" + noSpace},
		{"params", []string{"abstract", withParams, "--params", ""}, "k=\tparameter\nm=\tparameter\n" + noSpace},
		{"params list", []string{"promela", withParams, "--params", "k=3,"}, "k=3,m=\tparameter\n" + noSpace},
		{"params of a broken spec", []string{"explore", bad, "--params", ""}, noFile},
		{"prove spec", []string{"prove", ""}, specFiles},
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
// runs the bash script as bash runs it on TAB: in a real bash, with the
// bash-completion package that docs/completion.md asks users to have
// (scripts/deps.sh installs it), both with and without descriptions.
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
	const bashCompletion = "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(bashCompletion); err != nil {
		t.Skipf("the bash-completion package is not installed (%v): run scripts/deps.sh", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(self, filepath.Join(dir, "vsym")); err != nil {
		t.Fatal(err)
	}
	rw := filepath.Join("..", "..", "specs", "readers-writers.yaml")
	// complete_line sets what bash sets before it calls the completion
	// function on TAB (COMP_TYPE 9), the words split at blanks as bash
	// splits them (the lines below have no other character of
	// COMP_WORDBREAKS), and prints COMPREPLY. compopt works only while
	// bash itself runs a completion, so here it does nothing.
	prog := `
source "$1"
source "$2"
declare -F __start_vsym >/dev/null || { echo "no __start_vsym"; exit 1; }
complete -p vsym
compopt() { :; }
COLUMNS=200
complete_line() {
	COMPREPLY=()
	COMP_TYPE=9
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	__start_vsym vsym "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	printf '%s|' "${COMPREPLY[@]}"
	echo
}
if [ "$4" = all ]; then
complete_line vsym explore "$3" -p rea
complete_line vsym explore "$3" -p mutex,r
fi
complete_line vsym explore "$3" -p mutex,
if [ "$4" = all ]; then
complete_line vsym dot "$3" --trace m
complete_line vsym gen example readers-writers-r
complete_line vsym expl
fi
complete_line vsym explore "$3" --engine ''
if [ "$4" = all ]; then
complete_line vsym explore "$3" --engine b
complete_line vsym explore "$3" --bdd-order s
complete_line vsym nusmv "$3" --model c
complete_line vsym check "$3" --output s
fi
complete_line vsym prove "$3" --output ''
`
	// Each completion starts vsym once (about 0.1 s of CPU with
	// bash-completion's work around it). Without descriptions, only
	// the lines where some candidate has a description (properties)
	// or where there are several candidates can print differently:
	// the script without descriptions runs those; the lines of a
	// single candidate print the same either way.
	want := map[bool]string{
		true: "complete -o default -F __start_vsym vsym\n" +
			"reachable|\nmutex,reachable|\n" +
			"mutex,reachable     (EF #C = 1)|mutex,can-progress  (AG (#T > 0 -> EF #C > 0))|\n" +
			"mutex|\nreaders-writers-race|\nexplore|\n" +
			"auto|explicit|bdd|\nbdd|\nsplit|\nconcrete|\nsarif|\ntext|json|\n",
		false: "complete -o default -F __start_vsym vsym\n" +
			"mutex,reachable|mutex,can-progress|\n" +
			"auto|explicit|bdd|\n" +
			"text|json|\n",
	}
	for _, desc := range []bool{true, false} {
		args := []string{"completion", "bash"}
		if !desc {
			args = append(args, "--no-descriptions")
		}
		script, _, code := runVsym(args...)
		if code != ExitOK {
			t.Fatalf("vsym %v failed", args)
		}
		file := filepath.Join(dir, "vsym.bash")
		if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		lines := "all"
		if !desc {
			lines = "several"
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog, "bash", bashCompletion, file, rw, lines)
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "VSYM_RUN_MAIN=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		if string(out) != want[desc] {
			t.Errorf("descriptions %v: bash printed:\n%s\nwant:\n%s", desc, out, want[desc])
		}
	}
}

// TestFlagValuesComplete checks the values offered for --engine,
// --model, --output and --bdd-order against the commands themselves:
// each value offered is accepted, and each value a wrong one's message
// names ("want explicit, bdd or auto") is offered.
func TestFlagValuesComplete(t *testing.T) {
	spec := filepath.Join("..", "..", "specs", "readers-writers-race.yaml")
	want := regexp.MustCompile(`\(want ([^)]*)\)`)
	checked := 0
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, name := range []string{"engine", "bdd-order", "model", "output"} {
			if cmd.Flags().Lookup(name) == nil {
				continue
			}
			values := flagValues(cmd, name)
			path := strings.Fields(cmd.CommandPath())[1:]
			extra := []string{spec}
			if cmd.Name() == "dot" {
				extra = append(extra, "--trace", "mutex")
			}
			run := func(v string) (string, int) {
				_, stderr, code := runVsym(append(append(append([]string{}, path...), "--"+name, v), extra...)...)
				return stderr, code
			}
			stderr, code := run("nope")
			m := want.FindStringSubmatch(stderr)
			if code != ExitBadInput || m == nil {
				t.Errorf("%s --%s nope: exit %d, stderr %q", cmd.CommandPath(), name, code, stderr)
				continue
			}
			for _, v := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ' ' }) {
				if v != "or" && !slices.Contains(values, v) {
					t.Errorf("%s --%s: %q is not offered (offered: %v)", cmd.CommandPath(), name, v, values)
				}
			}
			for _, v := range values {
				if stderr, code := run(v); code == ExitBadInput {
					t.Errorf("%s --%s %s is offered but refused: %s", cmd.CommandPath(), name, v, stderr)
				}
				checked++
			}
		}
		for _, c := range cmd.Commands() {
			walk(c)
		}
	}
	walk(NewRootCmd())
	if checked < 20 {
		t.Errorf("only %d values checked", checked)
	}
}
