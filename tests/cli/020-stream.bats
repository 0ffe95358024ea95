#!/usr/bin/env bats
# Stream mode (-e / -d): round trips at the sizes that matter, every key
# source, key files, two-slot files, and the refusals.

load test_helper

# rt ARGS...: encrypt in.bin with ARGS, decrypt with the same ARGS, and
# compare.  Uses a key file unless ARGS name another source.
rt() {
	"$AESCRYPT" -e "$@" -o c.aes in.bin
	"$AESCRYPT" -d "$@" -o out.bin c.aes
	assert_same in.bin out.bin
}

@test "round trip: sizes 0, 1, chunk-1, chunk, chunk+1, and many chunks (64K chunks)" {
	make_key k
	for n in 0 1 65535 65536 65537 $((65536 * 7 + 123)); do
		head -c "$n" /dev/urandom > in.bin
		rt -k k --chunk-size 64K
		# The chunk count follows from the size: header 149 bytes,
		# random data is stored, 21 bytes of framing per chunk, and
		# the copy of the header (and its length) at the end.
		chunks=$(( n == 0 ? 1 : (n + 65535) / 65536 ))
		[ "$(stat -c %s c.aes)" -eq $((149 + n + 21 * chunks + 151)) ] || {
			echo "size $n: container is $(stat -c %s c.aes) bytes" >&2
			return 1
		}
	done
}

@test "round trip: the same sizes at the default chunk size" {
	make_key k
	for n in 0 1 262143 262144 262145 $((262144 * 5 + 7)); do
		head -c "$n" /dev/urandom > in.bin
		rt -k k
	done
}

@test "round trip: highly compressible data shrinks and survives" {
	make_key k
	yes 'the same line again and again' | head -c 3000000 > in.bin
	rt -k k
	[ "$(stat -c %s c.aes)" -lt 100000 ]
}

@test "round trip: every level -0 .. -9; -0 stores (no shrinking)" {
	make_key k
	seq 1 100000 > in.bin
	for l in 0 1 2 3 4 5 6 7 8 9; do
		rt -k k "-$l"
		if [ "$l" -eq 0 ]; then
			[ "$(stat -c %s c.aes)" -gt "$(stat -c %s in.bin)" ]
		else
			[ "$(stat -c %s c.aes)" -lt "$(stat -c %s in.bin)" ]
		fi
	done
}

@test "round trip: 200 MB through pipes" {
	make_key k
	head -c 200000000 /dev/urandom > in.bin
	"$AESCRYPT" -e -k k -1 < in.bin | "$AESCRYPT" -d -k k > out.bin
	assert_same in.bin out.bin
}

@test "pipes: stdin to stdout, and '-' means them" {
	make_key k
	seq 1 50000 > in.bin
	"$AESCRYPT" -e -k k - < in.bin > c.aes
	"$AESCRYPT" -d -k k -o - - < c.aes > out.bin
	assert_same in.bin out.bin
}

@test "--no-hw output decrypts with the hardware tier and back" {
	make_key k
	head -c 300000 /dev/urandom > in.bin
	"$AESCRYPT" --no-hw -e -k k -o c.aes in.bin
	"$AESCRYPT" -d -k k -o out.bin c.aes
	assert_same in.bin out.bin
	"$AESCRYPT" -e -k k -o c2.aes in.bin
	"$AESCRYPT" --no-hw -d -k k -o out2.bin c2.aes
	assert_same in.bin out2.bin
}

@test "passphrase from AESCRYPT_PASSPHRASE" {
	seq 1 1000 > in.bin
	AESCRYPT_PASSPHRASE=s3cret rt "${FAST_KDF[@]}"
	AESCRYPT_PASSPHRASE=wrong run_aescrypt 3 -d -o out2.bin c.aes
	assert_match 'aescrypt: error: c.aes: wrong passphrase'
	assert_match 'hint: check the passphrase source'
	assert_no_output . out2.bin
}

@test "passphrase from --passphrase-file (first line only)" {
	seq 1 1000 > in.bin
	printf 's3cret\nsecond line is ignored\n' > pw
	rt "${FAST_KDF[@]}" --passphrase-file pw
	printf 's3cret\n' > pw2
	"$AESCRYPT" -d --passphrase-file pw2 -o out3.bin c.aes
	assert_same in.bin out3.bin
	AESCRYPT_PASSPHRASE=s3cret "$AESCRYPT" -d -o out4.bin c.aes
	assert_same in.bin out4.bin
}

@test "passphrase from --passphrase-fd, including fd 0 ahead of the data" {
	seq 1 1000 > in.bin
	printf 's3cret\n' > pw
	"$AESCRYPT" -e "${FAST_KDF[@]}" --passphrase-fd 3 -o c.aes in.bin 3< pw
	{ printf 's3cret\n'; cat c.aes; } | "$AESCRYPT" -d --passphrase-fd 0 > out.bin
	assert_same in.bin out.bin
}

