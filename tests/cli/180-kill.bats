#!/usr/bin/env bats
# SIGKILL at any point leaves nothing (issue 22): every output (-c -f,
# -e -o, -d -o) is a file with no name until it is complete, where the
# file system has O_TMPFILE.  Before, a temp name stayed behind every
# time (55 runs of 55).  Each run is killed once its output holds some
# bytes, at a different size each time.

load test_helper

setup() {
	test_dir || return 1
	has_tmpfile "$T" || skip "this file system makes no nameless files (O_TMPFILE)"
	make_key k
}

teardown() {
	rm -rf "$T"
}

# only FILE...: the directory holds exactly these names.
only() {
	local want got
	want=$(printf '%s\n' "$@" | sort)
	got=$(ls -A | sort)
	[ "$got" = "$want" ] || {
		echo "left behind: $(comm -13 <(echo "$want") <(echo "$got") | tr '\n' ' ')" >&2
		return 1
	}
}

# killed_at PID BYTES: wait until PID writes an output under $T past
# BYTES, then SIGKILL it and reap it.
killed_at() {
	wait_writing "$1" "$T" "$2"
	kill -KILL "$1"
	wait "$1" 2>/dev/null || true
}

@test "SIGKILL during -e -o leaves no file, wherever it lands" {
	head -c 8000000 /dev/urandom > in
	local at
	for at in 1 65536 300000 1000000 3000000; do
		mkfifo f
		exec 8<> f
		"$AESCRYPT" -e -0 -k k -o out.aes < f 8>&- &
		local pid=$!
		# the input: most of it, then a stall (the FIFO is held open
		# by fd 8).  head opens the FIFO write-only, not through fd 8
		# (read-write): once the reader is killed and fd 8 closed it
		# gets EPIPE, where through fd 8 it was a reader of its own
		# and blocked forever if it had not written all before the
		# kill (seen under load, with two test files at a time).
		head -c 6000000 in > f 3>&- 8>&- &
		killed_at "$pid" "$at"
		exec 8>&-
		wait
		rm f
		only in k
	done
}

@test "SIGKILL during -d -o leaves no file, and an old file there is untouched" {
	head -c 8000000 /dev/urandom > in
	"$AESCRYPT" -e -0 -k k -o in.aes in
	echo old > out
	local at
	for at in 1 65536 300000 1000000 3000000; do
		mkfifo f
		exec 8<> f
		"$AESCRYPT" -d -k k -o out < f 8>&- &
		local pid=$!
		head -c 6000000 in.aes > f 3>&- 8>&- &
		killed_at "$pid" "$at"
		exec 8>&-
		wait
		rm f
		only in in.aes k out
		[ "$(cat out)" = old ]
	done
}

@test "SIGKILL during -c -f leaves no file, and an old archive there is untouched" {
	mkdir src
	# counting text at -9 on one thread: seconds of work
	seq 1 20000000 | head -c 120000000 > src/big
	echo old > a.aes
	local at
	for at in 1 65536 300000 1000000; do
		"$AESCRYPT" -c -9 -j1 -k k -f a.aes src &
		killed_at "$!" "$at"
		only a.aes k src
		[ "$(cat a.aes)" = old ]
	done
}

@test "SIGKILL during -d --salvage -o leaves no OUT.damaged either" {
	head -c 8000000 /dev/urandom > in
	"$AESCRYPT" -e -0 -k k -o in.aes in
	mkfifo f
	exec 8<> f
	"$AESCRYPT" -d --salvage -k k -o out < f 8>&- &
	local pid=$!
	head -c 6000000 in.aes > f 3>&- 8>&- &
	killed_at "$pid" 1000000
	exec 8>&-
	wait
	rm f
	only in in.aes k
}
