package testsupport_test

import (
	"fmt"

	"github.com/vsym/vsym/internal/testsupport"
)

// The oracles on readers/writers with one reader and two writers: the
// system is certified, its 20 configurations form 13 group-counter
// vectors and 7 total-counter vectors, and mutual exclusion holds.
func Example() {
	sys := testsupport.Parse("rw.yaml", testsupport.ReadersWritersYAML(1, 2, false)+
		"properties:\n  mutex: \"AG #C <= 1\"\n  two: \"EF #C = 2\"\n")
	sp := testsupport.Unreduced(sys)
	fmt.Println("certified:", testsupport.BruteForce(sys).Certified())
	fmt.Println("configurations:", sp.Len(), "group vectors:", sp.Groups().Len(), "total vectors:", sp.Totals().Len())
	for _, p := range sys.Properties {
		fmt.Println(p.Name, testsupport.Holds(sp.Graph, p.Formula))
	}
	// Output:
	// certified: true
	// configurations: 20 group vectors: 13 total vectors: 7
	// mutex true
	// two false
}
