#!/usr/bin/env bats
# Archives: aescrypt -c, -t and -x.  Round trips of an awkward tree,
# agreement with GNU tar in both directions, and the tar-style options
# and warnings.  (Hostile archives are in 090-hostile.bats.)

load test_helper

PY=/usr/bin/python3
MANIFEST=$BATS_TEST_DIRNAME/manifest.py

setup() {
	test_dir || return 1
	export AESCRYPT_PASSPHRASE=archive-test
}

# make_tree DIR: every awkward kind of member the issue lists (the 3 GB
# file is added by the test that wants it).
make_tree() {
	local d=$1 long
	mkdir -p "$d/nested/deeper/deepest" "$d/empty-dir"
	: > "$d/empty-file"
	head -c 262144 /dev/urandom > "$d/one-chunk"
	head -c $((3 * 262144 + 17)) /dev/urandom > "$d/nested/few-chunks"
	seq 1 20000 > "$d/nested/deeper/deepest/text"
	ln -s does-not-exist "$d/dangling"
	ln -s nested/deeper "$d/relative-link"
	ln -s /etc/hostname "$d/absolute-link"
	ln "$d/nested/deeper/deepest/text" "$d/hard-link"
	echo spaces > "$d/name with spaces"
	echo newline > "$d/name with
newline"
	echo bad > "$d/bad-utf8-$(printf '\377\376')"
	echo cafe > "$d/caf$(printf '\303\251')"
	long=$d/$(printf 'd%.0s' {1..120})/$(printf 'e%.0s' {1..120})
	mkdir -p "$long"
	echo long > "$long/$(printf 'f%.0s' {1..100})"
	echo zero > "$d/mode-0000" && chmod 0000 "$d/mode-0000"
	echo suid > "$d/mode-4755" && chmod 4755 "$d/mode-4755"
	chmod 0555 "$d/nested/deeper"
	touch -h -d @1700000000.123456789 "$d/nested/few-chunks" "$d/dangling"
	touch -d @-86400 "$d/empty-file"
}

manifest() {
	"$PY" "$MANIFEST" "$@"
}

@test "round trip: -c then -x -p gives the same tree (types, modes, mtimes, contents, links)" {
	make_tree src
	# Sparse on disk; stored dense, extracted with holes: 200 MB at
	# the quick scale, 3 GB (past 2^31 and 2^32 bits of offset) at the
	# full one (AE_TEST_SCALE; make check-long).
	local big
	big=$(scaled $((200 * 1024 * 1024)) $((3 * 1024 * 1024 * 1024)))
	truncate -s "$big" src/big-sparse
	printf 'tail' >> src/big-sparse
	manifest src > before
	run_aescrypt 0 -c -1 "${FAST_KDF[@]}" -f a.aes -C src .
	mkdir out
	run_aescrypt 0 -x -p -f a.aes -C out
	manifest out > after
	diff before after
	# the big file did not come back dense
	[ "$(stat -c %b out/big-sparse)" -lt 1000 ]
	[ "$(stat -c %s out/big-sparse)" -eq $((big + 4)) ]
	chmod -R u+rwX out src
}

@test "round trip at every -j and level, and through a pipe" {
	make_tree src
	manifest src > before
	for args in "-j1 -0" "-j2 -6" "-j3 -9"; do
		rm -rf out && mkdir out
		# shellcheck disable=SC2086
		"$AESCRYPT" -c $args "${FAST_KDF[@]}" -C src . |
		    "$AESCRYPT" -x -p $args -C out
		manifest out > after
		diff before after
		chmod -R u+rwX out
	done
	chmod -R u+rwX src
}

@test "interop: aescrypt -d | tar -x gives the same tree as aescrypt -x" {
	make_tree src
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes -C src .
	mkdir by-aescrypt by-tar
	run_aescrypt 0 -x -p -f a.aes -C by-aescrypt
	"$AESCRYPT" -d a.aes | tar -x -p -C by-tar 2> tar.err || {
		cat tar.err >&2
		return 1
	}
	manifest by-aescrypt > a
	manifest by-tar > b
	diff a b
	chmod -R u+rwX src by-aescrypt by-tar
}

