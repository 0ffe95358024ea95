#!/usr/bin/env bats
# A file of another format given to -d, -t, -x, --test or --info is
# named ("FILE is a gzip file"), with what to run instead, exit 4, and
# nothing written.  Each file is made in the test by the tool itself.

load test_helper

setup() {
	test_dir
	seq 1 2000 > plain.txt
	mkdir out
}

# refused FILE KIND HINT: every reading mode names it and writes nothing
refused() {
	local f=$1 kind=$2 hint=$3
	run_aescrypt 4 -d -o out/d "$f"
	assert_match "aescrypt: error: $f is an? $kind file, not an aescrypt container"
	assert_match "hint: to read it: $hint"
	[ ! -e out/d ]
	run_aescrypt 4 -tf "$f"
	assert_match "$f is an? $kind file"
	run_aescrypt 4 -xf "$f" -C out
	assert_match "$f is an? $kind file"
	[ -z "$(ls out)" ]
	run_aescrypt 4 --test "$f"
	assert_match "$f is an? $kind file"
	run_aescrypt 4 --info "$f"
	assert_match "$f is an? $kind file"
	# from a pipe too, named as standard input
	run bash -c "'$AESCRYPT' -d < '$f'"
	[ "$status" -eq 4 ]
	assert_match "standard input is an? $kind file"
}

need() {
	command -v "$1" > /dev/null || skip "$1 is not installed"
}

@test "a gzip file" {
	need gzip
	gzip -c plain.txt > p.gz
	refused p.gz gzip 'gzip -dc p.gz'
}

@test "a zstd file" {
	need zstd
	zstd -q -c plain.txt > p.zst
	refused p.zst zstd 'zstd -dc p.zst'
}

@test "an xz file" {
	need xz
	xz -c plain.txt > p.xz
	refused p.xz xz 'xz -dc p.xz'
}

@test "a 7-Zip file" {
	need 7zz
	7zz a -bd -bso0 p.7z plain.txt
	refused p.7z 7-Zip '7z x p.7z'
}

@test "a zip file" {
	need zip
	zip -q p.zip plain.txt
	refused p.zip zip 'unzip p.zip'
}

@test "a tar file" {
	tar cf p.tar plain.txt
	refused p.tar tar 'tar -xf p.tar'
}

@test "an age file, binary and armored: read, not refused (210-age.bats)" {
	need age
	age-keygen -o id.txt 2> /dev/null
	age -r "$(age-keygen -y id.txt)" -o p.age plain.txt
	age -a -r "$(age-keygen -y id.txt)" -o p.age.asc plain.txt
	for f in p.age p.age.asc; do
		run_aescrypt 3 --test "$f"
		assert_match "$f: this age file opens only with an identity"
		run_aescrypt 0 --test -i id.txt "$f"
		"$AESCRYPT" -d -i id.txt "$f" | cmp - plain.txt
		run_aescrypt 4 -t -i id.txt -f "$f"
		assert_match "an age file whose plaintext is not a tar archive"
	done
}

@test "an OpenPGP file: gpg -c, gpg -e and armored" {
	need gpg
	export GNUPGHOME=$T/gnupg
	mkdir -m 700 "$GNUPGHOME"
	gpg -q --batch --pinentry-mode loopback --passphrase pw -c -o p.gpg plain.txt
	refused p.gpg 'OpenPGP \(gpg\)' 'gpg -d p.gpg'
	gpg -q --batch --pinentry-mode loopback --passphrase pw -c -a -o p.asc plain.txt
	refused p.asc 'OpenPGP \(gpg, armored\)' 'gpg -d p.asc'
	gpg -q --batch --pinentry-mode loopback --passphrase '' \
	    --quick-generate-key 'Test <t@example.org>' default default never 2> /dev/null
	gpg -q --batch --trust-model always -r t@example.org -e -o p.pub.gpg plain.txt
	refused p.pub.gpg 'OpenPGP \(gpg\)' 'gpg -d p.pub.gpg'
	gpgconf --kill all 2> /dev/null || true
}

@test "unknown bytes still get the container's own message" {
	head -c 300 /dev/urandom > noise
	printf 'x' | cat - noise > noise2   # no format starts with 'x'
	run_aescrypt 4 -d -o out/d noise2
	assert_match 'noise2: not an aescrypt container \(bad magic\)'
}
