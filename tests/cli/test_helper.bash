# test_helper.bash -- shared setup for the aescrypt bats suite.
#
# Each test gets a private temp dir in $T (and runs inside it), and
# run_aescrypt EXPECTED-RC ARGS... runs the binary under test, failing the
# test with the full output when the exit code differs.

: "${AESCRYPT:=$BATS_TEST_DIRNAME/../../aescrypt}"

# script(1), which gives tests a terminal, runs its command with $SHELL:
# pin it to sh, so the tests' command lines mean the same whatever the
# login shell (fish, say) or the machine.
export SHELL=/bin/sh

# test_dir: a private temp dir in $T, made the working directory.  A
# file with its own setup() calls this first.
test_dir() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/aescrypt-test.XXXXXX")
	cd "$T" || return 1
}

setup() {
	test_dir
}

teardown() {
	kill_feeder
	cd / && rm -rf "$T"
}

# feed PATH CMD: run the shell command CMD in the background with its
# output to PATH (a FIFO, usually), for a test that needs an input which
# stalls.  Without bats' fd 3: a background job that holds it makes bats
# wait for the job to end (a "sleep 30" was 30 s a run).  In a session
# of its own, so kill_feeder ends it and its children (the sleep
# included); the default teardown calls kill_feeder.  Sets $feeder.
feed() {
	setsid sh -c "$2" > "$1" 3>&- &
	feeder=$!
}

kill_feeder() {
	[ -n "${feeder:-}" ] || return 0
	kill -- -"$feeder" 2>/dev/null || kill "$feeder" 2>/dev/null || true
	wait "$feeder" 2>/dev/null || true
	feeder=
}

# teardown_mount REL: a teardown for a file whose tests mount a file
# system at $T/REL: that one mount is taken down whatever the outcome
# (only if T is set), then the directory goes.
teardown_mount() {
	if [ -n "${T:-}" ] && mountpoint -q "$T/$1" 2> /dev/null; then
		umount "$T/$1"
	fi
	cd / && rm -rf "$T"
}

# run_aescrypt RC ARGS...: run aescrypt, check its exit status is RC.
# $output and $status are set as by bats' run.
run_aescrypt() {
	local want=$1
	shift
	run "$AESCRYPT" "$@"
	if [ "$status" -ne "$want" ]; then
		echo "aescrypt $*: exit $status, expected $want" >&2
		echo "output: $output" >&2
		return 1
	fi
}

# assert_match REGEX: $output must match.
assert_match() {
	if ! [[ $output =~ $1 ]]; then
		echo "output does not match /$1/:" >&2
		echo "$output" >&2
		return 1
	fi
}

# refute_match REGEX: $output must not match.
refute_match() {
	if [[ $output =~ $1 ]]; then
		echo "output matches /$1/ but must not:" >&2
		echo "$output" >&2
		return 1
	fi
}

SAMPLES=$BATS_TEST_DIRNAME/../samples

# The committed samples' table (tests/samples/MANIFEST), read in one
# place for every test that walks it: manifest_rows prints its rows
# (file, key, exit status, SHA-256, message; tab-separated), comments
# and blank lines left out; sample_args KEY [py] sets the array args to
# the options that open a sample of that key column, as aescrypt takes
# them (or, with py, the second implementation, tests/interop).  It
# returns 2 for a row to skip (an ssh-rsa sample without libcrypto) and
# 1 for a key column it does not know.
manifest_rows() {
	grep -v '^#' "$SAMPLES/MANIFEST" | grep -v '^[[:space:]]*$'
}

