/*
 * kdf.h -- Argon2id for passphrase key slots, and the caps that keep a
 * hostile header from making us run it at an absurd cost.
 */
#ifndef AE_KDF_H
#define AE_KDF_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct ae_kdf_params {
	uint32_t m_kib;   /* memory, KiB */
	uint32_t t;       /* passes */
	uint32_t p;       /* lanes */
};

struct ae_kdf_limits {
	uint64_t max_m_kib;
	uint32_t max_t;
	uint32_t max_p;
};

/* The defaults for new files: see format/aescrypt-v1.md, "Choosing costs". */
#define AE_KDF_DEFAULT_M_KIB (256u * 1024)
#define AE_KDF_DEFAULT_T 3
#define AE_KDF_DEFAULT_P 4

/* The caps a decoder applies unless told otherwise. */
#define AE_KDF_CAP_M_KIB (2u * 1024 * 1024)   /* 2 GiB, and half of RAM */
#define AE_KDF_CAP_T 10
#define AE_KDF_CAP_P 16

/*
 * The decoder's default limits: memory min(2 GiB, half of physical RAM),
 * 10 passes, 16 lanes.
 */
void ae_kdf_default_limits(struct ae_kdf_limits *lim);

/*
 * Check p against what Argon2 itself accepts (t >= 1, 1 <= p <= 2^24-1,
 * m >= 8p KiB).  Returns 0 or AE_EFORMAT.
 */
int ae_kdf_valid(const struct ae_kdf_params *p);

/*
 * Check p against lim.  Returns 0, or AE_ELIMIT with d->have and d->limit
 * set to the first cost found over its cap (memory in KiB, then passes,
 * then lanes) and d->what naming it.
 */
int ae_kdf_within(const struct ae_kdf_params *p,
    const struct ae_kdf_limits *lim, struct ae_diag *d);

/*
 * out = Argon2id(pass, salt, p), version 0x13, 32-byte tag, no secret or
 * associated data.  Returns 0, AE_ENOMEM if the memory cannot be had,
 * AE_EFORMAT if Argon2 rejects the parameters.
 */
int ae_kdf_argon2id(const void *pass, size_t passlen,
    const uint8_t *salt, size_t saltlen, const struct ae_kdf_params *p,
    uint8_t out[32]);

#endif
