package mist_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vsym/vsym/formats/mist"
)

// checkReading checks, on random markings, that every rule of a file
// vsym accepts, and that mist reads, has the same effect in both
// readings: the equations (netSim.fire) and mist's own algorithm
// (netSim.mistPost). It returns the number of steps compared.
func checkReading(t *testing.T, r *rand.Rand, name string, src []byte) int {
	imp := mist.Translate(name, src)
	if len(imp.Errors) > 0 {
		return 0
	}
	f, err := mist.ParseFile(name, src)
	if err != nil || !mistReads(f) {
		return 0
	}
	sim := newNetSim(f)
	steps := 0
	for range 200 {
		m := make([]int64, len(sim.places))
		for p := range m {
			m[p] = int64(r.Intn(4))
		}
		for _, rule := range f.Rules {
			a, okA := sim.fire(rule, m)
			b, okB := sim.mistPost(rule, m)
			if okA != okB || okA && !slices.Equal(a, b) {
				t.Fatalf("%s: rule %d from %v: the equations give %v (%v), mist %v (%v)", name, rule.Index, m, a, okA, b, okB)
			}
			if okA {
				steps++
			}
		}
	}
	return steps
}

func TestReading(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var files []string
	for _, pat := range []string{"testdata/*.spec", "testdata/needs/*.spec", "testdata/steps/*.spec"} {
		more, _ := filepath.Glob(pat)
		files = append(files, more...)
	}
	if root := os.Getenv("VSYM_MIST_BENCHMARKS"); root != "" {
		for _, c := range suite {
			files = append(files, filepath.Join(root, c.path))
		}
	}
	steps := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		steps += checkReading(t, r, file, src)
	}
	for i := range 300 {
		steps += checkReading(t, r, "random.spec", []byte(randomNet(rand.New(rand.NewSource(int64(i))))))
	}
	if steps < 1000 {
		t.Errorf("only %d steps compared", steps)
	}
}
