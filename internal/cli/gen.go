package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/specs"
)

func init() { register("gen", newGenCmd) }

func newGenCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "gen",
		Short: "Generate example GSSTs: the GR&W and ASR families, or a bundled spec",
		Long: `Gen writes GSST files (YAML) to stdout, or to the file given with -o:

  vsym gen grw --groups d --size q --states m
      generalized readers/writers (section 6 of Wei, Gurfinkel and
      Chechik): d priority groups of q processes, states L1..Lm; q may
      be a range of sizes (--size 1..) for the family of every size
  vsym gen asr --procs n --resources r [--bound b]
      asymmetric sharing of resources (reconstructed): n processes,
      r resources each owned by one group, at most b processes waiting
      for or using a resource
  vsym gen asr --size q --resources r [--bound b]
      the same with every owner group of size q, or of a range of sizes
      (--size 1..)
  vsym gen ladder --levels L --size q [--fair]
  vsym gen pool --procs n
  vsym gen ring --procs n
  vsym gen mesh --side k --size q
  vsym gen threshold --procs n --faulty t --ones v
      the engine benchmark families (BENCHMARKS.md, scripts/engines.sh):
      priority ladders, a dining-philosophers resource pool, a token
      ring, a Petri-net-like mesh and a Byzantine-consensus-like
      threshold automaton; see each command's help
  vsym gen example [NAME]
      a bundled specification (without NAME: list them), among them
      the threshold-guarded algorithms of specs/threshold, named
      threshold/cc and so on

` + exitHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errkind.Errorf(errkind.Input, "gen needs a family: grw, asr or example")
		},
	}
	var out string
	addOutFlag(cmd.PersistentFlags(), &out, "the spec")
	write := func(cmd *cobra.Command, src []byte, err error) error {
		if err != nil {
			return errkind.Wrap(errkind.Input, err)
		}
		describeOutput(cmd, "the spec")
		_, err = cmd.OutOrStdout().Write(src)
		return err
	}

	var d, m int
	var q string
	grw := &cobra.Command{
		Use:   "grw",
		Short: "Generalized readers/writers: d priority groups of q processes, m states",
		Long: `Grw writes generalized readers/writers: groups g1..gd of q processes each
(g1 has the highest priority), local states L1..Lm with Lm critical.
Li -> Li+1 (i <= m-2) and Lm -> L1 are free; a process of group gk
enters Lm from L(m-1) when #Lm = 0 and no process of g1..g(k-1) waits in
L(m-1). Every process starts in L1; the property mutex is AG #Lm <= 1.
--size 1.. (or 2..5) gives every group a range of sizes: the spec is then
the family of all those instances, which vsym check certifies at once.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := specs.GRWSized(d, q, m)
			return write(cmd, src, err)
		},
	}
	grw.Flags().IntVar(&d, "groups", 2, "number of priority groups d")
	grw.Flags().StringVar(&q, "size", "2", "processes per group q, or a range of sizes (1.., 2..5)")
	grw.Flags().IntVar(&m, "states", 4, "number of local states m (at least 2)")

	var n, r, b int
	var asrSize string
	asr := &cobra.Command{
		Use:   "asr",
		Short: "Asymmetric sharing of resources: n processes, r resources, bound b",
		Long: `Asr writes asymmetric sharing of resources: n processes split into r groups
g1..gr of nearly equal size, group gj owning resource j; states N, W1..Wr,
C1..Cr. N -> Wj while #Wj + #Cj < b; Wj -> Cj when #Cj = 0, and for
processes not owning j only when moreover #Wj[gj] = 0; Cj -> N free.
Properties: all_used (EF every resource in use) and mutexj (AG #Cj <= 1).
With --size instead of --procs every owner group has that size, or a
range of sizes (--size 1..: the family of every size).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("size") {
				if cmd.Flags().Changed("procs") {
					return errkind.Errorf(errkind.Input, "asr: give --procs or --size, not both")
				}
				src, err := specs.ASRSized(r, asrSize, b)
				return write(cmd, src, err)
			}
			src, err := specs.ASR(n, r, b)
			return write(cmd, src, err)
		},
	}
	asr.Flags().StringVar(&asrSize, "size", "", "processes per owner group, or a range of sizes (1.., 2..5), instead of --procs")
	asr.Flags().IntVar(&n, "procs", 4, "number of processes n")
	asr.Flags().IntVar(&r, "resources", 2, "number of resources r (and of owner groups)")
	asr.Flags().IntVar(&b, "bound", 2, "at most b processes waiting for or using a resource")

	example := &cobra.Command{
		Use:   "example [NAME]",
		Short: "Print a bundled specification, or list them",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				var names []string
				for _, f := range specs.List() {
					names = append(names, strings.TrimSuffix(f, ".yaml"))
				}
				return write(cmd, []byte(strings.Join(names, "\n")+"\n"), nil)
			}
			src, err := specs.Read(args[0])
			return write(cmd, src, err)
		},
	}
	cmd.AddCommand(grw, asr, example)
	cmd.AddCommand(benchFamilies(write)...)
	return cmd
}
