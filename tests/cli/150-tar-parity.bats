#!/usr/bin/env bats
# Everyday tar habits (issue 16): member patterns, --exclude and -T on
# -t and -x, -O, --strip-components, positional -C, --test, --info, the
# terminal refusal and a single Ctrl-C, bundles, sealed-archive options.

load test_helper

setup() {
	test_dir
	export AESCRYPT_PASSPHRASE=parity
	mkdir -p proj/src/sub proj/doc
	echo a > proj/src/a.c
	echo b > proj/src/sub/b.c
	echo h > proj/src/h.h
	echo r > proj/doc/r.txt
	echo '[' > 'proj/doc/a[1].txt'
	"$AESCRYPT" -c -q "${FAST_KDF[@]}" -f x.aes proj
}

# listing ARGS...: aescrypt -t's output, one line per member.
listing() {
	run_aescrypt 0 -t -q "$@"
}

@test "-t and -x take shell patterns; a directory selects its tree; '*' crosses '/'" {
	listing -f x.aes 'proj/src/*.c'
	[ "$output" = $'proj/src/a.c\nproj/src/sub/b.c' ]
	listing -f x.aes 'proj/s?c'
	[ "${#lines[@]}" -eq 5 ]
	[ "${lines[0]}" = proj/src/ ]
	# a name with brackets is found as it is, and as a pattern
	listing -f x.aes 'proj/doc/a[1].txt'
	[ "$output" = 'proj/doc/a[1].txt' ]
	listing -f x.aes './proj/doc/'
	[ "${#lines[@]}" -eq 3 ]
	mkdir out
	run_aescrypt 0 -x -q -f x.aes -C out '*.h'
	[ "$(cd out && find . -type f)" = ./proj/src/h.h ]
	# GNU tar's --wildcards is accepted and changes nothing
	listing --wildcards -f x.aes 'proj/src/*.h'
	[ "$output" = proj/src/h.h ]
}

@test "a pattern that matched nothing is named at the end, with exit 1, after the rest" {
	mkdir out
	run_aescrypt 1 -x -q -f x.aes -C out 'proj/src/*.c' 'nothing*' proj/missing
	assert_match "error: nothing\*: not found in archive"
	assert_match "error: proj/missing: not found in archive"
	[ -f out/proj/src/a.c ]
	[ -f out/proj/src/sub/b.c ]
}

@test "--exclude applies to -t and -x, and wins over patterns" {
	listing -f x.aes --exclude '*.c' --exclude doc
	[ "$output" = $'proj/\nproj/src/\nproj/src/h.h\nproj/src/sub/' ]
	mkdir out
	run_aescrypt 0 -x -q -f x.aes -C out --exclude sub proj/src
	[ "$(cd out && find . -type f | sort)" = $'./proj/src/a.c\n./proj/src/h.h' ]
}

@test "-T lists patterns for -t and -x, with --null too" {
	printf 'proj/src/h.h\nproj/doc/*.txt\n' > list
	listing -f x.aes -T list
	[ "$output" = $'proj/doc/r.txt\nproj/doc/a[1].txt\nproj/src/h.h' ] ||
	    [ "$(sort <<< "$output")" = "$(printf 'proj/doc/a[1].txt\nproj/doc/r.txt\nproj/src/h.h')" ]
	printf 'proj/src/a.c\0nope\0' > nlist
	mkdir out
	run_aescrypt 1 -x -q -f x.aes -C out -T nlist --null
	assert_match "error: nope: not found in archive"
	[ "$(cd out && find . -type f)" = ./proj/src/a.c ]
}

