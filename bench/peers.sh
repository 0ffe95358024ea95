#!/bin/bash
# peers.sh [--quick] -- aescrypt against the tools people use instead.
#
# Times, in the same run and on the same inputs, aescrypt and:
#   tar | pigz -p N | age -r KEY, age -d | pigz -d | tar x (the pipeline
#   we replace), gpg --symmetric (AES256, zlib), 7zz a -tzip -mem=AES256,
#   plain tar x, and cat > /dev/null (the I/O floor); and, where zstd is
#   installed and aescrypt has the codec, aescrypt --zstd against
#   tar | zstd -3 -T N | age and age -d | zstd -d | tar x.
# aescrypt runs with each DEFLATE engine built in (libdeflate, zlib) and
# with --no-hw, so the engines and the cipher tiers sit side by side.
#
# Inputs: /usr/include and /usr/share/doc, as a directory tree (for -c
# and tar c) and packed once as one tar stream (for -e, made before
# timing so tar's own cost is not in those rows), and 256 MB of random
# bytes.  Extraction is timed into tmpfs (/dev/shm) and into the working
# disk ($TMPDIR), because ext4 here swings 5x from run to run.
#
# Every command runs once per round, the rounds are interleaved, and the
# median of ROUNDS (default 3) is reported, with the min-max range:
# this machine is shared and noisy, so the ratios, taken within one run,
# are the numbers to read.  Rows give wall and CPU seconds, peak RSS,
# output size, and MB/s of input per wall second; the targets of issues
# 14 and 23 follow, each as a ratio.
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

for t in pigz age age-keygen gpg 7zz tar /usr/bin/time; do
	command -v "$t" >/dev/null || {
		echo "peers.sh: $t is missing (apt-get install pigz age gnupg 7zip tar time)" >&2
		exit 1
	}
done

W=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-peers.XXXXXX")
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	SHM=$(mktemp -d /dev/shm/aescrypt-peers.XXXXXX)
else
	SHM=$W/no-tmpfs
	mkdir "$SHM"
fi
trap 'rm -rf "$W" "$SHM"' EXIT INT TERM

if [ "$QUICK" = 1 ]; then
	TREE="usr/include/linux"
	head -c 16000000 /dev/urandom > "$W/random"
else
	TREE="usr/include usr/share/doc"
	head -c 256000000 /dev/urandom > "$W/random"
fi
# shellcheck disable=SC2086
tar -cf "$W/tree" -C / $TREE 2>/dev/null || true
"$A" --gen-key "$W/k" 2>/dev/null
age-keygen -o "$W/age.key" 2>/dev/null
R=$(grep -o 'age1[0-9a-z]*' "$W/age.key")
echo "bench passphrase" > "$W/pw"
export GNUPGHOME="$W/gnupg"
mkdir -m 700 "$GNUPGHOME"
GPG=(gpg --batch --yes --quiet --pinentry-mode loopback --passphrase-file "$W/pw")
ENGINES=(libdeflate zlib)
"$A" --version | grep -q 'deflate engine: libdeflate' || ENGINES=(zlib)
AK="$A -k $W/k -q"
ZSTD=0
command -v zstd >/dev/null && "$A" --version | grep -q '^libzstd' && ZSTD=1
[ "$ZSTD" = 1 ] || echo "peers.sh: no zstd rows (install zstd; aescrypt needs libzstd-dev at build time)" >&2

# The cases: "name::command", reading $IN and writing $OUT.  Decryption
# and extraction cases are "name::source case::command": they read the
# output of that case ("=tree" is the plain tar).  $XD is an empty
# directory to extract into, made fresh (untimed) before each command.
ENC=()
DEC=()
for e in "${ENGINES[@]}"; do
	ENC+=("aescrypt -e -6 $e::$AK -e --deflate $e -6 -j $N \$IN > \$OUT"
	      "aescrypt -e -1 $e::$AK -e --deflate $e -1 -j $N \$IN > \$OUT"
	      "aescrypt -e -6 -j1 $e::$AK -e --deflate $e -6 -j 1 \$IN > \$OUT")
	DEC+=("aescrypt -d $e::aescrypt -e -6 $e::$AK -d --deflate $e -j $N -o /dev/null \$IN"
	      "aescrypt -d -j1 $e::aescrypt -e -6 $e::$AK -d --deflate $e -j 1 -o /dev/null \$IN")
