#!/bin/sh
# vector_flow.sh OBJ NEGATIVE_OBJ -- the 512-bit tier's constant-time
# check, which valgrind cannot run (it does not execute AVX-512).
#
# A secret can reach a branch or an address only by leaving the vector
# registers: into a general register (vmovd, vmovq, vpextr*, vmovmsk*,
# kmov from a mask) or into the flags (vptest, ktest, kortest).  In
# ae_gcm_vaes512_* the only such move allowed is "vpextrd $0x3", which
# reads the counter's low word (public: it comes from the IV) to choose
# the fast counter path.  Mask registers are loaded from lengths (kmov
# into %k), never read back.  The negative control, a function that moves
# a vector into a register and indexes a table with it, must be flagged.
set -u
obj=$1 neg=$2
leaks='(vmovd|vmovq|vpextr[bwdq]|vmovmskp[sd]|vpmovmskb|vptest|ktest[bwdq]|kortest[bwdq])[[:space:]]|kmov[bwdq][[:space:]]+%k[0-7],%[re]'

# scan OBJ: the lines of ae_gcm_vaes512_* that move data out, less the
# allowed one
scan() {
	objdump -d --no-show-raw-insn "$1" | awk '
	    /^[0-9a-f]+ <.*>:$/ { on = ($2 ~ /^<ae_gcm_vaes512_/) }
	    on' | grep -E "$leaks" | grep -vE 'vpextrd[[:space:]]+\$0x3,'
}

if ! objdump -d "$obj" | grep -q '<ae_gcm_vaes512_ctr32_ghash>:'; then
	echo "ct: vaes-avx512 not built here: no 512-bit code to check (skip)"
	exit 0
fi
status=0
if out=$(scan "$obj") && [ -n "$out" ]; then
	echo "ct: vaes-avx512 moves vector data where a branch or address could use it (FAIL):" >&2
	echo "$out" >&2
	status=1
else
	n=$(objdump -d "$obj" | grep -c 'vaesenc\|vpclmul')
	echo "ct: vaes-avx512: $n AES and carry-less multiply instructions, no vector data into a general register or the flags but the public counter (pass)"
fi
if [ -n "$(scan "$neg")" ]; then
	echo "ct: vector-flow negative control flagged, as it must be (pass)"
else
	echo "ct: vector-flow negative control NOT flagged: the check is blind (FAIL)" >&2
	status=1
fi
exit $status