@test "interop: a GNU tar archive fed to aescrypt -e lists and extracts with -t and -x" {
	make_tree src
	tar --format=pax -cf gnu.tar -C src .
	tar -tf gnu.tar > tar.list
	"$AESCRYPT" -e "${FAST_KDF[@]}" < gnu.tar > gnu.aes
	run_aescrypt 0 -t -f gnu.aes
	diff tar.list <(echo "$output")
	mkdir by-aescrypt by-tar
	run_aescrypt 0 -x -p -f gnu.aes -C by-aescrypt
	tar -x -p -f gnu.tar -C by-tar
	diff <(manifest by-tar) <(manifest by-aescrypt)
	# and GNU's own gnu format, with its 'L'/'K' long names
	tar --format=gnu -cf gnu2.tar -C src .
	"$AESCRYPT" -e "${FAST_KDF[@]}" < gnu2.tar > gnu2.aes
	run_aescrypt 0 -t -f gnu2.aes
	diff <(tar -tf gnu2.tar) <(echo "$output")
	chmod -R u+rwX src by-aescrypt by-tar
}

@test "-t agrees with aescrypt -d | tar -t, in the C and UTF-8 locales, with and without -v" {
	make_tree src
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes -C src .
	local loc
	for loc in C C.UTF-8; do
		diff <(LC_ALL=$loc "$AESCRYPT" -t -f a.aes) \
		    <("$AESCRYPT" -d a.aes | LC_ALL=$loc tar -t)
		diff <(TZ=UTC LC_ALL=$loc "$AESCRYPT" -tv -f a.aes) \
		    <("$AESCRYPT" -d a.aes | TZ=UTC LC_ALL=$loc tar -tv)
	done
	# the newline in a name is escaped, never a line of its own
	run_aescrypt 0 -t -f a.aes
	assert_match './name with\\nnewline'
	chmod -R u+rwX src
}

@test "-x on a stream-mode file points to -d" {
	seq 1 1000 | "$AESCRYPT" -e "${FAST_KDF[@]}" > s.aes
	run_aescrypt 4 -x -f s.aes
	assert_match "error: s.aes: an encrypted stream, not an archive"
	assert_match "hint: decrypt it with 'aescrypt -d'"
	run_aescrypt 4 -t -f s.aes
	assert_match "not an archive"
	# an empty stream too
	: | "$AESCRYPT" -e "${FAST_KDF[@]}" > e.aes
	run_aescrypt 4 -t -f e.aes
}

@test "-c to a terminal is refused before anything is asked or read" {
	mkdir src && echo x > src/a
	run timeout 10 script -qec "env -u AESCRYPT_PASSPHRASE '$AESCRYPT' -c src" /dev/null
	[[ $output =~ "refusing to write encrypted data to a terminal" ]]
	[[ ! $output =~ "assphrase" ]]
}

@test "-c with no paths refuses to make an empty archive" {
	run_aescrypt 2 -c "${FAST_KDF[@]}" -f a.aes
	assert_match "refusing to create an empty archive"
	[ ! -e a.aes ]
}

@test "a missing operand is fatal and nothing is written" {
	mkdir src && echo x > src/a
	run_aescrypt 2 -c "${FAST_KDF[@]}" -f a.aes src/a src/missing
	assert_match "error: src/missing: No such file or directory"
	[ ! -e a.aes ]
	assert_no_output . a.aes
}

