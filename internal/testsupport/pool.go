package testsupport

import "fmt"

// PoolYAML is the spec of a resource pool of n processes with
// three local states, dining-philosophers style: n forks, a thinking
// process takes one (Think -> One) and then a second (One -> Eat) while
// #One + 2*#Eat < n, and an eating process puts both back. Every process
// holding one fork is a reachable deadlock. Its property safe is
// AG #Eat <= n/2. With n = 1000 the explicit engine explores it in half
// a second while the BDD engine's EF deadlock runs for over a minute in a
// handful of BDD operations, and proving safe for n = 5000 takes Z3 over
// a minute (issue 18): the limit tests' workload.
func PoolYAML(n int) string {
	return fmt.Sprintf(`name: pool
states: [Think, One, Eat]
groups:
  p: %d
init: Think
transitions:
  - {from: Think, to: One, guard: {p: "#One + 2*#Eat < %d"}}
  - {from: One, to: Eat, guard: {p: "#One + 2*#Eat < %d"}}
  - {from: Eat, to: Think}
properties:
  safe: "AG #Eat <= %d"
`, n, n, n, n/2)
}
