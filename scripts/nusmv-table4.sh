#!/bin/bash
# NuSMV 2.6 on vsym's exported reduced models of the Table 4 rows, beside
# hand-written encoding-2 models of the same counters
# (scripts/nusmv-handwritten.py). Prints a Markdown table to stdout.
#
#   NUSMV=/tmp/nusmv/NuSMV VSYM=/tmp/vsym scripts/nusmv-table4.sh [REACH_TIMEOUT]
#
# For every distinct model of Table 4 (GR&W d, q, m; ASR n, r with bound 2)
# and each of -df (the paper's mode for GR&W and the upper ASR block) and
# reachable states first (no -df; the lower ASR block), NuSMV runs on
# both files; times are NuSMV's CPU time (user + system, from
# /usr/bin/time), the median of 3 runs under -df and one run otherwise
# (REACH_TIMEOUT seconds, default 60). Verdicts are read by name from
# NuSMV's property table and must be equal; the load average at the start
# of each row is recorded.
set -euo pipefail
NUSMV=${NUSMV:?set NUSMV to a NuSMV 2.6 binary}
VSYM=${VSYM:-vsym}
REACH_TO=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'go\ncheck_ctlspec\nshow_property\nquit\n' > "$dir/cmds"

# run FILE TIMEOUT [ARGS...]: prints "CPU VERDICTS" (CPU "timeout" when
# killed); VERDICTS is name=True|False,... sorted.
run() {
  local f=$1 to=$2
  shift 2
  if ! /usr/bin/time -f '%U %S' -o "$dir/t" timeout "$to" "$NUSMV" -dcx "$@" -source "$dir/cmds" "$f" > "$dir/out" 2>&1; then
    echo "timeout -"
    return
  fi
  local cpu verdicts
  cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$dir/t")
  verdicts=$(sed -n 's/^ *\[CTL *\([A-Za-z]*\) *[^ ]* *\([^ ]*\)\]$/\2=\1/p' "$dir/out" | sort | paste -sd, -)
  echo "$cpu $verdicts"
}

# median3 FILE ARGS...: median CPU of three runs, and the verdicts.
median3() {
  local f=$1
  shift
  local a b c
  a=$(run "$f" 300 "$@"); b=$(run "$f" 300 "$@"); c=$(run "$f" 300 "$@")
  if [[ $a == timeout* || $b == timeout* || $c == timeout* ]]; then echo "timeout -"; return; fi
  local v=${a#* }
  local m
  m=$(printf '%s\n' "${a%% *}" "${b%% *}" "${c%% *}" | sort -n | sed -n 2p)
  echo "$m $v"
}

ratio() {
  case "$1$2" in *timeout*) echo "-" ;; *) awk -v a="$1" -v b="$2" 'BEGIN { if (b < 0.01) b = 0.01; if (a < 0.01) a = 0.01; printf "%.2f", a / b }' ;; esac
}

echo "| rows | model | load | -df: vsym nusmv | -df: hand-written | ratio | reachable first: vsym nusmv | reachable first: hand-written | ratio | verdicts (equal in all runs) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
while read -r rows kind a b c; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  if [[ $kind == grw ]]; then
    "$VSYM" gen grw --groups "$a" --size "$b" --states "$c" -o "$dir/s.yaml" 2>/dev/null
    desc="GR&W d=$a q=$b m=$c"
  else
    "$VSYM" gen asr --procs "$a" --resources "$b" --bound "$c" -o "$dir/s.yaml" 2>/dev/null
    desc="ASR n=$a r=$b b=$c"
  fi
  "$VSYM" nusmv "$dir/s.yaml" -o "$dir/v.smv" 2>/dev/null
  python3 "$here/nusmv-handwritten.py" "$kind" "$a" "$b" "$c" > "$dir/h.smv"
  vd=$(median3 "$dir/v.smv" -df); hd=$(median3 "$dir/h.smv" -df)
  vr=$(run "$dir/v.smv" "$REACH_TO"); hr=$(run "$dir/h.smv" "$REACH_TO")
  verdicts=${vd#* }
  same=yes
  for x in "$hd" "$vr" "$hr"; do
    [[ ${x#* } == - || ${x#* } == "$verdicts" ]] || same="NO: $x"
  done
  fmt() { [[ ${1%% *} == timeout ]] && echo "> $2 s" || echo "${1%% *} s"; }
  echo "| $rows | $desc | $load | $(fmt "$vd" 300) | $(fmt "$hd" 300) | $(ratio "${vd%% *}" "${hd%% *}") | $(fmt "$vr" "$REACH_TO") | $(fmt "$hr" "$REACH_TO") | $(ratio "${vr%% *}" "${hr%% *}") | $verdicts ($same) |"
done <<'EOF'
grw-d5,grw-m10 grw 5 20 10
grw-d10 grw 10 20 10
grw-d15 grw 15 20 10
grw-m20 grw 5 20 20
grw-m30 grw 5 20 30
grw-q10 grw 10 10 20
grw-q30 grw 10 30 20
grw-q50 grw 10 50 20
asr-r2-n20,asrf-r2-n20 asr 20 2 2
asr-r2-n30,asrf-r2-n30 asr 30 2 2
asr-r2-n40,asrf-r2-n40 asr 40 2 2
asr-r2-n80,asrf-r2-n80 asr 80 2 2
asr-r3-n20,asrf-r3-n20 asr 20 3 2
asr-r3-n30,asrf-r3-n30 asr 30 3 2
asr-r3-n40,asrf-r3-n40 asr 40 3 2
asr-r3-n80,asrf-r3-n80 asr 80 3 2
asr-r5-n40,asrf-r5-n40 asr 40 5 2
asr-r5-n80,asrf-r5-n80 asr 80 5 2
asr-r10-n40,asrf-r10-n40 asr 40 10 2
asr-r10-n80,asrf-r10-n80 asr 80 10 2
EOF
