#!/bin/bash
# Times "vsym prove FILE", with its default flags, on every case of
# testdata/suites/cases.tsv (the public suites: mist's benchmarks, the
# instances of its bingham template, ByMC's ISoLA'18 automata and its
# automata of randomized consensus (random19), and the
# hand-written nets) and prints a Markdown table: the case, the verdict
# published for it, the fastest published time and its tool, vsym's
# verdict, its CPU time (user + system of the whole process, Z3
# included: the measure the CAV'14 Petrinizer paper used) and wall
# time, and the ratio of vsym's CPU time to the fastest published time
# (taken as at least 0.01 s, the resolution of the published figures).
# Several runs give the least and the greatest time. A verdict that
# contradicts the published one is marked WRONG and makes the script
# exit 1: that is a soundness bug.
#
# Usage: V=/path/to/vsym VSYM_SUITES=DIR [RUNS=1] [TIMEOUT=300] scripts/suites-bench.sh [SUITE...]
# VSYM_SUITES is the folder scripts/suites.sh fills (mist's files are not
# kept in the repository); without it only the kept files are run.
# TIMEOUT bounds each run of the script (not a vsym flag: a run it ends
# is reported as "killed at TIMEOUT s").
set -eu
V=${V:-vsym}
RUNS=${RUNS:-1}
TIMEOUT=${TIMEOUT:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
suites="$*"
rootof() {
	case $1 in
	hand) echo "$root/formats/mist/testdata" ;;
	isola18) echo "$root/formats/bymc/testdata/isola18" ;;
	random19) echo "$root/formats/bymc/testdata/random19" ;;
	yaml) echo "$root/testdata" ;;
	mist) [ -n "${VSYM_SUITES:-}" ] && echo "$VSYM_SUITES/mist/benchmarks" ;;
	mist-m4) [ -n "${VSYM_SUITES:-}" ] && echo "$VSYM_SUITES/mist-m4" ;;
	esac
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "<!-- $(nproc) CPUs ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)); load average before: $(cut -d' ' -f1-3 /proc/loadavg); vsym at $(git -C "$root" rev-parse --short HEAD); $(date -u '+%Y-%m-%d %H:%M UTC'); RUNS=$RUNS -->"
echo
echo "| case | published | fastest published | vsym prove | CPU | wall | CPU / fastest |"
echo "|---|---|---|---|---|---|---|"
wrong=0
while IFS=$'\t' read -r suite file published source fastest tool expect cost; do
	case $suite in '#'*|'') continue ;; esac
	if [ -n "$suites" ] && ! echo " $suites " | grep -q " $suite "; then
		continue
	fi
	r=$(rootof "$suite") || true
	[ -n "$r" ] && [ -e "$r/$file" ] || continue
	# The published verdict, in the suite's words.
	case $published in
	-) pub="none" ;;
	safe:holds) pub="safe" ;;
	safe:fails) pub="unsafe" ;;
	*)
		holds=$(echo "$published" | tr ' ' '\n' | grep -c ':holds$' || true)
		fails=$(echo "$published" | tr ' ' '\n' | grep -c ':fails$' || true)
		pub="$holds hold"
		[ "$fails" = 0 ] || pub="$pub, $fails fail"
		[ "$holds" = 0 ] && pub="$fails fail"
		;;
	esac
	[ "$source" = "-" ] || pub="$pub ($source)"
	fast="none"
	[ "$fastest" = "-" ] || fast="$tool $fastest s"
	cpus="" walls="" verdict=""
	for run in $(seq "$RUNS"); do
		rc=0
		/usr/bin/time -o "$dir/time" -f '%U %S %e' timeout "$TIMEOUT" "$V" prove "$r/$file" >"$dir/out" 2>&1 || rc=$?
		read -r user sys wall < <(tail -n 1 "$dir/time")
		cpus="$cpus $(printf '%.2f' "$(echo "$user + $sys" | bc)")"
		walls="$walls $wall"
		case $rc in
		0 | 1 | 3)
			verdict=$(sed -En 's/^property ([^:]*): .*: (proved|REFUTED|unknown|skipped)([ :].*)?$/\1 \2/p' "$dir/out" | tr '\n' ',' | sed 's/,$//; s/,/, /g')
			grep -q '^vsym: .*unknown' "$dir/out" && verdict="unknown ($(sed -n 's/^vsym: [^:]*: unknown: //p' "$dir/out" | head -n 1))"
			;;
		2) verdict="refused: $(grep -o 'needs .*, which the GSST language cannot state yet' "$dir/out" | sed 's/^needs //; s/, which the GSST language cannot state yet$//' | sort -u | paste -sd ';' | sed 's/;/; /g')"
			[ "$verdict" = "refused: " ] && verdict="error: $(head -n 1 "$dir/out" | sed 's/^[^ ]*: //')"
			;;
		124) verdict="killed at $TIMEOUT s" ;;
		*) verdict="exit $rc: $(head -n 1 "$dir/out")" ;;
		esac
	done
	# A verdict against the published one.
	for pv in $published; do
		name=${pv%%:*} want=${pv#*:}
		got=$(sed -En "s/^property $name: .*: (proved|REFUTED)([ :].*)?\$/\\1/p" "$dir/out")
		if { [ "$want" = holds ] && [ "$got" = REFUTED ]; } || { [ "$want" = fails ] && [ "$got" = proved ]; }; then
			verdict="**WRONG: $name $got, published $want** $verdict"
			wrong=1
		fi
	done
	lo=$(echo "$cpus" | tr ' ' '\n' | sed '/^$/d' | sort -g | head -n 1)
	hi=$(echo "$cpus" | tr ' ' '\n' | sed '/^$/d' | sort -g | tail -n 1)
	wlo=$(echo "$walls" | tr ' ' '\n' | sed '/^$/d' | sort -g | head -n 1)
	whi=$(echo "$walls" | tr ' ' '\n' | sed '/^$/d' | sort -g | tail -n 1)
	cpu="$lo s" wallt="$wlo s"
	[ "$lo" = "$hi" ] || cpu="$lo-$hi s"
	[ "$wlo" = "$whi" ] || wallt="$wlo-$whi s"
	ratio="-"
	if [ "$fastest" != "-" ] && [[ $verdict != refused* ]] && [[ $verdict != error* ]]; then
		ratio=$(printf '%.1fx' "$(echo "scale=2; $lo / ($fastest + ($fastest < 0.01) * (0.01 - $fastest))" | bc)")
	fi
	echo "| $suite/$file | $pub | $fast | $verdict | $cpu | $wallt | $ratio |"
done <"$root/testdata/suites/cases.tsv"
echo
echo "<!-- load average after: $(cut -d' ' -f1-3 /proc/loadavg) -->"
exit $wrong
