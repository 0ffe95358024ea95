/*
 * sha256.h -- SHA-256 (FIPS 180-4), incremental.
 */
#ifndef AE_SHA256_H
#define AE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define AE_SHA256_LEN 32
#define AE_SHA256_BLOCK 64

struct ae_sha256 {
	uint32_t h[8];
	uint64_t len;              /* bytes hashed so far */
	uint8_t buf[AE_SHA256_BLOCK];
	size_t fill;               /* bytes waiting in buf */
};

void ae_sha256_init(struct ae_sha256 *s);
/* Hash n more bytes; p may be NULL when n is 0. */
void ae_sha256_update(struct ae_sha256 *s, const void *p, size_t n);
/* Write the digest and wipe s. */
void ae_sha256_final(struct ae_sha256 *s, uint8_t out[AE_SHA256_LEN]);
/* One-shot digest of n bytes. */
void ae_sha256(const void *p, size_t n, uint8_t out[AE_SHA256_LEN]);

/*
 * The SHA-256 instructions (x86 SHA-NI) are used where the CPU has
 * them; ae_sha256_force_portable(1) makes every later call use the
 * portable code instead (--no-hw does, and the tests compare the two),
 * 0 undoes it.  Call it before threads hash.  _accelerated: whether
 * the instructions are in use now.
 */
void ae_sha256_force_portable(int on);
int ae_sha256_accelerated(void);

#endif