done
ENC+=(
	"aescrypt -e -6 --no-hw::$AK -e -6 -j $N --no-hw \$IN > \$OUT"
	"aescrypt -e -6 -o (fsync)::$AK -e -6 -j $N -o \$OUT \$IN"
	"aescrypt -e -0::$AK -e -0 -j $N \$IN > \$OUT"
	"aescrypt -e -0 > /dev/null::$AK -e -0 -j $N \$IN > /dev/null; : > \$OUT"
	"aescrypt -e -6 > /dev/null::$AK -e -6 -j $N \$IN > /dev/null; : > \$OUT"
	"pigz -1 | age::pigz -1 -p $N < \$IN | age -r $R > \$OUT"
	"pigz -6 | age::pigz -6 -p $N < \$IN | age -r $R > \$OUT"
	"pigz -6 (no encryption)::pigz -6 -p $N < \$IN > \$OUT"
	"gpg -c AES256 zlib::${GPG[*]} --symmetric --cipher-algo AES256 --compress-algo zlib -o \$OUT \$IN"
	"7zz zip AES256::rm -f \$OUT.zip; 7zz a -tzip -mem=AES256 -mx=6 -mmt=$N -p\"\$(cat $W/pw)\" \$OUT.zip \$IN > /dev/null && mv \$OUT.zip \$OUT"
	"cat > /dev/null::cat \$IN > /dev/null; : > \$OUT"
)
DEC+=(
	"aescrypt -d --no-hw::aescrypt -e -6 ${ENGINES[0]}::$AK -d -j $N --no-hw -o /dev/null \$IN"
	"age -d | pigz -d::pigz -6 | age::age -d -i $W/age.key \$IN | pigz -d > /dev/null"
	"gpg -d::gpg -c AES256 zlib::${GPG[*]} -d -o /dev/null \$IN"
	"7zz x::7zz zip AES256::7zz x -so -p\"\$(cat $W/pw)\" \$IN > /dev/null"
)
# The tree as a directory: -c against tar c, then -x against tar x.
CRE=()
for e in "${ENGINES[@]}"; do
	CRE+=("aescrypt -c -6 $e::$AK -c --deflate $e -6 -j $N -C / $TREE > \$OUT"
	      "aescrypt -c -6 -j1 $e::$AK -c --deflate $e -6 -j 1 -C / $TREE > \$OUT")
done
CRE+=(
	"aescrypt -c -6 --no-hw::$AK -c -6 -j $N --no-hw -C / $TREE > \$OUT"
	"tar c | pigz -6 | age::tar -cf - -C / $TREE 2>/dev/null | pigz -6 -p $N | age -r $R > \$OUT"
	"tar c | pigz -6::tar -cf - -C / $TREE 2>/dev/null | pigz -6 -p $N > \$OUT"
)
EXT=()
for place in tmpfs disk; do
	EXT+=("aescrypt -x ($place)::aescrypt -c -6 ${ENGINES[0]}::$AK -x -j $N -f \$IN -C \$XD"
	      "age -d | pigz -d | tar x ($place)::tar c | pigz -6 | age::age -d -i $W/age.key \$IN | pigz -d | tar -xf - -C \$XD"
	      "tar x ($place)::=tree::tar -xf \$IN -C \$XD")
