#!/usr/bin/env bats
# Tar parity (issue 50): the 78 tar archives of libarchive's own tests
# (tests/vectors/libarchive/corpus, with their licence), each sealed with
# -e and listed with -t, against bsdtar's listing of the same tar.
# Those compressed there (gzip, compress, bzip2, xz, lzma, lzip, zstd)
# are undone first: aescrypt reads the tar, not the filter.
#
# Every archive bsdtar reads must list byte for byte as bsdtar lists it,
# exit 0 (or 1 for a warning); one that bsdtar stops in and GNU tar
# reads lists as GNU tar lists it.  The rest are the ones named below,
# each refused with an aescrypt error (exit 4), never a crash.

load test_helper

CORPUS=$BATS_TEST_DIRNAME/../vectors/libarchive/corpus

# Refused by bsdtar too: damaged or hostile by design (libarchive's test
# of each expects an error).  pax_large_attr holds a pax header of 8 MB,
# past the 1 MiB both take (GNU tar reads it).
BOTH_REFUSE="test_read_format_tar_acl_oob_read.tar
test_read_format_tar_empty_filename.tar
test_read_format_tar_invalid_pax_size.tar
test_read_format_tar_pax_g_large.tar
test_read_format_tar_pax_large_attr.tar.Z
test_read_pax_empty_val_no_nl.tar"
# A 'V' header whose size is negative: bsdtar 3.6 lists nothing and
# exits 0, but libarchive's own test (at the corpus's commit) expects a
# fatal error, since reading it once sent its reader into a loop, and
# GNU tar refuses it.  aescrypt refuses it as they do.
WE_REFUSE="test_read_format_tar_V_negative_size.tar"
# bsdtar stops at a member with a malformed sparse map; GNU tar lists
# it and goes on, and so does aescrypt, with a warning (exit 1).
AS_GNU="test_read_format_gtar_sparse_skip_entry.tar.Z"

setup() {
	test_dir
	make_key k 2> /dev/null
}

# raw FILE: the tar inside FILE on stdout.
raw() {
	case $1 in
	# (2: a warning, as for the trailing zeros of test_compat_gzip_2)
	*.tgz | *.gz | *.Z) gzip -dcq "$1" || [ $? -eq 2 ] ;;
	*.tbz | *.bz2) bzip2 -dc "$1" 2> /dev/null ;;
	*.xz | *.lzma) xz -dc "$1" ;;
	*.lz) xz --format=lzip -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*) cat "$1" ;;
	esac
}

@test "the corpus is whole: 78 archives, each as its checksum says" {
	(cd "$CORPUS" && sha256sum -c --quiet SHA256SUMS)
	[ "$(wc -l < "$CORPUS/SHA256SUMS")" -eq 78 ]
}

@test "libarchive's 78 test tars: 71 list as bsdtar lists them (one as GNU tar), the 7 others are refused with an error (issue 50)" {
	local f b st same=0 refused=0 bad=0
	for f in "$CORPUS"/*; do
		b=${f##*/}
		case $b in COPYING | SHA256SUMS) continue ;; esac
		raw "$f" > t.tar || { echo "$b: could not be unpacked" >&2; return 1; }
		"$AESCRYPT" -e -q -k k -o t.aes t.tar
		st=0
		"$AESCRYPT" -t -q -k k -f t.aes > ours 2> err || st=$?
		if printf '%s\n%s\n' "$BOTH_REFUSE" "$WE_REFUSE" | grep -qxF "$b"; then
			# refused, and said so: no crash (exit 4, a message)
			if [ "$st" -ne 4 ] || ! grep -q '^aescrypt: error: ' err; then
				echo "$b: expected a refusal, got exit $st: $(cat err)" >&2
				bad=$((bad + 1))
			fi
			if grep -qxF "$b" <<< "$BOTH_REFUSE" && bsdtar -tf t.tar > /dev/null 2>&1; then
				echo "$b: bsdtar reads it now" >&2
				bad=$((bad + 1))
			fi
			refused=$((refused + 1))
			continue
		fi
		if [ "$b" = "$AS_GNU" ]; then
			tar -tf t.tar > theirs
		else
			# (bsdtar's status is not asked: it is 1 for a warning
			# too, as for a name it cannot convert)
			bsdtar -tf t.tar > theirs 2> /dev/null || true
		fi
		if [ "$st" -gt 1 ] || ! cmp -s ours theirs; then
			echo "$b: exit $st, the listing differs:" >&2
			diff ours theirs | head -5 >&2
			bad=$((bad + 1))
			continue
		fi
		same=$((same + 1))
	done
	echo "# $same list as bsdtar (or GNU tar) lists them, $refused refused as named, $bad wrong" >&3
	[ "$bad" -eq 0 ]
	[ "$same" -eq 71 ]
	[ "$refused" -eq 7 ]
}
