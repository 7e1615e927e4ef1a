package explicit_test

import (
	"testing"

	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestConformance runs the engines' conformance suite (the corpus, the
// unreduced random systems, the fair-CTL oracle, the random systems with
// every construct on processes) on the explicit engine,
// which promises shortest path segments from wherever they start.
func TestConformance(t *testing.T) {
	enginetest.Suite{Engine: explicit.Engine{}, Shortest: testsupport.FromStart}.Run(t)
}