@test "passphrase from the terminal: asked twice on -e, echo off, once on -d" {
	seq 1 1000 > in.bin
	tty_run log "'$AESCRYPT' -e ${FAST_KDF[*]} -o c.aes in.bin" \
	    'Enter passphrase:' tty-pass 'Confirm passphrase:' tty-pass
	[ "$status" -eq 0 ]
	refute grep -q 'tty-pass' log
	tty_run log2 "'$AESCRYPT' -d -o out.bin c.aes" 'Passphrase:' tty-pass
	[ "$status" -eq 0 ]
	refute grep -q 'tty-pass' log2
	assert_same in.bin out.bin
}

@test "the terminal prompt refuses a mismatched confirmation and an empty passphrase" {
	seq 1 10 > in.bin
	tty_run log "'$AESCRYPT' -e ${FAST_KDF[*]} -o c.aes in.bin" \
	    'Enter passphrase:' one 'Confirm passphrase:' two
	[ "$status" -eq 2 ]
	grep -q 'the passphrases do not match' log
	assert_no_output . c.aes
	tty_run log "'$AESCRYPT' -e ${FAST_KDF[*]} -o c.aes in.bin" \
	    'Enter passphrase:' ''
	[ "$status" -eq 2 ]
	grep -q 'the passphrase is empty' log
	assert_no_output . c.aes
}

@test "an empty passphrase is refused from a file and the environment too" {
	seq 1 10 > in.bin
	: > empty
	run_aescrypt 2 -e --passphrase-file empty -o c.aes in.bin
	assert_match 'the passphrase is empty'
	AESCRYPT_PASSPHRASE= run_aescrypt 2 -e -o c.aes in.bin
	assert_no_output . c.aes
}

@test "no passphrase source and no terminal: a clear error, exit 3" {
	seq 1 10 > in.bin
	run setsid "$AESCRYPT" -e -o c.aes in.bin < /dev/null
	[ "$status" -eq 3 ]
	[[ $output =~ "no terminal to ask for it" ]]
	assert_no_output . c.aes
}

@test "--gen-key writes a 0600 key file and never overwrites one" {
	run_aescrypt 0 --gen-key k
	[ "$(stat -c %a k)" = 600 ]
	grep -Eq '^AESCRYPT-KEY-V1-[0-9a-f]{64}$' k
	cp k k.orig
	run_aescrypt 6 --gen-key k
	assert_match "aescrypt: error: k: File exists"
	assert_same k k.orig
}

@test "--gen-key makes a different key each time" {
	make_key k1
	make_key k2
	refute cmp -s k1 k2
}

@test "a wrong key file is reported as such, and a non-key file too" {
	make_key k1
	make_key k2
	seq 1 100 > in.bin
	"$AESCRYPT" -e -k k1 -o c.aes in.bin
	run_aescrypt 3 -d -k k2 -o out.bin c.aes
	assert_match 'aescrypt: error: c.aes: wrong key file'
	assert_no_output . out.bin
	run_aescrypt 3 -d -k in.bin -o out.bin c.aes
	assert_match 'in.bin: not an aescrypt key file'
}

@test "key file and passphrase together write two slots; either one opens" {
	make_key k
	seq 1 5000 > in.bin
	printf 'pw\n' > pw
	"$AESCRYPT" -e "${FAST_KDF[@]}" -k k --passphrase-file pw -o c.aes in.bin
	"$AESCRYPT" -d -k k -o out1.bin c.aes
	assert_same in.bin out1.bin
	"$AESCRYPT" -d --passphrase-file pw -o out2.bin c.aes
	assert_same in.bin out2.bin
	# header: 30 + key-file slot 83 + passphrase slot 95 + 36
	[ "$(head -c 14 c.aes | tail -c 1 | od -An -tu1 | tr -d ' ')" = 2 ]
}

@test "-k alone writes only a key-file slot; -k -P adds a passphrase slot" {
	make_key k
	seq 1 100 > in.bin
	"$AESCRYPT" -e -k k -o c1.aes in.bin
	[ "$(head -c 14 c1.aes | tail -c 1 | od -An -tu1 | tr -d ' ')" = 1 ]
	AESCRYPT_PASSPHRASE=pw "$AESCRYPT" -e "${FAST_KDF[@]}" -k k -P -o c2.aes in.bin
	[ "$(head -c 14 c2.aes | tail -c 1 | od -An -tu1 | tr -d ' ')" = 2 ]
	run_aescrypt 3 -d -o out.bin c1.aes </dev/null
	assert_match 'this file opens only with a key file'
	assert_match 'hint: give it with -k FILE'
}

