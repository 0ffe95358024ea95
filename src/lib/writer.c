/*
 * writer.c -- aescrypt_writer: a new container, a stream or an archive
 * (contract in aescrypt.h).
 *
 * The caller pushes (aescrypt_writer_write, _add_path, _add_entry) and
 * the pipeline pulls, so the two meet in a channel (pipeline/chan.h), as
 * they do in aescrypt -c: the pipeline runs on a thread of the writer's
 * from _open to _close, reading the channel and writing sealed records
 * to the sink; the caller's thread writes plain bytes (a stream) or the
 * tar stream the tree walk makes (disk/reader.h) into it.  A failure on
 * the pipeline's side closes the channel, so the caller's next push
 * returns, and the pipeline's error is what that push reports.  The
 * index is built as in -c: members noted by the walk (the caller's
 * thread), record lengths by the sink's wrapper (the pipeline's thread),
 * in separate fields of the builder; it is sealed after both are done.
 */
#include "config.h"
#include "writer.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "container/format.h"
#include "container/header.h"
#include "container/index.h"
#include "container/codec.h"
#include "common/wipe.h"
#include "disk/reader.h"
#include "pipeline/chan.h"
#include "pipeline/pipeline.h"
#include "pipeline/trailer.h"
#include "signer.h"
#include "stats.h"
#include "threads.h"


aescrypt_writer *
aescrypt_writer_new(void)
{
	/* (from ae_secret_alloc: it holds the keys and key schedules) */
	aescrypt_writer *w = ae_secret_alloc(sizeof *w);

	if (w == NULL)
		return NULL;
	w->state = W_NEW;
	w->kind = AESCRYPT_STREAM;
	w->codec = AE_CODEC_DEFLATE;
	w->level = 6;
	w->index = 1;
	w->threads = ae_lib_default_threads();
	w->chunk_log2 = AE_CHUNK_LOG2_DEFAULT;
	w->timed = 1;
	w->kdf.t = AE_KDF_DEFAULT_T;
	w->kdf.m_kib = AE_KDF_DEFAULT_M_KIB;
	w->kdf.p = AE_KDF_DEFAULT_P;
	ae_index_builder_init(&w->ib);
	return w;
}

const char *
aescrypt_writer_error(const aescrypt_writer *w)
{
	return w != NULL ? w->msg : "";
}

/* Keep the message for err with d; return err. */
int
ae_lib_writer_fail(aescrypt_writer *w, int err, const struct ae_diag *d)
{
	ae_lib_message_describe(w->msg, sizeof w->msg, NULL, err, d);
	memset(&w->diag, 0, sizeof w->diag);
	if ((w->have_diag = d != NULL))
		w->diag = *d;
	return err;
}

int
ae_lib_writer_fail_plain(aescrypt_writer *w, int err, const char *what)
{
	ae_lib_message_plain(w->msg, sizeof w->msg, NULL, what);
	w->have_diag = 0;
	return err;
}

/* A setting or a key: only before _open. */
int
ae_lib_writer_before_open(aescrypt_writer *w)
{
	if (w == NULL)
		return AESCRYPT_EINVAL;
	if (w->state != W_NEW)
		return ae_lib_writer_fail_plain(w, AESCRYPT_ESTATE, "the writer is already "
		    "open: keys and settings come before aescrypt_writer_open");
	return AESCRYPT_OK;
}

/* ---- keys ---- */

int
aescrypt_writer_add_passphrase(aescrypt_writer *w, const void *pass,
    size_t len)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (ae_lib_keyring_set_pass(&w->keys, pass, len) != AE_OK)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "a passphrase is 1 to "
		    "4096 bytes");
	return AESCRYPT_OK;
}

int
aescrypt_writer_add_key(aescrypt_writer *w, const uint8_t key[32])
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (key == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no key given");
	ae_lib_keyring_set_key(&w->keys, key);
	return AESCRYPT_OK;
}

