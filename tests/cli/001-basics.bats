#!/usr/bin/env bats
# The command line's first minute: help, version, and bad options.

load test_helper

@test "--help prints usage on stdout and exits 0" {
	run_aescrypt 0 --help=all
	assert_match '^Usage: aescrypt'
	assert_match '--version'
}

@test "-h is --help" {
	run_aescrypt 0 -h
	assert_match '^Usage: aescrypt'
}

@test "--version names the version, tier in use, CPU features and libraries" {
	run_aescrypt 0 --version
	assert_match '^aescrypt [0-9]+\.[0-9]+\.[0-9]+'
	assert_match 'tier in use: (soft-ct|aesni-pclmul|vaes-avx2|vaes-avx512|aes-pmull)'
	assert_match 'tiers available: soft-ct'
	assert_match 'cpu features: '
	assert_match 'zlib [0-9]'
	assert_match 'libargon2 [0-9a-z~.+-]+ \(at build time; Argon2 v1\.3\)'
	assert_match 'libsodium [0-9]+\.[0-9]+\.[0-9]+ \(X25519'
}

@test "--no-hw --version reports the software tier in use" {
	run_aescrypt 0 --no-hw --version
	assert_match 'tier in use: soft-ct'
}

@test "the tier in use is the best one available" {
	run_aescrypt 0 --version
	has() { grep -qw "$1" /proc/cpuinfo; }
	# Intel Ice Lake and Tiger Lake slow their clock under 512-bit
	# vectors: the 256-bit tier is the default there (crypto/cpu.c)
	zmm_slow() {
		grep -q '^vendor_id.*GenuineIntel' /proc/cpuinfo || return 1
		grep -q '^cpu family[[:space:]]*: 6$' /proc/cpuinfo || return 1
		grep -Eq '^model[[:space:]]*: (106|108|125|126|140|141)$' /proc/cpuinfo
	}
	# /proc/cpuinfo is the host's: under qemu-user (make check-aarch64)
	# the binary sees the emulated CPU, whose tier the runner names
	# (tests/cross/run.sh: -cpu max has AES and PMULL)
	if [ "${AE_EMULATED:-0}" = 1 ]; then
		assert_match "tier in use: ${AE_EMULATED_TIER:-soft-ct}"
		return
	fi
	# on aarch64 hardware, /proc/cpuinfo's Features say aes and pmull
	if [ "$(uname -m)" = aarch64 ] && has aes && has pmull; then
		assert_match 'tier in use: aes-pmull'
	elif has vaes && has vpclmulqdq && has avx512f && has avx512bw \
	    && has avx512vl && has aes && has pclmulqdq && ! zmm_slow; then
		assert_match 'tier in use: vaes-avx512'
	elif has vaes && has vpclmulqdq && has avx2 && has aes && has pclmulqdq; then
		assert_match 'tier in use: vaes-avx2'
	elif has aes && has pclmulqdq; then
		assert_match 'tier in use: aesni-pclmul'
	else
		assert_match 'tier in use: soft-ct'
	fi
}

@test "an unknown long option is a usage error (exit 2) with a hint" {
	run_aescrypt 2 --frobnicate
	assert_match "aescrypt: error: unknown option '--frobnicate'"
	assert_match "hint: run 'aescrypt --help'"
}

@test "an unknown short option is a usage error (exit 2)" {
	run_aescrypt 2 -Z
	assert_match "aescrypt: error: unknown option '-Z'"
}

@test "no mode at all is a usage error with a short usage on stderr, as tar's" {
	run_aescrypt 2
	assert_match '^Usage: aescrypt'
	assert_match "Try 'aescrypt --help' for more information\.$"
	[ "$(wc -l <<< "$output")" -le 6 ]
}

@test "a stray operand is a usage error" {
	run_aescrypt 2 stray
	assert_match "unexpected argument 'stray'"
}

