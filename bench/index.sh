#!/bin/bash
# index.sh [--quick] -- what the archive's index (spec 6.8) buys and costs.
#
# On an archive of many files (default 2 GiB: 2,048 files of 1 MiB, half
# random bytes and half text, as a backup mixes media and documents,
# plus 8,000 small text files), in the same run:
#   -t from the index            against  -t --no-index (a full read)
#   -x of one 1 MiB member from  against  the same with --no-index
#      the middle
#   -c with the index            against  -c --no-index: time and bytes
# Each timing is the median of ROUNDS (default 3) interleaved rounds, with
# the min-max range, and the ratio is taken within the run (this machine
# is shared and noisy).  Bytes read are counted from the read and pread
# calls (strace, in a separate untimed run).  The archive lives on tmpfs
# (/dev/shm) when there is one, so the disk's own noise stays out; the
# index's gain on a real disk is larger, not smaller.
#
# Not a test: it asserts nothing.  --quick: 64 MiB, one round.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-3}
BIG=2048 SMALL=8000
if [ "${1:-}" = --quick ]; then
	BIG=64 SMALL=500 ROUNDS=1
fi
for t in strace bc /usr/bin/time; do
	command -v "$t" > /dev/null || { echo "index.sh: needs $t (apt-get install strace bc time)" >&2; exit 1; }
done
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
W=$(mktemp -d "$BASE/aescrypt-index.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

mkdir -p "$W/src/big" "$W/src/small"
seq 1 200000 > "$W/text"
for i in $(seq -w 1 "$BIG"); do
	if [ $((10#$i % 2)) -eq 0 ]; then
		head -c 1048576 /dev/urandom > "$W/src/big/f$i"
	else
		# text that differs from file to file
		{ echo "$i"; cat "$W/text"; } > "$W/src/big/f$i"
		truncate -s 1048576 "$W/src/big/f$i"
	fi
done
(cd "$W/src/small" && seq -f 'note-%05g.txt' 1 "$SMALL" | while read -r f; do
	echo "$f: some text" > "$f"; done)
"$A" --gen-key "$W/k" 2> /dev/null
K=(-k "$W/k" -q)
MID=src/big/f$(printf "%0${#BIG}d" $((BIG / 2)))

# (time1 and med: bench/corpus.sh)
. bench/corpus.sh

# create NAME OUT ARGS...: time -c into OUT, made fresh (untimed: tmpfs
# frees a replaced 2 GiB file inside the rename).
create() {
	local name=$1 out=$2
	shift 2
	rm -f "$out"
	sync
	time1 "$name" "$A" -c "${K[@]}" -1 "$@" -f "$out" -C "$W" src
	# and its CPU time, which the noise of a shared machine moves less
	rm -f "$out"
	/usr/bin/time -f "%U %S" -o "$W/cpu" "$A" -c "${K[@]}" -1 "$@" \
	    -f "$out" -C "$W" src
	echo "$name-cpu $(awk '{print $1 + $2}' "$W/cpu")" >> "$W/times"
}

: > "$W/times"
for r in $(seq 1 "$ROUNDS"); do
	# the two in turn, each first every other round
	if [ $((r % 2)) -eq 1 ]; then
		create "create" "$W/a.aes"
		create "create --no-index" "$W/b.aes" --no-index
	else
		create "create --no-index" "$W/b.aes" --no-index
		create "create" "$W/a.aes"
	fi
	time1 "-t" "$A" -t "${K[@]}" -f "$W/a.aes"
	time1 "-t --no-index" "$A" -t "${K[@]}" --no-index -f "$W/a.aes"
	rm -rf "$W/x" && mkdir "$W/x"
	time1 "-x one member" "$A" -x "${K[@]}" -f "$W/a.aes" -C "$W/x" "$MID"
	rm -rf "$W/x" && mkdir "$W/x"
	time1 "-x one member --no-index" "$A" -x "${K[@]}" --no-index -f "$W/a.aes" -C "$W/x" "$MID"
	cmp "$W/x/$MID" "$W/$MID"
done

# read_bytes CMD...: bytes the command read (read and pread calls).
read_bytes() {
	strace -f -e trace=read,pread64 -o "$W/strace" "$@" > /dev/null 2>&1
	awk -F'= ' '/^[0-9]+ +(read|pread64)\(/ && $NF+0 > 0 { s += $NF } END { print s + 0 }' "$W/strace"
}

m() { med "$1" | cut -d' ' -f1; }

size=$(stat -c %s "$W/a.aes")
nsize=$(stat -c %s "$W/b.aes")
files=$("$A" -t "${K[@]}" -f "$W/a.aes" | wc -l)
rt=$(read_bytes "$A" -t "${K[@]}" -f "$W/a.aes")
rtn=$(read_bytes "$A" -t "${K[@]}" --no-index -f "$W/a.aes")
rm -rf "$W/x" && mkdir "$W/x"
rx=$(read_bytes "$A" -x "${K[@]}" -f "$W/a.aes" -C "$W/x" "$MID")

echo "aescrypt index benchmark: $(date +%F), $(nproc) CPUs, archive on $BASE"
echo "archive: $files members, $size bytes ($ROUNDS round(s); median (min-max) seconds)"
printf '%-28s %s\n' "create (index)" "$(med create)"
printf '%-28s %s\n' "create --no-index" "$(med 'create --no-index')"
printf '%-28s %s\n' "create CPU s (index)" "$(med create-cpu)"
printf '%-28s %s\n' "create CPU s --no-index" "$(med 'create --no-index-cpu')"
printf '%-28s %s\n' "-t (index)" "$(med -t)"
printf '%-28s %s\n' "-t --no-index" "$(med '-t --no-index')"
printf '%-28s %s\n' "-x $MID (index)" "$(med '-x one member')"
printf '%-28s %s\n' "-x ... --no-index" "$(med '-x one member --no-index')"
echo "-- ratios (targets of issue 18; since issue 35, -t reads the index and"
echo "   the last chunk, and -x checks each member against the index before"
echo "   it writes; bench/list.sh compares -t with a peer too) --"
echo "-t: $(echo "scale=1; $(m '-t --no-index') / $(m -t)" | bc)x faster with the index (target >= 50x); read $rt of $size bytes: $(echo "scale=3; 100 * $rt / $size" | bc)%; without: $rtn"
echo "-x one 1 MiB member: $(echo "scale=1; $(m '-x one member --no-index') / $(m '-x one member')" | bc)x faster (target >= 50x); read $rx bytes"
echo "create: index costs $(echo "scale=2; 100 * ($(m create) - $(m 'create --no-index')) / $(m 'create --no-index')" | bc)% wall time, $(echo "scale=2; 100 * ($(m create-cpu) - $(m 'create --no-index-cpu')) / $(m 'create --no-index-cpu')" | bc)% CPU time (target <= 2%), $(echo "scale=3; 100 * ($size - $nsize) / $nsize" | bc)% bytes (target <= 0.5%)"
