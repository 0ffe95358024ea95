#!/bin/bash
# versus.sh [--quick] OLD NEW -- one aescrypt binary against another, in
# the same run: -c, -t, -x (into tmpfs), -e and -d on the same inputs,
# each command once per round, the rounds interleaved, the median of
# ROUNDS (default 6: an even number, as the order alternates) reported
# with its range and the ratio NEW/OLD.
# OLD is typically the landed tree's build (git worktree add /tmp/old
# REV && cd /tmp/old && ./configure && make), NEW this tree's.
#
# With MINITAR set (a build of examples/minitar.c), two rows more set
# the library's own writer and extractor (aescrypt_writer_add_path,
# aescrypt_reader_extract: the "new" column) against NEW's -c and -x
# (the "old" column) on the tree's first folder (minitar takes one).
#
# Inputs: /usr/include and /usr/share/doc as a tree, and the same packed
# once as a tar stream for -e.  Everything is written to tmpfs
# (/dev/shm): this machine's ext4 swings 5x, which would hide the
# difference asked about.  Not a test: it asserts nothing.  --quick
# uses /usr/include/linux and one round, to check the script runs.
set -euo pipefail
QUICK=0
[ "${1:-}" = --quick ] && QUICK=1 && shift
[ $# -eq 2 ] || { echo "usage: versus.sh [--quick] OLD NEW" >&2; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2")
ROUNDS=${ROUNDS:-6}
[ "$QUICK" = 1 ] && ROUNDS=1
if [ "$QUICK" = 1 ]; then TREE="usr/include/linux"; else TREE="usr/include usr/share/doc"; fi
base=/dev/shm
[ -d /dev/shm ] && [ -w /dev/shm ] || base=${TMPDIR:-/tmp}
W=$(mktemp -d "$base/aescrypt-versus.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
# shellcheck disable=SC2086
tar -cf "$W/tree.tar" -C / $TREE 2>/dev/null || true
"$NEW" --gen-key "$W/k" 2>/dev/null
chmod 600 "$W/k"

# The cases, "name::command"; $A is the binary; each writes only in $W.
CASES=(
	"-c::\$A -c -q -k $W/k -f $W/out.\$T.aes -C / $TREE"
	"-t::\$A -t -q -k $W/k -f $W/in.aes > /dev/null"
	"-x::rm -rf $W/x.\$T && mkdir $W/x.\$T && \$A -x -q -k $W/k -f $W/in.aes -C $W/x.\$T"
	"-e::\$A -e -q -k $W/k < $W/tree.tar > $W/e.\$T.aes"
	"-d::\$A -d -q -k $W/k -o /dev/null $W/in.e.aes"
)
"$NEW" -c -q -k "$W/k" -f "$W/in.aes" -C / $TREE
"$NEW" -e -q -k "$W/k" < "$W/tree.tar" > "$W/in.e.aes"
if [ -n "${MINITAR:-}" ]; then
	ONE=${TREE%% *}
	"$NEW" -c -q -k "$W/k" -f "$W/one.aes" -C / "$ONE"
	# "name::command of the old column::command of the new one"
	CASES+=("lib -c vs NEW -c::(cd / && $NEW -c -q -k $W/k -f $W/m.\$T.aes $ONE)::(cd / && $MINITAR -c $W/k $W/m.\$T.aes $ONE)"
	        "lib -x vs NEW -x::rm -rf $W/mx.\$T && mkdir $W/mx.\$T && $NEW -x -q -k $W/k -f $W/one.aes -C $W/mx.\$T::rm -rf $W/mx.\$T && mkdir $W/mx.\$T && $MINITAR -x $W/k $W/one.aes $W/mx.\$T")
fi

now() { date +%s%N; }
declare -A T
for ((r = 0; r < ROUNDS; r++)); do
	for c in "${CASES[@]}"; do
		name=${c%%::*} rest=${c#*::}
		# (who goes first alternates, and each run's output is removed
		# before the next: on -x the second of a pair ran 25-30% slower
		# whichever binary it was, the first one's tree still in tmpfs)
		order="old new"; [ $((r % 2)) = 1 ] && order="new old"
		for who in $order; do
			A=$OLD; [ "$who" = new ] && A=$NEW
			cmd=$rest
			case $rest in
			*::*) if [ "$who" = old ]; then cmd=${rest%%::*}; else cmd=${rest#*::}; fi ;;
			esac
			export A T=$who
			t0=$(now)
			bash -c "$cmd" 2>/dev/null || { echo "versus.sh: '$name' failed with $who" >&2; exit 1; }
			T[$name.$who]+="$(( ($(now) - t0) / 1000000 )) "
			# (untimed: what a run made goes before the next runs)
			rm -rf "$W"/x.* "$W"/mx.* "$W"/out.* "$W"/e.* "$W"/m.*
		done
	done
done
med() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)], v[1], v[NR]}'; }
printf '%-22s %14s %14s %8s\n' case "old ms (range)" "new ms (range)" new/old
for c in "${CASES[@]}"; do
	name=${c%%::*}
	read -r mo lo ho <<< "$(echo "${T[$name.old]}" | med)"
	read -r mn ln hn <<< "$(echo "${T[$name.new]}" | med)"
	printf '%-22s %5d (%d-%d) %5d (%d-%d) %8.2f\n' "$name" "$mo" "$lo" "$ho" "$mn" "$ln" "$hn" \
	    "$(echo "scale=3; $mn / ($mo + (${mo} == 0))" | bc)"
done
echo "($ROUNDS rounds, interleaved; tree: $TREE, $(du -sh "$W/tree.tar" | cut -f1) as tar; on $base)"
