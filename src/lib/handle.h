/*
 * handle.h -- the reader handle's insides, shared by the files that
 * implement its calls (not a contract for callers: that is aescrypt.h):
 * reader.c opens and reads in order, access.c reads at random through
 * the index, extract.c makes members on disk.
 */
#ifndef AE_LIB_HANDLE_H
#define AE_LIB_HANDLE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "archive/tar_read.h"
#include "container/allowed.h"
#include "container/header.h"
#include "container/index.h"
#include "container/records.h"
#include "container/sigchain.h"
#include "pipeline/chan.h"
#include "pipeline/pipeline.h"
#include "ixcheck.h"
#include "ixdigest.h"
#include "keyring.h"
#include "message.h"
#include "rcache.h"
#include "sink.h"
#include "source.h"

/* R_UNLOCKING: inside _open, in the caller's unlock callback, where
 * keys and settings may still be given */
enum { R_NEW, R_UNLOCKING, R_OPEN, R_DONE };

struct aescrypt_reader {
	struct keyring keys;
	char msg[MESSAGE_MAX];
	struct ae_diag diag;        /* the last failure's place, */
	int have_diag;              /* if it had one */
	aescrypt_unlock_fn unlock_fn;   /* (unstable part) */
	void *unlock_ctx;
	int state, kind;
	unsigned threads;
	uint64_t max_kib;
	struct source src;
	struct ae_header h;
	ae_gcm_ctx g, ig;
	int have_keys;
	/* salvage: the payload key's decryption schedule, for the search's
	 * one block a candidate (ae_chunk_number) */
	struct ae_cbc_key gd;
	int have_gd;
	/* reading in order: the pipeline on its thread, decoding into the
	 * channel; the caller's thread reads the channel (a stream) or a
	 * tar reader over it (an archive) */
	int seq_started, seq_joined, chan_ok;
	pthread_t thread;
	struct ae_chan chan;
	struct ae_reader chanr;
	atomic_int cancel;
	int perr;
	struct ae_diag pd;
	struct ae_pipe_stats pst;   /* the payload's run */
	aescrypt_progress_fn progress;
	void *progress_ctx;
	int seq_err;                /* sticky: the first failure */
	int seq_clean;              /* read in order to a verified end */
	int seq_keep;               /* ... keeping the index, to compare
	                             * with the members met (ixc) */
	struct ae_tar_reader tr;
	int tr_ok;
	struct ae_tar_member *m;    /* the current member (malloc'd) */
	int have_member;
	int partial;                /* extract: a member was skipped */
	int dw_failed;              /* extract: a write failed (the message
	                             * says which) */
	/* random access (access.c): loaded once, read-only after, but for
	 * the cache of where each member's data starts */
	pthread_mutex_t lock;
	int lock_ok;
	int ix_state;               /* 0 not tried, 1 loaded, or its error */
	struct ae_index ix;
	uint64_t *data_at;          /* per member: tar offset of its data,
	                             * UINT64_MAX unknown (under lock) */
	char ix_msg[MESSAGE_MAX];   /* why the index is not there */
	struct ae_diag ix_diag;     /* ... and its place */
	struct ae_pipe_stats ix_pst;/* what reading it cost */
	void *pool;                 /* access.c's record readers */
	uint64_t cache_bytes;       /* their shared cache (0: none) */
	unsigned cache_ahead;       /* ... its read-ahead threads */
	struct ae_rcache *rc;
	struct ae_records_cache rc_hook;
	/* the command's extras (reader_more.c, header_copy.c: the
	 * unstable part) */
	int salvage;                /* the header's copy; lost chunks */
	aescrypt_event_fn event_fn;
	void *event_ctx;
	aescrypt_lost_fn lost_fn;
	void *lost_ctx;
	const atomic_int *interrupt;
	atomic_int *ext_cancel;
	int engine, timed;
	int have_header;            /* h was read (its codec is known) */
	int decoded;                /* aescrypt_reader_decode_to ran */
	int have_pst;               /* pst holds a run's figures */
	/* runs of the payload's plaintext (raw.c) */
	int raw_started, raw_whole, raw_ranged, raw_payload_read, raw_rc;
	struct aescrypt_run raw_run;
	pthread_t raw_thread;
	struct ae_chan raw_chan;
	int raw_keep;               /* the whole run keeps the index */
	int raw_checked;            /* ... and ended cleanly */
	struct ixcheck ixc;         /* ... to compare with what was met */
	/* the index held small (ixview.c) */
	struct ixdigest dx;
	int dx_state;               /* 0 not tried, 1 made, or its error */
	uint64_t kdf_cpu_ns, kdf_wall_ns, kdf_m_kib;
	/* a signed file (verify.c): the signers allowed, the chain
	 * checked as the records come, and the plaintext held until a
	 * signature covers it */
	struct ae_allowed allowed;
	int have_allowed;
	long allowed_at;            /* the line that allows the signer */
	struct ae_sigchain chain;
	struct ae_writer held_to;   /* where held plaintext goes */
	struct ae_writer hold_w;
	uint8_t *hold;
	size_t hold_len, hold_cap;
	uint64_t signed_to;         /* offset past the last good signature */
	char cut_what[400];         /* a failure's words, with that offset */
};