int
aescrypt_writer_add_keyfile(aescrypt_writer *w, const char *path)
{
	struct ae_diag d = { 0 };
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (path == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no key file given");
	if ((e = ae_lib_keyring_read_keyfile(&w->keys, path, &d)) != AE_OK)
		ae_lib_message_describe(w->msg, sizeof w->msg, path, e, &d);
	return e;
}

int
aescrypt_writer_add_recipient(aescrypt_writer *w, const char *recipient)
{
	struct ae_diag d = { 0 };
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (recipient == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no recipient given");
	if ((e = ae_lib_keyring_add_recipient(&w->keys, recipient, &d)) == AE_OK)
		return AE_OK;
	/* never echo a secret key given where a recipient belongs */
	if (e == AE_EINVAL && ae_recipient_is_secret(recipient))
		return ae_lib_writer_fail_plain(w, e, "a secret key was given "
		    "as a recipient (give its public half)");
	if (e == AE_EINVAL)
		return ae_lib_writer_fail_plain(w, e, "the recipient is a key "
		    "of low order, which anyone could decrypt to");
	snprintf(w->msg, sizeof w->msg, "recipient: %s%s", d.what != NULL ?
	    d.what : ae_strerror(e), e == AE_EFORMAT ? " (a recipient is an "
	    "age1... key or an 'ssh-ed25519 AAAA...' or 'ssh-rsa AAAA...' "
	    "line)" : "");
	return e;
}

/* ---- settings ---- */

int
aescrypt_writer_set_codec(aescrypt_writer *w, int codec)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (ae_codec_get(codec) == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "unknown codec");
	if (!ae_codec_get(codec)->available())
		return ae_lib_writer_fail_plain(w, AESCRYPT_ENOTSUP, "this build lacks the "
		    "codec");
	w->codec = codec;
	if (!w->chunk_set)
		w->chunk_log2 = ae_codec_get(codec)->chunk_log2_default;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_level(aescrypt_writer *w, int level)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (level < 0 || level > 9)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "a level is 0 to 9");
	w->level = level;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_threads(aescrypt_writer *w, unsigned threads)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (threads < 1 || threads > AE_PIPE_MAX_THREADS)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "threads are 1 to 256");
	w->threads = threads;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_chunk_log2(aescrypt_writer *w, unsigned chunk_log2)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (chunk_log2 < AE_CHUNK_LOG2_MIN || chunk_log2 > AE_CHUNK_LOG2_MAX)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "a chunk is 2^16 to 2^22 "
		    "bytes (2^23 with zstd)");
	w->chunk_log2 = chunk_log2;
	w->chunk_set = 1;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_kdf(aescrypt_writer *w, uint32_t t, uint32_t m_kib,
    uint32_t p)
{
	struct ae_kdf_params k = { m_kib, t, p };
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (ae_kdf_valid(&k) != AE_OK)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "Argon2id takes t >= 1, "
		    "1 <= p < 2^24 and m_kib >= 8 p");
	w->kdf = k;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_index(aescrypt_writer *w, int on)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	w->index = on != 0;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_progress(aescrypt_writer *w, aescrypt_progress_fn fn,
    void *ctx)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	w->progress = fn;
	w->progress_ctx = ctx;
	return AESCRYPT_OK;
}

int
aescrypt_writer_stats(const aescrypt_writer *w, struct aescrypt_stats *st)
{
	if (w == NULL || st == NULL)
		return AESCRYPT_EINVAL;
	if (!w->closed)
		return AESCRYPT_ESTATE;
	ae_lib_stats_of(&w->pst, st);
	return AESCRYPT_OK;
}

/* ---- the pipeline's thread ---- */

/* The sink, each record's length noted for the index. */
static int
log_record(void *ctx, const uint8_t *buf, size_t n)
{
	aescrypt_writer *w = ctx;
	int r = w->sink.w.write(w->sink.w.ctx, buf, n);

	if (r == AE_OK)
		r = ae_index_add_record(&w->ib, (uint32_t)n);
	return r;
}

static void *
run_pipeline(void *arg)
{
	aescrypt_writer *w = arg;
	struct ae_reader in = { ae_chan_read, &w->chan, NULL };

	memset(&w->pst, 0, sizeof w->pst);
	w->perr = ae_pipe_encode(&w->pp, &in, w->out, &w->pst, &w->pd);
	/* (a failed pipeline stops reading: the caller's pushes return) */
	ae_chan_close_read(&w->chan);
	return NULL;
}

/* Wait for the pipeline; its status. */
static int
join(aescrypt_writer *w)
{
	if (w->started && !w->joined) {
		pthread_join(w->thread, NULL);
		w->joined = 1;
	}
	return w->perr;
}

