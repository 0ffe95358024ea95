#!/usr/bin/env bats
# The security review's findings (issue 13), one test each, every one
# failing on the tree before its fix: output file modes, a passphrase slot
# added from the environment, core dumps, slot rules checked before any
# KDF, names that spoof a listing, a file swapped for a FIFO, key file
# permissions, and the places where the binary and format/ disagreed.
# (The long-name overflow has its own tests in 090-hostile.bats, and the
# negative vectors theirs in 145-cctv.bats.)

load test_helper

setup() {
	test_dir || return 1
	cp "$SAMPLES/sample.key" key && chmod 600 key
	printf 'secret data\n' > plain
	"$AESCRYPT" -e -k key < plain > c.aes
}

mode_of() { stat -c %a "$1"; }

@test "1. -d -o over a 0600 file keeps 0600; over 0640 keeps 0640; a new file gets 0666 & ~umask" {
	umask 022
	printf old > p600 && chmod 600 p600
	printf old > p640 && chmod 640 p640
	run_aescrypt 0 -d -k key -o p600 c.aes
	run_aescrypt 0 -d -k key -o p640 c.aes
	run_aescrypt 0 -d -k key -o new c.aes
	[ "$(mode_of p600)" = 600 ]
	[ "$(mode_of p640)" = 640 ]
	[ "$(mode_of new)" = 644 ]
	assert_same plain p600
	umask 077
	run_aescrypt 0 -d -k key -o new77 c.aes
	[ "$(mode_of new77)" = 600 ]
}

