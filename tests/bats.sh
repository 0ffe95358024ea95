#!/bin/sh
# bats.sh LOG FILE... -- run bats files with --timing, keep the TAP in
# LOG, and end with the ten slowest tests and the wall time, so that a
# slow new test is seen the day it lands (issue 33).  The exit status is
# bats'.  Extra bats options (a --filter-tags, say) come from BATS_OPTS.
log=$1
shift
start=$(date +%s)
rm -f "$log.status"
{ bats --timing $BATS_OPTS "$@"; echo $? > "$log.status"; } | tee "$log"
st=$(cat "$log.status" 2>/dev/null || echo 1)
rm -f "$log.status"
echo "slowest tests of this run (bats --timing; all of them in $log):"
sed -n 's/^\(not \)\{0,1\}ok [0-9]* \(.*\) in \([0-9]*\)ms$/\3 \2/p' "$log" |
    sort -rn | head -10 |
    awk '{ ms = $1; $1 = ""; printf "  %6.1f s %s\n", ms / 1000, substr($0, 2) }'
echo "bats: $# files in $(( $(date +%s) - start )) s"
exit "$st"
