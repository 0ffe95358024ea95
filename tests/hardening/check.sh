#!/bin/sh
# tests/hardening/check.sh BINARY FORTIFY [--library] -- the hardening
# that configure asked for is in the binary, so the flags cannot
# silently disappear (a Makefile edit that drops $(HARDEN_*), a CFLAGS
# that overrides them).  With --library, BINARY is a shared library
# (libaescrypt.so.1): position-independent by being one (no DF_1_PIE),
# and CET is looked for at its first exported call.
#
#   PIE          ELF type DYN and DF_1_PIE        (-fPIE -pie)
#   full RELRO   a GNU_RELRO segment and BIND_NOW (-z relro -z now)
#   stack canary __stack_chk_fail is imported     (-fstack-protector-strong)
#   fortify      some __*_chk function is imported, when FORTIFY is
#                non-empty (-D_FORTIFY_SOURCE=2/3)
#   CET (x86-64) main() starts with endbr64       (-fcf-protection)
#
# Debian 12's crt1.o carries no x86 feature note, so the linked program
# has none whatever the flags: the endbr64 instruction is what shows
# -fcf-protection took effect.  -fstack-clash-protection leaves no mark
# that can be read off a binary reliably; configure's log shows it.
set -u
bin=$1 fortify=${2:-} lib=${3:-}
fail=0 n=0 entry=main

check() {
	n=$((n + 1))
	if eval "$2" > /dev/null 2>&1; then :; else
		echo "hardening: $bin: $1 is missing"; fail=1
	fi
}

command -v readelf > /dev/null || { echo "hardening: readelf not found (binutils)"; exit 1; }
check "PIE (ELF type DYN)" "readelf -h '$bin' | grep -q 'Type: *DYN'"
if [ "$lib" = --library ]; then
	check "a shared object's SONAME" "readelf -d '$bin' | grep -q SONAME"
	entry=aescrypt_writer_new
else
	check "PIE (DF_1_PIE)" "readelf -d '$bin' | grep 'FLAGS_1' | grep -q PIE"
fi
check "RELRO (GNU_RELRO segment)" "readelf -lW '$bin' | grep -q GNU_RELRO"
check "BIND_NOW" "readelf -d '$bin' | grep -Eq 'BIND_NOW|FLAGS_1.*NOW'"
check "the stack protector (__stack_chk_fail)" "readelf --dyn-syms -W '$bin' | grep -q '__stack_chk_fail'"
if [ -n "$fortify" ]; then
	check "_FORTIFY_SOURCE (__*_chk imports)" "readelf --dyn-syms -W '$bin' | grep -Eq ' __[a-z_]+_chk(@|$)'"
fi
if [ "$(uname -m)" = x86_64 ] && command -v objdump > /dev/null; then
	check "CET (endbr64 at $entry)" "objdump -d --disassemble=$entry '$bin' | grep -A2 '<$entry>:' | grep -q endbr64"
fi
if [ "$fail" -ne 0 ]; then
	echo "hardening: FAILED"; exit 1
fi
echo "hardening: $n checks passed on $bin"
