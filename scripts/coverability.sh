#!/bin/bash
# Times "vsym prove" on the cache-coherence protocols of the mist suite
# (testdata/coverability/*.yaml) and on the bundled examples of issues 20
# and 21, one line per file and run: the verdict of each property, CPU
# (user + system of the whole process, Z3 included) and wall time from
# /usr/bin/time. BENCHMARKS.md records runs, beside what coverability
# tools publish.
#
# Usage: V=/path/to/vsym [RUNS=3] [TIMEOUT=120] scripts/coverability.sh [FILE...]
# Without files: every file of testdata/coverability, then the bundled
# specs mesi, producer-consumer, resource-pool, peterson, lock-mutex and
# their -broken variants.
set -eu
V=${V:-vsym}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-120}
root=$(cd "$(dirname "$0")/.." && pwd)
files="$*"
if [ -z "$files" ]; then
	files="$root/testdata/coverability/*.yaml"
	for s in mesi producer-consumer resource-pool peterson lock-mutex; do
		files="$files $root/specs/$s.yaml $root/specs/$s-broken.yaml"
	done
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "# $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg); vsym at $(git -C "$root" rev-parse --short HEAD)"
for f in $files; do
	for run in $(seq "$RUNS"); do
		/usr/bin/time -o "$dir/time" -f '%U %S %e' timeout "$TIMEOUT" "$V" prove "$f" >"$dir/out" 2>&1 || true
		read -r user sys wall < <(tail -n 1 "$dir/time")
		verdicts=$(sed -En 's/^property ([^:]*): .*: (proved|REFUTED|unknown|skipped)([ :].*)?$/\1=\2/p' "$dir/out" | tr '\n' ' ')
		if [ -z "$verdicts" ]; then
			verdicts="no verdict: $(head -n 1 "$dir/out")"
		fi
		printf '%s run %d: %.2f s CPU, %s s wall: %s\n' "$(basename "$f")" "$run" "$(echo "$user + $sys" | bc)" "$wall" "$verdicts"
	done
done
