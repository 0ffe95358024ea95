/*
 * signer.h -- what the writer and reader handles use of an
 * aescrypt_signer (its contract for callers is in aescrypt.h): its key,
 * and a signature of SSHSIG's signed data by it, made here or by
 * ssh-agent.
 */
#ifndef AE_LIB_SIGNER_H
#define AE_LIB_SIGNER_H

#include <stddef.h>
#include <stdint.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

/* The signer's Ed25519 public key. */
const uint8_t *ae_lib_signer_pk(const aescrypt_signer *s);

/* s's Ed25519 signature of tbs[0, n): 0, or the agent's errors (d). */
int ae_lib_signer_sign(aescrypt_signer *s, const uint8_t *tbs, size_t n,
    uint8_t sig[64], struct ae_diag *d);

#endif