done
# zstd (issue 23): aescrypt's default level against zstd's (-3), which
# is what a user of tar --zstd gets.
if [ "$ZSTD" = 1 ]; then
	ENC+=("aescrypt -e --zstd::$AK -e --zstd -j $N \$IN > \$OUT"
	      "zstd -3 | age::zstd -3 -T$N -q -c < \$IN | age -r $R > \$OUT"
	      "zstd -3 (no encryption)::zstd -3 -T$N -q -c < \$IN > \$OUT")
	DEC+=("aescrypt -d --zstd::aescrypt -e --zstd::$AK -d -j $N -o /dev/null \$IN"
	      "age -d | zstd -d::zstd -3 | age::age -d -i $W/age.key \$IN | zstd -d -q > /dev/null")
	CRE+=("aescrypt -c --zstd::$AK -c --zstd -j $N -C / $TREE > \$OUT"
	      "tar c | zstd -3 | age::tar -cf - -C / $TREE 2>/dev/null | zstd -3 -T$N -q | age -r $R > \$OUT"
	      "tar c | zstd -3::tar -cf - -C / $TREE 2>/dev/null | zstd -3 -T$N -q > \$OUT")
	for place in tmpfs disk; do
		EXT+=("aescrypt -x --zstd ($place)::aescrypt -c --zstd::$AK -x -j $N -f \$IN -C \$XD"
		      "age -d | zstd -d | tar x ($place)::tar c | zstd -3 | age::age -d -i $W/age.key \$IN | zstd -d -q | tar -xf - -C \$XD")
	done
fi

slug() { echo "$1" | tr -c 'a-zA-Z0-9' '_'; }

# run DATA NAME CMD IN OUT: time one command, append "NAME wall cpu rss"
# to the data set's raw file.
run() {
	local data=$1 name=$2 cmd=$3 t
	export IN=$4 OUT=$5 XD
	case $name in
	*"(tmpfs)"*) XD=$SHM/x ;;
	*) XD=$W/x ;;
	esac
	rm -rf "$XD" && mkdir "$XD"
	# Write back what the last command left dirty (a disk extraction
	# leaves 250 MB), untimed: the kernel's flusher threads otherwise
	# take a core from the next command, and on two cores that made
	# -x on tmpfs 2.5x tar x here, against 1.2x when run alone.
	sync
	# A command that fails is reported and left out of the medians.
	if ! /usr/bin/time -f '%e %U %S %M' -o "$W/last.time" bash -c "$cmd" \
	    >/dev/null 2>"$W/last.err"; then
		echo "peers.sh: $name ($data) failed: $(tail -2 "$W/last.err")" >&2
		return 0
	fi
	t=$(tail -1 "$W/last.time")
	printf '%s\t%s\n' "$name" "$(echo "$t" | awk '{printf "%.4f %.4f %d", $1, $2 + $3, $4}')" >> "$W/$data.raw"
}

src_of() {     # the file a decryption or extraction case reads
	case $1 in
	=tree) echo "$W/tree" ;;
	*) echo "$W/$2.$(slug "$1")" ;;
	esac
}

for r in $(seq 1 "$ROUNDS"); do
	for data in tree random; do
		for c in "${ENC[@]}"; do
			name=${c%%::*}
			run "$data" "$name" "${c#*::}" "$W/$data" "$W/$data.$(slug "$name")"
		done
		for c in "${DEC[@]}"; do
			name=${c%%::*}; rest=${c#*::}; src=${rest%%::*}
			run "$data" "$name" "${rest#*::}" "$(src_of "$src" "$data")" /dev/null
		done
	done
	for c in "${CRE[@]}"; do
		name=${c%%::*}
		run fs "$name" "${c#*::}" - "$W/fs.$(slug "$name")"
	done
	for c in "${EXT[@]}"; do
		name=${c%%::*}; rest=${c#*::}; src=${rest%%::*}
		run fs "$name" "${rest#*::}" "$(src_of "$src" fs)" /dev/null
	done
	rm -rf "$W/x" "$SHM/x"
done

# stat NAME DATA FIELD(1 wall, 2 cpu, 3 rss): "median min max"
stat3() {
	awk -F'\t' -v n="$1" '$1 == n {print $2}' "$W/$2.raw" | awk -v f="$3" '{print $f}' |
	    sort -n | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)], a[1], a[NR]}'
}
median() { stat3 "$@" | awk '{print $1}'; }
mbs() { awk -v b="$1" -v s="$2" 'BEGIN {printf "%.1f", b / 1e6 / s}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f", a / b}'; }
ratio3() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.4f", a / b}'; }
size_of() { local f="$W/$1.$(slug "$2")"; [ -f "$f" ] && stat -c %s "$f" || echo ""; }