@test "a passphrase file given for a key-file-only file says so" {
	make_key k
	seq 1 100 > in.bin
	printf 'pw\n' > pw
	"$AESCRYPT" -e -k k -o c.aes in.bin
	run_aescrypt 3 -d --passphrase-file pw c.aes
	assert_match 'this file opens only with a key file'
}

@test "the KDF cap refuses a file over it and --max-kdf-memory lets it through" {
	seq 1 100 > in.bin
	AESCRYPT_PASSPHRASE=pw "$AESCRYPT" -e --kdf-memory 16M --kdf-time 1 --kdf-parallelism 1 -o c.aes in.bin
	AESCRYPT_PASSPHRASE=pw run_aescrypt 5 -d --max-kdf-memory 8M -o out.bin c.aes
	assert_match 'asks for Argon2id memory 16 MiB, over the limit of 8 MiB'
	assert_no_output . out.bin
	AESCRYPT_PASSPHRASE=pw run_aescrypt 0 -d --max-kdf-memory 16M -o out.bin c.aes
	assert_same in.bin out.bin
}

@test "the recorded KDF costs are the ones asked for" {
	seq 1 10 > in.bin
	AESCRYPT_PASSPHRASE=pw "$AESCRYPT" -e --kdf-memory 12M --kdf-time 2 --kdf-parallelism 3 -o c.aes in.bin
	# the passphrase slot body starts at 33: m (KiB), t, p as be32
	[ "$(od -An -tx1 -j33 -N12 c.aes | tr -d ' \n')" = 000030000000000200000003 ]
}

@test "encrypting to a terminal is refused" {
	make_key k
	seq 1 10 > in.bin
	run script -qec "'$AESCRYPT' -e -k k in.bin" /dev/null
	[[ $output =~ "refusing to write encrypted data to a terminal" ]]
}

@test "a failed -d leaves no file under the output name or a temp file" {
	make_key k
	head -c 300000 /dev/urandom > in.bin
	"$AESCRYPT" -e -k k --chunk-size 64K -o c.aes in.bin
	head -c 200000 c.aes > cut.aes
	run_aescrypt 4 -d -k k -o out.bin cut.aes
	assert_match 'chunk 3 at offset .* is truncated'
	assert_match 'hint: out.bin was not written'
	assert_no_output . out.bin
}

@test "-o replaces an existing file only on success" {
	make_key k
	seq 1 1000 > in.bin
	"$AESCRYPT" -e -k k -o c.aes in.bin
	echo precious > out.bin
	printf 'garbage' >> c.aes
	run_aescrypt 4 -d -k k -o out.bin c.aes
	[ "$(cat out.bin)" = precious ]
	head -c -7 c.aes > c2.aes
	run_aescrypt 0 -d -k k -o out.bin c2.aes
	assert_same in.bin out.bin
}

@test "usage errors: two modes, a bad level of chunk size, bad KDF values, missing values" {
	run_aescrypt 2 -e -d
	assert_match 'only one of -e, -d, -c, -t, -x, --test, --info, --gen-key, --gen-identity and --benchmark'
	run_aescrypt 2 -e --chunk-size 100K
	assert_match "--chunk-size: invalid value '100K'"
	run_aescrypt 2 -e --chunk-size 8M
	run_aescrypt 2 -e --kdf-time 0
	run_aescrypt 2 -e --kdf-time 11
	run_aescrypt 2 -e --kdf-parallelism 17
	run_aescrypt 2 -e --kdf-memory 1000
	run_aescrypt 2 -e --kdf-memory 8K --kdf-parallelism 4
	assert_match 'at least 8K per lane'
	run_aescrypt 2 -e -o
	assert_match "option '-o' needs a value"
	run_aescrypt 2 -e a b
	assert_match "unexpected argument 'b'"
}

@test "there is no option that takes a passphrase on the command line" {
	# -P is a flag; handing it a value is an error.  -p is tar's
	# --preserve-permissions (a flag, and only for -x).
	run_aescrypt 2 -e --passphrase=hunter2
	assert_match "a passphrase is never taken from the command line"
	assert_match "hint: use --passphrase-file FILE, --passphrase-fd N"
	[[ $output != *hunter2* ]]
	run_aescrypt 2 -e -p hunter2
	assert_match "-p \(or --no-same-permissions\) does not apply to -e"
	run_aescrypt 2 -x --preserve-permissions=hunter2
	assert_match "option '--preserve-permissions' does not take a value"
}