/* A push failed (err from the channel, or the walk's): the pipeline's
 * own error, if it failed, says more. */
static int
push_failed(aescrypt_writer *w, int err, const struct ae_diag *d)
{
	int perr;

	ae_chan_close_write(&w->chan, AE_EINTR);
	perr = join(w);
	w->state = W_DONE;
	ae_lib_sink_abort(&w->sink);
	if (perr != AE_OK && perr != AE_EINTR)
		return ae_lib_writer_fail(w, perr, &w->pd);
	return ae_lib_writer_fail(w, err, d);
}

/* ---- the walk's reports ---- */

/* Note e, whose headers start at offset, in the index. */
static int
index_member(aescrypt_writer *w, const struct ae_tar_entry *e,
    uint64_t offset)
{
	struct ae_index_member m;

	memset(&m, 0, sizeof m);
	m.first = offset;
	m.type = e->type;
	m.mode = e->mode & 07777;
	m.uid = e->uid;
	m.gid = e->gid;
	m.size = e->map != NULL ? e->real_size : e->size;
	if (e->type == AE_TAR_CHR || e->type == AE_TAR_BLK)
		m.size = (uint64_t)e->devmajor << 32 | e->devminor;
	m.mtime = e->mtime;
	m.mtime_nsec = e->mtime_nsec;
	m.path = e->path;
	m.linkpath = e->linkpath;
	m.uname = e->uname;
	m.gname = e->gname;
	return ae_index_add_member(&w->ib, &m);
}

/* What the walk reports: members go to the index; warnings make the
 * run partial and leave their words as the message (GNU tar's). */
static int
on_walk(void *ctx, const struct ae_dr_report *r)
{
	aescrypt_writer *w = ctx;
	const char *name = r->name != NULL ? r->name : "";

	if (r->event == AE_DR_MEMBER && w->index
	    && index_member(w, r->e, r->offset) != AE_OK) {
		w->walk_err = AE_ENOMEM;
		return -1;
	}
	/* a walk the caller set up reports to the caller, which words it
	 * (aescrypt_writer_set_walk) */
	if (w->caller_report != NULL)
		return w->caller_report(w->caller_ctx, r);
	switch (r->event) {
	case AE_DR_WARNING:
		w->partial = 1;
		if (r->err != 0)
			snprintf(w->msg, sizeof w->msg, "%s: %s: %s", name,
			    r->why, strerror(r->err));
		else
			snprintf(w->msg, sizeof w->msg, "%s: %s", name, r->why);
		break;
	case AE_DR_IGNORED:
		w->partial = 1;
		snprintf(w->msg, sizeof w->msg, "%s: %s ignored", name, r->why);
		break;
	case AE_DR_FAILED:
		snprintf(w->msg, sizeof w->msg, "%s: %s", r->why,
		    strerror(r->err));
		break;
	default:
		break;  /* what is stored, -t says */
	}
	return 0;
}

/* The caller's --exclude, under the context the walk now passes. */
static int
walk_excluded(void *ctx, const char *path)
{
	aescrypt_writer *w = ctx;

	return w->caller_excluded(w->caller_ctx, path);
}

/* ---- open ---- */

/* The pipeline on its own thread, reading the channel. */
static int
start_thread(aescrypt_writer *w)
{
	if (w->started)
		return AESCRYPT_OK;
	if (pthread_create(&w->thread, NULL, run_pipeline, w) != 0)
		return ae_lib_writer_fail_plain(w, AESCRYPT_ENOMEM, "cannot start a thread");
	w->started = 1;
	return AESCRYPT_OK;
}

/* Header, ciphers, channel and thread, once the sink is set.  On a
 * failure the sink is aborted and the writer is done. */
/* 6.10: a signature of everything written so far, then its record. */
static int
write_signature(aescrypt_writer *w, int last, struct ae_diag *d)
{
	uint8_t tbs[AE_SSHSIG_TBS_MAX], sig[AE_SIG_LEN];
	uint8_t rec[AE_SIG_RECORD_LEN];
	size_t n = ae_sigchain_tbs(&w->chain, last, tbs);
	int e;

	if ((e = ae_lib_signer_sign(w->signer, tbs, n, sig, d)) != AE_OK)
		return e;
	ae_sigchain_done(&w->chain);
	ae_sigchain_record(sig, last, rec);
	/* (to the sink itself: a signature is no record of the index) */
	if ((e = w->sink.w.write(w->sink.w.ctx, rec, sizeof rec)) != AE_OK)
		return ae_fail(d, e, AE_AT_OUTPUT, "writing output", 0, 0);
	return AE_OK;
}

