#!/bin/sh
# testcpu.sh: the CPU time of each package's tests, children included
# (vsym subprocesses, spin, gcc, pan, bash, dot), for issue 26.6's budget
# of go test -short ./...: wall time on 2 cores is at least the sum of
# user and system CPU over 2, so CPU time is the measure that a loaded
# machine does not distort much.
#
#   sh scripts/testcpu.sh [go test flags and packages]
#
# Default: -short -count=1 ./... . Prints one line per test binary,
# heaviest first: wall, user, system and user+system seconds, and the
# total. With QUARTER=1 the run is put in a cgroup (v1) given a quarter
# of a CPU, as the issue asks the suite to pass (needs root and
# /sys/fs/cgroup/cpu).
#
# The go command's own work (compiling, linking) is not counted here:
# run the whole under /usr/bin/time -v for that.
set -eu

out=$(mktemp)
wrap=$(mktemp)
trap 'rm -f "$out" "$wrap"' EXIT
cat >"$wrap" <<EOF
#!/bin/sh
exec /usr/bin/time -a -o "$out" -f "%e %U %S \$(basename "\$1" .test)" "\$@"
EOF
chmod +x "$wrap"

[ $# -gt 0 ] || set -- -short -count=1 ./...

if [ "${QUARTER:-}" = 1 ]; then
	cg=/sys/fs/cgroup/cpu/vsym-testcpu-$$
	mkdir "$cg"
	echo 100000 >"$cg/cpu.cfs_period_us"
	echo 25000 >"$cg/cpu.cfs_quota_us"
	sh -c 'echo $$ >"$1/tasks"; shift; exec "$@"' sh "$cg" go test -exec "$wrap" "$@" || status=$?
	rmdir "$cg" # its tasks have ended
else
	go test -exec "$wrap" "$@" || status=$?
fi

echo "   wall    user     sys     cpu  package (test binary)"
awk '{printf "%7.1f %7.1f %7.1f %7.1f  %s\n", $1, $2, $3, $2+$3, $4}' "$out" | sort -k4 -n -r
awk '{u+=$2; s+=$3} END {printf "%7s %7.1f %7.1f %7.1f  total\n", "", u, s, u+s}' "$out"
echo "load: $(uptime | sed 's/.*load average: //')"
exit "${status:-0}"
