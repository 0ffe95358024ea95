#!/bin/sh
# run.sh ARCH -- cross-build aescrypt for ARCH (aarch64, s390x) and run
# the unit tests, the samples and a CLI subset under qemu-user.
#
# The build is static: on this kind of machine qemu-user 7.2 hangs in
# any dynamically linked program that starts a thread (a 20-line
# program with one pthread_create spins inside qemu, which its gdb stub
# cannot even interrupt), while the same program linked statically
# runs.  That was "the aarch64 build spins" of issue 24.  A 20-second
# probe (probe.c, static) runs first: if even that fails, this qemu
# cannot run threads, which is said loudly and the step is skipped;
# nothing else may skip it.
#
# The tree is copied to build/cross-ARCH/src and configured there, so
# the native build's config.h is not touched.
set -eu
arch=${1:-aarch64}
cc=${CROSS_CC:-$arch-linux-gnu-gcc}
qemu=${QEMU:-qemu-$arch}
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/build/cross-$arch
for t in "$cc" "$qemu" bats; do
	command -v "$t" >/dev/null || {
		echo "cross $arch: $t is missing (see .ci/run for the packages)" >&2
		exit 1
	}
done
rm -rf "$dir" && mkdir -p "$dir/src" "$dir/bin"

# 1. Can this qemu run threads at all?
"$cc" -O2 -static -pthread -o "$dir/probe" "$top/tests/cross/probe.c"
if ! timeout -s KILL 20 "$qemu" "$dir/probe" >/dev/null 2>&1; then
	echo "############################################################"
	echo "# cross $arch: SKIPPED: $qemu cannot run a static threaded"
	echo "# program here (tests/cross/probe.c hung or failed in 20 s)."
	echo "############################################################"
	exit 0
fi
"$cc" -O2 -pthread -o "$dir/probe-dyn" "$top/tests/cross/probe.c"
if timeout -s KILL 20 "$qemu" -L "/usr/$arch-linux-gnu" "$dir/probe-dyn" >/dev/null 2>&1; then
	echo "cross $arch: $qemu runs threaded programs, dynamic and static"
else
	echo "cross $arch: $qemu hangs on a dynamic threaded program, runs a static one: building static"
fi

# 2. Without ARCH's -dev packages (Debian's :s390x ones would not install
# beside the amd64 ones on one machine here), only the layers that need
# no outside library can be built: common/ and crypto/ (less X25519,
# Ed25519, chacha20-poly1305, scrypt and HPKE, which are libsodium's, and PBKDF2; RSA builds
# as its stubs, without libcrypto), with their unit tests: every NIST
# CAVP and Wycheproof vector, the cross-tier test, SHA-256, HMAC, HKDF.
# Said,
# then done, then nothing more.
if [ "${CROSS_CORE_ONLY:-0}" = 1 ] || ! "$cc" -static -o /dev/null -x c - -lz -largon2 \
    -lsodium -lzstd 2>/dev/null <<'C'
