#!/bin/bash
# peers.sh [--quick] -- aescrypt against the tools people use instead.
#
# Times, in the same run and on the same inputs, aescrypt -e / -d and:
#   pigz -p N | age -r KEY   and   age -d | pigz -d    (the pipeline we replace)
#   gpg --symmetric (AES256, zlib)
#   7zz a -tzip -mem=AES256
#   cat > /dev/null                                   (the I/O floor)
# Inputs: /usr/include and /usr/share/doc packed as one tar stream (made
# once, before timing, so tar's own cost is not in any row), and 256 MB
# of random bytes.  Every command runs once per round, the rounds are
# interleaved, and the median of ROUNDS (default 3) is reported, because
# this machine is shared and noisy: the ratios, taken within one run, are
# the numbers to read.  It prints wall and CPU seconds, output size,
# MB/s of input per wall second, and each target ratio.
#
# aescrypt writes to standard output like the peers do; the "-o (fsync)"
# row shows what -o's durability (fsync, then rename) adds.
#
# Not a test: it asserts nothing.  --quick uses small inputs and one
# round, to check that the script still runs.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-3}
N=$(nproc)
QUICK=0
[ "${1:-}" = --quick ] && QUICK=1 && ROUNDS=1

for t in pigz age age-keygen gpg 7zz; do
	command -v "$t" >/dev/null || {
		echo "peers.sh: $t is missing (apt-get install pigz age gnupg 7zip)" >&2
		exit 1
	}
done

W=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-peers.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

if [ "$QUICK" = 1 ]; then
	tar -cf "$W/tree" -C / usr/include/linux 2>/dev/null
	head -c 16000000 /dev/urandom > "$W/random"
else
	tar -cf "$W/tree" -C / usr/include usr/share/doc 2>/dev/null || true
	head -c 256000000 /dev/urandom > "$W/random"
fi
"$A" --gen-key "$W/k" 2>/dev/null
age-keygen -o "$W/age.key" 2>/dev/null
R=$(grep -o 'age1[0-9a-z]*' "$W/age.key")
echo "bench passphrase" > "$W/pw"
export GNUPGHOME="$W/gnupg"
mkdir -m 700 "$GNUPGHOME"
GPG=(gpg --batch --yes --quiet --pinentry-mode loopback --passphrase-file "$W/pw")

# The cases: "name::command", the command reading $IN and writing $OUT.
# Decryption cases are "name::encryption case::command": they read the
# output of that encryption case.
ENC=(
	"aescrypt -e -1::$A -e -k $W/k -1 -j $N \$IN > \$OUT"
	"aescrypt -e -6::$A -e -k $W/k -6 -j $N \$IN > \$OUT"
	"aescrypt -e -6 -j1::$A -e -k $W/k -6 -j 1 \$IN > \$OUT"
	"aescrypt -e -6 --no-hw::$A -e -k $W/k -6 -j $N --no-hw \$IN > \$OUT"
	"aescrypt -e -6 -o (fsync)::$A -e -k $W/k -6 -j $N -o \$OUT \$IN"
	"aescrypt -e -0::$A -e -k $W/k -0 -j $N \$IN > \$OUT"
	"aescrypt -e -0 > /dev/null::$A -e -k $W/k -0 -j $N \$IN > /dev/null; : > \$OUT"
	"pigz -1 | age::pigz -1 -p $N < \$IN | age -r $R > \$OUT"
	"pigz -6 | age::pigz -6 -p $N < \$IN | age -r $R > \$OUT"
	"pigz -6 (no encryption)::pigz -6 -p $N < \$IN > \$OUT"
	"gpg -c AES256 zlib::${GPG[*]} --symmetric --cipher-algo AES256 --compress-algo zlib -o \$OUT \$IN"
	"7zz zip AES256::rm -f \$OUT.zip; 7zz a -tzip -mem=AES256 -mx=6 -mmt=$N -p\"\$(cat $W/pw)\" \$OUT.zip \$IN > /dev/null && mv \$OUT.zip \$OUT"
	"cat > /dev/null::cat \$IN > /dev/null; : > \$OUT"
)
DEC=(
	"aescrypt -d::aescrypt -e -6::$A -d -k $W/k -j $N -o /dev/null \$IN"
	"aescrypt -d -j1::aescrypt -e -6::$A -d -k $W/k -j 1 -o /dev/null \$IN"
	"aescrypt -d --no-hw::aescrypt -e -6::$A -d -k $W/k -j $N --no-hw -o /dev/null \$IN"
	"age -d | pigz -d::pigz -6 | age::age -d -i $W/age.key \$IN | pigz -d > /dev/null"
	"gpg -d::gpg -c AES256 zlib::${GPG[*]} -d -o /dev/null \$IN"
	"7zz x::7zz zip AES256::7zz x -so -p\"\$(cat $W/pw)\" \$IN > /dev/null"
)