@test "-f FILE is written under a temp name and renamed at the end" {
	mkdir src && echo x > src/a
	echo old > a.aes
	# Interrupted before the end (missing operand): the old file stays.
	run_aescrypt 2 -c "${FAST_KDF[@]}" -f a.aes src nope
	[ "$(cat a.aes)" = old ]
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes src
	run_aescrypt 0 -t -f a.aes
	[ "$output" = "src/
src/a" ]
	refute compgen -G '.a.aes.aescrypt-*'
}

@test "the archive inside the tree being archived is skipped" {
	mkdir src && echo x > src/a
	# (where the file system makes nameless files, the archive being
	# written is not in the tree until it is complete; with a temp name
	# it is, and is skipped with a warning)
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f src/self.aes src
	has_tmpfile . || assert_match "warning: src/self.aes: file is the archive; not dumped"
	run "$AESCRYPT" -t -f src/self.aes
	[ "$output" = "src/
src/a" ]
	# again, with the old archive in the tree: it is not archived either
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f src/self.aes src
	assert_match "warning: src/self.aes: file is the archive; not dumped"
	run "$AESCRYPT" -t -f src/self.aes
	[ "$output" = "src/
src/a" ]
}

@test "-v lists what -c adds (to stderr when the archive is on stdout)" {
	mkdir -p src/d && echo x > src/d/f
	"$AESCRYPT" -c -v "${FAST_KDF[@]}" src > a.aes 2> names
	[ "$(cat names)" = "src/
src/d/
src/d/f" ]
}

@test "-x -v prints member names on stdout" {
	mkdir -p src/d && echo x > src/d/f
	"$AESCRYPT" -c "${FAST_KDF[@]}" src > a.aes
	mkdir out
	run "$AESCRYPT" -x -v -f a.aes -C out
	[ "$status" -eq 0 ]
	[ "$output" = "src/
src/d/
src/d/f" ]
}

@test "--exclude matches as GNU tar's does (any tail of the path, * across /)" {
	mkdir -p src/keep src/build/sub
	echo a > src/keep/a.c
	echo b > src/keep/b.o
	echo c > src/build/sub/c.c
	run_aescrypt 0 -c "${FAST_KDF[@]}" --exclude '*.o' --exclude build -f a.aes src
	run_aescrypt 0 -t -f a.aes
	[ "$output" = "src/
src/keep/
src/keep/a.c" ]
	diff <(echo "$output") <(tar -c --exclude '*.o' --exclude build src | tar -t)
}

@test "-T reads the paths from a file, or NUL-separated from stdin with --null" {
	mkdir src
	echo 1 > src/one; echo 2 > src/two; echo 3 > "src/th
ree"
	printf 'src/one\nsrc/two\n' > list
	run_aescrypt 0 -c "${FAST_KDF[@]}" -T list -f a.aes
	run_aescrypt 0 -t -f a.aes
	[ "$output" = "src/one
src/two" ]
	printf 'src/th\nree\0src/one\0' |
	    "$AESCRYPT" -c "${FAST_KDF[@]}" -T - --null -f b.aes
	run_aescrypt 0 -t -f b.aes
	[ "$output" = 'src/th\nree
src/one' ]
}

@test "-h archives what symlinks point to; without it, the links" {
	mkdir src && echo data > target && ln -s ../target src/link
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f plain.aes src
	run_aescrypt 0 -c -h "${FAST_KDF[@]}" -f deref.aes src
	run_aescrypt 0 -t -v -f plain.aes
	assert_match "lrwxrwxrwx [^
]* src/link -> \.\./target"
	mkdir out
	run_aescrypt 0 -x -f deref.aes -C out
	[ -f out/src/link ]
	[ ! -L out/src/link ]
	[ "$(cat out/src/link)" = data ]
}

@test "sockets are skipped with a warning, as GNU tar; FIFOs are stored" {
	mkdir src && echo x > src/a && mkfifo src/fifo
	"$PY" -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' src/sock
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes src
	refute_match "fifo"
	assert_match "warning: src/sock: socket ignored"
	run "$AESCRYPT" -t -f a.aes
	[ "$output" = "src/
src/a
src/fifo" ]
}

@test "an unreadable file is a warning, the rest is archived, and the exit status is 1" {
	mkdir src && echo x > src/a && echo secret > src/b && chmod 000 src/b
	mkdir out && chmod 777 out && chmod 755 "$T"
	as_unprivileged "$AESCRYPT" -c "${FAST_KDF[@]}" -f "$T/out/a.aes" -C "$T" src
	[ "$status" -eq 1 ]
	assert_match "warning: src/b: Cannot open: Permission denied"
	assert_match "warning: some files were not archived as they were"
	run_aescrypt 0 -t -f out/a.aes
	[ "$output" = "src/
src/a" ]
}

@test "leading / and ../ are stripped from member names on -c, with a warning" {
	mkdir -p src && echo x > src/f
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes "$T/src/f"
	assert_match "removing leading '/' from member names"
	run "$AESCRYPT" -t -f a.aes
	[ "$output" = "${T#/}/src/f" ]
	(cd src && "$AESCRYPT" -c "${FAST_KDF[@]}" ../src/f > ../b.aes 2> ../err)
	grep -q "removing leading '../' from member names" err
	run "$AESCRYPT" -t -f b.aes
	[ "$output" = "src/f" ]
}

@test "MEMBER operands select what -t lists and -x extracts; a missing one is an error" {
	make_tree src
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes -C src .
	run_aescrypt 0 -t -f a.aes nested/deeper
	[ "$output" = "./nested/deeper/
./nested/deeper/deepest/
./nested/deeper/deepest/text" ]
	mkdir out
	run_aescrypt 1 -x -f a.aes -C out ./empty-file nope
	assert_match "error: nope: not found in archive"
	[ "$(ls -A out)" = empty-file ]
	chmod -R u+rwX src
}

@test "existing files are replaced; --keep-old-files keeps them" {
	mkdir src && echo new > src/f && echo new > src/g
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes -C src .
	mkdir out && echo old > out/f
	ln out/f out/f-other-link
	run_aescrypt 1 -x --keep-old-files -f a.aes -C out
	assert_match "warning: ./f: exists \(--keep-old-files\); not extracted"
	[ "$(cat out/f)" = old ]
	[ "$(cat out/g)" = new ]
	run_aescrypt 0 -x -f a.aes -C out
	[ "$(cat out/f)" = new ]
	# replaced, not written into: the other link to the old inode is intact
	[ "$(cat out/f-other-link)" = old ]
}

@test "-C needs an existing directory for -x" {
	mkdir src && echo x > src/f
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes src
	run_aescrypt 2 -x -f a.aes -C nope
	assert_match "error: nope: No such file or directory"
	assert_match "hint: -C needs an existing directory"
}

@test "archive options are refused outside archive modes, and -o inside them" {
	run_aescrypt 2 -e -f x
	assert_match "error: -f does not apply to -e"
	run_aescrypt 2 -c -o x .
	assert_match "error: -o does not apply to -c"
	assert_match "hint: archives are named with -f FILE"
	run_aescrypt 2 -e --exclude '*.o'
	assert_match "error: --exclude does not apply to -e"
	run_aescrypt 2 -t -O
	assert_match "error: -O does not apply to -t"
	run_aescrypt 2 -c --null .
	assert_match "error: --null applies to the list given with -T"
	run_aescrypt 0 -h
	assert_match "Usage: aescrypt -c"
}

@test "the container header marks an archive as a pax payload, with or without an index" {
	mkdir src && echo x > src/f
	"$AESCRYPT" -c "${FAST_KDF[@]}" src > a.aes
	seq 3 | "$AESCRYPT" -e "${FAST_KDF[@]}" > s.aes
	"$AESCRYPT" -c --no-index "${FAST_KDF[@]}" src > b.aes
	# payload type: the byte after the 8-byte magic, version and length;
	# 2 is an archive with an index (spec 6.8), and bit 7 (128) says a
	# copy of the header ends the file (6.9)
	[ "$(od -An -tu1 -j 11 -N 1 a.aes | tr -d ' ')" = 130 ]
	[ "$(od -An -tu1 -j 11 -N 1 b.aes | tr -d ' ')" = 129 ]
	[ "$(od -An -tu1 -j 11 -N 1 s.aes | tr -d ' ')" = 128 ]
}

@test "a file that grows or shrinks while read: GNU tar's warnings, exit 1" {
	# /proc files say size 0 and have data (grows); many /sys files say
	# 4096 and have less (shrinks).
	local sysf=/sys/devices/system/cpu/online
	[ -r "$sysf" ] || skip "no $sysf here"
	run_aescrypt 1 -c "${FAST_KDF[@]}" -f a.aes /proc/self/status "$sysf"
	assert_match "warning: /proc/self/status: file changed as we read it"
	assert_match "warning: $sysf: File shrank by [0-9]+ bytes; padding with zeros"
	run_aescrypt 0 -t -v -f a.aes
	assert_match " 4096 [^ ]+ [^ ]+ ${sysf#/}"
	mkdir out
	run_aescrypt 0 -x -f a.aes -C out
	[ "$(stat -c %s "out/${sysf#/}")" -eq 4096 ]
}

# stalled_extract PATH...: archive PATH... (with src/big, 100 MB of
# random bytes, among them) and start -x into out/ from a pipe that
# gives most of the archive, then stalls; return once -x is writing
# inside src/big, with its pid in $pid.
stalled_extract() {
	head -c 100000000 /dev/urandom > src/big
	"$AESCRYPT" -c -0 "${FAST_KDF[@]}" -f a.aes "$@"
	mkfifo slow
	# (the sleep holds the pipe open: a stall, not a clock to wait on;
	# the teardown kills it)
	feed slow "head -c 60000000 a.aes; sleep 60"
	mkdir out
	"$AESCRYPT" -x -f slow -C out 2> err &
	pid=$!
	wait_writing "$pid" "$T/out" 10000000
}

@test "SIGINT during -x: the member being written is removed, exit 130" {
	local pid
	mkdir src
	stalled_extract src
	kill -INT "$pid"
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ]
	grep -q "src/big: not extracted: interrupted" err
	[ ! -e out/src/big ]
	assert_no_temps out
}

@test "SIGKILL during -x: nothing under the member's name, and no temp file where files can be made nameless" {
	local pid
	mkdir src
	echo small > src/a
	stalled_extract src/a src/big
	kill -KILL "$pid"
	wait "$pid" || true
	[ "$(cat out/src/a)" = small ]
	[ ! -e out/src/big ]
	# no file has a name until complete, so a kill leaves nothing
	if has_tmpfile out; then
		assert_no_temps out
	fi
}

@test "SIGKILL while the first file is written leaves no temp file either (how files get names is learnt on an empty probe)" {
	local pid
	mkdir src
	stalled_extract src/big
	kill -KILL "$pid"
	wait "$pid" || true
	[ ! -e out/src/big ]
	has_tmpfile out || skip "this file system makes no nameless files"
	assert_no_temps out
}

@test "-x over what is there: files, symlinks and empty directories replaced, --keep-old-files keeps them" {
	mkdir -p src/d
	echo new > src/f
	echo new > src/g
	echo new > src/d/h
	"$AESCRYPT" -c "${FAST_KDF[@]}" -f a.aes src
	mkdir -p out/src/g out/src/d
	echo old > out/src/f
	ln -s /nonexistent out/src/d/h
	run_aescrypt 0 -x -f a.aes -C out
	[ "$(cat out/src/f)" = new ]
	[ "$(cat out/src/g)" = new ]
	[ ! -L out/src/d/h ]
	[ "$(cat out/src/d/h)" = new ]
	assert_no_temps out
	echo old > out/src/f
	rm out/src/g
	run_aescrypt 1 -x --keep-old-files -f a.aes -C out
	assert_match "src/f: .*exists"
	[ "$(cat out/src/f)" = old ]
	[ "$(cat out/src/g)" = new ]
	assert_no_temps out
}

@test "SIGTERM during -c -f FILE: the old archive is untouched, no temp file" {
	mkdir src
	# counting text at -9 on one thread: seconds of work (random data
	# would be stored at once on the probe's word)
	seq 1 30000000 | head -c 200000000 > src/big
	echo old > a.aes
	"$AESCRYPT" -c -9 -j1 "${FAST_KDF[@]}" -f a.aes src 2> err &
	local pid=$!
	# mid-job: the temp file has data in it
	wait_writing "$pid" "$T" 65536
	kill -TERM "$pid"
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 143 ]
	grep -q "error: interrupted" err
	[ "$(cat a.aes)" = old ]
	refute compgen -G '.a.aes.aescrypt-*'
}

@test "--stats for -c and -x shows the files stage, and the shares add up" {
	make_tree src
	"$AESCRYPT" -c --stats=json "${FAST_KDF[@]}" -f a.aes -C src . 2> c.json
	mkdir out
	"$AESCRYPT" -x --stats=json -f a.aes -C out 2> x.json
	local f
	for f in c.json x.json; do
		"$PY" - "$f" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
st = s["stages"]
assert "files" in st, st
assert st["files"]["cpu_s"] > 0, st
total = sum(v["share"] for v in st.values())
assert abs(total - 1.0) < 0.01, total
assert s["mode"] == {"c.json": "create", "x.json": "extract"}[sys.argv[1]], s["mode"]
PYEOF
	done
	"$AESCRYPT" -t --stats -f a.aes > /dev/null 2> t.txt
	grep -q 'stats: list, ' t.txt
	chmod -R u+rwX src out
}

@test "owners are restored by root, as GNU tar, unless --no-same-owner; modes exactly unless --no-same-permissions" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	mkdir -p src/d && echo x > src/d/f && ln -s f src/d/l
	chown -h 1234:5678 src/d src/d/f src/d/l
	chmod 4751 src/d/f
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes -C src d
	mkdir plain owned default
	run_aescrypt 0 -x --no-same-owner --no-same-permissions -f a.aes -C plain
	[ "$(stat -c %u:%g plain/d/f)" = 0:0 ]
	[ "$(stat -c %a plain/d/f)" = 751 ]
	run_aescrypt 0 -x -f a.aes -C default
	[ "$(stat -c %u:%g default/d/f)" = 1234:5678 ]
	[ "$(stat -c %a default/d/f)" = 4751 ]
	# GNU tar does the same with the same payload
	mkdir gnu && "$AESCRYPT" -d a.aes | tar -x -C gnu
	[ "$(stat -c %u:%g:%a gnu/d/f)" = 1234:5678:4751 ]
	run_aescrypt 0 -x --same-owner -f a.aes -C owned
	[ "$(stat -c %u:%g owned/d/f)" = 1234:5678 ]
	[ "$(stat -c %u:%g owned/d)" = 1234:5678 ]
	[ "$(stat -c %u:%g owned/d/l)" = 1234:5678 ]
}

@test "--same-owner: a member's owner name wins over its number, as in tar, for owners that come and go" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	getent passwd nobody > /dev/null && getent group nogroup > /dev/null || skip "no nobody/nogroup here"
	local nobody nogroup f
	nobody=$(id -u nobody)
	nogroup=$(getent group nogroup | cut -d: -f3)
	for f in a b c d; do echo "$f" > "$f"; done
	tar -cf t.tar --owner=nobody:1234 --group=nogroup:5678 a
	tar -rf t.tar --owner=root:7 --group=root:8 b
	tar -rf t.tar --owner=no-such-user-x:4321 --group=no-such-group-x:8765 c
	tar -rf t.tar --owner=nobody:1234 --group=nogroup:5678 d
	make_key k
	"$AESCRYPT" -e -k k -o t.aes t.tar
	mkdir out
	run_aescrypt 0 -x --same-owner -k k -f t.aes -C out
	[ "$(stat -c %u:%g out/a)" = "$nobody:$nogroup" ]
	[ "$(stat -c %u:%g out/b)" = 0:0 ]
	[ "$(stat -c %u:%g out/c)" = 4321:8765 ]
	[ "$(stat -c %u:%g out/d)" = "$nobody:$nogroup" ]
}

@test "a damaged archive does not also claim that MEMBER operands are missing" {
	mkdir src && head -c 300000 /dev/urandom > src/a && echo z > src/z
	run_aescrypt 0 -c -0 --chunk-size 64K "${FAST_KDF[@]}" -f a.aes src
	head -c 100000 a.aes > cut.aes
	mkdir out
	run_aescrypt 4 -x -f cut.aes -C out src/z
	refute grep -q "not found in archive" <<< "$output"
	run_aescrypt 4 -t -f cut.aes src/z
	refute grep -q "not found in archive" <<< "$output"
}

@test "a file's mode is its member's whatever the umask, which the new file is made under: --same-permissions exact, otherwise masked" {
	# (-x creates a file with its member's bits and sets them again
	# only where the umask changed them: these modes are changed by
	# umask 027 and 077, and one is not)
	mkdir -p src/d
	for m in 666 777 640 600 444; do
		echo "$m" > src/d/f$m && chmod $m src/d/f$m
	done
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes -C src d
	mkdir exact masked
	(umask 077 && "$AESCRYPT" -x -q -p "${FAST_KDF[@]}" -f a.aes -C exact)
	(umask 027 && "$AESCRYPT" -x -q --no-same-permissions "${FAST_KDF[@]}" -f a.aes -C masked)
	local got
	got=$(cd exact/d && stat -c '%n %a' f* | tr '\n' ' ')
	[ "$got" = "f444 444 f600 600 f640 640 f666 666 f777 777 " ] || { echo "exact: $got" >&2; return 1; }
	got=$(cd masked/d && stat -c '%n %a' f* | tr '\n' ' ')
	[ "$got" = "f444 440 f600 600 f640 640 f666 640 f777 750 " ] || { echo "masked: $got" >&2; return 1; }
	cmp src/d/f444 exact/d/f444
}
