/*
 * aes_ct.h -- AES-256 in portable, constant-time C (bitsliced).
 *
 * This is tier 0 of the cipher: it runs on any CPU and uses no table
 * indexed by secret data and no branch on secret data.  It is built from
 * plain C over GCC/Clang vector types, so the compiler may use SSSE3 or
 * AVX2 (or NEON) lanes, but never AES instructions.
 */
#ifndef AE_AES_CT_H
#define AE_AES_CT_H

#include <stddef.h>
#include <stdint.h>

#define AE_AES_CT_ROUNDS 14

/* Round keys in bitsliced form: 15 round keys of 8 bit-planes of 128
 * bits (one byte per state cell).  Secret. */
struct ae_aes_ct_key {
	uint64_t sk[AE_AES_CT_ROUNDS + 1][8][2];
};

/* Expand a 32-byte AES-256 key.  The caller wipes k when done. */
void ae_aes_ct_init(struct ae_aes_ct_key *k, const uint8_t key[32]);

/*
 * CTR mode with the GCM counter rule: ctr is a 16-byte counter block
 * whose last 4 bytes are a big-endian counter incremented modulo 2^32
 * ("inc32"); the first 12 bytes never change.  Encrypts nblocks counter
 * blocks starting at *ctr, XORs them into in and writes out (in == out is
 * allowed; partial overlap is not).  On return ctr holds the next counter.
 */
void ae_aes_ct_ctr32(const struct ae_aes_ct_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks);

/* Encrypt one block (used for H = E(K, 0^128)). in == out is allowed. */
void ae_aes_ct_encrypt_block(const struct ae_aes_ct_key *k, const uint8_t in[16],
    uint8_t out[16]);

/*
 * CBC decryption (the inverse cipher of FIPS 197, SP 800-38A 6.2) of
 * nblocks whole blocks from in to out (in == out is allowed; partial
 * overlap is not).  iv is the previous ciphertext block; on return it
 * holds the last ciphertext block, so a stream can be decrypted in
 * pieces.  Constant-time as the rest of this tier: the inverse S-box is
 * the forward circuit between two affine maps.
 */
void ae_aes_ct_cbc_decrypt(const struct ae_aes_ct_key *k, uint8_t iv[16],
    const uint8_t *in, uint8_t *out, size_t nblocks);

#endif
