/*
 * sniff.h -- what kind of file a few leading bytes show.
 *
 * aescrypt is handed files it does not read (a gzip file, a tar, an age
 * or gpg message) and, under the same .aes name, files of AES Crypt.
 * "Bad magic" helps nobody; naming the format does.  Detection is by
 * the formats' published magic numbers only, and is conservative: a
 * kind is named only when its signature is unambiguous.
 */
#ifndef AE_SNIFF_H
#define AE_SNIFF_H

#include <stddef.h>
#include <stdint.h>

#define AE_SNIFF_LEN 512   /* enough for every signature (tar's at 257) */

enum ae_kind {
	AE_KIND_UNKNOWN = 0,
	AE_KIND_AESCRYPT,       /* this tool's container */
	AE_KIND_AESCRYPT_LEGACY,/* AES Crypt, stream format 0-3 */
	AE_KIND_GZIP,
	AE_KIND_ZSTD,
	AE_KIND_XZ,
	AE_KIND_BZIP2,
	AE_KIND_LZ4,
	AE_KIND_7Z,
	AE_KIND_ZIP,
	AE_KIND_AGE,
	AE_KIND_AGE_ARMOR,
	AE_KIND_PGP,
	AE_KIND_PGP_ARMOR,
	AE_KIND_OPENSSL_ENC,
	AE_KIND_TAR
};

/* The kind of a file whose first n bytes are b (n may be short). */
enum ae_kind ae_sniff(const uint8_t *b, size_t n);

/* "gzip", "7-Zip", "AES Crypt", ...; "unknown" for AE_KIND_UNKNOWN. */
const char *ae_kind_name(enum ae_kind k);

#endif
