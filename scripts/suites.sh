#!/bin/sh
# Fetch the public suites whose files vsym's tests and benchmarks read
# but do not keep: mist's benchmark folders (github.com/pierreganty/mist
# at commit 1b1fd97, GPL-3; testdata/suites/README.md says why they are
# not kept), and the instances of its template contrived/ME-k-bingham.spec.m4
# that the CAV'14 Petrinizer evaluation used (bingham_h25, h50, h150,
# h250), made with m4 into DIR/mist-m4. Prints the variables to export;
# then
#   go test ./analysis -run TestPublicSuites        # VSYM_SUITES
#   go test ./formats/mist -run 'TestSuite|TestReading'   # VSYM_MIST_BENCHMARKS
#   scripts/suites-bench.sh                         # VSYM_SUITES
# (ByMC's ISoLA'18 automata are kept in formats/bymc/testdata/isola18.)
#
# Usage: scripts/suites.sh [DIR]   (default $TMPDIR/vsym-suites)
set -e
dir=${1:-${TMPDIR:-/tmp}/vsym-suites}
mkdir -p "$dir"
if [ ! -d "$dir/mist/benchmarks" ]; then
	git clone --quiet https://github.com/pierreganty/mist "$dir/mist"
	git -C "$dir/mist" checkout --quiet 1b1fd97
fi
mkdir -p "$dir/mist-m4"
for k in 25 50 150 250; do
	m4 -DPARAM=$k "$dir/mist/benchmarks/contrived/ME-k-bingham.spec.m4" >"$dir/mist-m4/bingham_h$k.spec"
done
echo "export VSYM_SUITES=$dir"
echo "export VSYM_MIST_BENCHMARKS=$dir/mist/benchmarks"