sample_args() {
	local pass=(--passphrase-file "$SAMPLES/sample.pass") p=-P
	if [ "${2:-}" = py ]; then
		pass=(-p "$SAMPLES/sample.pass") p=
	fi
	case $1 in
	key) args=(-k "$SAMPLES/sample.key") ;;
	pass) args=("${pass[@]}") ;;
	both) args=(-k "$SAMPLES/sample.key" $p "${pass[@]}") ;;
	identity) args=(-i "$SAMPLES/sample-identity.txt") ;;
	pq) args=(-i "$SAMPLES/sample-pq-identity.txt") ;;
	ssh) args=(-i "$SAMPLES/sample-ssh-ed25519") ;;
	rsa) has_rsa || return 2; args=(-i "$SAMPLES/sample-ssh-rsa") ;;
	key+salvage) args=(-k "$SAMPLES/sample.key" --salvage) ;;
	key+signer) args=(-k "$SAMPLES/sample.key" --signer "$SAMPLES/sample-ssh-ed25519.pub") ;;
	*) echo "MANIFEST: bad key column '$1'" >&2; return 1 ;;
	esac
}

# AE_TEST_SCALE: quick (make check; the default) or full (make
# check-long).  A long test takes its size from it, so the same code
# runs at both scales: n=$(scaled QUICK FULL).
AE_TEST_SCALE=${AE_TEST_SCALE:-quick}
case $AE_TEST_SCALE in
quick|full) ;;
*) echo "AE_TEST_SCALE must be quick or full, not '$AE_TEST_SCALE'" >&2; exit 2 ;;
esac
scaled() {
	if [ "$AE_TEST_SCALE" = full ]; then echo "$2"; else echo "$1"; fi
}

