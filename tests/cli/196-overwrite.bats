#!/usr/bin/env bats
# What -x does with what exists (issue 25): --skip-old-files,
# --keep-newer-files, --keep-old-files, --overwrite and -U, the last one
# given winning, as in GNU tar; each compared with GNU tar on the same
# payload, and none a way around the path rules.

load test_helper

setup() {
	test_dir
	make_key key
}

# A tree whose archive (a.aes, and the same payload as a.tar) holds an
# old f and g and a new n; out/ then holds an f newer than the
# member, a g as old as it, and an n older than it.
mk_case() {
	mkdir src && echo f-archived > src/f && echo g-archived > src/g && echo n-archived > src/n
	touch -d '2020-01-01 00:00:00' src/f src/g
	touch -d '2024-06-01 00:00:00' src/n
	"$AESCRYPT" -c -q -k key -f a.aes -C src .
	"$AESCRYPT" -d -q -k key a.aes > a.tar
	mkdir out && echo f-here > out/f && echo g-here > out/g && echo n-here > out/n
	touch -d '2022-01-01 00:00:00' out/f
	touch -d '2020-01-01 00:00:00' out/g
	touch -d '2023-01-01 00:00:00' out/n
	cp -a out gnu
}

# same_tree A B: the same names and contents.
same_tree() {
	diff -r "$1" "$2"
}

@test "--skip-old-files leaves what exists, quietly, exit 0, as GNU tar; what is missing is extracted" {
	mk_case
	rm out/g gnu/g
	run_aescrypt 0 -x --skip-old-files -k key -f a.aes -C out
	refute_match "warning|error"
	[ "$(cat out/f)" = f-here ]
	[ "$(cat out/n)" = n-here ]
	[ "$(cat out/g)" = g-archived ]
	tar -xf a.tar --skip-old-files -C gnu
	same_tree gnu out
	assert_no_temps out
}

@test "--keep-newer-files keeps what is as new or newer (said), replaces what is older, exit 0, as GNU tar" {
	mk_case
	run_aescrypt 0 -x --keep-newer-files -k key -f a.aes -C out
	assert_match "warning: current ./f is newer or same age; not extracted"
	assert_match "warning: current ./g is newer or same age; not extracted"
	refute_match "current ./n"
	[ "$(cat out/f)" = f-here ]
	[ "$(cat out/g)" = g-here ]
	[ "$(cat out/n)" = n-archived ]
	tar -xf a.tar --keep-newer-files -C gnu 2> /dev/null
	same_tree gnu out
	assert_no_temps out
}

@test "the last overwrite policy wins, as in GNU tar; --overwrite, -U and --overwrite-dir replace as the default does; -c refuses them" {
	mk_case
	run_aescrypt 1 -x --overwrite --keep-old-files -k key -f a.aes -C out
	assert_match "warning: ./f: exists \(--keep-old-files\); not extracted"
	[ "$(cat out/f)" = f-here ]
	run_aescrypt 0 -x --keep-old-files --skip-old-files -k key -f a.aes -C out
	refute_match "warning"
	[ "$(cat out/f)" = f-here ]
	# a hard link to the old file keeps the old contents: a new file is
	# made under the name, never written into the old one
	ln out/f out/f-link
	run_aescrypt 0 -x --skip-old-files --overwrite -k key -f a.aes -C out
	[ "$(cat out/f)" = f-archived ]
	[ "$(cat out/f-link)" = f-here ]
	echo again > out/f
	run_aescrypt 0 -x -U --overwrite-dir -k key -f a.aes -C out
	[ "$(cat out/f)" = f-archived ]
	run_aescrypt 2 -c --skip-old-files -k key -f c.aes src
	assert_match "does not apply to -c"
	[ ! -e c.aes ]
}

@test "no policy opens a way around the path rules: a symlink in the way is never followed" {
	mkdir -p src/d outside && echo inside > src/d/f
	"$AESCRYPT" -c -q -k key -f a.aes -C src .
	for policy in --skip-old-files --keep-newer-files --overwrite -U --keep-old-files; do
		rm -rf out && mkdir out
		ln -s ../outside out/d
		run "$AESCRYPT" -x $policy -k key -f a.aes -C out
		[ ! -e outside/f ]
		[ -z "$(ls -A outside)" ]
	done
	# and a symlink where a file goes stays a symlink with --skip-old-files,
	# its target untouched
	echo target > outside/t
	mkdir -p s2 && echo member > s2/t
	"$AESCRYPT" -c -q -k key -f t.aes -C s2 t
	rm -rf out && mkdir out && ln -s ../outside/t out/t
	run_aescrypt 0 -x --skip-old-files -k key -f t.aes -C out
	[ -L out/t ]
	[ "$(cat outside/t)" = target ]
	run_aescrypt 0 -x --keep-newer-files -k key -f t.aes -C out
	[ "$(cat outside/t)" = target ]
}

@test "-x -k ARCHIVE: tar's -k is --keep-old-files here, and the message says so" {
	mkdir src && echo x > src/f
	"$AESCRYPT" -c -q -k key -f a.aes src
	chmod 600 a.aes
	run_aescrypt 3 -x -k a.aes -f a.aes
	assert_match "error: a.aes: not an aescrypt key file"
	assert_match "hint: it is an aescrypt file: -k names a key file \(tar's -k, keep old files, is --keep-old-files here\)"
}
