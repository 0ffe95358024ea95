/*
 * recipient_slot.h -- the slot secrets of the recipient slot types
 * (format/aescrypt-v1.md 4.5 to 4.8): a slot sealed to a recipient, and
 * opened by an identity.  Each type is a row of recipient_slot.c's
 * table, beside its layout's row in stanza.c.
 */
#ifndef AE_RECIPIENT_SLOT_H
#define AE_RECIPIENT_SLOT_H

#include <stdint.h>

#include "recipient.h"
#include "stanza.h"

/*
 * The slot secret S for a new slot to recipient r (4.5, 4.6, 4.7): a
 * fresh ephemeral key, whose public half goes to s->share (and r's tag
 * to s->tag), or for ssh-rsa a fresh secret RSA-OAEP-encrypted to r in
 * s->ct; s->type is set.  0; AE_EINVAL if r's key is of low order (the
 * shared secret would be all zeros) or an RSA key libcrypto refuses;
 * AE_ENOTSUP for ssh-rsa without libcrypto; the random source's errors.
 */
int ae_stanza_secret_recipient(struct ae_stanza *s,
    const struct ae_recipient *r, uint8_t S[32]);

/* The same with the ephemeral scalar e given, for the committed samples
 * and the spec's worked example: never for real files, whose e MUST be
 * fresh and random (4.5).  For ssh-rsa, e is the secret Z and SHA-256(e)
 * the OAEP seed. */
int ae_stanza_secret_recipient_with(struct ae_stanza *s,
    const struct ae_recipient *r, const uint8_t e[32], uint8_t S[32]);

/* Whether r's X25519 key is of low order (a slot to it would have an
 * all-zero shared secret, which anyone could compute): 1 or 0. */
int ae_recipient_low_order(const struct ae_recipient *r);

/* The ephemeral X25519 key in recipient slot s that a reader checks
 * for low order (4.5, 4.8), or NULL (ssh-rsa, or not a recipient
 * slot). */
const uint8_t *ae_stanza_share(const struct ae_stanza *s);

/*
 * The slot secret S that identity id gives for recipient slot s.
 * Returns 0; AE_EKEY if the slot is for another kind of key, or (ssh)
 * its tag names another key, or (ssh-rsa) it does not decrypt to a
 * 32-byte secret; AE_EFORMAT if s->share is of low order (all-zero
 * shared secret: the slot is malformed); AE_ENOMEM.
 */
int ae_stanza_secret_identity(const struct ae_stanza *s,
    const struct ae_identity *id, uint8_t S[32]);

#endif
