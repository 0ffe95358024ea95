/*
 * agestream.h -- an age file's payload (C2SP age.md, "Payload"): the
 * STREAM of ChaCha20-Poly1305 chunks of 64 KiB under a key from the
 * file key and the payload nonce, each chunk opened on its own (so the
 * pipeline opens them on every core), by the rules age's own reader
 * follows, so that exactly the plaintext age would release is.
 */
#ifndef AE_AGESTREAM_H
#define AE_AGESTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "agehdr.h"
#include "common/error.h"

#define AE_AGE_CHUNK 65536                      /* plaintext */
#define AE_AGE_RECORD (AE_AGE_CHUNK + 16)       /* with its tag */

/* The payload key: HKDF-SHA-256(file key, salt = nonce, "payload").
 * The caller wipes it. */
void ae_age_payload_key(uint8_t key[32],
    const uint8_t file_key[AE_AGE_FILE_KEY_LEN],
    const uint8_t nonce[AE_AGE_NONCE_LEN]);

/*
 * Open chunk seq, rec[0, len): the input cut into pieces of
 * AE_AGE_RECORD bytes, so only the last piece is shorter.  Writes its
 * plaintext to out (AE_AGE_CHUNK bytes of room) and *final: whether
 * it opened as the final chunk.  As age's reader:
 *   - a short piece is the last, and must open as the final chunk; an
 *     empty one (the tag alone) only as chunk 0 (an empty payload);
 *   - a full piece is tried as a chunk that is not final, then as the
 *     final one.
 * Returns 0 with *outlen and *final (the caller refuses a final chunk
 * that is not at the end, and an end that is not a final chunk: the
 * plaintext of each was authenticated, and age releases it); AE_EAUTH
 * when it does not open; AE_ETRUNC for a piece of 0 to 16 bytes
 * (no chunk; the input ended) or an empty final chunk after others
 * (AE_EFORMAT); d names the chunk.
 */
int ae_age_chunk_open(const uint8_t key[32], uint64_t seq, const uint8_t *rec,
    size_t len, uint8_t *out, size_t *outlen, int *final, struct ae_diag *d);

#endif
