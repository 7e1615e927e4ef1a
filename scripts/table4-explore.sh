#!/bin/bash
# Times vsym explore on the rows of Table 4 of Wei, Gurfinkel and Chechik,
# one line per row; BENCHMARKS.md records runs. CPU is user + system of
# the whole process, from /usr/bin/time, with wall time and max RSS.
#
#   defaults  "vsym explore FILE" with its default flags beside
#             "vsym explore --engine bdd FILE" (properties decided
#             backwards, no reachable states)
#   group     "vsym explore --model group FILE" (the group-counter model,
#             exact for any GSST) and, when NUSMV names a NuSMV 2.6
#             binary, "NuSMV -df" on "vsym nusmv --model group FILE"
#
# Usage: V=/path/to/vsym [NUSMV=/path/to/NuSMV] [TIMEOUT=300] \
#            scripts/table4-explore.sh defaults|group [ROW...]
# A row is grw:d:q:m or asr:n:r; without rows, every Table 4 row.
set -eu
V=${V:-vsym}
TIMEOUT=${TIMEOUT:-300}
mode=${1:?usage: table4-explore.sh defaults|group [ROW...]}
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
rows="$*"
if [ -z "$rows" ]; then
	rows="grw:5:20:10 grw:10:20:10 grw:15:20:10 grw:5:20:20 grw:5:20:30 grw:10:10:20 grw:10:30:20 grw:10:50:20 grw:50:20:30
asr:20:2 asr:30:2 asr:40:2 asr:80:2 asr:20:3 asr:30:3 asr:40:3 asr:80:3 asr:40:5 asr:80:5 asr:40:10 asr:80:10"
fi

# timed CMD...: runs CMD under the timeout with its output in $dir/out
# and prints its CPU, wall time and max RSS, or that it timed out.
timed() {
	local user sys wall rss
	/usr/bin/time -o "$dir/time" -f '%U %S %e %M' timeout "$TIMEOUT" "$@" >"$dir/out" 2>&1 || true
	read -r user sys wall rss < <(tail -n 1 "$dir/time")
	if [ "$(echo "$wall >= $TIMEOUT" | bc)" = 1 ]; then
		echo "timeout (${TIMEOUT} s)"
		return
	fi
	printf '%.2f s CPU, %s s wall, %d MB' "$(echo "$user + $sys" | bc)" "$wall" $((rss / 1024))
}

# verdicts: the property verdicts in $dir/out, from vsym or NuSMV.
verdicts() {
	printf '%s hold, %s fail' "$(grep -c -e ': holds' -e 'is true' "$dir/out" || true)" \
		"$(grep -c -e ': fails' -e 'is false' "$dir/out" || true)"
}

for r in $rows; do
	IFS=: read -r fam a b c <<<"$r"
	if [ "$fam" = grw ]; then
		"$V" gen grw --groups "$a" --size "$b" --states "$c" -o "$dir/row.yaml" 2>/dev/null
		line="grw d=$a q=$b m=$c"
	else
		"$V" gen asr --procs "$a" --resources "$b" -o "$dir/row.yaml" 2>/dev/null
		line="asr n=$a r=$b"
	fi
	case $mode in
	defaults)
		line="$line | defaults: $(timed "$V" explore "$dir/row.yaml"), $(verdicts), $(head -1 "$dir/out" | sed 's/.*: \([a-z]* engine[^,]*\).*/\1/')"
		line="$line | --engine bdd: $(timed "$V" explore --engine bdd "$dir/row.yaml"), $(verdicts)"
		;;
	group)
		line="$line | explore --model group: $(timed "$V" explore --model group "$dir/row.yaml"), $(verdicts)"
		if [ -n "${NUSMV:-}" ]; then
			"$V" nusmv --model group "$dir/row.yaml" -o "$dir/row.smv" 2>/dev/null
			line="$line | NuSMV -df: $(timed "$NUSMV" -df "$dir/row.smv"), $(verdicts)"
		fi
		;;
	*)
		echo "table4-explore.sh: unknown mode $mode (defaults or group)" >&2
		exit 2
		;;
	esac
	echo "$line"
done
uptime
