// Command vsym certifies full virtual symmetry of GSST systems, abstracts
// them to total-counter models, exports them to NuSMV and model checks
// them. Run "vsym --help" for the commands.
package main

import (
	"os"

	"github.com/vsym/vsym/internal/cli"
)

func main() {
	tuneGC()
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
