package gsst_test

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
	"gopkg.in/yaml.v3"
)

// BenchmarkParseGRW parses generalized readers/writers with d groups.
// The guard of the entry into the critical state has d blocks and block k
// mentions k-1 group counters, so the text holds about d²/2 atoms; the
// front end must stay linear in that size (it was quadratic in it once).
// The test lives in package gsst_test because specs imports gsst.
func BenchmarkParseGRW(b *testing.B) {
	for _, d := range []int{100, 500, 1000} {
		src, err := specs.GRW(d, 20, 10)
		if err != nil {
			b.Fatal(err)
		}
		atoms := d * (d + 1) / 2 // "#L10 = 0" once per block plus d(d-1)/2 waiters
		b.Run(fmt.Sprintf("D=%d", d), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := gsst.Parse("grw.yaml", src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(atoms)*float64(b.N)/b.Elapsed().Seconds(), "atoms/s")
		})
	}
}

// BenchmarkYAMLGRW decodes the same files into yaml.v3 nodes only: the
// share of BenchmarkParseGRW that belongs to the YAML library.
func BenchmarkYAMLGRW(b *testing.B) {
	for _, d := range []int{100, 500, 1000} {
		src, err := specs.GRW(d, 20, 10)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("D=%d", d), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				var n yaml.Node
				if err := yaml.Unmarshal(src, &n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