TIMEFORMAT='%R %U %S'
slug() { echo "$1" | tr -c 'a-zA-Z0-9' '_'; }

# run DATA NAME CMD IN OUT: time one command, append "NAME wall cpu" to
# the data set's raw file.
run() {
	local data=$1 name=$2 cmd=$3 t
	export IN=$4 OUT=$5
	# A command that fails is reported and left out of the medians.
	t=$( { time bash -c "$cmd" >/dev/null 2>"$W/last.err"; } 2>&1 | tail -1) || {
		echo "peers.sh: $name ($data) failed: $(tail -2 "$W/last.err")" >&2
		return 0
	}
	printf '%s\t%s\n' "$name" "$(echo "$t" | awk '{printf "%.4f %.4f", $1, $2 + $3}')" >> "$W/$data.raw"
}

for r in $(seq 1 "$ROUNDS"); do
	for data in tree random; do
		for c in "${ENC[@]}"; do
			name=${c%%::*}
			run "$data" "$name" "${c#*::}" "$W/$data" "$W/$data.$(slug "$name")"
		done
		for c in "${DEC[@]}"; do
			name=${c%%::*}; rest=${c#*::}; src=${rest%%::*}
			run "$data" "$name" "${rest#*::}" "$W/$data.$(slug "$src")" /dev/null
		done
	done
done

# median NAME DATA FIELD(1 wall, 2 cpu)
median() {
	awk -F'\t' -v n="$1" '$1 == n {print $2}' "$W/$2.raw" | awk -v f="$3" '{print $f}' |
	    sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
mbs() { awk -v b="$1" -v s="$2" 'BEGIN {printf "%.1f", b / 1e6 / s}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f", a / b}'; }
ratio3() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.4f", a / b}'; }

echo "aescrypt peers benchmark: $(date -u +%Y-%m-%d), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "$ROUNDS round(s), medians; MB/s = input MB per wall second"
for data in tree random; do
	size=$(stat -c %s "$W/$data")
	echo
	echo "== $data: $size bytes =="
	printf '%-26s %8s %8s %12s %9s\n' case "wall s" "CPU s" "out bytes" "MB/s"
	for c in "${ENC[@]}" "${DEC[@]}"; do
		name=${c%%::*}
		w=$(median "$name" "$data" 1); u=$(median "$name" "$data" 2)
		if [ -z "$w" ]; then
			printf '%-26s %8s\n' "$name" failed
			continue
		fi
		out="-"
		f="$W/$data.$(slug "$name")"
		[ -f "$f" ] && [[ $name != *"/dev/null"* ]] && out=$(stat -c %s "$f")
		# decryption rows: MB/s of plaintext produced, the same size
		printf '%-26s %8.3f %8.3f %12s %9s\n' "$name" "$w" "$u" "$out" "$(mbs "$size" "$w")"
	done
	e6=$(median "aescrypt -e -6" "$data" 1); pa=$(median "pigz -6 | age" "$data" 1)
	d=$(median "aescrypt -d" "$data" 1); ad=$(median "age -d | pigz -d" "$data" 1)
	j1=$(median "aescrypt -e -6 -j1" "$data" 1)
	e0=$(median "aescrypt -e -0 > /dev/null" "$data" 1); cat0=$(median "cat > /dev/null" "$data" 1)
	sa=$(stat -c %s "$W/$data.$(slug "aescrypt -e -6")"); sp=$(stat -c %s "$W/$data.$(slug "pigz -6 (no encryption)")")
	echo "-- targets ($data) --"
	echo "aescrypt -e -6 / pigz -6 | age     throughput $(ratio "$pa" "$e6")x   (target >= 1.0x)"
	echo "aescrypt -e -6 size / pigz -6 size          $(ratio3 "$sa" "$sp")x   (target <= 1.01x)"
	echo "aescrypt -d / age -d | pigz -d     throughput $(ratio "$ad" "$d")x   (target >= 1.8x)"
	echo "aescrypt -e -6 -j$N / -j1           throughput $(ratio "$j1" "$e6")x   (target >= 1.8x on 2 cores)"
	echo "aescrypt -e -0 / cat, both > /dev/null     $(ratio "$cat0" "$e0")x   (target >= 0.5x, random data)"
done
