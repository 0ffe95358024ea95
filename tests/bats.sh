#!/bin/sh
# bats.sh LOG FILE... -- run bats files with --timing, keep the TAP in
# LOG, and end with the ten slowest tests and the wall time, so that a
# slow new test is seen the day it lands (issue 33).  The exit status is
# bats'.  Extra bats options (a --filter-tags, say) come from BATS_OPTS.
#
# Files run BATS_JOBS at a time (default 2; 1 for one at a time), each
# file's tests in order: measured on the whole suite on 2 cores, 93-94 s
# against 150 s one file at a time.  (Tests of one file in parallel
# were slower, 182 s, and broke tests that share a file's setup.)  That
# needs GNU parallel; without it the files run one at a time, said.
log=$1
shift
start=$(date +%s)
jobs=${BATS_JOBS:-2}
par=
if [ "$jobs" -gt 1 ] && [ $# -gt 1 ]; then
	if command -v parallel > /dev/null; then
		par="--jobs $jobs --no-parallelize-within-files"
	else
		echo "bats.sh: GNU parallel is not installed (apt-get install parallel): one file at a time"
	fi
fi
rm -f "$log.status"
{ bats --timing $par $BATS_OPTS "$@"; echo $? > "$log.status"; } | tee "$log"
st=$(cat "$log.status" 2>/dev/null || echo 1)
rm -f "$log.status"
echo "slowest tests of this run (bats --timing; all of them in $log):"
sed -n 's/^\(not \)\{0,1\}ok [0-9]* \(.*\) in \([0-9]*\)ms$/\3 \2/p' "$log" |
    sort -rn | head -10 |
    awk '{ ms = $1; $1 = ""; printf "  %6.1f s %s\n", ms / 1000, substr($0, 2) }'
echo "bats: $# files in $(( $(date +%s) - start )) s${par:+ ($jobs at a time)}"
exit "$st"
