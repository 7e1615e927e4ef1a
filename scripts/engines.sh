#!/bin/bash
# Times "vsym explore" with --engine explicit, --engine bdd and the
# default (--engine auto) on the engine benchmark set, and prints the
# markdown table of BENCHMARKS.md ("--engine auto against the faster
# engine"): spec, wall seconds of each engine, ratio = auto /
# min(explicit, bdd), and whether the runs that answered printed the
# same output (the report does not depend on the engine: "same", or
# "DIFFERENT", or "-" when fewer than two answered). The three engines run interleaved (explicit, bdd,
# auto, then again), REPS rounds, and each cell is the least wall time
# over the rounds, so that a burst of load on the shared machine hurts
# all three alike. A run killed at TIMEOUT seconds shows as ">TIMEOUT";
# the ratio then uses TIMEOUT as a lower bound of the slower engines.
#
# Usage: V=/path/to/vsym [TIMEOUT=60] [REPS=3] scripts/engines.sh [SPEC...]
# A SPEC is a name of the set below (without names: all of it).
set -eu
V=${V:-vsym}
TIMEOUT=${TIMEOUT:-60}
REPS=${REPS:-3}
SPECS=${SPECS:-$(cd "$(dirname "$0")/../specs" && pwd)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The set: name, then the vsym gen arguments or "file:PATH" for a bundled
# spec, then extra explore flags after "--".
set_list() {
	cat <<'LIST'
grw-d2-q2-m4 gen grw --groups 2 --size 2 --states 4
grw-d3-q5-m10 gen grw --groups 3 --size 5 --states 10
grw-d5-q20-m10 gen grw --groups 5 --size 20 --states 10
grw-d10-q10-m20 gen grw --groups 10 --size 10 --states 20
grw-d3-q3-m4-group gen grw --groups 3 --size 3 --states 4 -- --model group
grw-d4-q5-m4-group gen grw --groups 4 --size 5 --states 4 -- --model group
asr-n20-r3 gen asr --procs 20 --resources 3
asr-n80-r5 gen asr --procs 80 --resources 5
asr-n9-r3-group gen asr --procs 9 --resources 3 -- --model group
ladder-l2-q10 gen ladder --levels 2 --size 10
ladder-l3-q20 gen ladder --levels 3 --size 20
ladder-l3-q50 gen ladder --levels 3 --size 50
ladder-l2-q1000 gen ladder --levels 2 --size 1000
ladder-l5-q10 gen ladder --levels 5 --size 10
ladder-l10-q10 gen ladder --levels 10 --size 10
ladder-l3-q10-fair gen ladder --levels 3 --size 10 --fair
ladder-l4-q20-fair gen ladder --levels 4 --size 20 --fair
pool-n10 gen pool --procs 10
pool-n1000 gen pool --procs 1000
pool-n10000 gen pool --procs 10000
ring-n10 gen ring --procs 10
ring-n1000 gen ring --procs 1000
ring-n10000 gen ring --procs 10000
mesh-k2-q3 gen mesh --side 2 --size 3
mesh-k3-q2 gen mesh --side 3 --size 2
threshold-n7-t2 gen threshold --procs 7 --faulty 2 --ones 3
threshold-n11-t3 gen threshold --procs 11 --faulty 3 --ones 5
mutex file:mutex.yaml
readers-writers file:readers-writers.yaml
readers-writers-broken file:readers-writers-broken.yaml
readers-writers-race file:readers-writers-race.yaml
rw-shared-reading file:rw-shared-reading.yaml
asr-audit file:asr-audit.yaml
grw-audit file:grw-audit.yaml
printers file:printers.yaml -- --sizes staff=2,guest=3
readers-writers-param file:readers-writers-param.yaml -- --sizes reader=3,writer=2
asr-param file:asr-param.yaml -- --sizes g1=3,g2=3
t4-grw-d5-q20-m10 gen grw --groups 5 --size 20 --states 10
t4-grw-d50-q20-m30 gen grw --groups 50 --size 20 --states 30
t4-grw-d5-q20-m10-group gen grw --groups 5 --size 20 --states 10 -- --model group
t4-grw-d10-q10-m20-group gen grw --groups 10 --size 10 --states 20 -- --model group
t4-asr-n80-r2 gen asr --procs 80 --resources 2
t4-asr-n80-r3 gen asr --procs 80 --resources 3
t4-asr-n80-r10 gen asr --procs 80 --resources 10
t4-asr-n80-r3-group gen asr --procs 80 --resources 3 -- --model group
mesi-n10000 file:mesi.yaml -- --sizes cache=10000
mesi-n10000-count file:mesi.yaml -- --sizes cache=10000 --count-states
producer-consumer-50 file:producer-consumer.yaml -- --sizes producer=50,consumer=50
resource-pool-20 file:resource-pool.yaml -- --sizes worker=20,unit=40
threshold-cc file:threshold/cc.yaml -- --params n=7,t=2,f=2
threshold-nbac file:threshold/nbac.yaml -- --params n=7,t=2,f=2
LIST
}

# run ENGINE FILE FLAGS...: prints the wall seconds of one explore run, or
# ">TIMEOUT" when it was killed.
run() {
	local engine=$1 file=$2 s e
	shift 2
	s=$(date +%s.%N)
	timeout -s KILL "$TIMEOUT" "$V" explore --engine "$engine" "$@" "$file" >"$dir/out.$engine" 2>&1 || true
	e=$(date +%s.%N)
	if [ "$(echo "$e - $s >= $TIMEOUT" | bc)" = 1 ]; then
		rm -f "$dir/out.$engine"
		echo ">$TIMEOUT"
	else
		printf '%.2f' "$(echo "$e - $s" | bc)"
	fi
}

# least VALUES...: the least value, ">T" counting as T.
least() {
	local best="" v
	for v in "$@"; do
		if [ -z "$best" ] || [ "$(echo "${v#>} < ${best#>}" | bc)" = 1 ]; then
			best=$v
		fi
	done
	echo "$best"
}

# same: whether the runs that answered printed the same output.
same() {
	local ref="" f n=0
	for f in "$dir"/out.*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		if [ -z "$ref" ]; then
			ref=$f
		elif ! cmp -s "$ref" "$f"; then
			echo DIFFERENT
			return
		fi
	done
	if [ $n -ge 2 ]; then echo same; else echo -; fi
}

echo "| spec | explicit (s) | bdd (s) | auto (s) | ratio | output |"
echo "|---|---|---|---|---|---|"
worst=0
while read -r name rest; do
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	src=${rest%% -- *}
	flags=()
	if [ "$src" != "$rest" ]; then
		read -r -a flags <<<"${rest#* -- }"
	fi
	file=$dir/$name.yaml
	case $src in
	file:*) cp "$SPECS/${src#file:}" "$file" ;;
	*) read -r -a gen <<<"$src"; "$V" "${gen[@]}" -o "$file" 2>/dev/null ;;
	esac
	ex=() bd=() au=()
	rm -f "$dir"/out.*
	for _ in $(seq "$REPS"); do
		ex+=("$(run explicit "$file" "${flags[@]}")")
		bd+=("$(run bdd "$file" "${flags[@]}")")
		au+=("$(run auto "$file" "${flags[@]}")")
	done
	x=$(least "${ex[@]}") b=$(least "${bd[@]}") a=$(least "${au[@]}")
	m=$(least "$x" "$b")
	ratio=$(printf '%.2f' "$(echo "${a#>} / ${m#>}" | bc -l)")
	case "$a$m" in *">"*) [ "${a#>}" = "${m#>}" ] && ratio="1.00 (all >$TIMEOUT)" ;; esac
	[ "$(echo "${ratio%% *} > $worst" | bc)" = 1 ] && worst=${ratio%% *}
	echo "| $name | $x | $b | $a | $ratio | $(same) |"
done < <(set_list)
echo
echo "worst auto/best ratio: $worst (load average $(cut -d' ' -f1-3 /proc/loadavg))"
