#!/bin/sh
# Fetch the public suites whose files vsym's tests read but do not keep:
# mist's benchmark folders (github.com/pierreganty/mist, GPL). Prints the
# variable to export; then
#   VSYM_MIST_BENCHMARKS=DIR/mist/benchmarks go test ./formats/mist -run 'TestSuite|TestReading'
# (ByMC's ISoLA'18 automata are kept in formats/bymc/testdata/isola18.)
set -e
dir=${1:-${TMPDIR:-/tmp}/vsym-suites}
mkdir -p "$dir"
if [ ! -d "$dir/mist" ]; then
	git clone --quiet https://github.com/pierreganty/mist "$dir/mist"
fi
echo "export VSYM_MIST_BENCHMARKS=$dir/mist/benchmarks"
