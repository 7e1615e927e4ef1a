package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/nusmv"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/progress"
	"github.com/vsym/vsym/specs"
)

func init() { register("bench", newBenchCmd) }

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run the paper's benchmarks",
	}
	cmd.AddCommand(newTable4Cmd())
	return cmd
}

type table4Opts struct {
	rows     string
	quick    bool
	list     bool
	asrBound int
	timeout  time.Duration // --timeout: the whole run
	rowTO    time.Duration // --row-timeout: each row
	nusmvTO  time.Duration
	maxMem   string
}

func newTable4Cmd() *cobra.Command {
	o := &table4Opts{}
	cmd := &cobra.Command{
		Use:   "table4",
		Short: "Reproduce Table 4 of the paper (GR&W and ASR) with the BDD engine",
		Long: `Table4 runs every row of Table 4 of Wei, Gurfinkel and Chechik: the
generalized readers/writers family GRW(d, q, m) and the asymmetric sharing
of resources family ASR(n, r, b), the latter with and without computing
reachable states first. Each row goes through the whole pipeline: the
specs generator, gsst.Parse, certification (detect.Certify with Z3), the
counter abstraction (counterabs.Build) and the BDD engine. It prints the
certification time, model-checking time, total, peak BDD nodes and peak
memory, the verdicts, and the paper's figures beside them.

Verdicts are checked: AG #Lm <= 1 must hold for GR&W; for ASR, EF all
resources used at once must hold (n >= r) and AG #Cj <= 1 for every j.
A wrong verdict makes the command exit 1.

When the environment variable NUSMV names a NuSMV binary, the emitted
reduced model (package nusmv) is also run through it (with -df unless the
row computes reachable states first), under --nusmv-timeout; its column
gives NuSMV's CPU time (user + system, steady under load) and wall time.

--row-timeout bounds each row (a row that runs out shows the error, exit
3); --timeout bounds the whole run: when it runs out the command prints
the rows finished so far and stops with exit 3.

` + exitHelp,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runTable4(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.rows, "rows", "", "comma-separated row ids to run (see --list); default all")
	f.BoolVar(&o.quick, "quick", false, "run a small subset (the first row of each block)")
	f.BoolVar(&o.list, "list", false, "list the row ids and exit")
	f.IntVar(&o.asrBound, "asr-bound", 2, "ASR bound b: at most b processes wait for or use each resource")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30m; 0 means no bound")
	f.DurationVar(&o.rowTO, "row-timeout", 10*time.Minute, "time limit per row (exit 3 when one is hit)")
	f.DurationVar(&o.nusmvTO, "nusmv-timeout", 5*time.Minute, "time limit per NuSMV run")
	f.StringVar(&o.maxMem, "max-memory", "4GiB", "stop a row when the BDD engine's heap exceeds this")
	return cmd
}

// table4Row is one row of Table 4 with the paper's figures. Zero paper
// NuSMV figures mean the paper has a dash (did not complete).
type table4Row struct {
	ID     string
	Family string // "grw" or "asr"
	Block  string // the block header of the paper's table
	Param  int    // the varied parameter's value
	D, Q   int    // GRW
	M      int    // GRW states
	N, R   int    // ASR
	Reach  bool   // compute reachable states first (ASR lower half)

	NuNodes int64
	NuMem   float64 // MB
	NuTime  float64 // s
	CANodes int64
	CAMem   float64
	CkSym   float64
	ModelCk float64
	Total   float64
}

// table4 transcribes Table 4 of the paper.
var table4 = []table4Row{
	{ID: "grw-d5", Family: "grw", Block: "d (q=20, m=10)", Param: 5, D: 5, Q: 20, M: 10, NuNodes: 51778281, NuMem: 931, NuTime: 241, CANodes: 25146, CAMem: 7, CkSym: 0.07, ModelCk: 0.27, Total: 0.34},
	{ID: "grw-d10", Family: "grw", Block: "d (q=20, m=10)", Param: 10, D: 10, Q: 20, M: 10, CANodes: 31772, CAMem: 8, CkSym: 0.83, ModelCk: 0.53, Total: 1.36},
	{ID: "grw-d15", Family: "grw", Block: "d (q=20, m=10)", Param: 15, D: 15, Q: 20, M: 10, CANodes: 38927, CAMem: 8, CkSym: 5.09, ModelCk: 1.26, Total: 6.35},
	{ID: "grw-m10", Family: "grw", Block: "m (d=5, q=20)", Param: 10, D: 5, Q: 20, M: 10, NuNodes: 51778281, NuMem: 931, NuTime: 241, CANodes: 25146, CAMem: 7, CkSym: 0.07, ModelCk: 0.27, Total: 0.34},
	{ID: "grw-m20", Family: "grw", Block: "m (d=5, q=20)", Param: 20, D: 5, Q: 20, M: 20, NuNodes: 121392365, NuMem: 2041, NuTime: 837, CANodes: 130891, CAMem: 10, CkSym: 0.07, ModelCk: 0.59, Total: 0.66},
	{ID: "grw-m30", Family: "grw", Block: "m (d=5, q=20)", Param: 30, D: 5, Q: 20, M: 30, CANodes: 379336, CAMem: 14, CkSym: 0.07, ModelCk: 1.35, Total: 1.42},
	{ID: "grw-q10", Family: "grw", Block: "q (d=10, m=20)", Param: 10, D: 10, Q: 10, M: 20, NuNodes: 121408515, NuMem: 2040, NuTime: 742, CANodes: 131010, CAMem: 10, CkSym: 0.80, ModelCk: 0.58, Total: 1.38},
	{ID: "grw-q30", Family: "grw", Block: "q (d=10, m=20)", Param: 30, D: 10, Q: 30, M: 20, CANodes: 187469, CAMem: 12, CkSym: 0.81, ModelCk: 24.14, Total: 24.95},
	{ID: "grw-q50", Family: "grw", Block: "q (d=10, m=20)", Param: 50, D: 10, Q: 50, M: 20, CANodes: 195653, CAMem: 13, CkSym: 0.75, ModelCk: 67.21, Total: 67.96},

	{ID: "asr-r2-n20", Family: "asr", Block: "n (r=2)", Param: 20, N: 20, R: 2, NuNodes: 597911, NuMem: 18, NuTime: 2.11, CANodes: 77885, CAMem: 8, CkSym: 0.10, ModelCk: 0.78, Total: 0.88},
	{ID: "asr-r2-n30", Family: "asr", Block: "n (r=2)", Param: 30, N: 30, R: 2, NuNodes: 2443114, NuMem: 51, NuTime: 8.19, CANodes: 179389, CAMem: 10, CkSym: 0.10, ModelCk: 1.74, Total: 1.84},
	{ID: "asr-r2-n40", Family: "asr", Block: "n (r=2)", Param: 40, N: 40, R: 2, NuNodes: 8151508, NuMem: 151, NuTime: 30.74, CANodes: 427075, CAMem: 14, CkSym: 0.10, ModelCk: 4.35, Total: 4.45},
	{ID: "asr-r2-n80", Family: "asr", Block: "n (r=2)", Param: 80, N: 80, R: 2, NuNodes: 57163279, NuMem: 1001, NuTime: 2928.81, CANodes: 289566, CAMem: 18, CkSym: 0.10, ModelCk: 36.83, Total: 36.93},
	{ID: "asr-r3-n20", Family: "asr", Block: "n (r=3)", Param: 20, N: 20, R: 3, NuNodes: 1896771, NuMem: 43, NuTime: 10.39, CANodes: 182799, CAMem: 10, CkSym: 0.15, ModelCk: 1.55, Total: 1.70},
	{ID: "asr-r3-n30", Family: "asr", Block: "n (r=3)", Param: 30, N: 30, R: 3, NuNodes: 11503014, NuMem: 216, NuTime: 78.46, CANodes: 403628, CAMem: 14, CkSym: 0.15, ModelCk: 3.64, Total: 3.79},
	{ID: "asr-r3-n40", Family: "asr", Block: "n (r=3)", Param: 40, N: 40, R: 3, NuNodes: 44877253, NuMem: 782, NuTime: 43108.92, CANodes: 390715, CAMem: 17, CkSym: 0.15, ModelCk: 9.68, Total: 9.83},
	{ID: "asr-r3-n80", Family: "asr", Block: "n (r=3)", Param: 80, N: 80, R: 3, CANodes: 420347, CAMem: 20, CkSym: 0.15, ModelCk: 80.61, Total: 80.76},
	{ID: "asr-r5-n40", Family: "asr", Block: "n (r=5)", Param: 40, N: 40, R: 5, CANodes: 67060, CAMem: 19, CkSym: 0.30, ModelCk: 28.31, Total: 28.61},
	{ID: "asr-r5-n80", Family: "asr", Block: "n (r=5)", Param: 80, N: 80, R: 5, CANodes: 342060, CAMem: 39, CkSym: 0.30, ModelCk: 279.89, Total: 280.19},
	{ID: "asr-r10-n40", Family: "asr", Block: "n (r=10)", Param: 40, N: 40, R: 10, CANodes: 484260, CAMem: 48, CkSym: 3.00, ModelCk: 251.87, Total: 254.87},
	{ID: "asr-r10-n80", Family: "asr", Block: "n (r=10)", Param: 80, N: 80, R: 10, CANodes: 671318, CAMem: 153, CkSym: 3.00, ModelCk: 1409.53, Total: 1412.53},

	{ID: "asrf-r2-n20", Family: "asr", Reach: true, Block: "n (r=2), reachable first", Param: 20, N: 20, R: 2, NuNodes: 635791, NuMem: 19, NuTime: 2.24, CANodes: 5575, CAMem: 6.9, CkSym: 0.10, ModelCk: 0.13, Total: 0.23},
	{ID: "asrf-r2-n30", Family: "asr", Reach: true, Block: "n (r=2), reachable first", Param: 30, N: 30, R: 2, NuNodes: 2557272, NuMem: 53, NuTime: 8.91, CANodes: 6589, CAMem: 6.9, CkSym: 0.10, ModelCk: 0.14, Total: 0.24},
	{ID: "asrf-r2-n40", Family: "asr", Reach: true, Block: "n (r=2), reachable first", Param: 40, N: 40, R: 2, NuNodes: 8543329, NuMem: 159, NuTime: 34.47, CANodes: 10165, CAMem: 7, CkSym: 0.10, ModelCk: 0.15, Total: 0.25},
	{ID: "asrf-r2-n80", Family: "asr", Reach: true, Block: "n (r=2), reachable first", Param: 80, N: 80, R: 2, NuNodes: 57375594, NuMem: 1006, NuTime: 528.25, CANodes: 18611, CAMem: 7.2, CkSym: 0.10, ModelCk: 0.25, Total: 0.35},
	{ID: "asrf-r3-n20", Family: "asr", Reach: true, Block: "n (r=3), reachable first", Param: 20, N: 20, R: 3, NuNodes: 1927302, NuMem: 43, NuTime: 8.07, CANodes: 11634, CAMem: 7, CkSym: 0.15, ModelCk: 0.15, Total: 0.30},
	{ID: "asrf-r3-n30", Family: "asr", Reach: true, Block: "n (r=3), reachable first", Param: 30, N: 30, R: 3, NuNodes: 11591335, NuMem: 220, NuTime: 61.14, CANodes: 14616, CAMem: 7.1, CkSym: 0.15, ModelCk: 0.18, Total: 0.33},
	{ID: "asrf-r3-n40", Family: "asr", Reach: true, Block: "n (r=3), reachable first", Param: 40, N: 40, R: 3, NuNodes: 42633638, NuMem: 805, NuTime: 1614.32, CANodes: 21647, CAMem: 7.3, CkSym: 0.15, ModelCk: 0.21, Total: 0.36},
	{ID: "asrf-r3-n80", Family: "asr", Reach: true, Block: "n (r=3), reachable first", Param: 80, N: 80, R: 3, CANodes: 38913, CAMem: 7.7, CkSym: 0.15, ModelCk: 0.39, Total: 0.54},
	{ID: "asrf-r5-n40", Family: "asr", Reach: true, Block: "n (r=5), reachable first", Param: 40, N: 40, R: 5, CANodes: 71925, CAMem: 8.2, CkSym: 0.30, ModelCk: 0.49, Total: 0.79},
	{ID: "asrf-r5-n80", Family: "asr", Reach: true, Block: "n (r=5), reachable first", Param: 80, N: 80, R: 5, CANodes: 133034, CAMem: 9.5, CkSym: 0.30, ModelCk: 1.03, Total: 1.33},
	{ID: "asrf-r10-n40", Family: "asr", Reach: true, Block: "n (r=10), reachable first", Param: 40, N: 40, R: 10, CANodes: 394722, CAMem: 14, CkSym: 3.00, ModelCk: 2.55, Total: 5.55},
	{ID: "asrf-r10-n80", Family: "asr", Reach: true, Block: "n (r=10), reachable first", Param: 80, N: 80, R: 10, CANodes: 404477, CAMem: 18, CkSym: 3.00, ModelCk: 6.13, Total: 9.13},
}

// table4Result is one measured row.
type table4Result struct {
	Row       table4Row
	Cert      time.Duration // detect.Certify
	Abstract  time.Duration // gsst.Parse + counterabs.Build
	Check     time.Duration // BDD engine: encoding + fixpoints + traces
	CheckCPU  time.Duration // process CPU time (user + sys) during Check
	Total     time.Duration
	Nodes     int
	MemBytes  uint64
	Reachable string
	Verdicts  string // name=holds|FAILS, ...
	Correct   bool
	Err       error
	NuSMV     string // NuSMV columns, or why they are missing

	model *counterabs.Model // the row's counter model, kept for the NuSMV run
}

// rowEngine is the BDD engine as a row runs it: the defaults (the
// variable order is chosen by symbolic.Auto from the guards), with
// reachable states first exactly when the paper's row computed them.
func rowEngine(r table4Row) symbolic.BDD {
	e := symbolic.DefaultBDD()
	e.ReachFirst = r.Reach
	return e
}

func runTable4(cmd *cobra.Command, o *table4Opts) error {
	prog := startProgress(cmd)
	defer prog.stop()
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if o.list {
		for _, r := range table4 {
			fmt.Fprintf(stdout, "%-14s %s = %d\n", r.ID, r.Block, r.Param)
		}
		return nil
	}
	mem, err := parseSize(o.maxMem)
	if err != nil {
		return errkind.Errorf(errkind.Input, "--max-memory: %v", err)
	}
	if o.asrBound < 1 {
		return errkind.Errorf(errkind.Input, "--asr-bound must be at least 1")
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if err := checkFlagTimeout("--row-timeout", o.rowTO); err != nil {
		return err
	}
	rows, err := selectRows(o)
	if err != nil {
		return errkind.Wrap(errkind.Input, err)
	}
	nusmvBin := os.Getenv("NUSMV")
	// --timeout bounds the whole run; --row-timeout and --nusmv-timeout
	// each row and NuSMV run, cut by what remains of it.
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	var results []table4Result
	for _, r := range rows {
		fmt.Fprintf(stderr, "running %s ...\n", r.ID)
		res := runTable4Row(ctx, r, o, mem, prog.report)
		if nusmvBin == "" {
			res.NuSMV = "unavailable (set NUSMV)"
		} else if res.Err == nil {
			res.NuSMV = runNuSMV(ctx, nusmvBin, r, res.model, o.nusmvTO)
		}
		res.model = nil // the next rows need the memory more
		if ctx.Err() != nil {
			// The run's bound: the row it cut short is no measurement.
			if len(results) > 0 {
				writeTable4(stdout, results, o.asrBound, nusmvBin != "")
			}
			return analysis.Stopped(ctx, r.ID, "benchmark", o.timeout)
		}
		results = append(results, res)
	}
	prog.stop()
	writeTable4(stdout, results, o.asrBound, nusmvBin != "")
	// A row that could not be run is unknown, whatever the others say;
	// else a wrong verdict is a negative answer.
	verdict := analysis.Yes
	for _, res := range results {
		switch {
		case res.Err != nil:
			verdict = analysis.Unknown
		case !res.Correct && verdict == analysis.Yes:
			verdict = analysis.No
		}
	}
	answer(cmd, verdict)
	return nil
}

func selectRows(o *table4Opts) ([]table4Row, error) {
	if o.rows != "" {
		var out []table4Row
		for _, id := range strings.Split(o.rows, ",") {
			id = strings.TrimSpace(id)
			found := false
			for _, r := range table4 {
				if r.ID == id {
					out = append(out, r)
					found = true
				}
			}
			if !found {
				return nil, fmt.Errorf("unknown row %q (see --list)", id)
			}
		}
		return out, nil
	}
	if o.quick {
		var out []table4Row
		seen := map[string]bool{}
		for _, r := range table4 {
			if !seen[r.Block] {
				seen[r.Block] = true
				out = append(out, r)
			}
		}
		return out, nil
	}
	return table4, nil
}

func rowSource(r table4Row, bound int) ([]byte, error) {
	if r.Family == "grw" {
		return specs.GRW(r.D, r.Q, r.M)
	}
	return specs.ASR(r.N, r.R, bound)
}

func runTable4Row(ctx context.Context, r table4Row, o *table4Opts, mem int64, report progress.Func) (res table4Result) {
	res.Row = r
	runtime.GC()
	debug.FreeOSMemory()
	if o.rowTO > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.rowTO)
		defer cancel()
	}
	t0 := time.Now()
	src, err := rowSource(r, o.asrBound)
	if err != nil {
		res.Err = err
		return res
	}
	report.Report(progress.Event{Phase: progress.Parse, Item: r.ID})
	sys, err := gsst.Parse(r.ID+".yaml", src)
	if err != nil {
		res.Err = err
		return res
	}
	t1 := time.Now()
	solver := z3.New()
	cert, err := detect.Certify(ctx, sys, solver, detect.OnProgress(report))
	if err != nil {
		res.Err = err
		return res
	}
	if !cert.Certified() {
		res.Err = errors.New("not certified")
		return res
	}
	t2 := time.Now()
	m, err := counterabs.Build(ctx, sys, solver, solver, counterabs.OnProgress(report))
	if err != nil {
		res.Err = err
		return res
	}
	t3 := time.Now()
	res.model = m
	c0 := cpuTime()
	rep, err := rowEngine(r).Check(ctx, m, explore.MaxMemory(mem), explore.CountStates(r.Reach), explore.OnProgress(progressTick, report))
	t4 := time.Now()
	res.CheckCPU = cpuTime() - c0
	res.Cert = t2.Sub(t1)
	res.Abstract = t1.Sub(t0) + t3.Sub(t2)
	res.Check = t4.Sub(t3)
	res.Total = t4.Sub(t0)
	if err != nil {
		res.Err = err
		return res
	}
	res.Nodes = int(rep.Stats.BDDPeakNodes)
	res.MemBytes = uint64(rep.Stats.PeakBytes)
	res.Reachable = "-"
	if rep.ReachableStates != nil {
		res.Reachable = rep.ReachableStates.String()
	}
	res.Verdicts, res.Correct = judge(r, rep)
	return res
}