@test "-O writes the selected members' data to standard output, nothing to disk" {
	run bash -c "'$AESCRYPT' -x -q -O -f x.aes proj/doc/r.txt proj/src/a.c 2> err"
	[ "$status" -eq 0 ]
	# in archive order
	[ "$output" = $'r\na' ] || [ "$output" = $'a\nr' ]
	[ "$(ls)" = "$(printf 'err\nproj\nx.aes')" ]
	# -v names go to stderr, the data alone to stdout
	"$AESCRYPT" -x -q -v --to-stdout -f x.aes proj/src/h.h > data 2> names
	[ "$(cat data)" = h ]
	grep -qx proj/src/h.h names
}

@test "--strip-components drops leading parts; shorter members are passed over" {
	mkdir out
	run_aescrypt 0 -x -q -f x.aes -C out --strip-components=2 proj/src
	[ "$(cd out && find . | sort)" = $'.\n./a.c\n./h.h\n./sub\n./sub/b.c' ]
	# hard link targets are stripped too
	mkdir -p hl/d && echo same > hl/d/f && ln hl/d/f hl/d/g
	"$AESCRYPT" -c -q "${FAST_KDF[@]}" -f hl.aes hl
	mkdir out2
	run_aescrypt 0 -x -q -f hl.aes -C out2 --strip-components 1
	[ "$(stat -c %h out2/d/g)" -eq 2 ]
	[ "$(stat -c %i out2/d/f)" = "$(stat -c %i out2/d/g)" ]
	run_aescrypt 2 -x -f x.aes --strip-components=x
	assert_match "--strip-components: invalid value 'x'"
}

@test "-C is positional for -c: each applies to the paths after it, relative to the last" {
	mkdir -p other/etc && echo host > other/etc/hostname
	run_aescrypt 0 -c -q "${FAST_KDF[@]}" -f p.aes -C proj src -C ../other/etc hostname
	listing -f p.aes
	[ "$output" = $'src/\nsrc/a.c\nsrc/h.h\nsrc/sub/\nsrc/sub/b.c\nhostname' ]
	# GNU tar reads the same command the same way
	tar -cf p.tar -C proj src -C ../other/etc hostname
	[ "$(tar -tf p.tar)" = "$output" ]
	run_aescrypt 2 -c -q "${FAST_KDF[@]}" -f q.aes -C proj src -C nowhere x
	assert_match "error: nowhere: No such file or directory"
	[ ! -e q.aes ]
	run_aescrypt 2 -x -f x.aes -C a -C b
	assert_match "-C may be given once with -x"
}

@test "--test authenticates archives and streams, prints nothing, and fails on damage" {
	run_aescrypt 0 --test x.aes
	[ -z "$output" ]
	run_aescrypt 0 --test -f x.aes
	seq 100000 | "$AESCRYPT" -e -q "${FAST_KDF[@]}" > s.aes
	run_aescrypt 0 --test s.aes
	[ -z "$output" ]
	# a flipped byte in the payload, a cut file, a wrong key
	cp s.aes bad.aes
	flip_byte bad.aes 300
	run_aescrypt 4 --test bad.aes
	assert_match "failed authentication"
	head -c 200 s.aes > cut.aes
	run_aescrypt 4 --test cut.aes
	AESCRYPT_PASSPHRASE=wrong run_aescrypt 3 --test x.aes
	run_aescrypt 2 --test -vv x.aes
}

@test "--test -v gives one verdict line per file, and checks every file named" {
	seq 100000 | "$AESCRYPT" -e -q "${FAST_KDF[@]}" > s.aes
	run_aescrypt 0 --test -v x.aes s.aes
	assert_match '^x.aes: OK, [0-9,]+ members?, .*, [0-9,]+ chunks?, index OK'
	assert_match 's.aes: OK, a stream of 575.1 KiB, 3 chunks$'
	[ "$(echo "$output" | wc -l)" -eq 2 ]
	cp s.aes bad.aes
	flip_byte bad.aes 300
	run_aescrypt 4 --test -v bad.aes x.aes
	assert_match 'bad.aes: .*failed authentication'
	assert_match 'x.aes: OK'
	# --salvage reads past the index: the verdict does not claim it, and
	# the members it counts are those read whole
	run_aescrypt 0 --test -v x.aes
	local plain=$output
	run_aescrypt 0 --test -v --salvage x.aes
	[ "$output" = "${plain/index OK (every entry matches the member read)/index not compared (--salvage)}" ]
}