@test "1. the partial plaintext sits in a 0600 temp file while -d -o runs" {
	umask 022
	head -c 3000000 /dev/urandom > big
	"$AESCRYPT" -e -0 -k key --chunk-size 64K < big > big.aes
	# the first half, then the input stalls (a FIFO this shell holds
	# open) while the temp file is looked at, then the rest
	mkfifo in.fifo
	exec 8<> in.fifo
	"$AESCRYPT" -d -k key -o out < in.fifo 2> err 8>&- &
	local pid=$! i tmp=
	head -c 1500000 big.aes >&8
	# the file being written (nameless where the file system allows,
	# else a temp name), through aescrypt's descriptor
	wait_writing "$pid" "$T" 1
	for tmp in /proc/"$pid"/fd/*; do
		case $(readlink "$tmp") in "$T"/*out*) break ;; esac
	done
	[ "$(stat -L -c %a "$tmp")" = 600 ]
	refute test -e out
	tail -c +1500001 big.aes >&8
	exec 8>&-
	wait "$pid"
	[ "$(mode_of out)" = 644 ]
	assert_same big out
}

@test "1. as root, the replaced file keeps its owner and group" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to own a file as another user"
	printf old > theirs && chown 65534:65534 theirs && chmod 640 theirs
	run_aescrypt 0 -d -k key -o theirs c.aes
	[ "$(stat -c '%u:%g %a' theirs)" = "65534:65534 640" ]
}

@test "2. -k with AESCRYPT_PASSPHRASE in the environment writes a key-file slot only; -P adds the passphrase" {
	AESCRYPT_PASSPHRASE=inherited run_aescrypt 0 -e -k key "${FAST_KDF[@]}" -o k.aes plain
	# slot_count is byte 13 of the header
	[ "$(od -An -tu1 -j13 -N1 k.aes | tr -d ' ')" = 1 ]
	AESCRYPT_PASSPHRASE=inherited run_aescrypt 3 -d -o out k.aes
	AESCRYPT_PASSPHRASE=inherited run_aescrypt 0 -e -k key -P "${FAST_KDF[@]}" -o kp.aes plain
	[ "$(od -An -tu1 -j13 -N1 kp.aes | tr -d ' ')" = 2 ]
	AESCRYPT_PASSPHRASE=inherited run_aescrypt 0 -d -o out kp.aes
	assert_same plain out
}

# start_waiting CMD...: run CMD (which ends in aescrypt) on a FIFO that
# this shell holds open, so aescrypt sits waiting for input; $pid is set
# once the process is aescrypt itself, not the shell about to exec it.
start_waiting() {
	rm -f fifo && mkfifo fifo
	exec 9<> fifo
	"$@" < fifo > /dev/null 9>&- &
	pid=$!
	local i want
	want=$(readlink -f "$AESCRYPT")
	for i in $(seq 100); do
		[ "$(readlink /proc/$pid/exe 2> /dev/null)" = "$want" ] && return 0
		sleep 0.05
	done
	echo "aescrypt did not start" >&2
	return 1
}

# eventually CMD...: true once CMD succeeds, polled for up to 5 s.  The
# process is aescrypt by then, but main() may not yet have run its first
# lines (an ASan build starts slowly), so a check made once would race.
eventually() {
	local i
	for i in $(seq 100); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

stop_waiting() {
	exec 9>&-
	wait $pid || true
}

@test "3. no core dumps: RLIMIT_CORE is 0 and the process is not dumpable" {
	start_waiting "$AESCRYPT" -e -k key
	# (this shell's own hard limit is not 0, so this reads aescrypt's)
	eventually grep -qE '^Max core file size +0 +0 ' /proc/$pid/limits
	stop_waiting
	# A process that is not dumpable has its /proc entries owned by
	# root: seen from an unprivileged run (its key readable by it, in
	# this test's own directory).  A build without prctl (--portable)
	# has only the limit, and --version says so.
	if [ "$(id -u)" -eq 0 ] && build_has prctl; then
		chmod 711 "$T"
		cp key knobody && chown 65534 knobody
		start_waiting setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		    "$AESCRYPT" -e -k knobody
		owned_by_root() { [ "$(stat -c %u /proc/$pid/status)" = 0 ]; }
		eventually owned_by_root
		stop_waiting
	fi
}

@test "4. two passphrase slots of 1 GiB each are refused before any Argon2id runs (under a 256 MiB limit)" {
	[ -z "${AE_SANITIZED:-}" ] || skip "sanitizer builds reserve terabytes of address space"
	printf '%s\n' "$(cat "$SAMPLES/sample.pass")" > pass
	run bash -c "ulimit -v 262144; '$AESCRYPT' -d --passphrase-file pass -o out '$BATS_TEST_DIRNAME/../cctv/vectors/pass-two-slots-1gib.aes'"
	[ "$status" -eq 4 ]
	assert_match "key slot 1: a second passphrase slot"
	[ ! -e out ]
}

@test "5. an invalid Argon2id slot is refused whichever slot opens and wherever it stands" {
	local v=$BATS_TEST_DIRNAME/../cctv/vectors
	run_aescrypt 4 -d -k key -o out "$v/pass-invalid-t0-then-key.aes"
	assert_match "key slot 0: invalid Argon2id parameters"
	run_aescrypt 4 -d -k key -o out "$v/key-then-pass-invalid.aes"
	assert_match "key slot 1: invalid Argon2id parameters"
	# malformed (exit 4) is reported before a cost over the limit (5)
	printf '%s\n' "$(cat "$SAMPLES/sample.pass")" > pass
	run_aescrypt 4 -d --passphrase-file pass -o out "$v/pass-invalid-and-over.aes"
	[ ! -e out ]
}

@test "6. bidi controls and other format characters in names are escaped in -t and in messages" {
	mkdir src
	printf x > "src/evil$(printf '\u202e')txt.exe"
	printf x > "src/zero$(printf '\u200b')width"
	printf x > "src/plain-é"
	"$AESCRYPT" -c -k key -f a.aes src
	LC_ALL=C.UTF-8 run_aescrypt 0 -t -k key -f a.aes
	[[ $output == *'src/evil\342\200\256txt.exe'* ]]
	[[ $output == *'src/zero\342\200\213width'* ]]
	[[ $output == *'src/plain-é'* ]]
	refute_match $'\u202e'
	# in a message too: a MEMBER operand that is not there
	LC_ALL=C.UTF-8 run_aescrypt 1 -t -k key -f a.aes "src/x$(printf '\u2066')y"
	assert_match 'src/x\\342\\201\\246y: not found'
}

@test "7. a file swapped for a FIFO after the walk saw it does not hang -c" {
	command -v cc > /dev/null || skip "needs a C compiler for the swap shim"
	# The shim replaces 'swapme' with a FIFO just before aescrypt opens
	# it (by name or from its directory's descriptor): the race a live
	# attacker would have to win, made certain.
	cat > shim.c <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static int swap(int dirfd, const char *p)
{
	size_t n = strlen(p);
	if (n >= 6 && strcmp(p + n - 6, "swapme") == 0) {
		unlinkat(dirfd, p, 0);
		return mkfifoat(dirfd, p, 0644);
	}
	return 0;
}
#define SHIM(name) \
int name(const char *p, int f, ...) \
{ \
	static int (*real)(const char *, int, ...); \
	va_list ap; mode_t m; \
	va_start(ap, f); m = va_arg(ap, mode_t); va_end(ap); \
	if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
	swap(AT_FDCWD, p); \
	return real(p, f, m); \
}
#define SHIMAT(name) \
int name(int d, const char *p, int f, ...) \
{ \
	static int (*real)(int, const char *, int, ...); \
	va_list ap; mode_t m; \
	va_start(ap, f); m = va_arg(ap, mode_t); va_end(ap); \
	if (!real) real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, #name); \
	swap(d, p); \
	return real(d, p, f, m); \
}
SHIM(open)
SHIM(open64)
SHIMAT(openat)
SHIMAT(openat64)
/* what _FORTIFY_SOURCE calls when the flags are not a constant */
int __open_2(const char *p, int f)
{
	static int (*real)(const char *, int);
	if (!real) real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "__open_2");
	swap(AT_FDCWD, p);
	return real(p, f);
}
int __openat_2(int d, const char *p, int f)
{
	static int (*real)(int, const char *, int);
	if (!real) real = (int (*)(int, const char *, int))dlsym(RTLD_NEXT, "__openat_2");
	swap(d, p);
	return real(d, p, f);
}
EOC
	cc -shared -fPIC -o shim.so shim.c -ldl
	mkdir tree && echo a > tree/a && echo s > tree/swapme && echo z > tree/z
	# (ASan wants its runtime first; the shim only wraps open)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	    LD_PRELOAD=$PWD/shim.so run timeout -k 5 20 "$AESCRYPT" -c -k key -f t.aes tree
	[ "$status" -ne 124 ]
	[ "$status" -ne 137 ]   # timeout(1): it hung
	[ "$status" -eq 1 ]
	assert_match "tree/swapme: file changed as we read it; not dumped"
	run_aescrypt 0 -t -k key -f t.aes
	[ "$output" = "$(printf 'tree/\ntree/a\ntree/z')" ]
}

