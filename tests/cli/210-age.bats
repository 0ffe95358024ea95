#!/usr/bin/env bats
# Reading age files (issue 48).  C2SP CCTV's 143 age test files, each
# with the outcome and released plaintext it names (age_cctv.py), and
# files made by the installed age: X25519, ssh-ed25519, ssh-rsa (a
# protected key too) and scrypt (the passphrase typed at age's prompt
# through a pty: pty_type.py), binary and armored, decrypt byte-exact;
# --info without a key; and what a damaged or cut file leaves behind.

load test_helper

setup_file() {
	command -v age > /dev/null || return 0
	K=$BATS_FILE_TMPDIR/keys
	mkdir -p "$K"
	age-keygen -o "$K/id.txt" 2> /dev/null
	ssh-keygen -q -t ed25519 -N '' -f "$K/ed"
	ssh-keygen -q -t rsa -b 2048 -N '' -f "$K/rsa"
	ssh-keygen -q -t ed25519 -N 'key words' -a 4 -f "$K/locked"
}

setup() {
	test_dir
	unset AESCRYPT_PASSPHRASE
	command -v age > /dev/null || skip "age is not installed"
	cp "$BATS_FILE_TMPDIR"/keys/* .
	chmod 600 id.txt ed rsa locked
	R=$(age-keygen -y id.txt)
	head -c 200000 /dev/urandom > p
}

@test "CCTV: all 143 age test files give their outcome and payload" {
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/age_cctv.py" "$AESCRYPT" \
	    "$BATS_TEST_DIRNAME/../vectors/age" "$AE_TEST_SCALE"
	echo "$output"
	[ "$status" -eq 0 ]
	assert_match "age CCTV: 143 files \(1 HMAC failure, 22 armor failure, 62 header failure, 13 no match, 19 payload failure, 26 success\): all as expected"
}

@test "age's own files decrypt byte-exact: X25519, binary and armored, file and pipe" {
	age -r "$R" -o p.age p
	age -a -r "$R" -o p.asc p
	"$AESCRYPT" -d -i id.txt p.age | cmp - p
	"$AESCRYPT" -d -i id.txt -o out p.asc
	cmp out p
	cat p.age | "$AESCRYPT" -d -i id.txt | cmp - p
	cat p.asc | "$AESCRYPT" -d -i id.txt -j 1 | cmp - p
	# an empty file, and one of exactly one full chunk
	: > e
	age -r "$R" -o e.age e
	"$AESCRYPT" -d -i id.txt -o e.out e.age
	[ -f e.out ]
	[ ! -s e.out ]
	head -c 65536 p > c
	age -r "$R" -o c.age c
	"$AESCRYPT" -d -i id.txt c.age | cmp - c
}

@test "age's ssh-ed25519 and ssh-rsa files decrypt with the OpenSSH keys, a protected one too" {
	age -R ed.pub -o ed.age p
	age -R rsa.pub -o rsa.age p
	age -R locked.pub -a -o locked.age p
	"$AESCRYPT" -d -i ed ed.age | cmp - p
	"$AESCRYPT" -d -i rsa rsa.age | cmp - p
	AESCRYPT_PASSPHRASE='key words' "$AESCRYPT" -d -i locked locked.age | cmp - p
	# several identities: the one that fits is found
	"$AESCRYPT" -d -i id.txt -i rsa -i ed ed.age | cmp - p
	# one that does not fit: exit 3, nothing written
	run_aescrypt 3 -d -i id.txt -o out ed.age
	assert_match "no identity given opens this age file"
	[ ! -e out ]
	# an aescrypt key file is not an age key
	"$AESCRYPT" --gen-key kf 2> /dev/null
	run_aescrypt 3 -d -k kf -o out ed.age
	assert_match "not a key file \(-k\)"
	# no identity at all: what the file needs is said
	run_aescrypt 3 -d -o out ed.age
	assert_match "this age file opens only with an identity \(1 stanza\)"
}

# (age -p's scrypt costs about a second a file here, to make and to
# open: the quick scale makes one; a wrong passphrase is tried on the
# cheap file of the next test; CCTV's armor_scrypt is armored.)
@test "age -p files: the passphrase typed at age's prompt opens them, from the environment or a descriptor" {
	/usr/bin/python3 "$BATS_TEST_DIRNAME/pty_type.py" passphrase 'correct horse' age -p -o pw.age p
	grep -q '^-> scrypt ' pw.age
	AESCRYPT_PASSPHRASE='correct horse' "$AESCRYPT" -d pw.age | cmp - p
	if [ "$AE_TEST_SCALE" = full ]; then
		/usr/bin/python3 "$BATS_TEST_DIRNAME/pty_type.py" passphrase 'correct horse' age -p -a -o pw.asc p
		printf 'correct horse\n' > pass
		chmod 600 pass
		"$AESCRYPT" -d --passphrase-fd 3 pw.asc 3< pass | cmp - p
	fi
}

@test "an scrypt work factor over the cap is exit 5 until --max-work-factor raises it" {
	# (a file with log2 N = 12, which age's command cannot make: written
	# here by the spec with Python's scrypt)
	/usr/bin/python3 - p lowwork.age 12 'pw words' <<'PY'
import base64, hashlib, hmac, os, sys
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives import hashes
src, dst, logn, pw = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].encode()
b64 = lambda b: base64.b64encode(b).rstrip(b"=").decode()
hk = lambda ikm, salt, info: HKDF(hashes.SHA256(), 32, salt, info).derive(ikm)
fk, salt, nonce = os.urandom(16), os.urandom(16), os.urandom(16)
wrap = hashlib.scrypt(pw, salt=b"age-encryption.org/v1/scrypt" + salt, n=1 << logn, r=8, p=1, dklen=32, maxmem=1 << 30)
body = ChaCha20Poly1305(wrap).encrypt(bytes(12), fk, None)
h = "age-encryption.org/v1\n-> scrypt %s %d\n%s\n---" % (b64(salt), logn, b64(body))
mac = hmac.new(hk(fk, b"", b"header"), h.encode(), "sha256").digest()
out = (h + " " + b64(mac) + "\n").encode() + nonce
key, data = hk(fk, nonce, b"payload"), open(src, "rb").read()
chunks = [data[i:i + 65536] for i in range(0, len(data), 65536)] or [b""]
for i, c in enumerate(chunks):
    n = i.to_bytes(11, "big") + (b"\x01" if i == len(chunks) - 1 else b"\x00")
    out += ChaCha20Poly1305(key).encrypt(n, c, None)
open(dst, "wb").write(out)
PY
	AESCRYPT_PASSPHRASE='pw words' "$AESCRYPT" -d lowwork.age | cmp - p
	AESCRYPT_PASSPHRASE=wrong run_aescrypt 3 -d -o out lowwork.age
	assert_match "the passphrase does not open this age file"
	[ ! -e out ]
	AESCRYPT_PASSPHRASE='pw words' run_aescrypt 5 -d --max-work-factor 11 -o out lowwork.age
	assert_match "work factor of 12 .*over the limit of 11"
	assert_match "raise the limit with --max-work-factor 12"
	[ ! -e out ]
	AESCRYPT_PASSPHRASE='pw words' "$AESCRYPT" -d --max-work-factor 12 lowwork.age | cmp - p
	run_aescrypt 2 -d --max-work-factor 31 lowwork.age
	run_aescrypt 2 -e --max-work-factor 20 p
	assert_match "max-work-factor does not apply to -e"
}

@test "a damaged or cut age file: exit 4, -o leaves nothing, standard output only what authenticated" {
	age -r "$R" -o p.age p
	size=$(stat -c %s p.age)
	head -c $((size - 100)) p.age > cut.age
	run_aescrypt 4 -d -i id.txt -o out cut.age
	[ ! -e out ]
	[ -z "$(ls -a | grep '^\.' | grep -v '^\.\.\?$')" ]
	cp p.age bad.age
	printf 'X' | dd of=bad.age bs=1 seek=$((size - 70000)) conv=notrunc 2> /dev/null
	"$AESCRYPT" -d -i id.txt bad.age > part 2> err && false
	grep -q "chunk 1 at offset .* failed authentication" err
	grep -q "the output is incomplete: only the first 65536 bytes" err
	# chunk 0 was whole and authenticated: given, and it is p's start
	[ "$(stat -c %s part)" -eq 65536 ]
	cmp part <(head -c 65536 p)
}

@test "--info of an age file, without a key: stanzas, post-quantum, armor, sizes" {
	age -r "$R" -R ed.pub -o p.age p
	age -a -r "$R" -o p.asc p
	run_aescrypt 0 --info p.age
	assert_match "p.age: age file \(age-encryption.org/v1\)"
	assert_match "header: [0-9]+ bytes, 2 stanzas"
	assert_match "0: X25519 \(1 argument, 32-byte body\)"
	assert_match "1: ssh-ed25519 \(2 arguments, 32-byte body\)"
	assert_match "post-quantum: no"
	assert_match "payload: 200080 bytes \(16-byte nonce, 4 chunks\); plaintext 200000 bytes"
	run_aescrypt 0 --info p.asc
	assert_match "ASCII-armored"
	assert_match "plaintext 200000 bytes"
	run_aescrypt 2 --info --json p.age
}

# corpus DIR: a small tree of the kinds -x restores: files of random and
# text bytes, modes, old mtimes, a symlink, a hard link, an empty
# directory, a name with a space.
corpus() {
	mkdir -p "$1/media" "$1/docs/deep/er" "$1/empty"
	head -c 300000 /dev/urandom > "$1/media/m1"
	head -c 70000 /dev/urandom > "$1/media/m2"
	seq 1 20000 > "$1/docs/text"
	seq 5 9 > "$1/docs/deep/er/small file"
	chmod 640 "$1/docs/text"
	chmod 755 "$1/media/m2"
	ln -s ../docs/text "$1/media/link"
	ln "$1/docs/text" "$1/docs/hard"
	touch -d '2001-02-03 04:05:06' "$1/docs/deep/er/small file" "$1/media/m1"
	touch -d '2010-01-01 00:00:00' "$1/docs/deep"
}

@test "-x of tar|zstd|age and tar|gzip|age restores the tree: modes, mtimes, links" {
	corpus src
	tar cf - src | zstd -q | age -r "$R" > t.zst.age
	tar czf - src | age -r "$R" > t.gz.age
	tar cf - src | age -a -r "$R" > t.asc
	for f in t.zst.age t.gz.age t.asc; do
		rm -rf out && mkdir out
		"$AESCRYPT" -x -i id.txt -f "$f" -C out
		/usr/bin/python3 "$BATS_TEST_DIRNAME/treecmp.py" src out/src
	done
	# from a pipe, and with the options of -x: members by name,
	# --strip-components
	rm -rf out && mkdir out
	cat t.zst.age | "$AESCRYPT" -x -i id.txt -f - -C out --strip-components 1 src/docs
	cmp out/docs/text src/docs/text
	[ ! -e out/media ]
}

@test "-t of an age tar archive lists it (all of it is read: there is no index); --test checks it" {
	corpus src
	tar cf - src | zstd -q | age -r "$R" > t.zst.age
	run_aescrypt 0 -t -i id.txt -f t.zst.age
	[ "$output" = "$(tar tf - < <(age -d -i id.txt t.zst.age | zstd -dq))" ]
	run_aescrypt 0 -tv -i id.txt -f t.zst.age src/docs/text
	assert_match "src/docs/text"
	run_aescrypt 0 --test -v -i id.txt t.zst.age
	assert_match "an age file, whole: [0-9]+ bytes, every chunk authenticated"
}

@test "-x of a hostile age tar: .. and absolute paths stay beneath -C" {
	mkdir -p in
	echo evil > in/evil
	/usr/bin/python3 - <<'PY'
import io, tarfile
with tarfile.open("hostile.tar", "w") as t:
    for name in ("../escape", "/abs/escape", "ok"):
        data = b"evil\n"
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
PY
	age -r "$R" -o hostile.age hostile.tar
	mkdir -p box/out
	run "$AESCRYPT" -x -i id.txt -f hostile.age -C box/out
	[ ! -e box/escape ]
	[ ! -e /abs/escape ]
	[ -f box/out/ok ]
	[ "$status" -ne 0 ]
}

@test "an age file that is not a tar, an xz-compressed tar, a cut or forged one: exit 4, nothing half-made" {
	corpus src
	age -r "$R" -o plain.age p
	run_aescrypt 4 -t -i id.txt -f plain.age
	assert_match "an age file whose plaintext is not a tar archive"
	if command -v xz > /dev/null; then
		tar cf - src | xz | age -r "$R" > t.xz.age
		run_aescrypt 4 -x -i id.txt -f t.xz.age -C .
		assert_match "its plaintext is xz-compressed, which aescrypt does not read"
	fi
	tar cf - src | zstd -q | head -c 5000 | age -r "$R" > cutz.age
	run_aescrypt 4 -t -i id.txt -f cutz.age
	assert_match "its zstd stream ends inside a frame"
	tar cf - src | age -r "$R" > t.age
	size=$(stat -c %s t.age)
	printf 'X' | dd of=t.age bs=1 seek=$((size - 30)) conv=notrunc 2> /dev/null
	mkdir out
	run_aescrypt 4 -x -i id.txt -f t.age -C out
	assert_match "failed authentication"
	# nothing under a final name but whole members; no temp file left
	[ -z "$(find out -name '.aescrypt*')" ]
	run_aescrypt 4 --test -i id.txt t.age
	run_aescrypt 2 -t --salvage -i id.txt -f t.age
	assert_match "--salvage reads aescrypt containers only"
}

@test "-i key.age: an identity file encrypted with age -p asks for its passphrase, and opens both formats" {
	/usr/bin/python3 "$BATS_TEST_DIRNAME/pty_type.py" passphrase 'id words' age -p -o key.age id.txt
	age -r "$R" -o p.age p
	"$AESCRYPT" -e -r "$R" -o p.aes p
	AESCRYPT_PASSPHRASE='id words' "$AESCRYPT" -d -i key.age p.age | cmp - p
	AESCRYPT_PASSPHRASE='id words' "$AESCRYPT" -d -i key.age p.aes | cmp - p
	AESCRYPT_PASSPHRASE=wrong run_aescrypt 3 -d -i key.age -o out p.age
	assert_match "key.age: the passphrase does not open this encrypted identity file"
	[ ! -e out ]
	# a damaged one (its header cut) is named, before any passphrase
	head -c 60 key.age > cut.age
	run_aescrypt 3 -d -i cut.age -o out p.age
	assert_match "cut.age: an encrypted identity file that cannot be read: its age header"
	[ ! -e out ]
	if [ "$AE_TEST_SCALE" = full ]; then
		/usr/bin/python3 "$BATS_TEST_DIRNAME/pty_type.py" passphrase 'id words' age -p -a -o key.asc id.txt
		AESCRYPT_PASSPHRASE='id words' "$AESCRYPT" -d -i key.asc p.aes | cmp - p
	fi
	# one encrypted to a recipient, not a passphrase, is not age's kind
	age -r "$R" -o key2.age id.txt
	run_aescrypt 3 -d -i key2.age p.age
	assert_match "must be encrypted with a passphrase \(age -p\)"
}

# plugin_key: an AGE-PLUGIN-AETEST-1... identity in pid.txt (an X25519
# secret the test plugin unwraps age's own stanzas with) and its
# recipient in $PR; the test plugin's directory first on PATH.
plugin_key() {
	/usr/bin/python3 - "$BATS_TEST_DIRNAME/../interop" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
import aescrypt_v1 as v1
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
sk = os.urandom(32)
pub = X25519PrivateKey.from_private_bytes(sk).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
open("pid.txt", "w").write("# a test plugin's identity\n" + v1.bech32_encode("age-plugin-aetest-", sk).upper() + "\n")
open("prcpt", "w").write(v1.bech32_encode("age", pub))
PY
	chmod 600 pid.txt
	PR=$(cat prcpt)
	export PATH="$BATS_TEST_DIRNAME/plugins:$PATH"
}

# renamed NAME: pid.txt's identity under another plugin's name.
renamed() {
	/usr/bin/python3 - "$BATS_TEST_DIRNAME/../interop" "$1" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import aescrypt_v1 as v1
line = open("pid.txt").read().split("\n")[1]
sk = v1.bech32_decode(line.lower(), "age-plugin-aetest-")
print(v1.bech32_encode("age-plugin-%s-" % sys.argv[2], sk).upper())
PY
}

@test "age plugins: the test plugin decrypts; its messages are shown; grease is answered" {
	plugin_key
	age -r "$PR" -o pl.age p
	AETEST_MODE=ok run_aescrypt 0 -d -i pid.txt -o out pl.age
	assert_match "note: age-plugin-aetest: touch the test key"
	cmp out p
	AETEST_MODE=grease "$AESCRYPT" -d -i pid.txt pl.age | cmp - p
	# -x of a tar through the plugin, and native identities beside it
	tar cf - p | age -r "$PR" -r "$R" > t.age
	mkdir x
	AETEST_MODE=ok "$AESCRYPT" -x -i pid.txt -f t.age -C x
	cmp x/p p
	AETEST_MODE=fail "$AESCRYPT" -d -i id.txt -i pid.txt t.age > /dev/null
}

@test "age plugins: a PIN and a confirmation asked on the terminal" {
	plugin_key
	age -r "$PR" -o pl.age p
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/pty_type.py" 'PIN for' 1234 \
	    env AETEST_MODE=pin "$AESCRYPT" -d -i pid.txt -o out pl.age
	[ "$status" -eq 0 ]
	cmp out p
	rm out
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/pty_type.py" 'PIN for' 9999 \
	    env AETEST_MODE=pin "$AESCRYPT" -d -i pid.txt -o out pl.age
	[ "$status" -eq 3 ]
	assert_match "age-plugin-aetest: wrong PIN"
	[ ! -e out ]
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/pty_type.py" 'Use the test key' 'go on' \
	    env AETEST_MODE=confirm "$AESCRYPT" -d -i pid.txt -o out pl.age
	[ "$status" -eq 0 ]
	cmp out p
	rm out
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/pty_type.py" 'Use the test key' skip \
	    env AETEST_MODE=confirm "$AESCRYPT" -d -i pid.txt -o out pl.age
	[ "$status" -eq 3 ]
	[ ! -e out ]
}

@test "age plugins that fail, crash, hang, lie or are missing: a clear error, exit 3 or 4, no plaintext" {
	plugin_key
	age -r "$PR" -o pl.age p
	AETEST_MODE=fail run_aescrypt 3 -d -i pid.txt -o out pl.age
	assert_match "age-plugin-aetest: the test key is not plugged in"
	AETEST_MODE=crash run_aescrypt 3 -d -i pid.txt -o out pl.age
	assert_match "age-plugin-aetest exited before it said done"
	AETEST_MODE=hang run_aescrypt 3 -d -i pid.txt --plugin-timeout 1 -o out pl.age
	assert_match "age-plugin-aetest said nothing for the timeout"
	AETEST_MODE=short run_aescrypt 3 -d -i pid.txt -o out pl.age
	assert_match "sent a file key that is not one for this file"
	# a lying plugin's key fails the header's MAC: nothing is decrypted
	AETEST_MODE=lie run_aescrypt 4 -d -i pid.txt -o out pl.age
	assert_match "MAC that the file key a plugin gave does not match"
	[ ! -e out ]
	AETEST_MODE=lie run "$AESCRYPT" -d -i pid.txt pl.age
	[ "$status" -eq 4 ]
	! printf '%s' "$output" | grep -q -v '^aescrypt: ' || false
	# missing: not on PATH; and never taken from the working directory
	renamed nosuch > nosuch.txt
	run_aescrypt 3 -d -i nosuch.txt pl.age
	assert_match "age-plugin-nosuch is not on PATH"
	cp "$BATS_TEST_DIRNAME/plugins/age-plugin-aetest" ./age-plugin-here
	renamed here > here.txt
	PATH=".:$PATH" run_aescrypt 3 -d -i here.txt pl.age
	assert_match "age-plugin-here is not on PATH"
	# a malformed plugin identity is refused when read
	echo AGE-PLUGIN-AETEST-1QQQQ > bad.txt
	chmod 600 nosuch.txt here.txt bad.txt
	run_aescrypt 3 -d -i bad.txt pl.age
	assert_match "an age plugin identity that"
	run_aescrypt 2 -d --plugin-timeout 0 pl.age
}

@test "--stats and --totals of an age file: its cipher, no codec, every chunk counted" {
	age -r "$R" -o q.age p
	run_aescrypt 0 -d -i id.txt --stats --totals -o out q.age
	assert_match "stats: decrypt, cipher chacha20-poly1305 \(age\), no codec"
	assert_match "payload 200000 -> 200064 bytes in 4 chunks"
	assert_match "Total bytes read: $(stat -c %s q.age) "
	run_aescrypt 0 -d -i id.txt --stats=json -o out2 q.age
	assert_match '"codec":"none","deflate":null'
	mkdir x && tar cf - p | age -r "$R" > t.age
	run_aescrypt 0 -x -i id.txt --stats -f t.age -C x
	assert_match "stats: extract, cipher chacha20-poly1305 \(age\), no codec"
}
