/*
 * keyfile.c -- key files' text (format/aescrypt-v1.md, section 8) for
 * the command's --gen-key and -k: made from a fresh random key, and
 * parsed (contract: aescrypt.h, the unstable part).
 */
#include "config.h"
#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

#include "common/error.h"
#include "common/wipe.h"
#include "container/keyfile.h"
#include "crypto/random.h"

_Static_assert(AESCRYPT_KEYFILE_MAX == AE_KEYFILE_MAX,
    "aescrypt.h's key-file size is keyfile.h's");

size_t
aescrypt_keyfile_new(char *buf, size_t cap)
{
	uint8_t key[32];
	size_t len;

	if (buf == NULL || ae_random(key, sizeof key) != AE_OK)
		return 0;
	len = ae_keyfile_format(key, buf, cap);
	ae_wipe(key, sizeof key);
	return len;
}

int
aescrypt_keyfile_parse(const char *text, size_t len, uint8_t key[32])
{
	if (text == NULL || key == NULL)
		return AESCRYPT_EINVAL;
	return ae_keyfile_parse(text, len, key) == AE_OK ? AESCRYPT_OK :
	    AESCRYPT_EFORMAT;
}
