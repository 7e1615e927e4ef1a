package mist_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/formats/mist"
)

// mist's benchmarks (github.com/pierreganty/mist, folder benchmarks/,
// GPL) are not kept here; TestSuite reads them from the folder that
// VSYM_MIST_BENCHMARKS names (scripts/suites.sh fetches them) and is
// skipped without it. suite is what vsym makes of each file today: the
// constructs it needs, or "" when it translates, and the verdict its
// "#expected result:" line announces ("" without one).
var suite = []struct {
	path, needs, expected string
}{
	{"PN/MultiME.spec", "", ""},
	{"PN/basicME.spec", "", "safe"},
	{"PN/csm.spec", "", "safe"},
	{"PN/extendedread-write-smallconsts.spec", "", ""},
	{"PN/extendedread-write.spec", "", ""},
	{"PN/fms.spec", "", "safe"},
	{"PN/fms_attic.spec", "", ""},
	{"PN/kanban.spec", "", ""},
	{"PN/leabasicapproach.spec", "", ""},
	{"PN/manufacturing.spec", "", ""},
	{"PN/mesh2x2.spec", "", "safe"},
	{"PN/mesh3x2.spec", "", "safe"},
	{"PN/multipool.spec", "", "safe"},
	{"PN/pingpong.spec", "", ""},
	{"PN/pncsacover.spec", "", "unsafe"},
	{"PN/pncsasemiliv.spec", "", ""},
	{"PN+TRANS/basicextransfer.spec", "", ""},
	{"PN+TRANS/efm.spec", "", "safe"},
	{"PN+TRANS/last-in-first-served.spec", "", ""},
	{"PN+ZEROTEST/german_protocol.spec", "", ""},
	{"PN+ZEROTEST/rw.spec", "", ""},
	{"boundedPN/kanban.spec", "", ""},
	{"boundedPN/lamport.spec", "", "safe"},
	{"boundedPN/newdekker.spec", "", "safe"},
	{"boundedPN/newrtp.spec", "", "safe"},
	{"boundedPN/peterson.spec", "", "safe"},
	{"boundedPN/read-write.spec", "", "safe"},
	{"broad_inhib/berkeley.spec", "", ""},
	{"broad_inhib/dragon.spec", "", ""},
	{"broad_inhib/firefly.spec", "", ""},
	{"broad_inhib/futurebus.spec", "", ""},
	{"broad_inhib/illinois.spec", "", ""},
	{"contrived/ME_250_bigtarget.spec", "", ""},
	{"reachPN/manufacture.spec", "", ""},
	{"reachPN/manufacture2.spec", "", ""},
	{"reachPN/swimming_pool.spec", "", ""},
	{"BroadcastProtocols/ConsistencyProtocolsWithAtomicSynchronizationActions/CSMbroad.spec", "", "safe"},
	{"BroadcastProtocols/ConsistencyProtocolsWithAtomicSynchronizationActions/MOESI.spec", "", "safe"},
	{"BroadcastProtocols/ConsistencyProtocolsWithAtomicSynchronizationActions/german.spec", "", "safe"},
	{"BroadcastProtocols/Javaprograms/Java.spec", "", "unsafe"},
	{"BroadcastProtocols/Javaprograms/Javasanserreur.spec", "", "safe"},
	{"BroadcastProtocols/Javaprograms/consprod.spec", "", "safe"},
	{"BroadcastProtocols/Javaprograms/consprod2.spec", "", "safe"},
	{"BroadcastProtocols/Javaprograms/delegatebuffer.spec", "", "safe"},
	{"BroadcastProtocols/Javaprograms/examplelea.spec", "", "safe"},
	{"BroadcastProtocols/Javaprograms/leaconflictset.spec", "", ""},
	{"BroadcastProtocols/Javaprograms/queuedbusyflag.spec", "", "safe"},
	{"BroadcastProtocols/Javaprograms/simplejavaexample.spec", "", "unsafe"},
	{"BroadcastProtocols/Javaprograms/transthesis.spec", "", "safe"},
}

func TestSuite(t *testing.T) {
	root := os.Getenv("VSYM_MIST_BENCHMARKS")
	if root == "" {
		t.Skip("VSYM_MIST_BENCHMARKS does not name mist's benchmarks folder (scripts/suites.sh fetches it)")
	}
	var found []string
	for _, pat := range []string{"*/*.spec", "*/*/*.spec"} {
		files, _ := filepath.Glob(filepath.Join(root, pat))
		for _, f := range files {
			rel, _ := filepath.Rel(root, f)
			found = append(found, filepath.ToSlash(rel))
		}
	}
	var listed []string
	for _, c := range suite {
		listed = append(listed, c.path)
	}
	slices.Sort(found)
	slices.Sort(listed)
	if !slices.Equal(found, listed) {
		t.Fatalf("the folder holds\n%v\nthe table lists\n%v", found, listed)
	}
	instances := 3
	if testing.Short() {
		instances = 1
	}
	translated := 0
	for _, c := range suite {
		t.Run(c.path, func(t *testing.T) {
			file := filepath.Join(root, c.path)
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			imp := mist.Translate(file, src)
			got := formatstest.Outcome(imp)
			if !strings.HasPrefix(got, c.needs) || (got == "") != (c.needs == "") {
				t.Fatalf("vsym makes %q of it, the table says %q", got, c.needs)
			}
			var announced []string
			for _, e := range imp.Expected {
				announced = append(announced, e.Text)
			}
			if strings.Join(announced, " ") != c.expected {
				t.Errorf("expected results %q, the table says %q", announced, c.expected)
			}
			if got != "" {
				return
			}
			translated++
			var yaml bytes.Buffer
			if err := formats.Write(&yaml, imp); err != nil {
				t.Fatal(err)
			}
			formatstest.ReadsBack(t, imp, yaml.Bytes())
			compared, safe := crossCheck(t, file, src, instances)
			if compared == 0 {
				t.Errorf("no initial marking compared")
			}
			// The verdicts where the marking graph was explored in
			// full must be the announced one.
			for i, ok := range safe {
				if c.expected == "safe" && !ok {
					t.Errorf("initial marking %d: the target is covered, the file expects safe", i+1)
				}
			}
			if c.expected == "unsafe" && len(safe) > 0 && !slices.Contains(safe, false) {
				t.Logf("the file expects unsafe; no initial marking tried covers the target (%d explored in full)", len(safe))
			}
		})
	}
	want := 0
	for _, c := range suite {
		if c.needs == "" {
			want++
		}
	}
	if translated != want {
		t.Errorf("%d files translate, the table says %d", translated, want)
	}
}
