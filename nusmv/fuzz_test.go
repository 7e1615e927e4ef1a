package nusmv

import (
	"math/rand"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
)

// FuzzEmit drives both emitters with random systems (the fuzz input seeds
// the generator): they must not panic, and what they emit must read back
// as the NuSMV subset with valid, unreserved identifiers.
func FuzzEmit(f *testing.F) {
	for _, seed := range []int64{1, 2, 3, 42, 20261122} {
		f.Add(seed, uint8(4))
	}
	f.Fuzz(func(t *testing.T, seed int64, maxN uint8) {
		r := rand.New(rand.NewSource(seed))
		sys := randomSystem(r, 1+int(maxN%6))
		m, err := refModel(testsupport.TotalProperties(sys))
		if err != nil {
			t.Fatal(err)
		}
		for _, emit := range []func() (string, error){
			func() (string, error) { return Reduced(m) },
			func() (string, error) { return Concrete(sys) },
		} {
			text, err := emit()
			if err != nil {
				t.Fatalf("%v\n%s", err, testsupport.Describe(sys))
			}
			sm, err := parseSMV(text)
			if err != nil {
				t.Fatalf("emitted text does not parse: %v\n%s", err, text)
			}
			if err := checkIdents(sm); err != nil {
				t.Fatal(err)
			}
		}
	})
}
