/*
 * cbc.h -- AES-256-CBC decryption with run-time tier dispatch.
 *
 * Only decryption: nothing here writes CBC, which is read for one
 * reason, files in the AES Crypt stream format (container/legacy.h).
 * The tiers follow GCM's (gcm.h): AES-NI where the CPU has it (the VAES
 * tier's CPUs have it too), else the constant-time software inverse
 * cipher (aes_ct.h); ae_gcm_force_software() (--no-hw) forces the
 * software tier here as well.  aarch64 uses the software tier: its
 * AESD/AESIMC path is not written.
 */
#ifndef AE_CBC_H
#define AE_CBC_H

#include <stddef.h>
#include <stdint.h>

#include "aes_ct.h"
#include "gcm.h"

struct ae_cbc_key {
	enum ae_gcm_tier tier;            /* AE_GCM_TIER_SOFT or _NI */
	struct ae_aes_ct_key ct;          /* the software tier's keys */
	_Alignas(16) uint8_t dk[15][16];  /* AES-NI: the decryption keys */
};

/* Expand key for decryption with the tier GCM would use now. */
void ae_cbc_init(struct ae_cbc_key *k, const uint8_t key[32]);

/*
 * Test hook: as ae_cbc_init() with tier t (the VAES tiers mean AES-NI).
 * Returns AE_ENOTSUP if the CPU or build cannot run it, else 0.
 */
int ae_cbc_init_tier(struct ae_cbc_key *k, const uint8_t key[32],
    enum ae_gcm_tier t);

/*
 * Decrypt nblocks whole blocks from in to out (in == out allowed,
 * partial overlap not).  iv is the previous ciphertext block and holds
 * the last one on return, so a stream decrypts in pieces.
 */
void ae_cbc_decrypt(const struct ae_cbc_key *k, uint8_t iv[16],
    const uint8_t *in, uint8_t *out, size_t nblocks);

/* Wipe the key schedule. */
void ae_cbc_wipe(struct ae_cbc_key *k);

#endif
