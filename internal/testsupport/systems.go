package testsupport

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

// Parse parses a GSST spec that a test knows to be good; it panics on an
// error, which is a bug in the test.
func Parse(name, src string) *gsst.System {
	sys, err := gsst.Parse(name, []byte(src))
	if err != nil {
		panic(fmt.Sprintf("testsupport: %s: %v", name, err))
	}
	return sys
}

// ReadersWritersYAML is the spec of readers and writers, Fig. 1(b) of Wei,
// Gurfinkel and Chechik, with the given group sizes and without
// properties: a reader enters C when #C = 0 and no writer is trying, a
// writer when #C = 0. With broken set the reader's guard is that of
// section 4.3 instead, #C = 0 & #T = 2, which breaks full virtual
// symmetry. Tests append their own "properties:" section. With one
// reader and two writers it is specs/readers-writers.yaml (and
// readers-writers-broken.yaml) without their comments and properties.
func ReadersWritersYAML(readers, writers int, broken bool) string {
	name, reader := "readers-writers", "#C = 0 & #T[writer] = 0"
	if broken {
		name, reader = "readers-writers-broken", "#C = 0 & #T = 2"
	}
	return fmt.Sprintf(`name: %s
states: [N, T, C]
groups:
  reader: %d
  writer: %d
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard:
      reader: "%s"
      writer: "#C = 0"
  - {from: C, to: N}
`, name, readers, writers, reader)
}

// MutexYAML is the spec of MUTEX, Fig. 1(a): n identical processes, N ->
// T -> C -> N, entering C when #C = 0; without properties.
func MutexYAML(n int) string {
	return fmt.Sprintf(`name: mutex
states: [N, T, C]
groups:
  proc: %d
init: N
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: "#C = 0"}
  - {from: C, to: N}
`, n)
}

// GRW returns the member of generalized readers/writers that specs.GRW
// writes (d groups of q processes, m local states), parsed.
func GRW(d, q, m int) *gsst.System {
	src, err := specs.GRW(d, q, m)
	if err != nil {
		panic(err)
	}
	return Parse(fmt.Sprintf("grw-d%d-q%d-m%d.yaml", d, q, m), string(src))
}

// ASR returns the member of asymmetric sharing of resources that
// specs.ASR writes (n processes, r resources, bound b), parsed.
func ASR(n, r, b int) *gsst.System {
	src, err := specs.ASR(n, r, b)
	if err != nil {
		panic(err)
	}
	return Parse(fmt.Sprintf("asr-n%d-r%d-b%d.yaml", n, r, b), string(src))
}

// WriteHardSpec writes GR&W with 200 groups (specs.GRW(200, 2, 4)) into
// dir as grw.yaml and returns its path: its guarded transition (L3 ->
// L4) takes Z3 far longer than a millisecond, so "--solver-timeout 1ms"
// leaves it undecided.
func WriteHardSpec(t testing.TB, dir string) string {
	t.Helper()
	grw, err := specs.GRW(200, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "grw.yaml")
	if err := os.WriteFile(file, grw, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
