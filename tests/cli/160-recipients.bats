#!/usr/bin/env bats
# Public-key recipients (issue 17): keys made by age-keygen and
# ssh-keygen, and by --gen-identity, through -e/-d and -c/-x with several
# recipients and a passphrase beside them, through age itself and the
# interop implementation both ways; -R files; the errors.

load test_helper

PY=/usr/bin/python3
IMPL=$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py

setup() {
	test_dir
	unset AESCRYPT_PASSPHRASE
	command -v age-keygen > /dev/null || skip "age is not installed"
	command -v ssh-keygen > /dev/null || skip "openssh-client is not installed"
	age-keygen -o age.key 2> /dev/null
	AGE_R=$(age-keygen -y age.key)
	ssh-keygen -q -t ed25519 -N '' -C me@host -f ssh.key
	head -c 300000 /dev/urandom > data.bin
	mkdir -p tree/sub && echo one > tree/a && echo two > tree/sub/b
}

@test "--gen-identity writes age's format, 0600, never over a file, and prints the recipient" {
	run_aescrypt 0 --gen-identity me.txt
	[[ $output =~ ^age1[a-z0-9]{58}$ ]]
	local r=$output
	[ "$(stat -c %a me.txt)" = 600 ]
	[ "$(wc -l < me.txt)" -eq 3 ]
	grep -Eq '^# created: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$' me.txt
	grep -qx "# public key: $r" me.txt
	grep -Eq '^AGE-SECRET-KEY-1[A-Z0-9]{58}$' me.txt
	# age reads the file as its own: the same public key, and it
	# decrypts what age encrypts to the recipient
	[ "$(age-keygen -y me.txt)" = "$r" ]
	[ "$(echo hi | age -r "$r" | age -d -i me.txt)" = hi ]
	[ "$(echo hi | "$AESCRYPT" -e -q -r "$r" | "$AESCRYPT" -d -q -i me.txt)" = hi ]
	cp me.txt before
	run_aescrypt 6 --gen-identity me.txt
	assert_match "never overwritten"
	cmp me.txt before
}

@test "age-keygen and ssh-keygen keys round-trip -e/-d with several recipients" {
	run_aescrypt 0 -e -q -r "$AGE_R" -R ssh.key.pub "${FAST_KDF[@]}" -o d.aes data.bin
	run_aescrypt 0 --info d.aes
	assert_match "slot 0: +recipient, X25519"
	assert_match "slot 1: +recipient, ssh-ed25519"
	for id in age.key ssh.key; do
		rm -f out.bin
		run_aescrypt 0 -d -q -i $id -o out.bin d.aes
		cmp data.bin out.bin
	done
	# several -i: the one that matches is used
	age-keygen -o other.key 2> /dev/null
	rm -f out.bin
	run_aescrypt 0 -d -q -i other.key -i age.key -o out.bin d.aes
	cmp data.bin out.bin
}

@test "-c/-x and -t with recipients only: no passphrase is asked for" {
	run_aescrypt 0 -c -q -r "$AGE_R" -r "$(cat ssh.key.pub)" -f t.aes tree < /dev/null
	run_aescrypt 0 --info=json t.aes
	[[ $output == *'"slots":[{"type":"x25519"},{"type":"ssh-ed25519","tag":"'* ]]
	run_aescrypt 0 -t -q -i ssh.key -f t.aes
	[ "$output" = $'tree/\ntree/a\ntree/sub/\ntree/sub/b' ]
	mkdir out
	run_aescrypt 0 -x -q -i age.key -f t.aes -C out
	[ "$(cat out/tree/sub/b)" = two ]
	run_aescrypt 0 --test -i age.key t.aes
	# an inherited AESCRYPT_PASSPHRASE adds no slot beside recipients
	AESCRYPT_PASSPHRASE=inherited run_aescrypt 0 -e -q -r "$AGE_R" -o e.aes data.bin
	run_aescrypt 0 --info e.aes
	assert_match "key slots: +1"
	run_aescrypt 3 -d -q e.aes < /dev/null
	assert_match "this file opens only with an identity \(1 recipient slot\)"
	assert_match "hint: give its private key with -i FILE"
}

