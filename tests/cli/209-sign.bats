#!/usr/bin/env bats
# Signatures.  --sign KEY --sig-file FILE (-c, -e): an OpenSSH
# signature (SSHSIG, namespace "aescrypt") of the whole output, checked
# by OpenSSH's own ssh-keygen -Y verify, never by aescrypt: with a plain
# key file, a protected one, and a key that only a real ssh-agent holds;
# what is refused, and that a refusal leaves neither output nor
# signature.  -e and -c --sign KEY: a signed stream or archive (format
# 6.10), checked by -d, -t, -x, --test and --signer FILE, against the
# forgeries a second recipient (tests/cli/forge.py, holding the file
# key) can make, from a file and from a pipe, where nothing past the
# last signature that verified may reach the output (-x: no member
# whose bytes are not all covered is made).

load test_helper

setup_file() {
	command -v ssh-keygen > /dev/null || return 0
	K=$BATS_FILE_TMPDIR/keys
	mkdir -p "$K"
	ssh-keygen -q -t ed25519 -N '' -C signer@test -f "$K/ed"
	ssh-keygen -q -t ed25519 -N 'sign words' -a 4 -f "$K/locked"
	ssh-keygen -q -t ed25519 -N '' -f "$K/other"
}

setup() {
	test_dir
	unset AESCRYPT_PASSPHRASE SSH_AUTH_SOCK
	command -v ssh-keygen > /dev/null || skip "openssh-client is not installed"
	cp "$BATS_FILE_TMPDIR"/keys/* .
	chmod 600 ed locked other
	"$AESCRYPT" --gen-key k 2> /dev/null
	mkdir tree
	head -c 300000 /dev/urandom > tree/data
	echo words > tree/text
	echo "signer@test $(cat ed.pub)" > allowed
	echo "locked@test $(cat locked.pub)" >> allowed
	agent=
}

teardown() {
	# (the agent this file started, and only it)
	if [ -n "${agent:-}" ]; then
		kill "$agent" 2> /dev/null || true
	fi
	cd / && rm -rf "$T"
}

# verify SIG FILE [PRINCIPAL [NAMESPACE]]: ssh-keygen's verdict on SIG of
# FILE under ./allowed; $status and $output as bats' run sets them.
verify() {
	run ssh-keygen -Y verify -n "${4:-aescrypt}" -f allowed \
	    -I "${3:-signer@test}" -s "$1" < "$2"
}

# start_agent: a real ssh-agent on a socket in this test's directory.
start_agent() {
	command -v ssh-agent > /dev/null || skip "ssh-agent is not installed"
	eval "$(ssh-agent -a "$T/agent.sock" -s 3>&-)" > /dev/null
	agent=$SSH_AGENT_PID
	[ -S "$T/agent.sock" ]
}

@test "--sign --sig-file: ssh-keygen -Y verify accepts the signature of -e's and -c's output, to a file and to a pipe" {
	run_aescrypt 0 -e -q -k k --sign ed --sig-file e.sig -o e.aes tree/data
	verify e.sig e.aes
	[ "$status" -eq 0 ]
	assert_match 'Good "aescrypt" signature for signer@test'
	run_aescrypt 0 -c -q -k k --sign ed --sig-file c.sig -f c.aes tree
	verify c.sig c.aes
	[ "$status" -eq 0 ]
	# to standard output: what the pipe carried is what was signed
	"$AESCRYPT" -c -q -k k --sign ed --sig-file p.sig -f - tree | cat > p.aes
	verify p.sig p.aes
	[ "$status" -eq 0 ]
	"$AESCRYPT" -e -q -k k --sign ed --sig-file pe.sig < tree/text > pe.aes
	verify pe.sig pe.aes
	[ "$status" -eq 0 ]
	# and the outputs still open
	run_aescrypt 0 -d -q -k k -o back e.aes
	cmp back tree/data
	mkdir out
	run_aescrypt 0 -x -q -k k -f p.aes -C out
	cmp out/tree/data tree/data
	# beside --checksum, each covers the same bytes
	run_aescrypt 0 -e -q -k k --checksum sums --sign ed --sig-file s.sig -o s.aes tree/text
	verify s.sig s.aes
	[ "$status" -eq 0 ]
	sha256sum -c sums
}

@test "--sig-file: one changed byte, another namespace, another principal or another key's line is rejected by ssh-keygen" {
	run_aescrypt 0 -c -q -k k --sign ed --sig-file c.sig -f c.aes tree
	verify c.sig c.aes
	[ "$status" -eq 0 ]
	for at in 0 5000 $(($(stat -c %s c.aes) - 1)); do
		cp c.aes bad.aes
		printf '\x5a' | dd of=bad.aes bs=1 seek=$at conv=notrunc 2> /dev/null
		cmp -s c.aes bad.aes && printf '\xa5' | dd of=bad.aes bs=1 seek=$at conv=notrunc 2> /dev/null
		verify c.sig bad.aes
		[ "$status" -ne 0 ]
	done
	# one byte more, one byte less
	{ cat c.aes; printf x; } > long.aes
	verify c.sig long.aes
	[ "$status" -ne 0 ]
	head -c -1 c.aes > short.aes
	verify c.sig short.aes
	[ "$status" -ne 0 ]
	verify c.sig c.aes signer@test file
	[ "$status" -ne 0 ]
	verify c.sig c.aes locked@test
	[ "$status" -ne 0 ]
	echo "signer@test $(cat other.pub)" > allowed
	verify c.sig c.aes
	[ "$status" -ne 0 ]
}

@test "--sign with a protected key asks for its passphrase as -i does; a wrong one leaves neither output nor signature" {
	AESCRYPT_PASSPHRASE='sign words' run_aescrypt 0 -e -q -k k --sign locked --sig-file l.sig -o l.aes tree/text
	verify l.sig l.aes locked@test
	[ "$status" -eq 0 ]
	AESCRYPT_PASSPHRASE='not them' run_aescrypt 3 -e -q -k k --sign locked --sig-file w.sig -o w.aes tree/text
	assert_match "wrong passphrase for the OpenSSH key"
	[ ! -e w.aes ]
	[ ! -e w.sig ]
	# no terminal (a session of its own) and no source: refused before
	# anything is written
	run setsid -w "$AESCRYPT" -c -q -k k --sign locked --sig-file n.sig -f n.aes tree < /dev/null
	[ "$status" -eq 3 ]
	assert_match "locked"
	[ ! -e n.aes ]
	[ ! -e n.sig ]
}

@test "--sign KEY.pub signs through a real ssh-agent; a key it does not hold, or no agent, is refused before any output" {
	start_agent
	ssh-add -q ed 2> /dev/null
	run_aescrypt 0 -c -q -k k --sign ed.pub --sig-file a.sig -f a.aes tree
	verify a.sig a.aes
	[ "$status" -eq 0 ]
	# signed by that key, whose private half this run never read
	fp=$(ssh-keygen -l -f ed.pub | awk '{print $2}')
	# (a fingerprint has '+' and '/': compared as a string)
	[[ $output == *"with ED25519 key $fp"* ]]
	run_aescrypt 3 -e -q -k k --sign other.pub --sig-file o.sig -o o.aes tree/text
	assert_match "ssh-agent does not hold the key"
	[ ! -e o.aes ]
	[ ! -e o.sig ]
	# an agent that refuses, signs with another key, or answers what the
	# protocol does not have: the run fails, and leaves nothing
	for mode in refuse wrong malformed; do
		rm -f ready fake.sock && mkfifo ready
		setsid /usr/bin/python3 "$BATS_TEST_DIRNAME/fake_agent.py" "$T/fake.sock" ed.pub $mode ready 3>&- &
		fake=$!
		read -r _ < ready
		SSH_AUTH_SOCK=$T/fake.sock run "$AESCRYPT" -e -q -k k --sign ed.pub -o f.aes tree/text
		kill "$fake"
		wait "$fake" 2> /dev/null || true
		case $mode in
		refuse) [ "$status" -eq 3 ]; assert_match "ssh-agent refused to sign" ;;
		wrong) [ "$status" -eq 4 ]; assert_match "ssh-agent's signature does not verify under the key" ;;
		malformed) [ "$status" -eq 4 ]; assert_match "ssh-agent's answer is malformed" ;;
		esac
		[ ! -e f.aes ]
	done
	# no agent behind the socket's path: the run ends before it writes
	SSH_AUTH_SOCK=$T/no-agent.sock run_aescrypt 6 -e -q -k k --sign ed.pub --sig-file g.sig -o g.aes tree/text
	assert_match "cannot reach ssh-agent"
	[ ! -e g.aes ]
	[ ! -e g.sig ]
	unset SSH_AUTH_SOCK
	run_aescrypt 3 -e -q -k k --sign ed.pub --sig-file u.sig -o u.aes tree/text
	assert_match "SSH_AUTH_SOCK is not set"
	[ ! -e u.aes ]
	[ ! -e u.sig ]
}

@test "--sign refuses what cannot sign, and --sign and --sig-file go together" {
	if has_rsa; then
		ssh-keygen -q -t rsa -b 2048 -N '' -f rsa
		run_aescrypt 3 -e -q -k k --sign rsa --sig-file r.sig -o r.aes tree/text
		assert_match "only ssh-ed25519 keys sign"
		[ ! -e r.aes ]
		[ ! -e r.sig ]
	fi
	run_aescrypt 3 -e -q -k k --sign tree/text --sig-file t.sig -o t.aes tree/text
	assert_match "neither an OpenSSH private key nor an ssh-ed25519 public key"
	run_aescrypt 2 -e -q -k k --sig-file t.sig -o t.aes tree/text
	assert_match "--sig-file needs the key that signs"
	run_aescrypt 2 -d -q -k k --sign ed --sig-file t.sig -o t tree/text
	assert_match "--sign does not apply to -d"
	[ ! -e t.aes ]
	[ ! -e t.sig ]
	[ ! -e t ]
	# a run that fails after the key opened writes no signature
	run_aescrypt 2 -c -q -k k --sign ed --sig-file m.sig -f m.aes missing
	[ ! -e m.aes ]
	[ ! -e m.sig ]
}

# A stream of 40 MiB: signatures after 16 and 32 MiB, and the last.
# (Text, which compresses: the records are what is signed, and smaller
# ones keep the forgeries quick.)
big_stream() {
	/usr/bin/python3 -c 'out = bytearray()
i = 0
while len(out) < 41943040:
    out += b"line %07d of the stream to be signed, and its words %07d\n" % (i, i * 7919 % 1000003)
    i += 1
open("big", "wb").write(out[:41943040])'
	run_aescrypt 0 -e -q -k k --sign ed -o s.aes big
}

MIB16=16777216

@test "-e --sign: a signed stream; -d and --test check its signatures, -v names the signer, --signer allows it, --info shows it without a key" {
	big_stream
	run_aescrypt 0 -d -q -k k -o back s.aes
	cmp back big
	run_aescrypt 0 -d -v -k k -o back2 s.aes
	[[ $output == *"its header names ED25519 key $(ssh-keygen -l -f ed.pub | awk '{print $2}') as its signer; each signature is checked as it is read, the key against no list"* ]]
	run_aescrypt 0 -d -v -k k --signer allowed -o back3 s.aes
	assert_match "its header names signer@test \(ED25519 key SHA256:[^)]*\) as its signer, which --signer allows"
	cmp back3 big
	# a bare public key line is a list of one
	run_aescrypt 0 --test -q -k k --signer ed.pub s.aes
	cat s.aes | "$AESCRYPT" -d -q -k k --signer allowed | cmp - big
	# a reader that leaves early: 141 and silent, as for any stream
	run bash -c '"$1" -d -q -k k s.aes 2> err | head -c 1 > /dev/null; echo "${PIPESTATUS[0]}"; cat err' bash "$AESCRYPT"
	[ "${lines[0]}" = 141 ]
	[ "${#lines[@]}" -eq 1 ]
	run_aescrypt 0 --info s.aes
	[[ $output == *"signed:      by ED25519 key $(ssh-keygen -l -f ed.pub | awk '{print $2}'), a signature after every 64 records"* ]]
	assert_match "whole:       yes"
	run_aescrypt 0 --info=json s.aes
	assert_match '"type":"signer","fingerprint":"SHA256:[^"]*","every":64,"verified":false'
	# --info --signer checks every signature with no key, from a pipe too
	run_aescrypt 0 --info --signer allowed s.aes
	assert_match "signed:      by signer@test \\(ED25519 key SHA256:[^)]*\\), as --signer allows: all 3 signatures verify"
	run sh -c 'cat s.aes | "$1" --info=json --signer allowed' sh "$AESCRYPT"
	[ "$status" -eq 0 ]
	assert_match '"verified":true,"principals":"signer@test","signatures":3'
	# empty and one-chunk streams are signed too
	: > empty
	run_aescrypt 0 -e -q -k k --sign ed -o e.aes empty
	run_aescrypt 0 -d -q -k k --signer allowed -o e.out e.aes
	cmp e.out empty
	# through the agent, as from the key file
	start_agent
	ssh-add -q ed 2> /dev/null
	run_aescrypt 0 -e -q -k k --sign ed.pub -o a.aes tree/text
	run_aescrypt 0 -d -q -k k --signer allowed -o a.out a.aes
	cmp a.out tree/text
}

@test "a signed stream forged with the file key is refused from a file and from a pipe; a pipe gets only what a verified signature covers" {
	big_stream
	F=$BATS_TEST_DIRNAME/forge.py
	"$AESCRYPT" --gen-key k2 2> /dev/null
	# what each forgery is, and how many whole 16 MiB intervals verify
	# before it
	for case in "record 3:0" "record 70:1" "record 159:2" "reseal:0" \
	    "swap 100:1" "drop 1:1" "drop 2:2" "header:0"; do
		what=${case%:*} good=${case#*:}
		/usr/bin/python3 "$F" k s.aes f.aes $what
		run_aescrypt 4 -d -q -k k -o out f.aes
		assert_match "signature"
		[ ! -e out ]
		run_aescrypt 4 -d -q -k k --signer allowed -o out f.aes
		[ ! -e out ]
		# from a pipe: the verified intervals only, and the run says
		# how much was written
		run sh -c 'cat f.aes | "$1" -d -q -k k --signer allowed > piped' sh "$AESCRYPT"
		[ "$status" -eq 4 ]
		[ "$(stat -c %s piped)" -eq $((good * MIB16)) ]
		cmp -n $((good * MIB16)) piped big
		if [ "$good" -gt 0 ]; then
			assert_match "only the first $((good * MIB16)) bytes were written"
		fi
		run_aescrypt 4 --test -q -k k f.aes
		# and without a key, with how far the file is signed
		run_aescrypt 4 --info --signer allowed f.aes
		assert_match "the signatures do not hold"
		if [ "$good" -gt 0 ]; then
			assert_match "; $good verified before it, so the file is not signed past offset [0-9]+"
		else
			assert_match "; none verified before it, so none of the file is signed"
		fi
	done
	# every tag still opens: only the signatures caught them
	/usr/bin/python3 "$F" k s.aes f.aes record 70
	run_aescrypt 4 -d -q -k k -o out f.aes
	assert_match "chunk 127 at offset [0-9]+ is followed by a signature that does not verify"
	# the file key wrapped to another key file: the header changed
	/usr/bin/python3 "$F" k s.aes f.aes rewrap k2
	run_aescrypt 4 -d -q -k k2 -o out f.aes
	assert_match "chunk 63 .*signature that does not verify"
	# cut short inside the second interval (the records are about the
	# same size): what the first signature covered, and "not signed"
	head -c $(($(stat -c %s s.aes) * 5 / 8)) s.aes > cut.aes
	run sh -c 'cat cut.aes | "$1" -d -q -k k > piped' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	[ "$(stat -c %s piped)" -eq $MIB16 ]
	assert_match "hint: the file is cut short: to standard output, -d writes what its signatures before the cut cover"
	# it says how far the file is signed: cut there, the first
	# interval comes out whole; a byte before, nothing does
	[[ $output =~ "is truncated; the file is not signed past offset "([0-9]+)", where its last signature that verified ends" ]]
	at=${BASH_REMATCH[1]}
	head -c "$at" s.aes > at.aes
	run sh -c 'cat at.aes | "$1" -d -q -k k > piped' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	[ "$(stat -c %s piped)" -eq $MIB16 ]
	assert_match "not signed past offset $at,"
	head -c $((at - 1)) s.aes > at.aes
	run sh -c 'cat at.aes | "$1" -d -q -k k > piped' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	[ ! -s piped ]
	assert_match "no signature verified before it, so none of the file is signed"
	run_aescrypt 4 -d -q -k k -o out cut.aes
	[ ! -e out ]
}

@test "--signer: a stripped signature is 'not signed', another key's is refused (exit 7), and the signers file's namespaces and times count" {
	big_stream
	F=$BATS_TEST_DIRNAME/forge.py
	# stripped: a plain stream that opens, but not under --signer
	/usr/bin/python3 "$F" k s.aes strip.aes strip
	run_aescrypt 0 -d -q -k k -o out strip.aes
	cmp out big
	rm out
	run_aescrypt 7 -d -q -k k --signer allowed -o out strip.aes
	assert_match "the file is not signed"
	[ ! -e out ]
	run_aescrypt 7 --info --signer allowed strip.aes
	# re-signed by another key (the file key lets a recipient do it):
	# a valid signature, of someone the list does not name
	/usr/bin/python3 "$F" k s.aes other.aes sign 1111111111111111111111111111111111111111111111111111111111111111
	run_aescrypt 0 -d -q -k k -o out other.aes
	rm out
	run_aescrypt 7 -d -q -k k --signer allowed -o out other.aes
	assert_match "which the signers file does not list"
	[ ! -e out ]
	run_aescrypt 7 --info --signer allowed other.aes
	assert_match "which the signers file does not list"
	echo "other@test $(/usr/bin/python3 -c 'import base64,struct
from cryptography.hazmat.primitives.asymmetric import ed25519
from cryptography.hazmat.primitives import serialization as s
k=ed25519.Ed25519PrivateKey.from_private_bytes(bytes.fromhex("11"*32)).public_key().public_bytes(s.Encoding.Raw,s.PublicFormat.Raw)
b=struct.pack(">I",11)+b"ssh-ed25519"+struct.pack(">I",32)+k
print("ssh-ed25519",base64.b64encode(b).decode())')" > other-allowed
	# (a valid signature by the other key: what a recipient can make)
	run_aescrypt 0 --info --signer other-allowed other.aes
	assert_match "signed:      by other@test"
	run_aescrypt 0 -d -q -k k --signer other-allowed -o out other.aes
	cmp out big
	run sh -c 'cat other.aes | "$1" -d -q -k k --signer allowed > piped' sh "$AESCRYPT"
	[ "$status" -eq 7 ]
	[ ! -s piped ]
	# the list's own rules
	echo "signer@test namespaces=\"file,git\" $(cat ed.pub)" > ns
	run_aescrypt 7 --test -q -k k --signer ns s.aes
	assert_match "only for other namespaces"
	echo "signer@test namespaces=\"aes*\" $(cat ed.pub)" > ns2
	run_aescrypt 0 --test -q -k k --signer ns2 s.aes
	echo "signer@test valid-before=\"20200101\" $(cat ed.pub)" > old
	run_aescrypt 7 --test -q -k k --signer old s.aes
	assert_match "until an earlier time"
	echo "signer@test valid-after=\"29990101\" $(cat ed.pub)" > later
	run_aescrypt 7 --test -q -k k --signer later s.aes
	assert_match "from a later time"
	echo "signer@test cert-authority $(cat ed.pub)" > ca
	run_aescrypt 7 --test -q -k k --signer ca s.aes
	# a malformed line is a usage error, named by its line
	printf '# ok\nsigner@test bogus=1 %s\n' "$(cat ed.pub)" > bad
	run_aescrypt 2 --test -q -k k --signer bad s.aes
	assert_match "bad: line 2: an option allowed_signers does not have"
	run_aescrypt 2 --test -q -k k --signer missing s.aes
	# an unsigned stream under --signer
	run_aescrypt 0 -e -q -k k -o plain.aes tree/text
	run_aescrypt 7 -d -q -k k --signer allowed -o out plain.aes
	assert_match "not signed"
	# an AES Crypt file has no signatures: --signer cannot be met
	rm -f out
	run_aescrypt 7 -d -q --passphrase-file "$SAMPLES/sample.pass" --signer allowed -o out "$SAMPLES/aes-crypt/v2.aes"
	assert_match "not signed \\(an AES Crypt file cannot be\\)"
	[ ! -e out ]
	run_aescrypt 7 --info --signer allowed "$SAMPLES/aes-crypt/v2.aes"
	# --salvage does not read signed files yet, and says so
	run_aescrypt 4 -d -q -k k --salvage -o out s.aes
	assert_match "does not read signed files yet"
}

@test "the signed worked example in the spec (11.4) matches good-signed.aes: every offset, length and flag, and signature 0's values" {
	/usr/bin/python3 - "$BATS_TEST_DIRNAME/../../format/aescrypt-v1.md" "$SAMPLES/good-signed.aes" "$BATS_TEST_DIRNAME" <<'PY'
import hashlib, re, struct, sys
spec, path, here = sys.argv[1:4]
sys.path.insert(0, here)
import forge
text = open(spec).read()
ex = text[text.index("### 11.4 Worked example: good-signed.aes"):]
ex = ex[:ex.index("\n## ")]
table = ex[ex.index("```\noffset"):].split("```")[1]
rows = [l.split(None, 2) for l in table.strip().splitlines()[1:]]
data = open(path, "rb").read()
f = forge.parse(data)
want, at = [], 0
want.append((0, f["L"], "header"))
at = f["L"]
sigs = dict(f["sigs"])
for i, rec in enumerate(f["recs"]):
    want.append((at, len(rec), "record %d (flags %02x" % (i, rec[0])))
    at += len(rec)
    if i in sigs:
        j = [n for n, (ri, _) in enumerate(f["sigs"]) if ri == i][0]
        want.append((at, 69, "signature %d (flags %02x" % (j, sigs[i][0])))
        at += 69
want.append((at, len(f["tail"]), "the copy"))
assert at + len(f["tail"]) == len(data)
assert len(rows) == len(want), (rows, want)
for (o, n, w), r in zip(want, rows):
    assert int(r[0]) == o and int(r[1]) == n and r[2].startswith(w), (r, o, n, w)
# signature 0's values
T = hashlib.sha256(f["raw"])
for rec in f["recs"][:2]:
    T.update(hashlib.sha256(rec).digest())
D = T.copy().digest()
M = b"aescrypt-v1 signature\0" + struct.pack(">Q", 0) + b"\0" + D
vals = dict((l.rsplit(None, 1)[0].strip(), l.rsplit(None, 1)[1])
            for l in ex.split("```")[3].strip().splitlines())
assert vals["SHA-256-final(T) after record 1"] == D.hex()[:32]
assert vals["SHA-512(M_0)"] == hashlib.sha512(M).hexdigest()[:32]
assert vals["signature 0"] == f["sigs"][0][1][5:21].hex()
assert "starting `07 00 22 01 01`" in ex and f["signer"][2][:5].hex() == "0700220101"
print("ok")
PY
}

# An archive of 160 members of 256 KiB (40 MiB: signatures after 16 and
# 32 MiB, and after the footer) and a text file.
big_archive() {
	mkdir d
	/usr/bin/python3 -c 'for i in range(160):
    line = b"member %03d: a line of its own, %07d\n" % (i, i * 104729)
    open("d/n%03d" % i, "wb").write((line * (262144 // len(line) + 1))[:262144])'
	echo words > d/text
	run_aescrypt 0 -c -q -k k --sign ed -f a.aes d
}

# only_true DIR: every file under DIR is the source's, byte for byte
# (a member made from unverified bytes, or a temp file left, fails);
# the count of files in $n.
only_true() {
	n=0
	while IFS= read -r -d '' f; do
		cmp "$f" "${f#$1/}" || return 1
		n=$((n + 1))
	done < <(find "$1" -type f -print0)
}

@test "-c --sign: a signed archive; -t, -x and --test under --signer read it whole and check it; without, the index serves -t, one member and --info" {
	big_archive
	run_aescrypt 0 -t -k k --signer allowed -f a.aes
	[ "$(printf '%s\n' "$output" | grep -c '^d/')" -eq 162 ]
	mkdir x1 x2
	run_aescrypt 0 -x -q -k k --signer allowed -f a.aes -C x1
	diff -r d x1/d
	cat a.aes | "$AESCRYPT" -x -q -k k --signer allowed -f - -C x2
	diff -r d x2/d
	run_aescrypt 0 --test -q -k k --signer allowed a.aes
	# the second implementation, written from 6.10, reads it too, and
	# refuses it with an index record forged
	/usr/bin/python3 "$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py" decode -k k a.aes py.tar
	mkdir xp
	tar -C xp -xf py.tar
	diff -r d xp/d
	/usr/bin/python3 "$BATS_TEST_DIRNAME/forge.py" k a.aes f.aes index 0
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py" decode -k k f.aes py2.tar
	[ "$status" -eq 4 ]
	assert_match "last signature, after the footer, does not verify"
	# the index's offsets count the signatures between the records
	run_aescrypt 0 -t -k k -f a.aes
	[ "$(printf '%s\n' "$output" | grep -c '^d/')" -eq 162 ]
	mkdir x3
	run_aescrypt 0 -x -q -k k -f a.aes -C x3 d/n100 d/text
	cmp x3/d/n100 d/n100
	cmp x3/d/text d/text
	run_aescrypt 0 --info a.aes
	assert_match "whole:       yes"
	assert_match "signed:      by ED25519 key SHA256:"
	run_aescrypt 0 --info --signer allowed a.aes
	assert_match "all 3 signatures verify"
	# without an index, and with zstd's 8 MiB chunks (a signature every
	# two records)
	run_aescrypt 0 -c -q -k k --sign ed --no-index -f n.aes d/text d/n001
	run_aescrypt 0 -t -k k --signer allowed -f n.aes
	run_aescrypt 0 --info n.aes
	assert_match "whole:       yes"
	if [ "${AE_HAVE_ZSTD:-1}" = 1 ]; then
		run_aescrypt 0 -c -q -k k --sign ed --zstd -f z.aes d
		mkdir x4
		run_aescrypt 0 -x -q -k k --signer allowed -f z.aes -C x4
		diff -r d x4/d
		run_aescrypt 0 --info z.aes
		assert_match "a signature after every 2 records"
	fi
}

@test "a signed archive forged with the file key: -x --signer keeps only members that verified signatures cover, from a file and a pipe, and says where it stopped" {
	big_archive
	F=$BATS_TEST_DIRNAME/forge.py
	"$AESCRYPT" --gen-key k2 2> /dev/null
	# record 110 lies in the second 16 MiB, after the first 100 members
	# (each is 256 KiB and a header): the first interval's members may
	# be made (at most 64 of them), none after
	/usr/bin/python3 "$F" k a.aes f.aes record 110
	mkdir o1 o2
	run_aescrypt 4 -x -q -k k --signer allowed -f f.aes -C o1
	assert_match "chunk 127 at offset [0-9]+ is followed by a signature that does not verify"
	run_aescrypt 4 --info --signer allowed f.aes
	assert_match "a signature does not verify"
	only_true o1
	[ "$n" -ge 50 ]
	[ "$n" -le 64 ]
	run sh -c 'cat f.aes | "$1" -x -q -k k --signer allowed -f - -C o2' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	only_true o2
	[ "$n" -ge 50 ]
	[ "$n" -le 64 ]
	run_aescrypt 4 -t -k k --signer allowed -f f.aes
	# an index record: the last signature, after the footer, fails; the
	# members of the two intervals before may stay
	/usr/bin/python3 "$F" k a.aes f.aes index 0
	mkdir o3 o3p
	run_aescrypt 4 -x -q -k k --signer allowed -f f.aes -C o3
	assert_match "the file's last signature, after the footer, does not verify"
	only_true o3
	[ "$n" -ge 110 ]
	[ "$n" -le 128 ]
	run sh -c 'cat f.aes | "$1" -x -q -k k --signer allowed -f - -C o3p' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	assert_match "the file's last signature, after the footer, does not verify"
	only_true o3p
	[ "$n" -ge 110 ]
	[ "$n" -le 128 ]
	# the footer sealed anew: it no longer fits the payload
	/usr/bin/python3 "$F" k a.aes f.aes footer 7
	mkdir o4 o4p
	run_aescrypt 4 -x -q -k k --signer allowed -f f.aes -C o4
	assert_match "the footer does not match the payload"
	only_true o4
	run sh -c 'cat f.aes | "$1" -x -q -k k --signer allowed -f - -C o4p' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	assert_match "the footer does not match the payload"
	only_true o4p
	# a MAC-covered header field changed (a new payload_salt) and every
	# record, index record and the footer sealed again under its keys:
	# each tag opens, -t by the index lists it, and the first signature
	# fails, so nothing is made, from a file or a pipe
	/usr/bin/python3 "$F" k a.aes f.aes header
	run_aescrypt 0 -t -k k -f f.aes
	[ "$(printf '%s\n' "$output" | grep -c '^d/')" -eq 162 ]
	mkdir o7 o7p
	run_aescrypt 4 -x -q -k k --signer allowed -f f.aes -C o7
	assert_match "chunk 63 .*signature that does not verify"
	[ -z "$(ls -A o7)" ]
	run sh -c 'cat f.aes | "$1" -x -q -k k --signer allowed -f - -C o7p' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	assert_match "chunk 63 .*signature that does not verify"
	[ -z "$(ls -A o7p)" ]
	# every record re-sealed: the first signature fails, nothing is made
	# (without --signer from a file; with it, from a pipe)
	for what in reseal "swap 5" "drop 0"; do
		/usr/bin/python3 "$F" k a.aes f.aes $what
		rm -rf o5 && mkdir o5
		run_aescrypt 4 -x -q -k k -f f.aes -C o5
		only_true o5
		[ "$n" -eq 0 ]
		rm -rf o5 && mkdir o5
		run sh -c 'cat f.aes | "$1" -x -q -k k --signer allowed -f - -C o5' sh "$AESCRYPT"
		[ "$status" -eq 4 ]
		[ -z "$(ls -A o5)" ]
	done
	# the file key wrapped to another key file
	/usr/bin/python3 "$F" k a.aes f.aes rewrap k2
	rm -rf o5 && mkdir o5
	run_aescrypt 4 -x -q -k k2 -f f.aes -C o5
	assert_match "chunk 63 .*signature that does not verify"
	only_true o5
	[ "$n" -eq 0 ]
	# cut short in the third interval (the records are about the same
	# size): the first two intervals' members, and the words for it
	head -c $(($(stat -c %s a.aes) * 7 / 8)) a.aes > cut.aes
	mkdir o8
	run sh -c 'cat cut.aes | "$1" -x -q -k k --signer allowed -f - -C o8' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	assert_match "is truncated; the file is not signed past offset [0-9]+, where"
	assert_match "hint: the file is cut short: the members that its signatures before the cut cover were extracted"
	only_true o8
	[ "$n" -ge 110 ]
	[ "$n" -le 128 ]
	# cut inside the last signature, after the footer (the header's
	# copy and its length end the file): what the two interval
	# signatures cover, and how far the file is signed, keyed or not
	local hl
	hl=$(od -An -tu2 --endian=big -j9 -N2 a.aes | tr -d ' ')
	head -c $(($(stat -c %s a.aes) - hl - 2 - 30)) a.aes > cut.aes
	mkdir o9
	run sh -c 'cat cut.aes | "$1" -x -q -k k --signer allowed -f - -C o9' sh "$AESCRYPT"
	[ "$status" -eq 4 ]
	assert_match "the file's last signature, after the footer, is missing or cut short; the file is not signed past offset [0-9]+, where"
	only_true o9
	[ "$n" -ge 110 ]
	[ "$n" -le 128 ]
	run_aescrypt 4 --info --signer allowed cut.aes
	assert_match "the footer or the last signature is missing; 2 verified before it, so the file is not signed past offset [0-9]+"
	# stripped, or signed again by another key: whole without --signer,
	# exit 7 and nothing made with it
	/usr/bin/python3 "$F" k a.aes s.aes strip
	/usr/bin/python3 "$F" k a.aes r.aes sign 2222222222222222222222222222222222222222222222222222222222222222
	for f in s.aes r.aes; do
		rm -rf o6 && mkdir o6
		run_aescrypt 0 -x -q -k k -f $f -C o6
		diff -r d o6/d
		rm -rf o6 && mkdir o6
		run_aescrypt 7 -x -q -k k --signer allowed -f $f -C o6
		[ -z "$(ls -A o6)" ]
	done
}