// judge checks the verdicts against the expected ones: every property of
// both families holds (GR&W's mutex; ASR's all_used, which needs n >= r,
// true of every row, and each mutexj).
func judge(r table4Row, rep *explore.Report) (string, bool) {
	ok := len(rep.Properties) > 0
	holds, fails := 0, []string{}
	for _, p := range rep.Properties {
		if p.Holds {
			holds++
		} else {
			fails = append(fails, p.Name)
			ok = false
		}
	}
	s := fmt.Sprintf("%d/%d hold", holds, len(rep.Properties))
	if len(fails) > 0 {
		s += " (FAIL: " + strings.Join(fails, ",") + ")"
	}
	return s, ok
}

// runNuSMV runs the NuSMV binary bin, under timeout, on the reduced model
// m of row r (the counter model the row has built and checked).
func runNuSMV(ctx context.Context, bin string, r table4Row, m *counterabs.Model, timeout time.Duration) string {
	text, err := nusmv.Reduced(m)
	if err != nil {
		return "error: " + err.Error()
	}
	dir, err := os.MkdirTemp("", "vsym-table4-")
	if err != nil {
		return "error: " + err.Error()
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, r.ID+".smv")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		return "error: " + err.Error()
	}
	args := []string{file}
	if !r.Reach {
		args = []string{"-df", file}
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := exec.CommandContext(cctx, bin, args...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	t0 := time.Now()
	err = c.Run()
	el := time.Since(t0)
	if cctx.Err() != nil {
		return fmt.Sprintf("timeout after %v", timeout)
	}
	// CPU time (user + system) of NuSMV itself: on a shared machine the
	// wall time also counts whatever else runs, the CPU time does not.
	cpu, rss := "", ""
	if ps := c.ProcessState; ps != nil {
		cpu = fmt.Sprintf("%.2f s cpu, ", (ps.UserTime() + ps.SystemTime()).Seconds())
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			rss = fmt.Sprintf(", %.0f MB", float64(ru.Maxrss)/1024)
		}
	}
	if err != nil {
		return fmt.Sprintf("error: %v", err)
	}
	t, f := 0, 0
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "-- specification") {
			if strings.HasSuffix(line, "is true") {
				t++
			} else if strings.HasSuffix(line, "is false") {
				f++
			}
		}
	}
	return fmt.Sprintf("%s%.2f s wall%s, %d true %d false", cpu, el.Seconds(), rss, t, f)
}