/* The pipeline's signed_fn: each record's digest, in order, after it
 * was written; a signature where one is due. */
static int
signed_record(void *ctx, uint64_t seq, int final,
    const uint8_t digest[AE_SIG_DIGEST_LEN], const uint8_t *sig_rec, int due,
    uint64_t end, struct ae_diag *d)
{
	aescrypt_writer *w = ctx;

	(void)seq;
	(void)sig_rec;
	(void)end;
	ae_sigchain_add(&w->chain, digest);
	return due ? write_signature(w, final, d) : AE_OK;
}

/* The interval between signatures: 16 MiB of chunks (6.10), so that a
 * reader holds back at most that. */
static unsigned
sig_log2_for(unsigned chunk_log2)
{
	return chunk_log2 >= 24 ? 0 : 24 - chunk_log2;
}

static int
start(aescrypt_writer *w, int kind)
{
	uint8_t fk[AE_FILE_KEY_LEN];
	struct ae_diag d = { 0 };
	int e, type;

	w->state = W_DONE;
	if (kind == AESCRYPT_ARCHIVE)
		type = w->index ? AE_PAYLOAD_PAX_INDEXED : AE_PAYLOAD_PAX;
	else
		type = AE_PAYLOAD_STREAM;
	if (kind == AESCRYPT_STREAM)
		w->index = 0;
	if (w->chunk_log2 > ae_codec_get(w->codec)->chunk_log2_max) {
		ae_lib_sink_abort(&w->sink);
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "the chunk size is over "
		    "the codec's largest");
	}
	if ((e = ae_lib_keyring_new_header(&w->keys, type, w->codec, w->chunk_log2,
	    &w->kdf, &w->h, fk, &d)) != AE_OK) {
		ae_lib_sink_abort(&w->sink);
		return ae_lib_writer_fail(w, e, &d);
	}
	if (w->signer != NULL) {
		if ((e = ae_header_set_signer(&w->h,
		    ae_lib_signer_pk(w->signer), sig_log2_for(w->h.chunk_log2)))
		    == AE_OK)
			e = ae_header_encode(&w->h, fk);
		if (e != AE_OK) {
			ae_wipe(fk, sizeof fk);
			ae_lib_sink_abort(&w->sink);
			return ae_lib_writer_fail_plain(w, e, "the signer's slot "
			    "does not fit the header");
		}
		ae_sigchain_init(&w->chain, w->h.raw, w->h.len);
	}
	ae_header_payload_cipher(&w->h, fk, &w->g);
	if (w->index)
		ae_index_cipher(&w->h, fk, &w->ig);
	ae_wipe(fk, sizeof fk);
	w->have_keys = 1;
	if ((e = w->sink.w.write(w->sink.w.ctx, w->h.raw, w->h.len))
	    != AE_OK) {
		ae_fail(&d, e, AE_AT_OUTPUT, "writing output", 0, 0);
		ae_lib_sink_abort(&w->sink);
		return ae_lib_writer_fail(w, e, &d);
	}
	memset(&w->pp, 0, sizeof w->pp);
	w->pp.key = &w->g;
	w->pp.chunk_log2 = w->h.chunk_log2;
	w->pp.codec = w->h.codec;
	w->pp.level = w->level;
	w->pp.threads = w->threads;
	w->pp.engine = w->engine;
	w->pp.interrupt = w->interrupt;
	w->pp.cancel = w->ext_cancel != NULL ? w->ext_cancel : &w->cancel;
	w->pp.timed = w->timed;
	w->pp.progress = w->progress;
	w->pp.progress_ctx = w->progress_ctx;
	if (w->signer != NULL) {
		w->pp.sign = 1;
		w->pp.sig_log2 = w->h.sig_log2;
		w->pp.sig_intervals = 1;
		/* (an archive's last signature comes after its footer) */
		w->pp.sig_last = !w->index;
		w->pp.signed_fn = signed_record;
		w->pp.signed_ctx = w;
	}
	w->logged.write = log_record;
	w->logged.ctx = w;
	w->out = w->index ? &w->logged : &w->sink.w;
	w->chanw.write = ae_chan_write;
	w->chanw.ctx = &w->chan;
	if (ae_chan_init(&w->chan, 0) != AE_OK) {
		ae_lib_sink_abort(&w->sink);
		return ae_lib_writer_fail_plain(w, AESCRYPT_ENOMEM, "out of memory");
	}
	w->chan_ok = 1;
	if (kind == AESCRYPT_ARCHIVE) {
		/* the archive's own description first, as -c writes it
		 * (format 6.7): when it was made */
		struct ae_tar_global g;
		struct timespec now;

		if (w->walk_set)
			goto walk;  /* (the caller's lead, its own) */
		clock_gettime(CLOCK_REALTIME, &now);
		memset(&g, 0, sizeof g);
		g.created = now.tv_sec;
		g.created_nsec = (uint32_t)now.tv_nsec;
		g.level = -1;
		if (ae_tar_global_header(&g, w->lead, sizeof w->lead,
		    &w->lead_len) != AE_OK) {
			ae_lib_sink_abort(&w->sink);
			return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "the archive's "
			    "global header does not fit");
		}
		w->dp.lead = w->lead;
		w->dp.lead_len = w->lead_len;
