package cli

import (
	"bytes"
	"testing"
)

// TestRootFor checks the tree a command line that names a subcommand
// gets (rootFor: that subcommand alone): each registered name is its
// command's name, so that the short tree is built at all, and the
// command's help, with every flag, and its answer to a bad flag read
// the same as from the whole tree.
func TestRootFor(t *testing.T) {
	for _, sub := range subcommands {
		t.Run(sub.name, func(t *testing.T) {
			if got := sub.make().Name(); got != sub.name {
				t.Fatalf("registered as %q, named %q", sub.name, got)
			}
			if n := len(rootFor([]string{sub.name}).Commands()); n > 3 {
				t.Errorf("rootFor built %d commands", n)
			}
			for _, args := range [][]string{{sub.name, "--help"}, {sub.name, "--no-such-flag"}} {
				var wantOut, wantErr, gotOut, gotErr bytes.Buffer
				want := execute(NewRootCmd(), args, nil, &wantOut, &wantErr)
				got := execute(rootFor(args), args, nil, &gotOut, &gotErr)
				if got != want || gotOut.String() != wantOut.String() || gotErr.String() != wantErr.String() {
					t.Errorf("%q: exit %d, stdout %q, stderr %q; whole tree: exit %d, stdout %q, stderr %q",
						args, got, gotOut.String(), gotErr.String(), want, wantOut.String(), wantErr.String())
				}
			}
		})
	}
}