@test "-R takes .pub files, authorized_keys lines and age1 lines, with comments; duplicates are written once" {
	{
		echo "# the backup host's keys"
		echo ""
		echo "$AGE_R"
		echo "from=\"10.0.0.0/8\",no-pty $(cat ssh.key.pub)"
		echo "$AGE_R"
	} > keys.txt
	run_aescrypt 0 -e -q -R keys.txt -R ssh.key.pub -r "$AGE_R" -o k.aes data.bin
	run_aescrypt 0 --info k.aes
	assert_match "key slots: +2"
	run_aescrypt 0 -d -q -i ssh.key -o out.bin k.aes
	cmp data.bin out.bin
}

@test "the interop implementation reads what aescrypt writes to recipients, and writes what aescrypt reads" {
	"$AESCRYPT" -e -q -r "$AGE_R" -R ssh.key.pub -o a.aes data.bin
	"$PY" "$IMPL" decode -i age.key a.aes p1.bin
	cmp data.bin p1.bin
	"$PY" "$IMPL" decode -i ssh.key a.aes p2.bin
	cmp data.bin p2.bin
	"$PY" "$IMPL" encode -r "$AGE_R" -r "$(cat ssh.key.pub)" data.bin py.aes
	for id in age.key ssh.key; do
		rm -f out.bin
		run_aescrypt 0 -d -q -i $id -o out.bin py.aes
		cmp data.bin out.bin
	done
	# and neither opens with a key it was not made for
	age-keygen -o other.key 2> /dev/null
	run "$PY" "$IMPL" decode -i other.key a.aes p3.bin
	[ "$status" -eq 3 ]
}

@test "no identity matched: exit 3 with the counts; the hint names the other ways in" {
	age-keygen -o o1.key 2> /dev/null
	age-keygen -o o2.key 2> /dev/null
	"$AESCRYPT" -e -q -r "$AGE_R" -R ssh.key.pub -o a.aes data.bin
	run_aescrypt 3 -d -q -i o1.key -i o2.key -o out.bin a.aes
	assert_match "a.aes: no identity matched: 2 recipient slots, 2 identities tried"
	assert_no_output . out.bin
	# a file with a passphrase slot beside its recipient slots (as
	# aescrypt 0.1 made them; the sample keeps one)
	run_aescrypt 3 -d -q -i o1.key -o out.bin "$SAMPLES/good-recipients-pass.aes"
	assert_match "no identity matched: 2 recipient slots, 1 identity tried"
	assert_match "hint: this file also opens with a passphrase"
	# an identity for a file with no recipient slot
	make_key k
	"$AESCRYPT" -e -q -k k -o c.aes data.bin
	run_aescrypt 3 -d -q -i age.key c.aes
	assert_match "this file has no recipient slot, so no identity can open it"
}