# fast_tmpdir NAME: a new private directory on tmpfs where the machine
# has one (/dev/shm), else under bats' temp dir: for campaigns that
# write thousands of damaged copies (the disk here swings 5x).  The
# caller removes it.
fast_tmpdir() {
	local base=${BATS_TMPDIR:-/tmp}
	[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
	mktemp -d "$base/aescrypt-$1.XXXXXX"
}

# Small Argon2id costs, so the suite runs in seconds; the defaults are
# measured and documented, not tested for speed.
FAST_KDF=(--kdf-memory 8M --kdf-time 1 --kdf-parallelism 1)

# make_key FILE: a fresh key file.
make_key() {
	"$AESCRYPT" --gen-key "$1"
}

# assert_no_output DIR NAME: NAME does not exist in DIR, and no temp
# file (.NAME.aescrypt-*) was left beside it.
assert_no_output() {
	local dir=$1 name=$2
	if [ -e "$dir/$name" ]; then
		echo "$dir/$name exists but must not" >&2
		return 1
	fi
	if compgen -G "$dir/.$name.aescrypt-*" >/dev/null; then
		echo "a temp file was left: $(ls -a "$dir")" >&2
		return 1
	fi
}

# assert_same A B: files are byte-identical.
assert_same() {
	if ! cmp "$1" "$2"; then
		echo "$1 and $2 differ" >&2
		return 1
	fi
}

# tty_run LOG CMD [PROMPT ANSWER]...: run CMD (a shell string) on a
# pseudo-terminal made by script(1), writing the terminal's output to
# LOG; each time PROMPT appears in LOG (once more than before), type
# ANSWER and Enter.  Waiting for the prompt, not typing ahead, is what a
# person does, and it means the answer is typed after echo is off.
# Sets $status.
tty_run() {
	local log=$1 cmd=$2 i want
	local -A asked=()
	shift 2
	rm -f "$T/tty.fifo"
	mkfifo "$T/tty.fifo"
	: > "$log"
	script -qfec "$cmd" /dev/null < "$T/tty.fifo" > "$log" 2>&1 &
	local pid=$!
	exec 7> "$T/tty.fifo"
	while [ $# -ge 2 ]; do
		want=$(( ${asked[$1]:-0} + 1 ))
		asked[$1]=$want
		for i in $(seq 1 200); do
			[ "$(grep -o -- "$1" "$log" | wc -l)" -ge "$want" ] && break
			sleep 0.05
		done
		printf '%s\n' "$2" >&7
		shift 2
	done
	exec 7>&-
	status=0
	wait "$pid" || status=$?
}

# refute CMD...: CMD must fail.  (A bare "! CMD" asserts nothing in bats,
# because set -e ignores negated commands.)
refute() {
	if "$@"; then
		echo "expected to fail: $*" >&2
		return 1
	fi
}

# wait_writing PID DIR BYTES: wait (up to 10 s) until process PID holds
# open a file under DIR (named or not yet named: O_TMPFILE) that has
# grown past BYTES.
wait_writing() {
	local pid=$1 dir=$2 min=$3 i f
	for i in $(seq 1 100); do
		for f in /proc/"$pid"/fd/*; do
			case $(readlink "$f" 2>/dev/null) in
			"$dir"/*)
				[ "$(stat -L -c %s "$f" 2>/dev/null || echo 0)" -gt "$min" ] && return 0 ;;
			esac
		done
		sleep 0.1
	done
	echo "process $pid never wrote $min bytes under $dir" >&2
	return 1
}

# wait_gone PID: wait until process PID has ended, child of ours or
# not, on a pidfd (readable once it has exited: a condition, not a
# clock); the 60 s timeout only turns a hang into a failure, with the
# process killed.
wait_gone() {
	local pid=$1
	timeout 60 /usr/bin/python3 -c 'import os, select, sys
try:
    fd = os.pidfd_open(int(sys.argv[1]))
except ProcessLookupError:
    sys.exit(0)
select.select([fd], [], [])' "$pid" && return 0
	kill -KILL "$pid" 2>/dev/null
	echo "process $pid still ran 60 s after it was told to stop" >&2
	return 1
}

# flip_byte FILE OFFSET [MASK]: xor the byte at OFFSET with MASK (255 by
# default), in place.  (Writing a fixed byte changes nothing where the
# byte already held it: one time in 256 on ciphertext.)
flip_byte() {
	local b
	b=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $(( b ^ ${3:-255} )))" |
	    dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# build_has CALL: the build under test uses the system call CALL (as
# named on --version's "system calls:" line), not its POSIX fallback (a
# ./configure --portable build uses none: make check-portable).
build_has() {
	"$AESCRYPT" --version | grep -q "^system calls:.* $1\( \|\$\)"
}

# has_rsa: the build under test has ssh-rsa (libcrypto; --version says).
has_rsa() {
	"$AESCRYPT" --version | grep -q '^libcrypto: OpenSSL'
}

# has_tmpfile DIR: the build makes files with no name, and the file
# system of DIR can.
has_tmpfile() {
	build_has O_TMPFILE || return 1
	/usr/bin/python3 -c 'import os,sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o600))' "$1" 2>/dev/null
}

# assert_no_temps DIR: no extraction temp file (.aescrypt-*) anywhere
# under DIR.
assert_no_temps() {
	local left
	left=$(find "$1" -name '.aescrypt-*' -print)
	if [ -n "$left" ]; then
		echo "temp files were left: $left" >&2
		return 1
	fi
}

# as_unprivileged CMD...: run CMD (with bats' run) as a user without
# root's power to read everything: as nobody when we are root (CI is),
# else as ourselves.
as_unprivileged() {
	if [ "$(id -u)" -eq 0 ]; then
		run setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	else
		run "$@"
	fi
}

# header_len FILE: the container header's length (its bytes 9-10): where
# record 0 starts.
header_len() {
	od -An -tu2 --endian=big -j9 -N2 "$1" | tr -d ' '
}

# after_snapshot SNAP: wait until a file changed now gets a ctime later
# than the time SNAP's dump started (file times come from a coarser
# clock than the dump's start): a condition, not a fixed sleep.
after_snapshot() {
	local t
	t=$(sed -n '2p' "$1" | tr '\0' ' ' | awk '{ printf "%s.%09d", $1, $2 }')
	for _ in $(seq 1 2000); do
		touch probe
		awk -v a="$(stat -c %.9Z probe)" -v b="$t" 'BEGIN { exit !(a > b) }' && return 0
	done
	echo "the clock did not pass $t" >&2
	return 1
}

# sig DIR: what a restore must give back: each path's type, mode and
# contents (symlink targets), with directories' times left out.
sig() {
	(cd "$1" && find . -mindepth 1 -printf '%p %y %m %l\n' | LC_ALL=C sort
	 find . -type f | LC_ALL=C sort | xargs -r md5sum)
}
