/*
 * unpack.h -- the reading side shared by -t and -x: open an archive
 * container with the library's reader, unlock it, and run its payload
 * (aescrypt_reader_raw_*) in a thread whose plaintext the caller reads
 * as a tar stream.
 *
 * Everything the caller reads has already authenticated (the pipeline
 * writes a chunk only after its tag verifies), so a member read to its
 * end is the member the archive's creator wrote.  What the caller cannot
 * know until the end is whether the archive as a whole is complete:
 * unpack_end says.
 */
#ifndef AE_CLI_UNPACK_H
#define AE_CLI_UNPACK_H

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "archive/tar_read.h"
#include "run.h"
#include "salvage.h"
#include "stats.h"

struct ixview;

struct unpack {
	const struct run_prefs *run; /* how the run goes (unpack_open_keys) */
	struct streams io;
	aescrypt_reader *r;         /* the library's, opened and unlocked */
	aescrypt_age *age;          /* or, for an age file, the library's
	                             * age handle (r is then unused): its
	                             * payload a tar stream, maybe gzip or
	                             * zstd compressed (agefile.h) */
	struct ae_diag age_d;       /* its run's failure */
	struct aescrypt_info info;  /* its header's facts */
	int seekable;               /* the input can pread: the index and
	                             * runs of records are in reach */
	int from_copy;              /* the header was its copy (--salvage) */
	struct run_stats rs;
	struct ae_reader tar_in;    /* the caller reads the tar stream here */
	int started;
	int pipe_rc;                /* the run's result (raw_end) */
	int decoder_failed;         /* a read of tar_in met the run's
	                             * failure (so an error from the tar
	                             * reader is not about the tar data) */
	uint8_t peek[AE_TAR_BLOCK]; /* the first block, read to check it */
	size_t peek_len, peek_pos;
	uint64_t w0;
	uint64_t files_t0;          /* the caller's thread clock at the start */
	struct salvage salvage;     /* --salvage: lost chunks (the reader
	                             * puts their zeros in place) */
	int keys;                   /* unpack_open_keys succeeded */
	int ranged;                 /* this run reads a range (below) */
	uint64_t skip, left;        /* ... of which so much is to skip, and
	                             * so much to pass to the tar reader */
	size_t tail;                /* then these end-block bytes */
	uint64_t files_ns, files_bytes;     /* summed over the runs */
	const struct ixview *salvage_ix;    /* --salvage: the index that
	                                     * names what is lost, or NULL */
	int check_index;            /* a full read of an indexed archive:
	                             * the members seen and the index after
	                             * compared at the end (by the reader) */
	int index_not_held;         /* ... but it was too large to hold */
	int caller_checks_index;    /* the caller compares each member with
	                             * the index it loaded (-x): no second
	                             * copy is collected */
};

/* A run of records that holds a range of the tar stream, from an
 * archive's index: records first .. first + count - 1, the first at
 * file offset `offset`; the range starts skip bytes into their
 * plaintext and is len bytes long. */
struct unpack_range {
	uint64_t first, count, offset, skip, len;
	size_t m0, m1;              /* the index's members [m0, m1) whose
	                             * headers start in the range */
};

/* A zeroed struct unpack on the heap, kept out of core dumps; NULL if
 * out of memory.  unpack_free closes it if it is open, frees its reader
 * (which wipes the keys; its index, which the caller may hold, goes
 * with it), wipes and frees it; NULL is ignored. */
struct unpack *unpack_new(void);
void unpack_free(struct unpack *u);

/*
 * Open archive (NULL or "-": standard input) and unlock it with the
 * keys from k (prints; 0 or an exit status, then nothing is left open);
 * p, kept until the end, says how the run goes.  Then start a decoder
 * on the whole payload (range NULL) or on a range: a stream-mode
 * container is accepted only if its plaintext starts with a tar header
 * (a tar made elsewhere and encrypted with -e); otherwise the error
 * points to -d.  After a range, unpack_end_run(..., last = 0) ends that
 * run and leaves the archive open for the next; unpack_close closes it
 * (unpack_end does, and so does a failed unpack_start).
 */
int unpack_open_keys(struct unpack *u, const struct key_sources *k,
    const struct run_prefs *p, const char *archive);
/* unpack_open_keys's answer when the input was an AES Crypt file and
 * --test checked it: nothing is open, nothing more to do. */
#define UNPACK_DONE (-1)
int unpack_start(struct unpack *u, const struct unpack_range *range);
void unpack_close(struct unpack *u);

/*
 * End the run, after the caller's loop over ae_tar_next.  r is the
 * loop's last ae_tar_next result (1 at the end marker, or an error,
 * with d), and caller_rc the caller's own failure (an exit status it
 * has already reported; 0 if it read to the end).  A tar error in
 * authentic data (the archive was made that way) is reported here.  If
 * the caller stopped early the decoder is told to stop; otherwise the
 * rest of the payload (tar's padding after the end marker) is read, so
 * that the final chunk is verified.  Returns the exit status: the
 * decoder's failure if it had one (reported here), else caller_rc or the
 * tar error's.  --stats is printed if asked for and all went well.
 */
int unpack_end(struct unpack *u, int r, const struct ae_diag *d,
    int caller_rc);
int unpack_end_run(struct unpack *u, int r,
    const struct ae_diag *d, int caller_rc, int last);

/* After unpack_end: whether the payload could not be read to its final
 * record for a fault of the data (a cut, a frame that cannot be
 * followed), as opposed to a signal, a full disk, or the caller's
 * stopping early.  u->rs.pipe.plain_bytes is then where it stopped. */
int unpack_cut(const struct unpack *u);

/*
 * A full read of an indexed archive checks the index against what it
 * reads (aescrypt_reader_raw_seen): the caller installs this on its tar
 * reader after unpack_start, and unpack_end has the reader compare (and
 * reports a difference as damage, exit 4).  Nothing happens for a range, --salvage or an
 * archive without an index.
 */
void unpack_watch(struct unpack *u, struct ae_tar_reader *tr);

/* For --stats: the caller's thread CPU time spent on the tar stream
 * and the files is from unpack_start's return to unpack_end. */

#endif
