/*
 * payload.h -- the chunked payload as a whole: cutting the input into
 * chunks and sealing them in order, or opening them in order and
 * checking that the stream ends where and how it should.
 *
 * Single-threaded for now; every chunk is an independent ae_chunk_seal()
 * or ae_chunk_open() job, so the parallel pipeline replaces only the loop.
 */
#ifndef AE_PAYLOAD_H
#define AE_PAYLOAD_H

#include <stdint.h>

#include "error.h"
#include "gcm.h"
#include "io.h"

struct ae_payload_stats {
	uint64_t plain_bytes;   /* payload bytes before compression */
	uint64_t wire_bytes;    /* record bytes, frames and tags included */
	uint64_t chunks;
};

/*
 * Read in to its end, cut it into chunks of 2^chunk_log2 bytes, and write
 * each sealed record to out.  The reader reads one chunk ahead, so the
 * last chunk is known when it is sealed and gets the final flag.
 * Returns 0, or the error of the reader, the writer (d->where says
 * which), AE_ENOMEM, or AE_ETOOBIG if the chunk counter would pass
 * 2^64 - 1.
 */
int ae_payload_encode(const gcm_ctx *key, unsigned chunk_log2, int level,
    struct ae_reader *in, struct ae_writer *out,
    struct ae_payload_stats *st, struct ae_diag *d);

/*
 * Read records from in, starting at container offset `offset` (for
 * messages), and write each chunk's plaintext to out only after its tag
 * has verified.  Returns 0 once the final chunk has been read and the
 * input has ended there.  Otherwise:
 *   AE_ETRUNC   the input ended before a final chunk (or inside a record)
 *   AE_EAUTH    a chunk failed authentication: tampered, reordered,
 *               dropped or duplicated
 *   AE_EFORMAT  bad frame, bad contents, or data after the final chunk
 * and d names the chunk and its offset.  Chunks before the failure have
 * already been written to out.
 */
int ae_payload_decode(const gcm_ctx *key, unsigned chunk_log2,
    uint64_t offset, struct ae_reader *in, struct ae_writer *out,
    struct ae_payload_stats *st, struct ae_diag *d);

#endif
