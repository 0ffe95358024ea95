#!/bin/sh
# tests/abi/check.sh SHLIB HEADER MAP BASELINE MANDIR -- the shared library
# keeps the header's promise (doc/library.md):
#   - its SONAME is libaescrypt.so.1;
#   - it exports aescrypt_* symbols alone, each under the version node
#     the version script gives it;
#   - what it exports, what the version script names and what the
#     header declares (AESCRYPT_API) are the same list, so a call added
#     to one and not the others fails here;
#   - every exported call has a section-3 page that names it (.Nm);
#   - with abidiff (Debian's abigail-tools), the ABI is the baseline's
#     (tests/abi/libaescrypt.abi): a changed struct, type or signature
#     fails; a new release adds to the baseline on purpose
#     (make abi-baseline).
set -u
so=$1 header=$2 map=$3 baseline=$4 mandir=$5
t=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-abi.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT INT TERM
fail=0

soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" != libaescrypt.so.1 ]; then
	echo "abi: SONAME is '$soname', not libaescrypt.so.1"; fail=1
fi
# (nm lists the version node itself as an absolute symbol: not a call)
nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' | sort > "$t/exported"
if grep -v '^aescrypt_[a-z0-9_]*@@AESCRYPT_1$' "$t/exported" > "$t/stray"; then
	echo "abi: exported without the aescrypt_ prefix or the AESCRYPT_1 node:"
	sed 's/^/    /' "$t/stray"; fail=1
fi
sed 's/@@.*//' "$t/exported" > "$t/names"
sed -n 's/^[[:space:]]*\(aescrypt_[a-z0-9_]*\);.*/\1/p' "$map" | sort > "$t/map"
# every declaration: AESCRYPT_API, then the type, then the name and '('
grep -v '^#' "$header" | tr '\n' ' ' | grep -o 'AESCRYPT_API [^;(#]*(' |
    sed 's/.*[ *]\(aescrypt_[a-z0-9_]*\)($/\1/' | sort > "$t/header"
for pair in "exported names:map" "exported names:header"; do
	a=${pair%%:*} b=${pair##*:}
	[ "$a" = "exported names" ] && a=names
	if ! cmp -s "$t/$a" "$t/$b"; then
		echo "abi: the library's exports and the $b's list differ (< exported, > $b):"
		diff "$t/$a" "$t/$b" | grep '^[<>]' | sed 's/^/    /'; fail=1
	fi
done
sed -n 's/^\.Nm \(aescrypt_[a-z0-9_]*\).*/\1/p' "$mandir"/*.3 | sort -u > "$t/man"
if ! cmp -s "$t/names" "$t/man"; then
	echo "abi: the exported calls and those the section-3 pages name differ (< exported, > pages):"
	diff "$t/names" "$t/man" | grep '^[<>]' | sed 's/^/    /'; fail=1
fi
n=$(wc -l < "$t/names")
[ "$n" -gt 0 ] || { echo "abi: nothing exported"; fail=1; }
if command -v abidiff > /dev/null; then
	abidiff "$baseline" "$so" > "$t/diff" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "abi: abidiff against $baseline exited $rc (4: an ABI change, 8: an incompatible one):"
		sed 's/^/    /' "$t/diff"; fail=1
	else
		abi="the ABI is the baseline's (abidiff)"
	fi
else
	abi="abidiff not installed (abigail-tools): the ABI baseline not compared"
fi
[ "$fail" -eq 0 ] && echo "abi: SONAME $soname; $n aescrypt_* calls exported under AESCRYPT_1, the version script's, the header's and the manual's lists; $abi"
exit "$fail"