@test "a missing input is exit 2 in every mode, naming it; an unreadable one is exit 6" {
	make_key k
	run_aescrypt 2 -d -k k nosuch.aes
	assert_match 'aescrypt: error: nosuch.aes: No such file or directory'
	run_aescrypt 2 -e -k k -o out.aes nosuch
	assert_match 'aescrypt: error: nosuch: No such file or directory'
	run_aescrypt 2 -t -k k -f nosuch.aes
	assert_match 'aescrypt: error: nosuch.aes: No such file or directory'
	run_aescrypt 2 -x -k k -f nosuch.aes
	assert_match 'aescrypt: error: nosuch.aes: No such file or directory'
	run_aescrypt 2 -c -k k -f out.aes nosuch
	assert_match 'aescrypt: error: nosuch: No such file or directory'
	run_aescrypt 2 --test nosuch.aes
	run_aescrypt 2 --info nosuch.aes
	run_aescrypt 2 -t -k k -T nosuch.list -f nosuch.aes
	assert_match 'aescrypt: error: nosuch.list: No such file or directory'
	[ ! -e out.aes ]
	if [ "$(id -u)" -ne 0 ]; then
		echo x > locked && chmod 000 locked
		run_aescrypt 6 -d -k k locked
	fi
}

@test "decrypting something that is not a container says so" {
	make_key k
	echo 'just text' > plain.txt
	run_aescrypt 4 -d -k k plain.txt
	assert_match 'plain.txt: not an aescrypt container \(bad magic\)'
	: > empty.aes
	run_aescrypt 4 -d -k k empty.aes
	assert_match 'empty.aes: input is empty'
}

@test "a closed pipe on output ends the run silently with 141, as SIGPIPE would" {
	make_key k
	head -c 3000000 /dev/urandom > in.bin
	"$AESCRYPT" -e -k k -o c.aes in.bin
	# pipefail, as a script would see it
	run bash -c "set -o pipefail; '$AESCRYPT' -d -k k c.aes 2> err | head -c 10 > /dev/null"
	[ "$status" -eq 141 ]
	[ ! -s err ]
	# gzip and tar end the same way (killed by SIGPIPE: 128 + 13)
	run bash -c "set -o pipefail; gzip -c in.bin 2> /dev/null | head -c 10 > /dev/null"
	[ "$status" -eq 141 ]
	# other write errors keep their message
	run_aescrypt 6 -d -k k -o /dev/full c.aes
	assert_match "No space left on device"
}

@test "a full disk (/dev/full) is an I/O error, exit 6" {
	make_key k
	head -c 100000 /dev/urandom > in.bin
	run_aescrypt 6 -e -k k -o /dev/full in.bin
	assert_match 'No space left on device'
	run bash -c "'$AESCRYPT' -e -k k in.bin > /dev/full"
	[ "$status" -eq 6 ]
	[[ $output =~ "No space left on device" ]]
}

@test "SIGINT or SIGTERM mid-stream: exit 128+n, no output file, no temp file" {
	make_key k
	local sig rc
	for sig in INT TERM; do
		mkfifo in.fifo
		# a writer that sends some data, then stalls with the pipe open
		feed in.fifo "head -c 1000000 /dev/urandom; sleep 60"
		"$AESCRYPT" -e -k k -o out.aes in.fifo 2> err &
		local pid=$!
		# wait until the output holds data, so the signal lands
		# mid-job
		wait_writing "$pid" "$T" 1
		kill -s "$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		kill_feeder
		rm -f in.fifo
		[ "$rc" -eq $((128 + $(kill -l "$sig"))) ] || {
			echo "SIG$sig: exit $rc; $(cat err)" >&2
			return 1
		}
		grep -q 'aescrypt: error: .*interrupted' err
		assert_no_output . out.aes
	done
}

@test "--passphrase-fd with something that is not a number is a usage error" {
	seq 1 10 > in.bin
	run_aescrypt 2 -e --passphrase-fd abc -o c.aes in.bin
	assert_match "--passphrase-fd: 'abc' is not a file descriptor number"
	assert_no_output . c.aes
	run_aescrypt 6 -e --passphrase-fd 9 -o c.aes in.bin
	assert_match '--passphrase-fd: Bad file descriptor'
}

@test "--gen-key - writes a key to standard output that -k then reads" {
	run_aescrypt 0 --gen-key -
	assert_match '^# aescrypt key file'
	printf '%s\n' "$output" > k
	seq 1 100 > in.bin
	"$AESCRYPT" -e -k k -o c.aes in.bin
	"$AESCRYPT" -d -k k -o out.bin c.aes
	assert_same in.bin out.bin
}

@test "-o in a directory that does not exist fails before reading, naming it" {
	make_key k
	seq 1 100 > in.bin
	run_aescrypt 6 -e -k k -o nodir/c.aes in.bin
	assert_match 'nodir/c.aes: cannot create a file in its directory'
	"$AESCRYPT" -e -k k -o c.aes in.bin
	run_aescrypt 6 -d -k k -o nodir/out.bin c.aes
	assert_match 'nodir/out.bin: cannot create a file in its directory'
}
