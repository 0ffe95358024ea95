/*
 * sniff.c -- what a file is, from its first bytes, for the command's
 * words about files it does not read (contract: aescrypt.h, the
 * unstable part; the signatures are container/sniff.c's).
 */
#include "config.h"
#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

#include "container/sniff.h"

_Static_assert(AESCRYPT_SNIFF_LEN == AE_SNIFF_LEN
    && (int)AESCRYPT_FORMAT_UNKNOWN == (int)AE_KIND_UNKNOWN
    && (int)AESCRYPT_FORMAT_AESCRYPT == (int)AE_KIND_AESCRYPT
    && (int)AESCRYPT_FORMAT_AESCRYPT_LEGACY == (int)AE_KIND_AESCRYPT_LEGACY
    && (int)AESCRYPT_FORMAT_GZIP == (int)AE_KIND_GZIP
    && (int)AESCRYPT_FORMAT_ZSTD == (int)AE_KIND_ZSTD
    && (int)AESCRYPT_FORMAT_XZ == (int)AE_KIND_XZ
    && (int)AESCRYPT_FORMAT_BZIP2 == (int)AE_KIND_BZIP2
    && (int)AESCRYPT_FORMAT_LZ4 == (int)AE_KIND_LZ4
    && (int)AESCRYPT_FORMAT_7Z == (int)AE_KIND_7Z
    && (int)AESCRYPT_FORMAT_ZIP == (int)AE_KIND_ZIP
    && (int)AESCRYPT_FORMAT_AGE == (int)AE_KIND_AGE
    && (int)AESCRYPT_FORMAT_AGE_ARMOR == (int)AE_KIND_AGE_ARMOR
    && (int)AESCRYPT_FORMAT_PGP == (int)AE_KIND_PGP
    && (int)AESCRYPT_FORMAT_PGP_ARMOR == (int)AE_KIND_PGP_ARMOR
    && (int)AESCRYPT_FORMAT_OPENSSL_ENC == (int)AE_KIND_OPENSSL_ENC
    && (int)AESCRYPT_FORMAT_TAR == (int)AE_KIND_TAR,
    "aescrypt.h's formats are sniff.h's kinds");

int
aescrypt_sniff(const void *buf, size_t n)
{
	if (buf == NULL)
		return AESCRYPT_FORMAT_UNKNOWN;
	return (int)ae_sniff(buf, n);
}

const char *
aescrypt_format_name(int format)
{
	if (format < AESCRYPT_FORMAT_UNKNOWN || format > AESCRYPT_FORMAT_TAR)
		return "unknown";
	return ae_kind_name((enum ae_kind)format);
}