@test "7. a key file others may read gets a warning naming its mode; 0600 gets none" {
	chmod 644 key
	run_aescrypt 0 -e -k key -o o.aes plain
	assert_match "warning: key: key file is accessible by others \(mode 0644\)"
	assert_match "hint: chmod 600 key"
	chmod 600 key
	run_aescrypt 0 -e -k key -o o.aes plain
	[ -z "$output" ]
}

@test "a passphrase file others may read gets the key file's warning; 0600 gets none" {
	printf 'file words\n' > pw
	chmod 644 pw
	# (the smallest Argon2id cost: the decrypts below pay it again)
	run_aescrypt 0 -e --passphrase-file pw "${FAST_KDF[@]}" -o p.aes plain
	assert_match "warning: pw: passphrase file is accessible by others \(mode 0644\)"
	assert_match "hint: chmod 600 pw"
	chmod 640 pw
	run_aescrypt 0 -d --passphrase-file pw -o p.out p.aes
	assert_match "passphrase file is accessible by others \(mode 0640\)"
	cmp plain p.out
	chmod 600 pw
	run_aescrypt 0 -d --passphrase-file pw -o p.out2 p.aes
	[ -z "$output" ]
	# a descriptor or the environment has no mode to speak of
	run_aescrypt 0 -d --passphrase-fd 3 -o p.out3 p.aes 3< pw
	[ -z "$output" ]
}

@test "a file named with control characters is shown escaped in every message, as -t shows names" {
	local nl=$'no\nsuch\e[31m.aes'
	run_aescrypt 2 -d -k key -o out "$nl"
	assert_match 'error: no\\nsuch\\033\[31m\.aes: No such file'
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	[[ $output != *$'\e'* ]]
	# a foreign file, its name in the error and in the hint's command
	printf 'hello' | gzip > $'g\tz\e[1m.gz'
	run_aescrypt 4 -d -k key -o out $'g\tz\e[1m.gz'
	assert_match 'error: g\\tz\\033\[1m\.gz is a gzip file'
	[[ $output != *$'\e'* && $output != *$'\t'* ]]
	# a key file and a passphrase file that cannot be opened
	run_aescrypt 2 -e -k $'k\ey' -o out plain
	assert_match 'k\\033y: No such file'
	run_aescrypt 2 -e --passphrase-file $'p\nw' -o out plain
	assert_match 'p\\nw: No such file'
	# --info: the text escapes it, the JSON carries it by JSON's rules
	cp c.aes $'one\nc.aes'
	run_aescrypt 0 --info $'one\nc.aes'
	assert_match 'file: +one\\nc\.aes'
	"$AESCRYPT" --info=json $'one\nc.aes' > i.json
	/usr/bin/python3 -c 'import json,sys; assert json.load(open("i.json"))["file"] == "one\nc.aes"'
	# a wrong key names it escaped too
	make_key other
	run_aescrypt 3 -d -k other -o out $'one\nc.aes'
	assert_match 'error: one\\nc\.aes: wrong key file'
	assert_no_output . out
}

@test "spec 8: a key file line ends in LF or CR LF only" {
	local line
	line=$(grep AESCRYPT-KEY key)
	printf '%s\r\n' "$line" > crlf && chmod 600 crlf
	run_aescrypt 0 -d -k crlf -o out c.aes
	printf '%s\r' "$line" > lonecr && chmod 600 lonecr
	run_aescrypt 3 -d -k lonecr -o out c.aes
	assert_match "not an aescrypt key file"
	printf '%s\n\r' "$line" > lfcr && chmod 600 lfcr
	run_aescrypt 3 -d -k lfcr -o out c.aes
	assert_match "not an aescrypt key file"
}

@test "spec 7: a memory cost over the limit is printed exactly, with a hint that parses" {
	printf '%s\n' "$(cat "$SAMPLES/sample.pass")" > pass
	run_aescrypt 0 -e --passphrase-file pass --kdf-memory 1025K --kdf-time 1 --kdf-parallelism 1 -o m.aes plain
	run_aescrypt 5 -d --passphrase-file pass --max-kdf-memory 1M -o out m.aes
	assert_match "asks for Argon2id memory 1025 KiB, over the limit of 1 MiB"
	assert_match "raise the limit with --max-kdf-memory 1025K"
	run_aescrypt 0 -d --passphrase-file pass --max-kdf-memory 1025K -o out m.aes
	assert_same plain out
}
