/*
 * sigchain.h -- what a signed container signs (format 6.10), shared by
 * the writer that signs and the reader that checks: the running
 * SHA-256 of the header and of each record's digest, in order; the
 * message each signature signs, made into SSHSIG's signed data; and
 * the signature records themselves.
 *
 * Records are hashed whole (frame, ciphertext, tag) by
 * ae_sigchain_digest, which the pipeline's workers call in parallel;
 * the ordered writer (or reader) then adds each digest in order.
 */
#ifndef AE_SIGCHAIN_H
#define AE_SIGCHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "crypto/ed25519.h"
#include "crypto/sha256.h"
#include "format.h"
#include "sshsig.h"

/* The namespace of every aescrypt signature, in files and beside them. */
#define AE_SIG_NAMESPACE "aescrypt"

struct ae_sigchain {
	struct ae_sha256 t;         /* the header, then each digest (SHA-256:
	                             * where the CPU has SHA instructions,
	                             * 4 to 5 times the speed of SHA-512 here,
	                             * which a signed file pays on every
	                             * byte) */
	uint64_t next;              /* the number of the next signature */
};

/* Start a chain with the header's bytes, exactly as written. */
void ae_sigchain_init(struct ae_sigchain *c, const uint8_t *header,
    size_t len);

/* The SHA-256 of one record (or the footer) as written. */
void ae_sigchain_digest(const uint8_t *rec, size_t n,
    uint8_t out[AE_SIG_DIGEST_LEN]);

/* Add the next record's digest. */
void ae_sigchain_add(struct ae_sigchain *c,
    const uint8_t digest[AE_SIG_DIGEST_LEN]);

/*
 * SSHSIG's signed data (sshsig.h) for the next signature, last or not,
 * over everything added so far: into tbs, its length returned.  Then
 * ae_sigchain_done moves on to the next signature's number.
 */
size_t ae_sigchain_tbs(const struct ae_sigchain *c, int last,
    uint8_t tbs[AE_SSHSIG_TBS_MAX]);
void ae_sigchain_done(struct ae_sigchain *c);

/* A signature record for sig (last: flags 05). */
void ae_sigchain_record(const uint8_t sig[AE_SIG_LEN], int last,
    uint8_t out[AE_SIG_RECORD_LEN]);

/*
 * Check a signature record read where one belongs (last: where the last
 * one belongs) against the chain and the signer's key pk, then move on
 * to the next number.  0; AE_EFORMAT for a record that is not a
 * signature record of that kind; AE_EAUTH for a signature that does not
 * verify.  d->what says which (the caller sets where).
 */
int ae_sigchain_check(struct ae_sigchain *c, const uint8_t rec[AE_SIG_RECORD_LEN],
    int last, const uint8_t pk[32], struct ae_diag *d);

#endif
