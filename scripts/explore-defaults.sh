#!/bin/bash
# Times "vsym explore FILE" with its default flags beside "vsym explore
# --engine bdd FILE" (properties decided backwards, no reachable states)
# on every row of Table 4 of Wei, Gurfinkel and Chechik, one line per
# row and mode: CPU (user + system), wall, max RSS, verdict counts and
# the engine the report names. BENCHMARKS.md records a run.
#
# Usage: V=/path/to/vsym scripts/explore-defaults.sh
set -eu
V=${V:-vsym}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# grw:d:q:m and asr:n:r
rows="grw:5:20:10 grw:10:20:10 grw:15:20:10 grw:5:20:20 grw:5:20:30 grw:10:10:20 grw:10:30:20 grw:10:50:20 grw:50:20:30
asr:20:2 asr:30:2 asr:40:2 asr:80:2 asr:20:3 asr:30:3 asr:40:3 asr:80:3 asr:40:5 asr:80:5 asr:40:10 asr:80:10"
for r in $rows; do
	IFS=: read -r fam a b c <<<"$r"
	if [ "$fam" = grw ]; then
		"$V" gen grw --groups "$a" --size "$b" --states "$c" -o "$dir/row.yaml" 2>/dev/null
		id="grw d=$a q=$b m=$c"
	else
		"$V" gen asr --procs "$a" --resources "$b" -o "$dir/row.yaml" 2>/dev/null
		id="asr n=$a r=$b"
	fi
	for mode in "" "--engine bdd"; do
		# shellcheck disable=SC2086 # mode is zero or two words
		t=$({ /usr/bin/time -f 'T %U %S %e %M' timeout 300 "$V" explore $mode "$dir/row.yaml" >"$dir/row.out" || true; } 2>&1 | grep '^T')
		read -r _ user sys wall rss <<<"$t"
		holds=$(grep -c ': holds' "$dir/row.out" || true)
		fails=$(grep -c ': fails' "$dir/row.out" || true)
		engine=$(head -1 "$dir/row.out" | sed 's/.*: \([a-z]* engine[^,]*\).*/\1/')
		printf '%s | %s | cpu %.2f s | wall %s s | %d MB | %s holds %s fails | %s\n' \
			"$id" "${mode:-default}" "$(echo "$user + $sys" | bc)" "$wall" $((rss / 1024)) "$holds" "$fails" "$engine"
	done
done
uptime