echo "aescrypt peers benchmark: $(date -u +%Y-%m-%d), $N CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "$("$A" --version | grep 'deflate engine')"
echo "$ROUNDS round(s): median wall (min-max), CPU, peak RSS; MB/s = input MB per wall second"

table() {     # table DATA SIZE CASES...
	local data=$1 size=$2 c name s w u m out
	shift 2
	printf '%-36s %18s %8s %8s %12s %9s\n' case "wall s (range)" "CPU s" "RSS MB" "out bytes" "MB/s"
	for c in "$@"; do
		name=${c%%::*}
		s=$(stat3 "$name" "$data" 1)
		if [ -z "$s" ]; then
			printf '%-36s %18s\n' "$name" failed
			continue
		fi
		w=${s%% *}
		u=$(median "$name" "$data" 2); m=$(median "$name" "$data" 3)
		out=$(size_of "$data" "$name")
		[[ $name == *"/dev/null"* || -z $out ]] && out="-"
		printf '%-36s %18s %8.3f %8.1f %12s %9s\n' "$name" \
		    "$(echo "$s" | awk '{printf "%.3f (%.2f-%.2f)", $1, $2, $3}')" \
		    "$u" "$(awk -v k="$m" 'BEGIN {print k / 1024}')" "$out" "$(mbs "$size" "$w")"
	done
}

E=${ENGINES[0]}
for data in tree random; do
	size=$(stat -c %s "$W/$data")
	echo
	echo "== $data: $size bytes =="
	table "$data" "$size" "${ENC[@]}" "${DEC[@]}"
	e6=$(median "aescrypt -e -6 $E" "$data" 1); pa=$(median "pigz -6 | age" "$data" 1)
	d=$(median "aescrypt -d $E" "$data" 1); ad=$(median "age -d | pigz -d" "$data" 1)
	j1=$(median "aescrypt -e -6 -j1 $E" "$data" 1); dj1=$(median "aescrypt -d -j1 $E" "$data" 1)
	e0=$(median "aescrypt -e -0 > /dev/null" "$data" 1); cat0=$(median "cat > /dev/null" "$data" 1)
	e0w=$(median "aescrypt -e -0" "$data" 1)
	sa=$(size_of "$data" "aescrypt -e -6 $E"); sp=$(size_of "$data" "pigz -6 (no encryption)")
	echo "-- targets ($data, engine $E) --"
	echo "aescrypt -e -6 / pigz -6 | age     throughput $(ratio "$pa" "$e6")x   (target >= 2.0x)"
	echo "aescrypt -e -6 size / pigz -6 size          $(ratio3 "$sa" "$sp")x   (target <= 1.0x)"
	echo "aescrypt -d / age -d | pigz -d     throughput $(ratio "$ad" "$d")x   (target >= 4x)"
	echo "aescrypt -e -6 -j$N / -j1           throughput $(ratio "$j1" "$e6")x   (target >= 1.8x on 2 cores)"
	echo "aescrypt -d -j$N / -j1              throughput $(ratio "$dj1" "$d")x   (target >= 1.8x on 2 cores)"
	e6n=$(median "aescrypt -e -6 > /dev/null" "$data" 1)
	echo "aescrypt -e -6 / aescrypt -e -0    throughput $(ratio "$e0w" "$e6")x   (target >= 0.5x, random data)"
	echo "the same, both > /dev/null         throughput $(ratio "$e0" "$e6n")x   (target >= 0.7x, random data)"
	echo "aescrypt -e -0 / cat, both > /dev/null     $(ratio "$cat0" "$e0")x"
	if [ "${#ENGINES[@]}" -gt 1 ]; then
		ez=$(median "aescrypt -e -6 zlib" "$data" 1); dz=$(median "aescrypt -d zlib" "$data" 1)
		echo "engines: -e -6 libdeflate / zlib throughput $(ratio "$ez" "$e6")x, -d $(ratio "$dz" "$d")x"
	fi
	if [ "$ZSTD" = 1 ]; then
		ez=$(median "aescrypt -e --zstd" "$data" 1); za=$(median "zstd -3 | age" "$data" 1)
		dz=$(median "aescrypt -d --zstd" "$data" 1); zd=$(median "age -d | zstd -d" "$data" 1)
		sz=$(size_of "$data" "aescrypt -e --zstd"); sp=$(size_of "$data" "zstd -3 (no encryption)")
		echo "aescrypt -e --zstd / zstd -3 | age throughput $(ratio "$za" "$ez")x"
		echo "aescrypt -e --zstd size / zstd -3 size      $(ratio3 "$sz" "$sp")x   (target <= 1.02x)"
		echo "aescrypt -d --zstd / age -d | zstd -d       $(ratio "$zd" "$dz")x   (target >= 2x)"
		echo "aescrypt -e --zstd peak RSS            $(awk -v k="$(median "aescrypt -e --zstd" "$data" 3)" 'BEGIN {printf "%.1f", k / 1024}') MB   (target <= 128 MiB)"
	fi
