#!/usr/bin/env bats
# --sign KEY --sig-file FILE (-c, -e): an OpenSSH signature (SSHSIG,
# namespace "aescrypt") of the whole output, checked here by OpenSSH's
# own ssh-keygen -Y verify, never by aescrypt: with a plain key file, a
# protected one, and a key that only a real ssh-agent holds; what is
# refused, and that a refusal leaves neither output nor signature.

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
	[ ! -e w.aes ] && [ ! -e w.sig ]
	# no terminal (a session of its own) and no source: refused before
	# anything is written
	run setsid -w "$AESCRYPT" -c -q -k k --sign locked --sig-file n.sig -f n.aes tree < /dev/null
	[ "$status" -eq 3 ]
	assert_match "locked"
	[ ! -e n.aes ] && [ ! -e n.sig ]
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
	[ ! -e o.aes ] && [ ! -e o.sig ]
	# the agent gone: the run ends before it writes
	kill "$agent"
	while kill -0 "$agent" 2> /dev/null; do sleep 0.05; done
	agent=
	run_aescrypt 6 -e -q -k k --sign ed.pub --sig-file g.sig -o g.aes tree/text
	assert_match "cannot reach ssh-agent"
	[ ! -e g.aes ] && [ ! -e g.sig ]
	unset SSH_AUTH_SOCK
	run_aescrypt 3 -e -q -k k --sign ed.pub --sig-file u.sig -o u.aes tree/text
	assert_match "SSH_AUTH_SOCK is not set"
	[ ! -e u.aes ] && [ ! -e u.sig ]
}

@test "--sign refuses what cannot sign, and --sign and --sig-file go together" {
	if has_rsa; then
		ssh-keygen -q -t rsa -b 2048 -N '' -f rsa
		run_aescrypt 3 -e -q -k k --sign rsa --sig-file r.sig -o r.aes tree/text
		assert_match "only ssh-ed25519 keys sign"
		[ ! -e r.aes ] && [ ! -e r.sig ]
	fi
	run_aescrypt 3 -e -q -k k --sign tree/text --sig-file t.sig -o t.aes tree/text
	assert_match "neither an OpenSSH private key nor an ssh-ed25519 public key"
	run_aescrypt 2 -e -q -k k --sign ed -o t.aes tree/text
	assert_match "--sign needs --sig-file"
	run_aescrypt 2 -e -q -k k --sig-file t.sig -o t.aes tree/text
	assert_match "--sig-file needs the key that signs"
	run_aescrypt 2 -d -q -k k --sign ed --sig-file t.sig -o t tree/text
	assert_match "--sign does not apply to -d"
	[ ! -e t.aes ] && [ ! -e t.sig ] && [ ! -e t ]
	# a run that fails after the key opened writes no signature
	run_aescrypt 2 -c -q -k k --sign ed --sig-file m.sig -f m.aes missing
	[ ! -e m.aes ] && [ ! -e m.sig ]
}