int main(void) { return 0; }
C
then
	echo "cross $arch: no $arch zlib/libargon2/libsodium/libzstd: building common/ and crypto/ alone"
	cd "$top"
	mkdir -p "$dir/core"
	printf '#ifndef AE_CONFIG_H\n#define AE_CONFIG_H\n#define HAVE_EXPLICIT_BZERO 1\n#define HAVE_GETRANDOM 1\n#endif\n' \
	    > "$dir/core/config.h"
	# (test_pq without zlib and libsodium: SHA-3 and ML-KEM alone, which
	# on s390x is the big-endian check of their byte orders)
	for t in test_gcm_vectors test_gcm_diff test_gcm_api test_hash test_aes_ct test_ghash_ct test_pq; do
		"$cc" -std=c11 -O2 -D_GNU_SOURCE -DAE_TEST_CORE_ONLY -static -pthread -I"$dir/core" -Isrc \
		    -o "$dir/core/$t" tests/unit/$t.c src/common/error.c src/common/base64.c src/common/wipe.c \
		    $(ls src/crypto/*.c | grep -v 'x25519\|ed25519\|xwing\|pbkdf\|chachapoly\|scrypt\|hpke') \
		    || { echo "cross $arch: $t did not build" >&2; exit 1; }
		"$qemu" "$dir/core/$t" tests
	done
	echo "cross $arch: common/ and crypto/ checked; container/, pipeline/, archive/, disk/ and the CLI were not built"
	exit 0
fi

# 3. The tree, configured for ARCH, statically linked.  libsodium.a
# carries its own copy of Argon2's internal functions beside
# libargon2.a's; aescrypt calls only libargon2's Argon2 and only
# libsodium's X25519, so the first definition is the right one.
cd "$top"
if [ -d .git ]; then git ls-files; else find . -path ./build -prune -o -type f -print; fi |
    tar -cf - -T - | (cd "$dir/src" && tar -xf -)
cd "$dir/src"
CC=$cc LDFLAGS="-static -Wl,--allow-multiple-definition" \
    ./configure --disable-hardening > "$dir/configure.log"
grep -E '^checking for (libdeflate|libzstd)' "$dir/configure.log" || true
make -j2 build/aescrypt > "$dir/make.log" 2>&1 || { tail -30 "$dir/make.log"; exit 1; }

"$qemu" -cpu max build/aescrypt --version | sed -n 's/^/cross '"$arch"': /; 2,4p'

# 4. Unit tests (every tier the emulated CPU offers: with -cpu max on
# aarch64, soft-ct and aes-pmull), the samples.  Every aarch64 model
# qemu 7.2 offers (cortex-a35 to neoverse-n1, a64fx, max) reports AES
# and PMULL, so no model without them can be chosen; soft-ct runs the
# same vectors on the same emulated CPU, and the CLI runs it below.
make check-unit check-samples RUN="$qemu -cpu max"
if [ "$arch" = aarch64 ]; then
	"$qemu" -cpu max build/tests/unit/test_gcm_vectors tests > "$dir/vectors.log" 2>&1 || {
		cat "$dir/vectors.log"; exit 1; }
	grep -q '^tier aes-pmull: running' "$dir/vectors.log" || {
		echo "cross $arch: the aes-pmull tier did not run under -cpu max" >&2
		cat "$dir/vectors.log"; exit 1; }
	echo "cross $arch: aes-pmull and soft-ct passed every vector under -cpu max"
fi

# 5. The CLI subset, through a wrapper that runs the binary under qemu
# (the campaigns at the quick scale, a process each: no in-process
# runner is built here).
for b in aescrypt tests/unit/test_tar; do
	printf '#!/bin/sh\nexec %s -cpu max %s "$@"\n' "$qemu" "$dir/src/build/$b" \
	    > "$dir/bin/${b##*/}"
	chmod +x "$dir/bin/${b##*/}"
done
# The software tier through the command line too: every command with
# --no-hw first (getopt_long takes options anywhere).
printf '#!/bin/sh\nexec %s -cpu max %s --no-hw "$@"\n' "$qemu" \
    "$dir/src/build/aescrypt" > "$dir/bin/aescrypt-soft"
chmod +x "$dir/bin/aescrypt-soft"
cd "$top"
tier=soft-ct
[ "$arch" = aarch64 ] && tier=aes-pmull
AE_EMULATED=1 AE_EMULATED_TIER=$tier AESCRYPT=$dir/bin/aescrypt AE_TAR_GEN=$dir/bin/test_tar \
    sh tests/bats.sh "$dir/cli.tap" tests/cli/001-basics.bats tests/cli/010-samples.bats \
    tests/cli/020-stream.bats tests/cli/080-archive.bats \
    tests/cli/120-tamper-campaign.bats tests/cli/160-recipients.bats \
    tests/cli/162-ssh-rsa.bats \
    tests/cli/165-salvage.bats tests/cli/170-index.bats \
    tests/cli/190-zstd.bats
AE_EMULATED=1 AESCRYPT=$dir/bin/aescrypt-soft AE_TAR_GEN=$dir/bin/test_tar \
    sh tests/bats.sh "$dir/cli-soft.tap" tests/cli/020-stream.bats tests/cli/080-archive.bats