@test "--info says whether a file is whole, from what a file without a key shows: the copy, the footer, every record's frame" {
	local f
	for f in good-copy-index good-index good-copy; do
		run_aescrypt 0 --info "$SAMPLES/$f.aes"
		assert_match "whole: +yes"
	done
	# without a copy of the header, the records' frames still tell
	run_aescrypt 0 --info "$SAMPLES/good-one-chunk.aes"
	assert_match "whole: +yes \(every record's frame holds, to the final one \(1 record\)\)"
	# a frame that cannot be followed, and one whose flags are wrong
	run_aescrypt 4 --info "$SAMPLES/bad-chunk-length.aes"
	assert_match "whole: +NO \(payload record 2 \(at offset [0-9]+\) has a damaged frame\)"
	run_aescrypt 4 --info "$SAMPLES/bad-chunk-flags.aes"
	assert_match "whole: +NO \(payload record 0 \(at offset [0-9]+\) has a damaged frame\)"
	# a footer whose record count is not what the frames give
	python3 - "$SAMPLES/good-copy-index.aes" count.aes <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
L = d[-2] << 8 | d[-1]
foot = len(d) - L - 2 - 32
n = int.from_bytes(d[foot + 8:foot + 16], 'big')
d[foot + 8:foot + 16] = (n + 1).to_bytes(8, 'big')
open(sys.argv[2], 'wb').write(d)
PY
	run_aescrypt 4 --info count.aes
	assert_match "whole: +NO \(the payload's final record ends at offset [0-9]+ after 2 records, where the footer says [0-9]+ and 3\)"
	for f in bad-copy-truncated bad-copy-trailing; do
		run_aescrypt 4 --info "$SAMPLES/$f.aes"
		assert_match "whole: +NO \(the file is cut short \(or has bytes after its end\)"
		assert_match "error: .*$f.aes: the file is cut short"
	done
	for f in bad-index-truncated bad-index-missing; do
		run_aescrypt 4 --info "$SAMPLES/$f.aes"
		assert_match "whole: +NO \(the file is cut short or damaged: its footer does not fit"
	done
	# a footer that lies about where the index starts, the copy intact
	python3 - "$SAMPLES/good-copy-index.aes" lie.aes <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
L = d[-2] << 8 | d[-1]
foot = len(d) - L - 2 - 32
d[foot:foot + 8] = (len(d) * 2).to_bytes(8, 'big')
open(sys.argv[2], 'wb').write(d)
PY
	run_aescrypt 4 --info=json lie.aes
	assert_match '"whole":false'
	# several files: each judged, the worst status wins
	run_aescrypt 4 --info "$SAMPLES/good-copy.aes" lie.aes "$SAMPLES/good-index.aes"
	[ "$(echo "$output" | grep -c '^whole:')" -eq 3 ]
}

@test "--info describes the header without a key, as text and JSON" {
	make_key k
	"$AESCRYPT" -e -q -k k -P "${FAST_KDF[@]}" --chunk-size 64K -o kp.aes x.aes
	run env -u AESCRYPT_PASSPHRASE "$AESCRYPT" --info kp.aes
	[ "$status" -eq 0 ]
	assert_match "payload: +stream"
	assert_match "chunk size: +64 KiB"
	assert_match "slot 0: +key file"
	assert_match "slot 1: +passphrase, Argon2id: memory 8 MiB, 1 passes, 1 lanes"
	assert_match "a copy ends the file \(for --salvage\)"
	run env -u AESCRYPT_PASSPHRASE "$AESCRYPT" --info "$SAMPLES/good-index.aes"
	assert_match "no copy at the end \(made before aescrypt 0.3\)"
	run env -u AESCRYPT_PASSPHRASE "$AESCRYPT" --info=json x.aes
	[ "$status" -eq 0 ]
	python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["payload"]=="archive" and d["chunk_size"]==262144 and d["header_copy"] is True and d["slots"]==[{"type":"passphrase","kdf":"argon2id","memory_kib":8192,"time":1,"parallelism":1}], d' "$output"
	echo text > plain
	run_aescrypt 4 --info plain
	assert_match "not an aescrypt container"
}