// cpuTime returns the CPU time (user + system) the process has used. On a
// shared machine it is a steadier measure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) }

func dash(x float64, prec int) string {
	if x == 0 {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

func dashInt(x int64) string {
	if x == 0 {
		return "-"
	}
	return strconv.FormatInt(x, 10)
}

// writeTable4 prints the results as a Markdown table (readable as text).
func writeTable4(w io.Writer, results []table4Result, bound int, withNuSMV bool) {
	fmt.Fprintf(w, "Table 4 (ASR bound b=%d). vsym: cert = detect.Certify (Z3); abs = parse + counterabs.Build; mc = BDD engine (wall; cpu = process user+sys, GC included); mem = peak Go heap sampled.\n", bound)
	fmt.Fprintf(w, "paper CA = counter abstraction columns of Table 4 (CkSym/ModelCk/Total s, BDD nodes, MB); paper NuSMV = direct NuSMV columns.\n\n")
	fmt.Fprintln(w, "| row | block | param | cert s | abs s | mc s | mc cpu s | total s | BDD nodes | mem MB | reachable | verdicts | paper CA CkSym | ModelCk | Total | nodes | MB | paper NuSMV nodes | MB | s | NuSMV here |")
	fmt.Fprintln(w, "|"+strings.Repeat("---|", 21))
	for _, res := range results {
		r := res.Row
		verdicts := res.Verdicts
		if res.Err != nil {
			verdicts = "ERROR: " + res.Err.Error()
		} else if !res.Correct {
			verdicts = "WRONG: " + verdicts
		}
		nu := res.NuSMV
		if !withNuSMV {
			nu = "n/a"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %d | %.1f | %s | %s | %.2f | %.2f | %.2f | %d | %s | %s | %s | %s | %s |\n",
			r.ID, r.Block, r.Param, secs(res.Cert), secs(res.Abstract), secs(res.Check), secs(res.CheckCPU), secs(res.Total),
			res.Nodes, float64(res.MemBytes)/(1<<20), res.Reachable, verdicts,
			r.CkSym, r.ModelCk, r.Total, r.CANodes, dash(r.CAMem, 1),
			dashInt(r.NuNodes), dash(r.NuMem, 0), dash(r.NuTime, 2), nu)
	}
	if !withNuSMV {
		fmt.Fprintln(w, "\nNuSMV is unavailable: set NUSMV to a NuSMV 2.6 binary to run it on the emitted reduced models.")
	}
}