done

size=$(stat -c %s "$W/tree")
echo
echo "== the tree as files: $TREE ($size bytes as tar) =="
table fs "$size" "${CRE[@]}" "${EXT[@]}"
c6=$(median "aescrypt -c -6 $E" fs 1); tpa=$(median "tar c | pigz -6 | age" fs 1)
cj1=$(median "aescrypt -c -6 -j1 $E" fs 1)
sc=$(size_of fs "aescrypt -c -6 $E"); stp=$(size_of fs "tar c | pigz -6")
echo "-- targets (files, engine $E) --"
echo "aescrypt -c -6 / tar c | pigz -6 | age  throughput $(ratio "$tpa" "$c6")x   (target >= 2.0x)"
echo "aescrypt -c -6 size / tar c | pigz -6 size      $(ratio3 "$sc" "$stp")x   (target <= 1.0x)"
echo "aescrypt -c -6 -j$N / -j1                throughput $(ratio "$cj1" "$c6")x   (target >= 1.8x on 2 cores)"
for place in tmpfs disk; do
	x=$(median "aescrypt -x ($place)" fs 1); ax=$(median "age -d | pigz -d | tar x ($place)" fs 1)
	tx=$(median "tar x ($place)" fs 1)
	echo "aescrypt -x / age | pigz | tar x ($place) throughput $(ratio "$ax" "$x")x   (target >= 2.0x)"
	echo "aescrypt -x time / plain tar x ($place)           $(ratio "$x" "$tx")x   (target <= 1.3x)"
done
if [ "$ZSTD" = 1 ]; then
	cz=$(median "aescrypt -c --zstd" fs 1); tza=$(median "tar c | zstd -3 | age" fs 1)
	scz=$(size_of fs "aescrypt -c --zstd"); stz=$(size_of fs "tar c | zstd -3")
	echo "-- targets (files, zstd) --"
	echo "aescrypt -c --zstd / tar c | zstd -3 | age  throughput $(ratio "$tza" "$cz")x   (target >= 1.3x)"
	echo "aescrypt -c --zstd size / tar c | zstd -3 size      $(ratio3 "$scz" "$stz")x   (target <= 1.02x)"
	echo "aescrypt -c --zstd peak RSS             $(awk -v k="$(median "aescrypt -c --zstd" fs 3)" 'BEGIN {printf "%.1f", k / 1024}') MB   (target <= 128 MiB)"
	for place in tmpfs disk; do
		x=$(median "aescrypt -x --zstd ($place)" fs 1); ax=$(median "age -d | zstd -d | tar x ($place)" fs 1)
		tx=$(median "tar x ($place)" fs 1)
		echo "aescrypt -x --zstd / age | zstd -d | tar x ($place) $(ratio "$ax" "$x")x   (target >= 1.5x)"
		echo "aescrypt -x --zstd time / plain tar x ($place)     $(ratio "$x" "$tx")x   (target <= 1.2x)"
	done
fi