@test "a container is never read from a terminal: tar's hint, naming the operand for -f" {
	run script -qec "'$AESCRYPT' -t x.aes" /dev/null < /dev/null
	assert_match "refusing to read archive contents from a terminal \(missing -f option\?\)"
	assert_match "hint: to read 'x.aes', give it with -f: aescrypt -t -f x.aes"
	run script -qec "'$AESCRYPT' -x; echo rc=\$?" /dev/null < /dev/null
	assert_match "missing -f option"
	assert_match "rc=2"
	run script -qec "'$AESCRYPT' -d; echo rc=\$?" /dev/null < /dev/null
	assert_match "refusing to read encrypted data from a terminal"
	assert_match "rc=2"
}

# ctrl_c CONDITION CMD: run the shell command CMD on a pseudo-terminal
# (in tty.log), and type ^C once CONDITION (a shell command) holds; the
# exit status CMD printed as rc=N is then in tty.log.  ^C reaches
# script's shell too: dash (sh here) dies of it before it can print
# rc=, bash waits; a trap keeps the shell alive, and exec resets it, so
# aescrypt still starts with SIGINT's default.  CMD's shell writes its
# pid to aescrypt.pid first: aescrypt keeps it through exec.
ctrl_c() {
	local cond=$1 cmd=$2 i
	rm -f keys aescrypt.pid && mkfifo keys
	exec 8<> keys
	script -qfec "trap : INT; sh -c 'echo \$\$ > aescrypt.pid; exec $cmd'; echo rc=\$?" \
	    /dev/null < keys > tty.log 2>&1 &
	local spid=$!
	for i in $(seq 200); do
		eval "$cond" && break
		sleep 0.05
	done
	printf '\003' >&8
	# one ^C must be enough: a run still going 10 s later has failed
	for i in $(seq 200); do
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$spid" 2>/dev/null; then
		echo "^C did not end: $cmd" >> tty.log
		pkill -KILL -P "$spid" 2>/dev/null; kill -KILL "$spid"
		kill -KILL "$(cat aescrypt.pid)" 2>/dev/null
	fi
	wait "$spid" || true
	exec 8>&-
}

