/*
 * chunk.h -- one payload chunk, sealed or opened on its own
 * (format/aescrypt-v1.md, section 6).
 *
 * A chunk is the unit of work of the pipeline: compress then encrypt, or
 * decrypt then inflate, with no state shared between chunks except the
 * read-only key.  Its nonce comes from its index and final flag, which
 * the caller (the dispatcher, never a worker) assigns.
 *
 * A record on the wire is  flags(1) length(4) ciphertext(length) tag(16)
 * and the 5-byte frame is the GCM associated data.
 */
#ifndef AE_CHUNK_H
#define AE_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "codec.h"
#include "crypto/cbc.h"
#include "crypto/gcm.h"
#include "format.h"

/*
 * Per-thread compression state, reused from chunk to chunk, and the CPU
 * time this thread spent in each half of the work (for --stats).
 */
struct ae_chunk_coder {
	int codec;          /* enum ae_codec */
	const struct ae_codec_ops *cx;      /* its row (codec.h) */
	union ae_codec_state st;        /* its compressor at `level`, or
	                                 * its decompressor */
	int level;          /* 0 (store) .. max level; -1 when opening */
	size_t chunk_size;
	uint64_t probe_stored;  /* chunks stored on the probe's word */
	int timed;          /* measure the times below (set after init) */
	uint64_t zip_ns;    /* deflating, or inflating */
	uint64_t aead_ns;   /* sealing, or opening */
	uint64_t aead_bytes;/* bytes sealed or opened */
};

/*
 * Set up a coder for sealing with `codec` (enum ae_codec) at level 0 ..
 * its row's max_level(engine) (0: every chunk is stored; codec.h), or
 * for opening with codec and engine.
 * chunk_size is a power of two.  Returns 0, AE_EINVAL, AE_ENOTSUP (a
 * codec this build lacks), or AE_ENOMEM.  ae_chunk_coder_free()
 * releases either kind.
 */
int ae_chunk_coder_init_seal(struct ae_chunk_coder *c, size_t chunk_size,
    int codec, int engine, int level);
int ae_chunk_coder_init_open(struct ae_chunk_coder *c, size_t chunk_size,
    int codec, int engine);
void ae_chunk_coder_free(struct ae_chunk_coder *c);

/* The 12-byte nonce: 11-byte big-endian index, then 0x01 if final. */
void ae_chunk_nonce(uint64_t index, int final, uint8_t nonce[AE_NONCE_LEN]);

/*
 * Seal len bytes of in as chunk `index`.  len MUST equal the chunk size
 * for a non-final chunk, and be 1..chunk size for a final one (0 only
 * for a final chunk 0).  The record goes to rec, which MUST hold
 * AE_RECORD_MAX(chunk size) bytes and not overlap in; *reclen is its
 * length.  The chunk is compressed with the coder's codec if that makes
 * it smaller, else stored.  A chunk of 64 KiB or more whose sampled
 * bytes look incompressible (ae_chunk_looks_random) is stored without
 * a compression: already-compressed data (JPEG, video, .gz, other .aes
 * files) then costs little more than -0.  Returns 0, AE_EINVAL for a length that
 * breaks the rules above, or AE_ENOMEM.
 */
int ae_chunk_seal(struct ae_chunk_coder *c, const ae_gcm_ctx *key,
    uint64_t index, int final, const uint8_t *in, size_t len,
    uint8_t *rec, size_t *reclen);

/*
 * The incompressible-data probe: whether len bytes at in (a chunk of 64
 * KiB or more) look incompressible, from the distinct byte values in
 * slices spread over it (1/128 of its bytes), at memory speed.  1 or 0;
 * always 0 under 64 KiB.
 */
int ae_chunk_looks_random(const uint8_t *in, size_t len);

/*
 * Parse a frame.  Returns 0 with *final, *compressed and *ctlen set, or
 * AE_EFORMAT for unknown flag bits or a length over the chunk size (so a
 * hostile length is refused before anything is read or allocated).
 */
int ae_chunk_frame(const uint8_t frame[AE_FRAME_LEN], size_t chunk_size,
    int *final, int *compressed, size_t *ctlen, struct ae_diag *d);

/*
 * Whether a frame could be one an encoder wrote for a chunk of
 * chunk_size (beyond ae_chunk_frame's checks): a non-final chunk holds
 * exactly chunk_size bytes, so a stored one has that length and a
 * compressed one at least one byte.  A run of zeros parses as frames of
 * length 0: --salvage takes such a frame for damage, not a record.
 */
int ae_chunk_frame_plausible(int final, int compressed, size_t ctlen,
    size_t chunk_size);

/*
 * --salvage, after a damaged frame: the number under which the record
 * (frame, then ctlen bytes of ciphertext, then the tag at body + ctlen)
 * authenticates, among lo..hi, with the final bit its frame has, in
 * constant time a candidate whatever the range (format 6.5's work
 * bound): one GHASH pass over the body and one block of the block
 * cipher's inverse (dkey, the payload key's decryption schedule, cbc.h),
 * since the tag XOR GHASH(frame, body) is E(J0(n)), whose inverse names
 * n.  Nothing is decrypted.  0 with *found; AE_EAUTH if no number in
 * lo..hi fits.
 */
int ae_chunk_number(const ae_gcm_ctx *key, const struct ae_cbc_key *dkey,
    const uint8_t frame[AE_FRAME_LEN], const uint8_t *body, size_t ctlen,
    uint64_t lo, uint64_t hi, uint64_t *found);

/*
 * The last step of ae_chunk_number, for a caller that has GHASH(frame,
 * body) by other means (container/recscan.c): whether tag is that of a
 * record numbered in lo..hi, final or not.  0 with *found, or
 * AE_EAUTH.  Constant time.
 */
int ae_chunk_number_of(const struct ae_cbc_key *dkey, int final,
    const uint8_t ghash[AE_TAG_LEN], const uint8_t tag[AE_TAG_LEN],
    uint64_t lo, uint64_t hi, uint64_t *found);

/* GCM's length block for a record: the frame as AAD, ctlen bytes of
 * ciphertext (lengths in bits, big-endian). */
void ae_chunk_lens(uint8_t lens[16], size_t ctlen);

/*
 * Open chunk `index` whose frame is `frame` and whose ciphertext and tag
 * (ctlen + 16 bytes) are at body.  The plaintext goes to out, which
 * MUST hold the chunk size; scratch (ctlen bytes) holds the decrypted
 * DEFLATE data on the way, and may be body itself (decrypt in place).
 * Nothing is written to out or scratch unless the tag verifies.
 * Returns 0 with *outlen set; AE_EAUTH if the tag fails (wrong position,
 * tampering); AE_EFORMAT if the authenticated contents break a rule (bad
 * DEFLATE data, inflating past the chunk size, a short non-final chunk,
 * an empty final chunk after chunk 0).
 */
int ae_chunk_open(struct ae_chunk_coder *c, const ae_gcm_ctx *key,
    uint64_t index, const uint8_t frame[AE_FRAME_LEN], const uint8_t *body,
    size_t ctlen, uint8_t *scratch, uint8_t *out, size_t *outlen,
    struct ae_diag *d);

#endif
