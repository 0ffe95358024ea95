/*
 * pipeline.h -- the payload as a whole, in parallel: one reader thread
 * cuts the input into chunks, N worker threads seal (or open) them, and
 * the calling thread writes them out in order.  The design notes are at
 * the top of pipeline.c.
 */
#ifndef AE_PIPELINE_H
#define AE_PIPELINE_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/error.h"
#include "crypto/gcm.h"
#include "common/io.h"
#include "container/deflate.h"
#include "container/agestream.h"
#include "container/format.h"

/* The most worker threads a pipeline runs. */
#define AE_PIPE_MAX_THREADS 256

/* damaged()'s seq for bytes passed over with no record lost. */
#define AE_PIPE_NO_RECORD UINT64_MAX

struct ae_pipe_params {
	const ae_gcm_ctx *key;         /* the payload cipher, read-only */
	unsigned chunk_log2;        /* AE_CHUNK_LOG2_MIN .. _MAX */
	int codec;                  /* enum ae_codec (the header's) */
	int level;                  /* encode: 0 (store) .. the codec's
	                             * highest level (chunk.h) */
	int engine;                 /* the DEFLATE engine (deflate.h); 0 is
	                             * the default one */
	unsigned threads;           /* workers wanted, 1 .. AE_PIPE_MAX_THREADS */
	uint64_t offset;            /* decode: container offset of the first
	                             * record, for messages */
	/* decode: the first record's number (its nonce), and how many to
	 * read (0: up to the final one); for a run of records found by an
	 * archive's index.  A run that ends before the final record ends
	 * there, and so does one with `trailer` set (an index follows the
	 * final record; the caller reads it); otherwise the input must end
	 * right after the final record. */
	uint64_t first_seq, max_records;
	int trailer;
	const atomic_int *interrupt;/* optional: when it becomes non-zero,
	                             * stop and return AE_EINTR */
	atomic_int *cancel;         /* optional: set to 1 when the pipeline
	                             * stops early, so a reader blocked in
	                             * I/O (ae_fdio.cancel) gives up */
	int timed;                  /* fill the *_ns stats (a few clock
	                             * reads per chunk; off, they stay 0) */
	/* optional: called by the writer (the calling thread) after each
	 * chunk is written, with the payload and record bytes so far; for
	 * a progress display, so it must be quick. */
	void (*progress)(void *ctx, uint64_t plain_bytes,
	    uint64_t wire_bytes);
	void *progress_ctx;
	/* decode, --salvage: a chunk that fails to open (a bad tag, bad
	 * DEFLATE data) does not end the run.  The writer calls damaged()
	 * instead of writing it, in chunk order, with its index, whether
	 * its frame said it was the final one, and d naming it, then goes
	 * on with the next record (its frame held, so the next record is
	 * where it says).  If damaged() returns an error (it could not
	 * record the loss, or write what stands for it), the run ends with
	 * that error, as a writer's would.  After a damaged frame the
	 * next record is where rec_off (below) says, or, without it, the
	 * first later record that authenticates (with dkey, below, which
	 * salvage without rec_off needs: AE_EINVAL otherwise).  A
	 * truncation or data after the final chunk ends the run. */
	int salvage;
	/* damaged() with seq AE_PIPE_NO_RECORD: no record was lost, but
	 * bytes that are none of the file's records were passed over (d:
	 * offset where they start, have how many; what says why: junk, or
	 * a record read again); nothing stands for them in the output.
	 * This happens without rec_off (then dkey is given): a record is taken
	 * under whatever number it authenticates under, in order (a
	 * duplicated record is passed over, a dropped one is lost), and a
	 * search after a damaged frame starts right after the last
	 * record's frame (format 6.5). */
	int (*damaged)(void *ctx, uint64_t seq, int final,
	    const struct ae_diag *d);
	void *damaged_ctx;
	/* --salvage with an archive's index (6.8) and an input that can
	 * seek: record i starts at rec_off[i] (i < nrec; rec_off[nrec] is
	 * where the payload ends).  A record whose frame is damaged, or
	 * whose length is not the index's, is then reported as damaged too,
	 * and reading goes on at the next record's offset. */
	const uint64_t *rec_off;
	uint64_t nrec;
	/* --salvage without rec_off: the payload key's decryption schedule
	 * (cbc.h), with which a record's number is found from its tag in
	 * one block (ae_chunk_number, container/recscan.h), whatever the
	 * range of numbers it could have */
	const struct ae_cbc_key *dkey;
	/* Signed files (format 6.10).  With `sign`, the workers hash each
	 * record whole (ae_sigchain_digest; decoding, before it is opened)
	 * and the writer hands the digests in order to signed_fn, with, when
	 * decoding, the signature record the reader found after that record
	 * (else NULL): after every 2^sig_log2 records that are not the
	 * final one (when sig_intervals), and after the final record (when
	 * sig_last).  Encoding, signed_fn is called once the record is
	 * written, with `due` set where a signature must follow it, which
	 * it writes; decoding, once its plaintext went to the output, with
	 * `end` the file offset just past the record and the signature
	 * record after it, if any.  An error it returns ends the run (d
	 * from its diag).  Not with salvage. */
	int sign;
	unsigned sig_log2;
	int sig_intervals, sig_last;
	/* decode, a run of a signed file's records found by its index,
	 * which cannot check its signatures (the chain starts at the
	 * header): the signature records where they belong are read past
	 * (sig_log2, sig_intervals and sig_last say where), unchecked */
	int sig_skip;
	int (*signed_fn)(void *ctx, uint64_t seq, int final,
	    const uint8_t digest[AE_SIG_DIGEST_LEN], const uint8_t *sig_rec,
	    int due, uint64_t end, struct ae_diag *d);
	void *signed_ctx;
	/* decode, an age file's payload (container/agestream.h) rather
	 * than records: with age_key (its 32-byte payload key) set, the
	 * reader cuts the input into pieces of AE_AGE_RECORD bytes, the
	 * workers open each (ae_age_chunk_open) and the writer writes
	 * their plaintext in order; a chunk that opened as the final one
	 * with input after it (AE_EFORMAT), or the input's last piece that
	 * did not (AE_ETRUNC), ends the run once its plaintext, which
	 * authenticated, is written, as age does.  key may be NULL; codec
	 * must be 0 and chunk_log2 16, and sign, sig_skip, salvage and
	 * trailer off. */
	const uint8_t *age_key;
};