/* Keep the message for err with d (r's source name first); err. */
int ae_lib_reader_fail(aescrypt_reader *r, int err, const struct ae_diag *d);
int ae_lib_reader_fail_plain(aescrypt_reader *r, int err, const char *what);

/* A read in order failed with err (d: the tar reader's words, or
 * NULL): the pipeline's thread is stopped, its own failure, if it had
 * one, is the message, and reading in order ends with the error
 * (returned). */
int ae_lib_reader_seq_failed(aescrypt_reader *r, int err,
    const struct ae_diag *d);

/* The handle is open (else AESCRYPT_ESTATE, with its message). */
int ae_lib_reader_is_open(aescrypt_reader *r);

/* Start reading in order, if not yet (0 or an error, kept sticky). */
int ae_lib_reader_start(aescrypt_reader *r);

/* A signed file (verify.c).  _check_signer, once the header is read:
 * what this version reads of signed files, and, with signers set,
 * whether one allows the file's key (else AESCRYPT_ESIGNER); 0 or an
 * error (the reader's message set).  _signed_out: for a run of the
 * payload into out, the pipeline's signing parameters set in pp and
 * the writer to give it instead of out (out itself for a file that is
 * not signed), which holds what no signature covers yet.  _free: the
 * held plaintext wiped, the list freed. */
int ae_lib_reader_check_signer(aescrypt_reader *r);
struct ae_writer *ae_lib_reader_signed_out(aescrypt_reader *r,
    struct ae_pipe_params *pp, struct ae_writer *out);
/* After such a run (e its result, st its figures, d its diag): what was
 * held and never let go is wiped, and taken out of st's plaintext and
 * bytes written, which then say what the sink got; a file cut short,
 * forged or damaged (AE_ETRUNC, AE_EAUTH, AE_EFORMAT at a record or the
 * index) has d's words say how far it is signed. */
void ae_lib_reader_signed_end(aescrypt_reader *r, int e,
    struct ae_pipe_stats *st, struct ae_diag *d);
void ae_lib_reader_verify_free(aescrypt_reader *r);
/* A signed file's interval, in records (6.10), or 0. */
uint64_t ae_lib_reader_sig_every(const aescrypt_reader *r);

/* Tell the caller's event callback, if any (reader_more.c). */
void ae_lib_reader_event(aescrypt_reader *r, int event, int status,
    unsigned flags, const struct ae_diag *d);

/* The header at the start failed to read with err (d): said through
 * the events; with salvage, its copy at the end is read into r->h
 * instead, and the sequential reader set at its first record.  AE_OK
 * when the copy is to be used, else the error to fail with (d its
 * place).  (header_copy.c) */
int ae_lib_header_damaged(aescrypt_reader *r, int err, struct ae_diag *d);

/* A slot of r->h opened but its MAC failed (d): with salvage, and a
 * header not already the copy, the copy is read and unlocked with the
 * same keys, and used only if it authenticates.  AE_OK with file_key,
 * or the error with d. */
int ae_lib_header_unauthentic(aescrypt_reader *r,
    uint8_t file_key[AE_FILE_KEY_LEN], struct ae_diag *d);

/* Salvage in a run's parameters (reader_more.c): lost records told
 * to the caller and filled with zeros into out, through l (which lives
 * as long as the run); the index's record offsets where it loads. */
struct ae_lost_fill {
	aescrypt_reader *r;
	struct ae_writer *out;
	uint64_t chunk;
};
void ae_lib_reader_salvage_params(aescrypt_reader *r,
    struct ae_pipe_params *pp, struct ae_lost_fill *l,
    struct ae_writer *out);

/* Stop a run of raw.c's that the caller left going (at free). */
void ae_lib_raw_free(aescrypt_reader *r);

/* The footer, where it says the index is, and the index's records
 * into w, the footer's offset and count set before the first write
 * (access.c).  0 or an error with d. */
int ae_lib_index_decode(aescrypt_reader *r, struct ae_writer *w,
    uint64_t *index_offset, uint64_t *records, struct ae_diag *d);

/* Load and check the index once (access.c): 0 or its error. */
int ae_lib_access_ready(aescrypt_reader *r);

/* The payload's pipeline parameters from r's header and settings. */
void ae_lib_reader_params(aescrypt_reader *r, struct ae_pipe_params *pp);

/* Free what random access holds beside the index. */
void ae_lib_access_free(aescrypt_reader *r);

/* An entry from a tar member / an index entry (strings point into
 * them). */
void ae_lib_reader_entry_of_member(const struct ae_tar_member *m,
    struct aescrypt_entry *e);
void ae_lib_reader_entry_of_index(const struct ae_index_member *m,
    struct aescrypt_entry *e);

#endif