walk:
		if (w->caller_excluded != NULL)
			w->dp.excluded = walk_excluded;
		w->dp.report = on_walk;
		w->dp.ctx = w;
		if (ae_dr_begin(&w->dp, &w->chanw, &w->walk) != AE_OK) {
			ae_lib_sink_abort(&w->sink);
			return ae_lib_writer_fail_plain(w, AESCRYPT_ENOMEM, "out of memory");
		}
	}
	w->kind = kind;
	/* a stream's pipeline waits for its first bytes: they may come
	 * from aescrypt_writer_write_from, on the caller's thread */
	if (kind == AESCRYPT_ARCHIVE && start_thread(w) != AESCRYPT_OK) {
		ae_lib_sink_abort(&w->sink);
		return AESCRYPT_ENOMEM;
	}
	w->state = W_OPEN;
	return AESCRYPT_OK;
}

/* What every _open checks first. */
static int
can_open(aescrypt_writer *w, int kind)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (kind != AESCRYPT_STREAM && kind != AESCRYPT_ARCHIVE)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "unknown kind");
	if (ae_lib_keyring_empty(&w->keys))
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no key given: add a "
		    "passphrase, a key or a recipient before opening");
	return AESCRYPT_OK;
}

int
aescrypt_writer_open(aescrypt_writer *w, int kind, aescrypt_write_fn fn,
    void *ctx)
{
	int e = can_open(w, kind);

	if (e != AESCRYPT_OK)
		return e;
	if (fn == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no write function");
	ae_lib_sink_callback(&w->sink, fn, ctx);
	return start(w, kind);
}

int
aescrypt_writer_open_fd(aescrypt_writer *w, int kind, int fd)
{
	int e = can_open(w, kind);

	if (e != AESCRYPT_OK)
		return e;
	if (fd < 0)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no descriptor");
	ae_lib_sink_fd(&w->sink, fd);
	return start(w, kind);
}

int
aescrypt_writer_open_path(aescrypt_writer *w, int kind, const char *path)
{
	struct ae_diag d = { 0 };
	struct stat st;
	int e = can_open(w, kind);

	if (e != AESCRYPT_OK)
		return e;
	if ((e = ae_lib_sink_path(&w->sink, path, &d)) != AE_OK) {
		w->state = W_DONE;
		ae_lib_message_describe(w->msg, sizeof w->msg, path, e, &d);
		return e;
	}
	/* never archive the archive being written */
	if (fstat(w->sink.of.fd, &st) == 0) {
		w->dp.self[0].dev = st.st_dev;
		w->dp.self[0].ino = st.st_ino;
		w->dp.nself = 1;
	}
	return start(w, kind);
}

/* ---- data ---- */

/* The handle is open, for a stream (want 0) or an archive (1). */
int
ae_lib_writer_is_open(aescrypt_writer *w, int archive)
{
	if (w == NULL)
		return AESCRYPT_EINVAL;
	if (w->state != W_OPEN)
		return ae_lib_writer_fail_plain(w, AESCRYPT_ESTATE, w->state == W_NEW ?
		    "the writer is not open" : "the writer is closed or failed");
	if ((w->kind == AESCRYPT_ARCHIVE) != archive)
		return ae_lib_writer_fail_plain(w, AESCRYPT_ESTATE, archive ? "members go "
		    "into an archive, not a stream" : "a stream's bytes are "
		    "written with aescrypt_writer_write, not to an archive");
	return AESCRYPT_OK;
}

int
aescrypt_writer_write(aescrypt_writer *w, const void *buf, size_t n)
{
	int e = ae_lib_writer_is_open(w, 0);

	if (e != AESCRYPT_OK)
		return e;
	if (n == 0)
		return AESCRYPT_OK;
	if (buf == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no buffer");
	if (w->fed)
		return ae_lib_writer_fail_plain(w, AESCRYPT_ESTATE, "the stream was read from "
		    "a source: nothing more goes into it");
	if ((e = start_thread(w)) != AESCRYPT_OK) {
		w->state = W_DONE;
		ae_lib_sink_abort(&w->sink);
		return e;
	}
	if ((e = ae_chan_write(&w->chan, buf, n)) != AE_OK)
		return push_failed(w, e, NULL);
	return AESCRYPT_OK;
}

/* After a step of the walk: its error ends the writer. */
int
ae_lib_writer_walked(aescrypt_writer *w, int err)
{
	struct ae_diag d = { 0 };

	if (err == AE_OK)
		return AESCRYPT_OK;
	if (w->walk_err != AE_OK)
		err = w->walk_err;
	ae_fail(&d, err, AE_AT_NONE, w->msg[0] != '\0' ? w->msg : NULL, 0, 0);
	/* (the message may be the walk's: keep a copy, fail rewrites it) */
	{
		char keep[MESSAGE_MAX];

		snprintf(keep, sizeof keep, "%s", w->msg);
		d.what = keep;
		err = push_failed(w, err, &d);
	}
	/* the walk's own failure has no place (and keep is gone) */
	if (w->perr == AE_OK || w->perr == AE_EINTR)
		w->have_diag = 0;
	return err;
}

int
aescrypt_writer_add_path(aescrypt_writer *w, const char *path)
{
	struct stat st;
	int e = ae_lib_writer_is_open(w, 1);

	if (e != AESCRYPT_OK)
		return e;
	if (path == NULL || *path == '\0')
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no path given");
	/* a missing operand is the caller's mistake, not a warning */
	if (lstat(path, &st) != 0) {
		snprintf(w->msg, sizeof w->msg, "%s: %s", path, strerror(errno));
		return AESCRYPT_EIO;
	}
	return ae_lib_writer_walked(w, ae_dr_add(w->walk, path));
}

/* Whether path is one a member may have: relative, no "..". */
static int
safe_member_name(const char *path)
{
	const char *p = path;

	if (*p == '\0' || *p == '/')
		return 0;
	while (*p != '\0') {
		const char *end = strchr(p, '/');
		size_t n = end != NULL ? (size_t)(end - p) : strlen(p);

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 0;
		p += n;
		while (*p == '/')
			p++;
	}
	return 1;
}

int
aescrypt_writer_add_entry(aescrypt_writer *w, const struct aescrypt_entry *e,
    const void *data, size_t len)
{
	struct ae_tar_entry t;
	char *dirpath = NULL;
	size_t plen;
	int r = ae_lib_writer_is_open(w, 1);

	if (r != AESCRYPT_OK)
		return r;
	if (e == NULL || e->path == NULL || !safe_member_name(e->path))
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "a member's path is "
		    "relative, not empty, and has no '..'");
	if (len > 0 && data == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no data");
	switch (e->type) {
	case AESCRYPT_FILE:
		if (e->size != len)
			return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "a file's size "
			    "must be the length of its data");
		break;
	case AESCRYPT_HARDLINK:
	case AESCRYPT_SYMLINK:
		if (e->linkpath == NULL || *e->linkpath == '\0')
			return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "a link needs "
			    "its target");
		/* fall through */
	case AESCRYPT_DIR:
	case AESCRYPT_FIFO:
		if (len != 0)
			return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "only a file has "
			    "data");
		break;
	default:
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "a member from memory is "
		    "a file, a directory, a link or a FIFO");
	}
	memset(&t, 0, sizeof t);
	t.path = e->path;
	plen = strlen(e->path);
	if (e->type == AESCRYPT_DIR && e->path[plen - 1] != '/') {
		/* tar writes a directory's name with its '/' */
		if ((dirpath = malloc(plen + 2)) == NULL)
			return ae_lib_writer_fail_plain(w, AESCRYPT_ENOMEM, "out of memory");
		memcpy(dirpath, e->path, plen);
		memcpy(dirpath + plen, "/", 2);
		t.path = dirpath;
	}
	t.linkpath = e->type == AESCRYPT_HARDLINK || e->type == AESCRYPT_SYMLINK
	    ? e->linkpath : NULL;
	t.type = (char)e->type;
	t.mode = e->mode & 07777;
	t.uid = e->uid;
	t.gid = e->gid;
	t.size = e->type == AESCRYPT_FILE ? len : 0;
	t.mtime = e->mtime;
	t.mtime_nsec = e->mtime_nsec;
	t.uname = e->uname;
	t.gname = e->gname;
	r = ae_dr_put(w->walk, &t, data, len);
	free(dirpath);
	if (r == AE_EINVAL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "the member does not fit "
		    "a tar header");
	return ae_lib_writer_walked(w, r);
}

