#!/bin/sh
# tests/layers/symbols.sh LIB... -- every global symbol a static library
# defines carries the project's prefix: ae_ (the core and the library's
# insides) or aescrypt_ (the public calls), so that a program linking
# libaescrypt.a meets no name of ours it did not ask for.  With
# --selftest CC, it first shows it can fail: an archive holding a
# symbol without the prefix must be refused.
set -u
if [ "${1:-}" = --selftest ]; then
	cc=$2; shift 2
	t=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-symbols.XXXXXX") || exit 1
	printf 'int ae_fine(void) { return 0; }\nint loose_name(void) { return 1; }\n' > "$t/x.c"
	$cc -c -o "$t/x.o" "$t/x.c" && ar rcs "$t/x.a" "$t/x.o" || { rm -rf "$t"; exit 1; }
	if sh "$0" "$t/x.a" > "$t/out" 2>&1 || ! grep -q loose_name "$t/out"; then
		echo "symbols: the check passed an archive with loose_name in it"
		rm -rf "$t"; exit 1
	fi
	rm -rf "$t"
fi
bad=0 n=0
for lib do
	# (nm prints "address type name" for a defined symbol; upper-case
	# types are global)
	out=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
	for s in $out; do
		n=$((n + 1))
		case $s in
		ae_*|aescrypt_*) ;;
		*) echo "symbols: $lib defines $s, without the ae_ or aescrypt_ prefix"; bad=1 ;;
		esac
	done
done
[ "$n" -gt 0 ] || { echo "symbols: no symbol found in $*"; exit 1; }
[ "$bad" -eq 0 ] || { echo "symbols: FAILED"; exit 1; }
echo "symbols: $n global symbols, each ae_* or aescrypt_*"