/* What the run did and cost.  CPU times are per-thread clocks, summed.
 * A run adds to these, so the caller zeroes them first (and can sum
 * several runs). */
struct ae_pipe_stats {
	uint64_t plain_bytes;       /* payload bytes before compression */
	uint64_t wire_bytes;        /* record bytes, frames and tags included */
	uint64_t chunks;
	uint64_t records;           /* decode: records read, those lost to
	                             * --salvage included */
	uint64_t probe_stored;      /* encode: chunks stored because the
	                             * incompressible-data probe said so */
	uint64_t read_bytes, write_bytes;
	uint64_t aead_bytes;        /* bytes sealed or opened */
	uint64_t read_ns;           /* reader thread, in reads */
	uint64_t zip_ns;            /* workers, deflating or inflating */
	uint64_t aead_ns;           /* workers, sealing or opening */
	uint64_t write_ns;          /* writer (calling thread), in writes */
	/* Wall-clock time spent waiting, which CPU clocks cannot show: why
	 * a run took longer than its CPU time says.  Filled when timed. */
	uint64_t read_wall_ns;      /* reader, inside reads: waiting on input */
	uint64_t reader_wait_ns;    /* reader, for a free buffer: the workers
	                             * or the writer were behind */
	uint64_t worker_wait_ns;    /* all workers, for work: the reader was
	                             * behind (summed over workers) */
	uint64_t writer_wait_ns;    /* writer, for the next chunk in order:
	                             * the workers were behind */
	uint64_t write_wall_ns;     /* writer, inside writes: waiting on
	                             * output */
	uint64_t wall_ns;
	unsigned threads;           /* workers that ran */
};

/*
 * Encode: read `in` to its end, seal each chunk, and write the records
 * to `out` in order.  Returns 0, or the first error in chunk order: the
 * reader's or writer's error (d->where says which), AE_ENOMEM,
 * AE_EINTR, AE_EINVAL for bad parameters, or AE_ETOOBIG if the chunk
 * counter would pass 2^64 - 1.  Chunks before a failure may already
 * have been written.
 */
int ae_pipe_encode(const struct ae_pipe_params *p, struct ae_reader *in,
    struct ae_writer *out, struct ae_pipe_stats *st, struct ae_diag *d);

/*
 * Decode: read records from `in` and write each chunk's plaintext to
 * `out`, in order, only after its tag has verified.  Returns 0 once the
 * final chunk has been written and the input has ended there.
 * Otherwise the first failure in chunk order, exactly as a one-chunk-at-
 * a-time decoder would meet it:
 *   AE_ETRUNC   the input ended before a final chunk (or inside a record)
 *   AE_EAUTH    a chunk failed authentication: tampered, reordered,
 *               dropped or duplicated
 *   AE_EFORMAT  bad frame, bad contents, or data after the final chunk
 *   (and the reader's and writer's errors, AE_ENOMEM, AE_EINTR)
 * with d naming the chunk and its offset.  Chunks before the failure
 * have already been written.
 */
int ae_pipe_decode(const struct ae_pipe_params *p, struct ae_reader *in,
    struct ae_writer *out, struct ae_pipe_stats *st, struct ae_diag *d);

#endif