# blocked: aescrypt (its pid in aescrypt.pid) is running, and every one
# of its threads sleeps: it waits for input.
blocked() {
	local pid t want
	pid=$(cat aescrypt.pid 2>/dev/null) || return 1
	want=$(readlink -f "$AESCRYPT")
	[ "$(readlink /proc/"$pid"/exe 2>/dev/null)" = "$want" ] || return 1
	for t in /proc/"$pid"/task/*/stat; do
		[ "$(sed 's/.*) //' "$t" | cut -d' ' -f1)" = S ] || return 1
	done
}

@test "one Ctrl-C ends a run blocked on a terminal read, and leaves no output" {
	make_key k
	# -e reading the keyboard (allowed, as for gzip): ^C once it waits
	ctrl_c blocked "'$AESCRYPT' -e -k k -o out.aes"
	grep -q "rc=130" tty.log || { cat tty.log >&2; return 1; }
	assert_no_output . out.aes
	# the passphrase prompt, with echo off: ^C once it is shown
	ctrl_c "grep -q Passphrase: tty.log" \
	    "env -u AESCRYPT_PASSPHRASE '$AESCRYPT' -x -f x.aes -C ."
	grep -q "Passphrase:" tty.log
	grep -q "rc=130" tty.log || { cat tty.log >&2; return 1; }
}

@test "tar's old dashless form (xf, tvf) is named for what it is; any other word asks for a mode (issue 51)" {
	run_aescrypt 2 xf x.aes
	assert_match "unexpected argument 'xf'"
	assert_match "hint: did you mean -xf\?"
	run_aescrypt 2 tvf x.aes
	assert_match "did you mean -tvf\?"
	run_aescrypt 2 hello
	refute_match "did you mean"
	assert_match "hint: give a mode"
}

@test "bundles take values as tar does, and say so when a letter was swallowed" {
	mkdir out
	run_aescrypt 0 -xqf x.aes -Cout
	[ -f out/proj/src/a.c ]
	listing -qtf x.aes proj/src/h.h
	[ "$output" = proj/src/h.h ]
	make_key k
	run_aescrypt 2 -xkf x.aes
	assert_match "error: -k took 'f' as its value \(the rest of '-xkf'\)"
	assert_match "hint: a letter that takes a value ends a bundle"
	# a real file of that name is taken, as tar would take it, and
	# x.aes is then a pattern: the archive is standard input
	cp k f
	run_aescrypt 4 -xkf x.aes < /dev/null
	refute_match "took 'f'"
	assert_match "standard input: input is empty"
}

@test "-r (as tar's append), -u, -A, --append, --update, --delete, --verify explain the sealed stream" {
	local o
	for o in -u -A --append --update --concatenate; do
		run_aescrypt 2 $o -f x.aes proj
		assert_match "sealed, write-once stream; nothing can be added"
		assert_match "hint: create a new archive"
	done
	run_aescrypt 2 --delete -f x.aes proj
	assert_match "sealed, write-once stream; nothing can be removed from it"
	assert_match "hint: make a new archive without those members"
	# -r is age's recipient here: a value that is none gets both stories
	run_aescrypt 2 -rf x.aes proj
	assert_match "-r names a recipient .*, not 'f'"
	assert_match "hint: tar's -r \(append\) has no equivalent: an aescrypt archive is a sealed, write-once stream"
	run_aescrypt 2 -c --verify -f y.aes proj
	assert_match "every chunk is authenticated"
	assert_match "aescrypt --test -f ARCHIVE"
	[ ! -e y.aes ]
}

@test "-z and --gzip choose DEFLATE, the default, without a word; the archive is the same kind" {
	run_aescrypt 0 -czq "${FAST_KDF[@]}" -f z.aes proj
	[ -z "$output" ]
	run_aescrypt 0 --info z.aes
	assert_match "codec: +DEFLATE"
	listing -f z.aes proj/src/h.h
	[ "$output" = proj/src/h.h ]
	run_aescrypt 0 -t -z -q -f z.aes proj/src/h.h
	[ "$output" = proj/src/h.h ]
}

@test "--help fits one 40-line screen and names -o; --help=all has every option" {
	run_aescrypt 0 --help
	[ "${#lines[@]}" -le 40 ]
	assert_match "-o, --output FILE"
	assert_match "--help=all"
	run_aescrypt 0 --help=all
	[ "${#lines[@]}" -gt 40 ]
	assert_match "--kdf-memory"
	assert_match "--strip-components"
}

@test "on a terminal, -c's hint names -f and -e's names -o" {
	run script -qec "'$AESCRYPT' -c ${FAST_KDF[*]} proj; echo rc=\$?" /dev/null < /dev/null
	assert_match "refusing to write encrypted data to a terminal"
	assert_match "hint: redirect the output with '>' or use -f FILE"
	assert_match "rc=2"
	run script -qec "echo x | '$AESCRYPT' -e ${FAST_KDF[*]}; echo rc=\$?" /dev/null < /dev/null
	assert_match "hint: redirect the output with '>' or use -o FILE"
}
