/*
 * keyfile.h -- the text form of a key file (format/aescrypt-v1.md,
 * section 8).
 *
 * A key file holds one 32-byte key as a line "AESCRYPT-KEY-V1-" followed
 * by 64 hex digits.  Lines starting with '#' and blank lines are
 * comments.  Text, not raw bytes, so that a key survives copy and paste,
 * and so that handing aescrypt some other file by mistake is an error
 * rather than a key.
 */
#ifndef AE_KEYFILE_H
#define AE_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define AE_KEYFILE_PREFIX "AESCRYPT-KEY-V1-"
#define AE_KEYFILE_MAX 4096     /* larger files are not key files */

/*
 * Write the key file text for key into buf (room for bufsize bytes,
 * NUL-terminated).  Returns the length without the NUL, or 0 if buf is
 * too small.
 */
size_t ae_keyfile_format(const uint8_t key[32], char *buf, size_t bufsize);

/*
 * Parse key file text (len bytes, not NUL-terminated).  Returns 0 with
 * key set, or AE_EFORMAT if there is not exactly one well-formed key line.
 */
int ae_keyfile_parse(const char *text, size_t len, uint8_t key[32]);

#endif
