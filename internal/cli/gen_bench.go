package cli

import (
	"github.com/spf13/cobra"

	"github.com/vsym/vsym/specs"
)

// benchFamilies returns the gen subcommands of the engine benchmark
// families (specs/bench.go), each writing its spec with write.
func benchFamilies(write func(*cobra.Command, []byte, error) error) []*cobra.Command {
	var levels, size int
	var fair bool
	ladder := &cobra.Command{
		Use:   "ladder",
		Short: "A priority ladder: L levels of q processes, states N, T, C, per-level properties",
		Long: `Ladder writes a priority ladder: groups g1..gL of q processes, states N, T, C;
a process of gk enters C when #C = 0 and no process of g1..g(k-1) is in T.
Its properties read group counters (mutex, first: AG (#T[g1] > 0 -> AF
#C[g1] > 0), last: AG (#T[gL] > 0 -> EF #C[gL] > 0)); --fair makes every
transition weakly fair per group.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := specs.Ladder(levels, size, fair)
			return write(cmd, src, err)
		},
	}
	ladder.Flags().IntVar(&levels, "levels", 3, "number of priority levels L")
	ladder.Flags().IntVar(&size, "size", 2, "processes per level q")
	ladder.Flags().BoolVar(&fair, "fair", false, "make every transition weakly fair per group")

	var poolN int
	pool := &cobra.Command{
		Use:   "pool",
		Short: "A dining-philosophers resource pool of n processes and n forks (a deadlock is reachable)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := specs.Pool(poolN)
			return write(cmd, src, err)
		},
	}
	pool.Flags().IntVar(&poolN, "procs", 5, "number of processes n")

	var ringN int
	ring := &cobra.Command{
		Use:   "ring",
		Short: "A token ring of n processes, in counters",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := specs.Ring(ringN)
			return write(cmd, src, err)
		},
	}
	ring.Flags().IntVar(&ringN, "procs", 5, "number of processes n")

	var side, meshSize int
	mesh := &cobra.Command{
		Use:   "mesh",
		Short: "A k x k mesh of cells of q processes whose guards read the neighbours' group counters",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := specs.Mesh(side, meshSize)
			return write(cmd, src, err)
		},
	}
	mesh.Flags().IntVar(&side, "side", 2, "side k of the mesh")
	mesh.Flags().IntVar(&meshSize, "size", 2, "processes per cell q")

	var tn, tt, ones int
	threshold := &cobra.Command{
		Use:   "threshold",
		Short: "A Byzantine-consensus-like threshold automaton: n processes, t faulty, 12 local states",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := specs.Threshold(tn, tt, ones)
			return write(cmd, src, err)
		},
	}
	threshold.Flags().IntVar(&tn, "procs", 11, "number of processes n")
	threshold.Flags().IntVar(&tt, "faulty", 3, "number of faulty processes t (n > 3t)")
	threshold.Flags().IntVar(&ones, "ones", 5, "processes that start with value 1")
	return []*cobra.Command{ladder, pool, ring, mesh, threshold}
}
