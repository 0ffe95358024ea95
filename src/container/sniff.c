/*
 * sniff.c -- naming a file's format from its first bytes (contract in
 * sniff.h).  Signatures are each format's published magic number; for
 * OpenPGP, whose binary messages have none, the first packet's header
 * and version must both be those of an encrypted message's first packet
 * (RFC 4880 section 4.2, 5.1, 5.3; RFC 9580's versions 6 too).
 */
#include "config.h"
#include "sniff.h"
#include "format.h"
#include "legacy.h"

#include <ctype.h>
#include <string.h>

static int
starts(const uint8_t *b, size_t n, const void *sig, size_t len)
{
	return n >= len && memcmp(b, sig, len) == 0;
}

/* An OpenPGP message's first packet: a public-key (tag 1) or symmetric
 * (tag 3) session key, or compressed (8) or literal (11) data, with a
 * version byte that fits. */
static int
pgp_binary(const uint8_t *b, size_t n)
{
	unsigned tag, hl;

	if (n < 4 || !(b[0] & 0x80))
		return 0;
	if (b[0] & 0x40) {                /* new format */
		tag = b[0] & 0x3f;
		hl = b[1] < 192 ? 2 : b[1] < 224 ? 3 : b[1] == 255 ? 6 : 2;
	} else {                          /* old format */
		static const unsigned lens[4] = { 2, 3, 5, 1 };

		tag = (b[0] >> 2) & 0x0f;
		hl = lens[b[0] & 3];
	}
	if (hl >= n)
		return 0;
	switch (tag) {
	case 1:
		return b[hl] == 3 || b[hl] == 6;
	case 3:
		return b[hl] == 4 || b[hl] == 5 || b[hl] == 6;
	case 8:
		return b[hl] <= 3;        /* the compression algorithm */
	case 11:
		return b[hl] == 'b' || b[hl] == 't' || b[hl] == 'u';
	}
	return 0;
}

/*
 * age's armor, or text meant to be it: after blank space, a first line
 * of dashes that names AGE in any case ("-----BEGIN age ENCRYPTED
 * FILE-----", "----- BEGIN AGE ... -----"), or the exact BEGIN line
 * within the first bytes after other text.  age's armor reader refuses
 * all but the exact line, so these are its failures to report, rather
 * than "not a container".  Not an OpenPGP armor (which names PGP).
 */
static int
age_armor(const uint8_t *b, size_t n)
{
	static const char begin[] = "-----BEGIN AGE ENCRYPTED FILE-----";
	size_t i = 0, e, k;

	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r'
	    || b[i] == '\n' || b[i] == '\v' || b[i] == '\f'))
		i++;
	if (n - i >= 5 && memcmp(b + i, "-----", 5) == 0) {
		for (e = i; e < n && b[e] != '\n'; e++)
			;
		/* "age" as a word: MESSAGE is not it */
		for (k = i + 1; k + 3 <= e; k++)
			if ((b[k] | 0x20) == 'a' && (b[k + 1] | 0x20) == 'g'
			    && (b[k + 2] | 0x20) == 'e' && !isalpha(b[k - 1])
			    && (k + 3 == e || !isalpha(b[k + 3])))
				return 1;
		return 0;
	}
	for (k = i; k + sizeof begin <= n; k++)
		if (b[k] == '\n' && memcmp(b + k + 1, begin, sizeof begin - 1)
		    == 0)
			return 1;
	return 0;
}

enum ae_kind
ae_sniff(const uint8_t *b, size_t n)
{
	if (starts(b, n, AE_MAGIC, AE_MAGIC_LEN))
		return AE_KIND_AESCRYPT;
	if (ae_legacy_sniff(b, n))
		return AE_KIND_AESCRYPT_LEGACY;
	if (starts(b, n, "\x1f\x8b", 2))
		return AE_KIND_GZIP;
	if (starts(b, n, "\x28\xb5\x2f\xfd", 4))
		return AE_KIND_ZSTD;
	if (starts(b, n, "\xfd" "7zXZ\0", 6))
		return AE_KIND_XZ;
	if (n >= 4 && starts(b, n, "BZh", 3) && b[3] >= '1' && b[3] <= '9')
		return AE_KIND_BZIP2;
	if (starts(b, n, "\x04\x22\x4d\x18", 4))
		return AE_KIND_LZ4;
	if (starts(b, n, "7z\xbc\xaf\x27\x1c", 6))
		return AE_KIND_7Z;
	if (starts(b, n, "PK\x03\x04", 4) || starts(b, n, "PK\x05\x06", 4))
		return AE_KIND_ZIP;
	if (starts(b, n, "age-encryption.org/", 19))
		return AE_KIND_AGE;
	if (age_armor(b, n))
		return AE_KIND_AGE_ARMOR;
	if (starts(b, n, "-----BEGIN PGP MESSAGE-----", 27))
		return AE_KIND_PGP_ARMOR;
	if (starts(b, n, "Salted__", 8))
		return AE_KIND_OPENSSL_ENC;
	if (n >= 263 && memcmp(b + 257, "ustar", 5) == 0)
		return AE_KIND_TAR;
	if (pgp_binary(b, n))
		return AE_KIND_PGP;
	return AE_KIND_UNKNOWN;
}

const char *
ae_kind_name(enum ae_kind k)
{
	switch (k) {
	case AE_KIND_AESCRYPT: return "aescrypt";
	case AE_KIND_AESCRYPT_LEGACY: return "AES Crypt";
	case AE_KIND_GZIP: return "gzip";
	case AE_KIND_ZSTD: return "zstd";
	case AE_KIND_XZ: return "xz";
	case AE_KIND_BZIP2: return "bzip2";
	case AE_KIND_LZ4: return "lz4";
	case AE_KIND_7Z: return "7-Zip";
	case AE_KIND_ZIP: return "zip";
	case AE_KIND_AGE: return "age";
	case AE_KIND_AGE_ARMOR: return "age (armored)";
	case AE_KIND_PGP: return "OpenPGP (gpg)";
	case AE_KIND_PGP_ARMOR: return "OpenPGP (gpg, armored)";
	case AE_KIND_OPENSSL_ENC: return "OpenSSL enc";
	case AE_KIND_TAR: return "tar";
	case AE_KIND_UNKNOWN: break;
	}
	return "unknown";
}