@test "SYNOPSIS lists, for each mode, every option the option table lets that mode take, and those it takes beside the table (issue 51)" {
	# the table is check_mode_options' in src/cli/optrules.c: which modes
	# each option applies to; each mode's SYNOPSIS must show it
	/usr/bin/python3 - "$BATS_TEST_DIRNAME/../../src/cli/optrules.c" \
	    "$BATS_TEST_DIRNAME/../../man/aescrypt.1" <<'PY'
import re, sys
src, man = (open(f).read() for f in sys.argv[1:3])
tab = src[src.index("check_mode_options("):]
tab = tab[:tab.index("{ NULL, NULL")]
pairs = re.findall(r'\{ "([^"]+)", "([a-z]+)",', tab)
assert len(pairs) > 25, pairs
syn = man[man.index(".Sh SYNOPSIS"):man.index(".Sh DESCRIPTION")]
blocks = {}
for b in syn.split(".Nm\n")[1:]:
    m = re.match(r"\.Fl ([a-z])\n", b)
    if m:
        blocks[m.group(1)] = b
    elif b.startswith(".Fl \\-test\n"):
        blocks["T"] = b
    elif b.startswith(".Fl \\-info"):
        blocks["i"] = b
assert set("ctxedTi") <= set(blocks), blocks.keys()
def shown(block, opt):
    if opt.startswith("--"):
        # "--exclude-tag" may be written "Fl \-exclude\-tag Ns ..."
        return opt[1:].replace("-", "\\-") in block
    # a short option alone ("Fl g"), in a bundle ("Fl Opv"), or an
    # alternative ("... | U")
    return re.search(r"(Fl [A-Za-z]*|\| )%s[A-Za-z]*\b" % re.escape(opt[1]),
                     block)
# Options the table does not hold (it holds those that belong to some
# modes and are refused elsewhere), with the modes that take them (T:
# --test, i: --info): issue 51 found each missing.
pairs += [(o, "ctxTied") for o in ("--passphrase-file", "--passphrase-fd", "-k")]
pairs += [(o, "ce") for o in ("--chunk-size", "--kdf-memory", "--kdf-time",
                              "--kdf-parallelism")]
pairs += [("--max-kdf-memory", "txTid"), ("-i", "txTid"), ("-q", "ctxTed")]
pairs += [(o, "ctxed") for o in ("--progress", "-j", "--stats", "--no-hw")]
pairs += [("--newer-mtime", "c"), ("-U", "x"), ("--overwrite-dir", "x"),
          ("--no-xattrs", "cx"), ("--no-acls", "cx"), ("--wildcards", "tx")]
bad = []
for name, modes in pairs:
    opt = name.split()[0]
    for mo in modes:
        if mo in blocks and not shown(blocks[mo], opt):
            bad.append("-%s lacks %s" % (mo, opt))
assert not bad, bad
PY
}

@test "the man page documents every option --help lists, and every exit status" {
	local man=$BATS_TEST_DIRNAME/../../man/aescrypt.1 opt pat
	run_aescrypt 0 --help=all
	for opt in $(grep -oE -- '--[a-z][a-z-]+' <<< "$output" | sort -u); do
		# mdoc: "--kdf-memory" is written "Fl \-kdf\-memory"
		pat=${opt#-}
		pat="Fl ${pat//-/\\-}"
		grep -qF -- "$pat" "$man" || {
			echo "man page lacks $opt ($pat)" >&2
			return 1
		}
	done
	# the exit statuses of src/cli/exitcode.h, each in EXIT STATUS
	local code
	for code in $(grep -oE '= [0-9]+,' "$BATS_TEST_DIRNAME/../../src/cli/exitcode.h" | tr -dc '0-9\n'); do
		sed -n '/^\.Sh EXIT STATUS/,/^\.Sh EXAMPLES/p' "$man" | grep -q "^\.It $code" || {
			echo "EXIT STATUS lacks $code" >&2
			return 1
		}
		# ... and in --help=all's own list
		tr '\n' ' ' <<< "${output#*Exit status:}" | grep -qE "[ ,:]$code [A-Za-z]" || {
			echo "--help=all's exit statuses lack $code" >&2
			return 1
		}
	done
}