int
aescrypt_writer_partial(const aescrypt_writer *w)
{
	return w != NULL && w->partial;
}

/* ---- the end ---- */

int
aescrypt_writer_close(aescrypt_writer *w)
{
	struct ae_diag d = { 0 };
	int e, partial, perr;
	uint64_t tar_end;

	if (w == NULL)
		return AESCRYPT_EINVAL;
	if (w->state != W_OPEN)
		return ae_lib_writer_fail_plain(w, AESCRYPT_ESTATE, w->state == W_NEW ?
		    "the writer is not open" : "the writer is closed or failed");
	if (w->walk != NULL) {
		e = ae_dr_end(w->walk, &tar_end, &partial);
		w->walk = NULL;
		w->partial |= partial;  /* (a caller's report saw the rest) */
		w->ib.tar_end = tar_end;
		if (e != AE_OK)
			return ae_lib_writer_walked(w, e);
	}
	if (!w->fed) {
		/* (an empty stream: its one empty final record) */
		if ((e = start_thread(w)) != AESCRYPT_OK) {
			w->state = W_DONE;
			ae_lib_sink_abort(&w->sink);
			return e;
		}
		ae_chan_close_write(&w->chan, AE_OK);
	}
	perr = w->fed ? AE_OK : join(w);
	w->state = W_DONE;
	if (perr != AE_OK) {
		ae_lib_sink_abort(&w->sink);
		return ae_lib_writer_fail(w, perr, &w->pd);
	}
	if ((w->index && (e = ae_trailer_write_index(&w->pp, &w->ib, &w->h, &w->ig,
	    &w->sink.w, &d)) != AE_OK)
	    || (e = ae_trailer_write_copy(&w->sink.w, &w->h, &d)) != AE_OK
	    || (e = ae_lib_sink_commit(&w->sink, &d)) != AE_OK) {
		ae_lib_sink_abort(&w->sink);
		return ae_lib_writer_fail(w, e, &d);
	}
	w->closed = 1;
	return AESCRYPT_OK;
}

void
aescrypt_writer_free(aescrypt_writer *w)
{
	if (w == NULL)
		return;
	if (w->state == W_OPEN) {
		/* freed while open: stop the pipeline, write nothing more */
		atomic_store(&w->cancel, 1);
		ae_chan_close_write(&w->chan, AE_EINTR);
		join(w);
		ae_lib_sink_abort(&w->sink);
	}
	ae_dr_free(w->walk);
	if (w->chan_ok)
		ae_chan_free(&w->chan);
	if (w->have_keys) {
		ae_gcm_wipe(&w->g);
		if (w->index)
			ae_gcm_wipe(&w->ig);
	}
	ae_index_builder_free(&w->ib);
	ae_lib_keyring_free(&w->keys);
	ae_secret_free(w, sizeof *w);
}