@test "a malformed recipient names the bad character's position; mixed case and wrong lengths are refused" {
	local bad=${AGE_R:0:20}b${AGE_R:21}
	run_aescrypt 2 -e -r "$bad" -o x.aes data.bin
	assert_match "a character that Bech32 does not allow here"
	assert_match "hint: at character 21 of"
	local flip=${AGE_R:0:30}$([ "${AGE_R:30:1}" = q ] && echo p || echo q)${AGE_R:31}
	run_aescrypt 2 -e -r "$flip" -o x.aes data.bin
	assert_match "Bech32 checksum does not match"
	run_aescrypt 2 -e -r "A${AGE_R:1}" -o x.aes data.bin
	assert_match "mixes upper and lower case"
	# a 31-byte key with a good checksum
	local short
	short=$("$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import aescrypt_v1 as a; print(a.bech32_encode("age", bytes(range(31))))' "$(dirname "$IMPL")")
	run_aescrypt 2 -e -r "$short" -o x.aes data.bin
	assert_match "the key has the wrong length"
	# a -R file names its line
	printf '# ok\n%s\nage1zzz\n' "$AGE_R" > keys.txt
	run_aescrypt 2 -e -R keys.txt -o x.aes data.bin
	assert_match "keys.txt: line 3: "
	[ ! -e x.aes ]
}

@test "ECDSA and passphrase-protected SSH keys get clear errors; identity files are checked like key files" {
	ssh-keygen -q -t ecdsa -N '' -f ec.key
	run_aescrypt 2 -e -R ec.key.pub -o x.aes data.bin
	assert_match "warning: ec.key.pub: line 1: only ssh-ed25519 and ssh-rsa SSH keys are supported; skipped"
	assert_match "error: no recipient in the files given with -R"
	run_aescrypt 2 -e -r "$(cat ec.key.pub)" -o x.aes data.bin
	assert_match "only ssh-ed25519 and ssh-rsa SSH keys are supported"
	"$AESCRYPT" -e -q -r "$AGE_R" -o a.aes data.bin
	run_aescrypt 3 -d -q -i ec.key a.aes
	assert_match "an SSH key of a type other than ssh-ed25519 and ssh-rsa"
	ssh-keygen -q -t ed25519 -N 'secret words' -f locked.key
	run bash -c "'$AESCRYPT' -d -q -i locked.key a.aes < /dev/null"
	[ "$status" -eq 3 ]
	[ -n "$(command -v setsid)" ] && {
		run setsid -w "$AESCRYPT" -d -q -i locked.key -o o.bin a.aes < /dev/null
		[ "$status" -eq 3 ]
		assert_match "locked.key: the OpenSSH key is protected by a passphrase, and there is no terminal to ask for it"
	}
	chmod 644 age.key
	run_aescrypt 0 -d -q -i age.key -o out.bin a.aes
	assert_match "warning: age.key: identity file is accessible by others \(mode 0644\)"
	chmod 600 age.key
	run_aescrypt 0 -d -q -i age.key -o out2.bin a.aes
	refute_match warning
	echo "not a key" > junk.txt
	run_aescrypt 3 -d -q -i junk.txt a.aes
	assert_match "junk.txt: line 1: not an age identity"
	run_aescrypt 2 -d -q -i nosuch.key a.aes
}

@test "a low-order ephemeral key is refused as a malformed slot (exit 4), in aescrypt and the interop implementation" {
	run_aescrypt 4 -d -q -i "$SAMPLES/sample-identity.txt" -o out.bin "$SAMPLES/bad-x25519-low-order.aes"
	assert_match "key slot 0: its ephemeral key is of low order"
	assert_no_output . out.bin
	run "$PY" "$IMPL" decode -i "$SAMPLES/sample-identity.txt" "$SAMPLES/bad-x25519-low-order.aes" out.bin
	[ "$status" -eq 4 ]
	# whatever key is given and wherever the slot is: the header is
	# malformed before any key is tried (a key-file slot that opens, and
	# a good MAC, before it changes nothing)
	run_aescrypt 4 -d -q -k "$SAMPLES/sample.key" -o out.bin "$SAMPLES/bad-x25519-low-order-last.aes"
	assert_match "key slot 1: its ephemeral key is of low order"
	assert_no_output . out.bin
	run_aescrypt 4 --info "$SAMPLES/bad-x25519-low-order-last.aes"
	assert_match "key slot 1: its ephemeral key is of low order"
	run "$PY" "$IMPL" decode -k "$SAMPLES/sample.key" "$SAMPLES/bad-x25519-low-order-last.aes" out.bin
	[ "$status" -eq 4 ]
	[[ $output =~ "low order" ]]
	# and a recipient of low order is never written to
	local zero
	zero=$("$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import aescrypt_v1 as a; print(a.bech32_encode("age", bytes(32)))' "$(dirname "$IMPL")")
	run_aescrypt 2 -e -r "$zero" -o x.aes data.bin
	assert_match "a key of low order"
	[ ! -e x.aes ]
}

@test "-r, -R and -i belong to their modes; -r without a recipient explains tar's -r" {
	run_aescrypt 2 -d -r "$AGE_R" x.aes
	assert_match "-r does not apply to -d"
	run_aescrypt 2 -e -i age.key data.bin
	assert_match "-i does not apply to -e"
	run_aescrypt 2 -c -r somefile tree
	assert_match "-r names a recipient"
}

@test "every header byte of a recipient file flipped is refused as a header fault" {
	"$AESCRYPT" -e -q -r "$AGE_R" -R ssh.key.pub --chunk-size 64K -o a.aes data.bin
	run "$PY" "$BATS_TEST_DIRNAME/tamper_campaign.py" header "$AESCRYPT" identity:age.key a.aes "$T"
	echo "# ${lines[0]}" >&3
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[[ ${lines[0]} =~ ^header:\ [0-9]+\ cases,\ 0\ wrong ]]
}

@test "a passphrase or key file beside recipients is refused, as age refuses it; an old such file opens with a note" {
	printf 'pw\n' > pw
	make_key k
	run_aescrypt 2 -e -q -r "$AGE_R" -P --passphrase-file pw -o x.aes data.bin
	assert_match "a passphrase cannot be given beside recipients"
	assert_match "hint: to open the file yourself too, add your own public key"
	run_aescrypt 2 -c -q -R ssh.key.pub -k k -f x.aes data.bin
	assert_match "-k cannot be given beside recipients"
	run_aescrypt 2 -e -q -r "$AGE_R" --passphrase-file pw -o x.aes data.bin
	assert_no_output . x.aes
	# -d of a file made so by aescrypt 0.1: it opens, and says what that
	# means for the passphrase holder
	run_aescrypt 0 -d -q --passphrase-file "$SAMPLES/sample.pass" -o out.bin "$SAMPLES/good-recipients-pass.aes"
	assert_match "note: .*good-recipients-pass.aes also has recipient slots: whoever holds one of their keys could have written what it holds"
}

@test "a secret key given as a recipient is named for what it is and never printed" {
	local secret
	secret=$(grep AGE-SECRET-KEY age.key)
	run_aescrypt 2 -e -q -r "$secret" -o x.aes data.bin
	assert_match "-r was given a secret key, not a recipient \(it is not shown\)"
	assert_match "did you mean -i"
	refute_match "${secret:15:20}"
	# an identity file given to -R, and an OpenSSH private key
	run_aescrypt 2 -e -q -R age.key -o x.aes data.bin
	assert_match "age.key: line [0-9]+: a secret key, not a recipient"
	refute_match "${secret:15:20}"
	run_aescrypt 2 -e -q -R ssh.key -o x.aes data.bin
	assert_match "ssh.key: line 1: a secret key, not a recipient"
	refute_match "$(sed -n 2p ssh.key | cut -c1-20)"
	assert_no_output . x.aes
}

@test "-R skips certificate authorities' keys in authorized_keys and known_hosts lines, with a warning each" {
	{
		echo "cert-authority,principals=\"admin\" $(cat ssh.key.pub)"
		echo "@cert-authority *.example.com $(cat ssh.key.pub)"
		echo "$AGE_R"
	} > keys
	run_aescrypt 0 -e -q -R keys -o x.aes data.bin
	assert_match "keys: line 1: a certificate authority's key, not a recipient; skipped"
	assert_match "keys: line 2: a certificate authority's key, not a recipient; skipped"
	run_aescrypt 0 --info x.aes
	assert_match "slot 0: +recipient, X25519"
	refute_match "ssh-ed25519"
	# a CA line alone leaves no recipient
	head -1 keys > ca-only
	run_aescrypt 2 -e -q -R ca-only -o y.aes data.bin
	assert_match "no recipient in the files given with -R"
}

# An age-plugin-yubikey recipient (Bech32 under "age1yubikey").
PLUGIN_R=age1yubikey1qwt50d05nh5vutpdzmlg5wn80xq5negm4uj9ghv0snvdd3yysf5yw3rhl3t

@test "-R skips the lines it cannot use, one warning each with its line number, as age does" {
	ssh-keygen -q -t rsa -b 2048 -N '' -f rsa.key
	ssh-keygen -q -t ecdsa -N '' -f ec.key
	{
		echo "# a mixed authorized_keys"
		cat rsa.key.pub
		echo "command=\"backup\",no-pty $(cat ssh.key.pub)"
		cat ec.key.pub
		echo "cert-authority $(cat ec.key.pub)"
		echo "$AGE_R"
		echo "$PLUGIN_R"
	} > authorized_keys
	run_aescrypt 0 -e -R authorized_keys -o a.aes data.bin
	assert_match "authorized_keys: line 4: only ssh-ed25519 and ssh-rsa SSH keys are supported; skipped"
	assert_match "authorized_keys: line 5: a certificate authority.s key, not a recipient; skipped"
	# an age plugin's recipient is named for what it is (issue 51: it
	# was "its prefix is wrong", an error)
	assert_match "authorized_keys: line 7: an age plugin recipient \(age1NAME1...\): aescrypt files take none.*; skipped"
	if has_rsa; then
		# the RSA line is a recipient (162-ssh-rsa.bats)
		[ "$(echo "$output" | grep -c warning)" -eq 3 ]
		"$AESCRYPT" -d -q -i rsa.key -o out0 a.aes
		assert_same data.bin out0
	else
		assert_match "authorized_keys: line 2: .*built without libcrypto.*; skipped"
		[ "$(echo "$output" | grep -c warning)" -eq 4 ]
	fi
	"$AESCRYPT" -d -q -i ssh.key -o out1 a.aes
	"$AESCRYPT" -d -q -i age.key -o out2 a.aes
	assert_same data.bin out1
	assert_same data.bin out2
	# a malformed key of a known type is still an error
	echo "ssh-ed25519 AAAAnot-base64" >> authorized_keys
	run_aescrypt 2 -e -R authorized_keys -o b.aes data.bin
	assert_match "authorized_keys: line 8"
	# and given to -r, it is refused in the same words
	run_aescrypt 2 -e -r "$PLUGIN_R" -o c.aes data.bin
	assert_match "an age plugin recipient"
	refute_match "prefix is wrong"
	[ ! -e b.aes ]
}

@test "-R - and -i - read standard input, never beside data or another list from it" {
	cat ssh.key.pub | "$AESCRYPT" -e -q -R - -o a.aes data.bin
	cat ssh.key | "$AESCRYPT" -d -q -i - -o out a.aes
	assert_same data.bin out
	run bash -c "cat data.bin | '$AESCRYPT' -e -R - -o b.aes"
	[ "$status" -eq 2 ]
	assert_match "-R - and the data cannot both come from standard input"
	run bash -c "cat ssh.key | '$AESCRYPT' -d -i - -i - -o out2 a.aes"
	[ "$status" -eq 2 ]
	assert_match "-i - and -i - cannot both come from standard input"
	run bash -c "cat ssh.key | '$AESCRYPT' -d -i - --passphrase-fd 0 -o out2 a.aes"
	[ "$status" -eq 2 ]
	[ ! -e b.aes ]
	[ ! -e out2 ]
	# a key file too
	make_key k
	cat k | "$AESCRYPT" -e -q -k - -o k.aes data.bin
	"$AESCRYPT" -d -q -k k -o out3 k.aes
	assert_same data.bin out3
	run bash -c "cat k | '$AESCRYPT' -e -k - > k2.aes"
	[ "$status" -eq 2 ]
	assert_match "-k - and the data cannot both come from standard input"
}

@test "a public key given to -i is named as one, with no warning about its mode" {
	"$AESCRYPT" -e -q -R ssh.key.pub -o a.aes data.bin
	chmod 644 ssh.key.pub
	echo "$AGE_R" > age.pub
	chmod 644 age.pub
	local f
	for f in ssh.key.pub age.pub; do
		run_aescrypt 3 -d -q -i "$f" -o out a.aes
		assert_match "error: $f is a public key \(a recipient\), not an identity"
		refute_match "accessible by others"
		refute_match "mixes upper and lower case"
		[ ! -e out ]
	done
}

# ssh_locked NAME CIPHER [ROUNDS]: an ed25519 key under "secret words",
# as ssh-keygen -N writes it, and a file encrypted to it.
ssh_locked() {
	ssh-keygen -q -t ed25519 -N 'secret words' -Z "$2" -a "${3:-16}" -f "$1"
	"$AESCRYPT" -e -q -R "$1.pub" -o "$1.aes" data.bin
}

@test "passphrase-protected OpenSSH keys open under every cipher ssh-keygen offers (128/192-bit AES and 3DES through libcrypto), any rounds" {
	printf 'secret words\n' > kp
	printf 'wrong words\n' > bad
	chmod 600 kp bad
	local c n=0
	# ssh -Q cipher: all ten OpenSSH 9 offers, AES in three sizes and
	# three modes, 3DES, chacha20-poly1305 (as OpenSSH opens them all)
	for c in $(ssh -Q cipher); do
		n=$((n + 1))
		ssh_locked "k-${c%%@*}" "$c"
		"$AESCRYPT" -d -q -i "k-${c%%@*}" --passphrase-file kp -o out.bin "k-${c%%@*}.aes"
		assert_same data.bin out.bin
		rm out.bin
		AESCRYPT_PASSPHRASE='secret words' "$AESCRYPT" -d -q -i "k-${c%%@*}" -o out.bin "k-${c%%@*}.aes"
		assert_same data.bin out.bin
		rm out.bin
		run_aescrypt 3 -d -q -i "k-${c%%@*}" --passphrase-file bad -o out.bin "k-${c%%@*}.aes"
		assert_match "k-${c%%@*}: wrong passphrase for the OpenSSH key"
		[ ! -e out.bin ]
	done
	[ "$n" -ge 10 ]
	ssh_locked k-few aes256-ctr 1
	"$AESCRYPT" -d -q -i k-few --passphrase-file kp -o out.bin k-few.aes
	assert_same data.bin out.bin
	# -t and -x take the same identity
	"$AESCRYPT" -c -q -R k-aes256-ctr.pub -f t.aes data.bin
	run_aescrypt 0 -t -q -i k-aes256-ctr --passphrase-file kp -f t.aes
	[ "$output" = data.bin ]
}

@test "a protected OpenSSH key is asked for on the terminal, without echo" {
	ssh_locked k aes256-ctr
	tty_run "$T/tty.log" "env -u AESCRYPT_PASSPHRASE '$AESCRYPT' -d -q -i k -o out.bin k.aes" \
	    "Passphrase for k: " "secret words"
	[ "$status" -eq 0 ]
	assert_same data.bin out.bin
	! grep -q "secret words" "$T/tty.log" || false
}

@test "a protected OpenSSH key asking for absurd bcrypt rounds is refused" {
	ssh-keygen -q -t ed25519 -N 'secret words' -f slow
	"$AESCRYPT" -e -q -R slow.pub -o s.aes data.bin
	# the rounds field rewritten to 100000 (making such a key takes
	# ssh-keygen minutes)
	python3 - slow <<'PY'
import base64, struct, sys
text = open(sys.argv[1]).read().splitlines()
blob = bytearray(base64.b64decode(''.join(text[1:-1])))
p = 15                                   # after "openssh-key-v1" and its NUL
for _ in range(2):                       # cipher, kdf names
    p += 4 + struct.unpack('>I', blob[p:p + 4])[0]
p += 4                                   # the options' length
p += 4 + struct.unpack('>I', blob[p:p + 4])[0]   # the salt
blob[p:p + 4] = struct.pack('>I', 100000)
b = base64.b64encode(bytes(blob)).decode()
nl = chr(10)
open(sys.argv[1], 'w').write(text[0] + nl + nl.join(
    b[i:i + 70] for i in range(0, len(b), 70)) + nl + text[-1] + nl)
PY
	printf 'secret words\n' > kp
	run_aescrypt 5 -d -q -i slow --passphrase-file kp -o out.bin s.aes
	assert_match "slow: the OpenSSH key asks for 100000 bcrypt rounds, over the limit of 1024"
}
