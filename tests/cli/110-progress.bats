#!/usr/bin/env bats
# The progress line: on a terminal (under script(1)) once a job has run
# a second, with bytes, rate, elapsed time, ETA when the total is known,
# and the member for archives; never when stderr is not a terminal
# unless --progress; never with -q.

load test_helper

# The 64 MB input is made once for the file (it was a second of every
# test's setup) and linked into each test's src/.
setup_file() {
	seq 1 9000000 | head -c 64000000 > "$BATS_FILE_TMPDIR/big.bin"
}

setup() {
	test_dir || return 1
	export AESCRYPT_PASSPHRASE=progress
	mkdir src
	ln "$BATS_FILE_TMPDIR/big.bin" src/big.bin 2> /dev/null ||
	    cp "$BATS_FILE_TMPDIR/big.bin" src/big.bin
}

# The line waits a second before it shows, so a job must outlast that
# whatever the machine's speed: SLOW_OUT is a consumer that reads the
# archive only after two seconds, so the writer blocks on the full pipe
# and the job takes at least that long.  (A timing of the compression,
# as this file used, breaks when a faster engine or machine comes.)
SLOW_OUT="{ sleep 2; cat > a.aes; }"

# on_tty CMD: run the shell command CMD with a terminal for its stdio;
# what the terminal showed is in tty.log, with CRs as newlines.
on_tty() {
	script -qec "$1" /dev/null > tty.raw 2>&1
	tr '\r' '\n' < tty.raw > tty.log
}

@test "on a terminal: bytes, total, share, rate, elapsed, ETA and the member" {
	on_tty "'$AESCRYPT' -c -1 -j1 ${FAST_KDF[*]} -f - src | $SLOW_OUT"
	# (while the consumer sleeps, the count can still be in KiB, or
	# the rate in B/s: which line the ticker drew when is timing)
	grep -E '^[0-9.]+ (B|KiB|MiB) of 61\.0 MiB \([0-9]+%\), [0-9.]+ (B|KiB|MiB)/s, 0:0[0-9], ETA [0-9]+:[0-9]{2}  src/big\.bin' tty.log || {
		cat -A tty.log >&2
		return 1
	}
	# the line is erased at the end
	grep -q $'\033\\[K$' tty.raw
	run_aescrypt 0 -t -f a.aes
}

@test "-q turns it off on a terminal" {
	on_tty "'$AESCRYPT' -c -q -1 -j1 ${FAST_KDF[*]} -f - src | $SLOW_OUT"
	# no rate at all, in any unit (the first lines of a stalled job can
	# count KiB/s)
	refute grep -qE '[0-9] (B|KiB|MiB|GiB)/s' tty.log
}

@test "not on a terminal: no progress line, unless --progress" {
	"$AESCRYPT" -c -1 -j1 "${FAST_KDF[@]}" -f - src 2> err | { sleep 2; cat > a.aes; }
	[ ! -s err ]
	[ -s a.aes ]
	# a slow pipe gives --progress its second
	{ head -c 3000000 /dev/urandom; sleep 1.5; head -c 3000000 /dev/urandom; } |
	    "$AESCRYPT" -e --progress "${FAST_KDF[@]}" > s.aes 2> err
	# a log gets whole plain lines: no \r, no escapes
	grep -E '^aescrypt: progress: [0-9.]+ MiB, [0-9.]+ [KMG]?i?B/s, 0:0[0-9]$' err
	refute grep -q $'\r' err
	refute grep -q $'\033' err
	# a total it does not know: no ETA
	refute grep -q ETA err
}

@test "--progress with -c and -x of many files: member names from one thread, ticks from another (threads)" {
	mkdir many
	(cd many && seq -f 'f%04g' 1 3000 | xargs touch)
	head -c 3000000 /dev/urandom > many/zbig
	"$AESCRYPT" -c --progress -j2 "${FAST_KDF[@]}" -f m.aes many 2> err.c
	mkdir x
	"$AESCRYPT" -x --progress -j2 -f m.aes -C x 2> err.x
	cmp x/many/zbig many/zbig
	[ "$(ls x/many | wc -l)" -eq 3001 ]
	# off a terminal: plain lines only, nothing to erase
	for f in err.c err.x; do
		refute grep -q $'\r' "$f"
		refute grep -v '^aescrypt: progress: ' "$f"
	done
}

@test "on -d the line shows the plaintext written and the share of the input read" {
	"$AESCRYPT" -e -1 -j1 "${FAST_KDF[@]}" -o big.aes src/big.bin
	# a slow pipe gives the line its second
	on_tty "{ head -c 2000000 big.aes; sleep 1.5; tail -c +2000001 big.aes; } | '$AESCRYPT' -d -j1 -o out.bin"
	grep -E '^[0-9.]+ [KMG]?i?B written, [0-9.]+ [KMG]?i?B read, [0-9.]+ [KMG]?i?B/s, 0:0[0-9]' tty.log
	cmp out.bin src/big.bin
}

@test "a long member name is shortened in the middle to fit the terminal, never cut to a stub" {
	local long
	long=src/$(printf 'd%.0s' $(seq 60))/$(printf 'e%.0s' $(seq 60))/the-end.bin
	mkdir -p "${long%/*}"
	mv src/big.bin "$long"
	on_tty "stty cols 100; '$AESCRYPT' -c -1 -j1 ${FAST_KDF[*]} -f - src | $SLOW_OUT"
	local line
	line=$(grep -E '[0-9] (B|KiB|MiB|GiB)/s' tty.log | tail -1 | sed 's/\x1b\[K//g')
	[ -n "$line" ]
	# the start and the end of the name are both there, joined by ...
	[[ $line == *"src/ddd"*"..."*"the-end.bin" ]]
	[ "${#line}" -le 99 ]
}

@test "on a narrow terminal -d keeps the share, the rate and the ETA within the width" {
	"$AESCRYPT" -e -1 -j1 "${FAST_KDF[@]}" -o big.aes src/big.bin
	# the input is a file (its size is the total); a consumer that
	# reads after two seconds gives the line its second
	on_tty "stty cols 50; '$AESCRYPT' -d -j1 big.aes | { sleep 2; cat > out.bin; }"
	local lines
	lines=$(sed 's/\x1b\[K//g' tty.log | grep -E '[0-9] (B|KiB|MiB|GiB)/s')
	[ -n "$lines" ] || { cat -A tty.log >&2; return 1; }
	# every redraw within 49 columns, each with its share, rate and ETA
	while IFS= read -r l; do
		[ "${#l}" -le 49 ] || { echo "too wide (${#l}): $l" >&2; return 1; }
		[[ $l =~ ^[0-9]+%\ of\ [0-9.]+\ MiB,\ [0-9.]+\ (B|KiB|MiB|GiB)/s,\ ETA\ [0-9]+:[0-9]{2}$ ]] || {
			echo "not the short form: $l" >&2
			return 1
		}
	done <<< "$lines"
	cmp out.bin src/big.bin
}
