/*
 * reader.c -- aescrypt_reader: a container opened, unlocked and read in
 * order (contract in aescrypt.h; the handle's insides in handle.h).
 *
 * The pipeline pushes verified plaintext to a writer while the caller
 * pulls, so, as in aescrypt -d and -x, the two meet in a channel: the
 * pipeline runs on a thread of the reader's, from the first _read or
 * _next to the end, and after the final record checks what follows it
 * (the index and footer, the copy of the header, the end of the file:
 * pipeline/trailer.h) before it closes the channel cleanly.  So the
 * caller sees a clean end only for a whole file, and any failure as
 * the status of the read that meets it.
 */
#include "config.h"
#include "handle.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "container/format.h"
#include "container/codec.h"
#include "common/clock.h"
#include "common/wipe.h"
#include "pipeline/trailer.h"
#include "stats.h"
#include "threads.h"
#include "inspect.h"

aescrypt_reader *
aescrypt_reader_new(void)
{
	/* (from ae_secret_alloc: it holds the keys and key schedules) */
	aescrypt_reader *r = ae_secret_alloc(sizeof *r);

	if (r == NULL)
		return NULL;
	r->state = R_NEW;
	r->threads = ae_lib_default_threads();
	r->src.fd = -1;
	r->timed = 1;
	ae_ixcheck_init(&r->ixc);
	ae_ixdigest_init(&r->dx);
	if (pthread_mutex_init(&r->lock, NULL) != 0) {
		ae_secret_free(r, sizeof *r);
		return NULL;
	}
	r->lock_ok = 1;
	return r;
}

const char *
aescrypt_reader_error(const aescrypt_reader *r)
{
	return r != NULL ? r->msg : "";
}

int
ae_lib_reader_fail(aescrypt_reader *r, int err, const struct ae_diag *d)
{
	ae_lib_message_describe(r->msg, sizeof r->msg, NULL, err, d);
	memset(&r->diag, 0, sizeof r->diag);
	if ((r->have_diag = d != NULL))
		r->diag = *d;
	return err;
}

int
ae_lib_reader_fail_plain(aescrypt_reader *r, int err, const char *what)
{
	ae_lib_message_plain(r->msg, sizeof r->msg, NULL, what);
	r->have_diag = 0;
	return err;
}

/* Keys and settings: before _open, or in its unlock callback. */
static int
before_open(aescrypt_reader *r)
{
	if (r == NULL)
		return AESCRYPT_EINVAL;
	if (r->state != R_NEW && r->state != R_UNLOCKING)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "the reader is "
		    "already open: keys and settings come before "
		    "aescrypt_reader_open");
	return AESCRYPT_OK;
}

int
ae_lib_reader_is_open(aescrypt_reader *r)
{
	if (r == NULL)
		return AESCRYPT_EINVAL;
	if (r->state != R_OPEN)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, r->state == R_NEW ?
		    "the reader is not open" : "the reader failed to open");
	return AESCRYPT_OK;
}

/* An _open: only once, and never from its own unlock callback. */
static int
can_open(aescrypt_reader *r)
{
	int e = before_open(r);

	if (e == AESCRYPT_OK && r->state != R_NEW)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "the "
		    "reader is opening: an unlock callback gives keys, it "
		    "does not open");
	return e;
}

/* ---- keys and settings ---- */

int
aescrypt_reader_add_passphrase(aescrypt_reader *r, const void *pass,
    size_t len)
{
	int e = before_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (ae_lib_keyring_set_pass(&r->keys, pass, len) != AE_OK)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "a passphrase is 1 "
		    "to 4096 bytes");
	return AESCRYPT_OK;
}

int
aescrypt_reader_add_key(aescrypt_reader *r, const uint8_t key[32])
{
	int e = before_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (key == NULL)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "no key given");
	ae_lib_keyring_set_key(&r->keys, key);
	return AESCRYPT_OK;
}

int
aescrypt_reader_add_keyfile(aescrypt_reader *r, const char *path)
{
	struct ae_diag d = { 0 };
	int e = before_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (path == NULL)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "no key file given");
	if ((e = ae_lib_keyring_read_keyfile(&r->keys, path, &d)) != AE_OK)
		ae_lib_message_describe(r->msg, sizeof r->msg, path, e, &d);
	return e;
}

int
aescrypt_reader_add_identity(aescrypt_reader *r, const char *text,
    size_t len, const void *pass, size_t passlen)
{
	struct ae_diag d = { 0 };
	int e = before_open(r);

	if (e != AESCRYPT_OK)
		return e;
	e = ae_lib_keyring_add_identities(&r->keys, text, len, pass, passlen, &d);
	if (e != AE_OK)
		ae_lib_message_describe(r->msg, sizeof r->msg, "identity", e, &d);
	return e;
}

int
aescrypt_reader_set_threads(aescrypt_reader *r, unsigned threads)
{
	int e = before_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (threads < 1 || threads > AE_PIPE_MAX_THREADS)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "threads are 1 to "
		    "256");
	r->threads = threads;
	return AESCRYPT_OK;
}

int
aescrypt_reader_set_max_kdf_memory(aescrypt_reader *r, uint64_t kib)
{
	int e = before_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (kib < 8)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "the KDF memory "
		    "limit is at least 8 KiB");
	r->max_kib = kib;
	return AESCRYPT_OK;
}

int
aescrypt_reader_set_progress(aescrypt_reader *r, aescrypt_progress_fn fn,
    void *ctx)
{
	int e = before_open(r);

	if (e != AESCRYPT_OK)
		return e;
	r->progress = fn;
	r->progress_ctx = ctx;
	return AESCRYPT_OK;
}

int
aescrypt_reader_stats(const aescrypt_reader *r, struct aescrypt_stats *st)
{
	if (r == NULL || st == NULL)
		return AESCRYPT_EINVAL;
	/* (the end was reached only once the pipeline's thread closed the
	 * channel cleanly: its stats are complete, and stop() joined it) */
	if (!r->seq_clean)
		return AESCRYPT_ESTATE;
	ae_lib_stats_of(&r->pst, st);
	return AESCRYPT_OK;
}

/* ---- open ---- */

/* The passphrase slot's KDF costs, if one ran (reader_more.c). */
static void
kdf_cost(aescrypt_reader *r, uint64_t c0, uint64_t w0)
{
	unsigned i;

	if (!r->keys.have_pass)
		return;
	r->kdf_cpu_ns = ae_process_ns() - c0;
	r->kdf_wall_ns = ae_wall_ns() - w0;
	for (i = 0; i < r->h.nstanzas; i++)
		if (r->h.stanza[i].type == AE_STANZA_ARGON2ID)
			r->kdf_m_kib = r->h.stanza[i].kdf.m_kib;
}

/* The header read, checked and unlocked, from r->src (with salvage,
 * its copy in its place: header_copy.c).  On a failure the reader is
 * done. */
static int
unlock(aescrypt_reader *r)
{
	uint8_t fk[AE_FILE_KEY_LEN];
	struct ae_diag d = { 0 };
	uint64_t c0, w0;
	int e;

	r->state = R_DONE;
	if ((e = ae_header_read(&r->src.seq, &r->h, &d)) != AE_OK
	    && (e = ae_lib_header_damaged(r, e, &d)) != AE_OK)
		return ae_lib_reader_fail(r, e, &d);
	r->have_header = 1;
	if (!ae_codec_get(r->h.codec)->available())
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOTSUP, "the file's "
		    "codec is one this build lacks");
	/* (who signed it, before any secret is asked for or tried) */
	if ((e = ae_lib_reader_check_signer(r)) != AESCRYPT_OK)
		return e;
	if (r->unlock_fn != NULL) {
		/* the caller looks at the slots, then gives the keys that
		 * fit (and asks for a passphrase only if one can help) */
		struct aescrypt_info info;

		ae_lib_info_of(&r->h, &info);
		r->state = R_UNLOCKING;
		e = r->unlock_fn(r->unlock_ctx, r, &info);
		r->state = R_DONE;
		if (e != AESCRYPT_OK)
			return ae_lib_reader_fail_plain(r, e < 0 ? e :
			    AESCRYPT_EINTR, "the unlock callback stopped the "
			    "open");
	}
	c0 = ae_process_ns();
	w0 = ae_wall_ns();
	e = ae_lib_keyring_unlock(&r->keys, r->max_kib, &r->h, fk, &d);
	/* a slot opened but the MAC failed: the copy, with the same keys
	 * (salvage) */
	if (e == AE_EAUTH)
		e = ae_lib_header_unauthentic(r, fk, &d);
	kdf_cost(r, c0, w0);
	if (e != AE_OK) {
		ae_wipe(fk, sizeof fk);
		return ae_lib_reader_fail(r, e, &d);
	}
	ae_header_payload_cipher(&r->h, fk, &r->g);
	if (r->salvage) {
		uint8_t pk[32];

		ae_header_payload_key(&r->h, fk, pk);
		ae_cbc_init(&r->gd, pk);
		ae_wipe(pk, sizeof pk);
		r->have_gd = 1;
	}
	if (r->h.payload_type == AE_PAYLOAD_PAX_INDEXED)
		ae_index_cipher(&r->h, fk, &r->ig);
	ae_wipe(fk, sizeof fk);
	r->have_keys = 1;
	r->kind = AE_PAYLOAD_IS_ARCHIVE(r->h.payload_type) ? AESCRYPT_ARCHIVE
	    : AESCRYPT_STREAM;
	r->state = R_OPEN;
	return AESCRYPT_OK;
}

int
aescrypt_reader_open(aescrypt_reader *r, const struct aescrypt_source *src)
{
	int e = can_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (src != NULL && src->pread == NULL && src->read == NULL)
		src = NULL;
	if (src == NULL || ae_lib_source_callbacks(&r->src, src) != AE_OK)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "a source needs "
		    "read or pread");
	return unlock(r);
}

int
aescrypt_reader_open_fd(aescrypt_reader *r, int fd)
{
	int e = can_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (fd < 0)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "no descriptor");
	ae_lib_source_fd(&r->src, fd, 0);
	return unlock(r);
}

int
aescrypt_reader_open_path(aescrypt_reader *r, const char *path)
{
	int fd, e = can_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (path == NULL)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "no path given");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(r->msg, sizeof r->msg, "%s: %s", path,
		    strerror(errno));
		r->state = R_DONE;
		return AESCRYPT_EIO;
	}
	ae_lib_source_fd(&r->src, fd, 1);
	if ((e = unlock(r)) != AESCRYPT_OK) {
		/* (the path names the file in the message) */
		char m[MESSAGE_MAX];

		snprintf(m, sizeof m, "%s", r->msg);
		snprintf(r->msg, sizeof r->msg, "%.1024s: %.3500s", path, m);
	}
	return e;
}

int
aescrypt_reader_kind(const aescrypt_reader *r)
{
	if (r == NULL || r->state != R_OPEN)
		return AESCRYPT_ESTATE;
	return r->kind;
}

/* ---- reading in order ---- */

/* The pipeline's thread: the payload into the channel, then what
 * follows it, then the channel closed with the result. */
static void *
decode(void *arg)
{
	aescrypt_reader *r = arg;
	struct ae_writer out = { ae_chan_write, &r->chan };
	struct ae_pipe_params pp;
	struct ae_pipe_stats *st = &r->pst;
	int e;

	memset(st, 0, sizeof *st);
	ae_lib_reader_params(r, &pp);
	e = ae_pipe_decode(&pp, &r->src.seq, ae_lib_reader_signed_out(r, &pp,
	    &out), st, &r->pd);
	if (e == AE_OK && pp.trailer) {
		/* (the index runs on one worker: it is a few records) */
		pp.threads = 1;
		pp.progress = NULL;
		e = ae_trailer_check(&pp, &r->ig, &r->src.seq, &r->h,
		    r->h.len + st->wire_bytes, st->records, r->seq_keep
		    ? &r->ixc.ixw : NULL, &r->pd);
	}
	/* (after the trailer: an archive's last signature follows its
	 * footer) */
	ae_lib_reader_signed_end(r, e, st, &r->pd);
	r->perr = e;
	ae_chan_close_write(&r->chan, e != AE_OK ? e : AE_OK);
	return NULL;
}

int
ae_lib_reader_start(aescrypt_reader *r)
{
	if (r->seq_err != AE_OK)
		return r->seq_err;
	if (r->seq_started)
		return AE_OK;
	if (r->decoded || r->raw_started || r->raw_whole)
		return r->seq_err = ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE,
		    "the payload was read another way already");
	if (ae_chan_init(&r->chan, 0) != AE_OK)
		return r->seq_err = ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM,
		    "out of memory");
	r->chan_ok = 1;
	r->chanr.read = ae_chan_read;
	r->chanr.ctx = &r->chan;
	if (r->kind == AESCRYPT_ARCHIVE) {
		if ((r->m = malloc(sizeof *r->m)) == NULL
		    || ae_tar_reader_init(&r->tr, &r->chanr) != AE_OK)
			return r->seq_err = ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM,
			    "out of memory");
		r->tr_ok = 1;
		/* the members met, to compare with the index at the end, as
		 * the command's full reads do (ixcheck.h) */
		if (r->h.payload_type == AE_PAYLOAD_PAX_INDEXED) {
			r->seq_keep = 1;
			r->tr.seen = ae_ixcheck_seen;
			r->tr.seen_ctx = &r->ixc;
		}
	}
	if (pthread_create(&r->thread, NULL, decode, r) != 0)
		return r->seq_err = ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM,
		    "cannot start a thread");
	r->seq_started = 1;
	return AE_OK;
}

/* Stop the pipeline's thread (it may be waiting to write) and wait. */
static void
stop(aescrypt_reader *r)
{
	if (!r->seq_started || r->seq_joined)
		return;
	atomic_store(&r->cancel, 1);
	ae_chan_close_read(&r->chan);
	pthread_join(r->thread, NULL);
	r->seq_joined = 1;
}

/* The channel ended cleanly: the pipeline's thread has checked the
 * file's end and is done; wait for it, so its stats are whole. */
static void
clean_end(aescrypt_reader *r)
{
	stop(r);
	r->seq_clean = 1;
}

/* A read in order failed with err (d: the tar reader's words, or
 * NULL): the pipeline's own failure, if it had one, is the cause. */
int
ae_lib_reader_seq_failed(aescrypt_reader *r, int err,
    const struct ae_diag *d)
{
	stop(r);
	if (r->perr != AE_OK && r->perr != AE_EINTR)
		err = ae_lib_reader_fail(r, r->perr, &r->pd);
	else
		err = ae_lib_reader_fail(r, err, d);
	r->seq_err = err;
	return err;
}

/* The rest of the channel, after the tar stream's end: the padding to
 * the chunk's end, then the close status (the trailer's check). */
static int
drain(aescrypt_reader *r)
{
	uint8_t buf[4096];
	size_t got;
	int e;

	do
		e = ae_chan_read(&r->chan, buf, sizeof buf, &got);
	while (e == AE_OK && got == sizeof buf);
	return e;
}

void
ae_lib_reader_entry_of_member(const struct ae_tar_member *m, struct aescrypt_entry *e)
{
	memset(e, 0, sizeof *e);
	e->path = m->path;
	e->linkpath = m->linkpath;
	e->type = m->type;
	e->mode = m->mode & 07777;
	e->uid = m->uid;
	e->gid = m->gid;
	e->size = m->size;
	e->mtime = m->mtime;
	e->mtime_nsec = m->mtime_nsec;
	e->uname = m->uname;
	e->gname = m->gname;
}

void
ae_lib_reader_entry_of_index(const struct ae_index_member *m, struct aescrypt_entry *e)
{
	memset(e, 0, sizeof *e);
	e->path = m->path;
	e->linkpath = m->linkpath != NULL ? m->linkpath : "";
	e->type = m->type;
	e->mode = m->mode;
	e->uid = m->uid;
	e->gid = m->gid;
	/* (a device's numbers are not a size) */
	e->size = m->type == AE_TAR_CHR || m->type == AE_TAR_BLK ? 0 : m->size;
	e->mtime = m->mtime;
	e->mtime_nsec = m->mtime_nsec;
	e->uname = m->uname != NULL ? m->uname : "";
	e->gname = m->gname != NULL ? m->gname : "";
}

/* After a whole read of an archive with an index: the index lists what
 * was read, or AESCRYPT_EFORMAT (its words the command's, ixcheck.h).
 * An index too large to hold is not compared. */
static int
index_agrees(aescrypt_reader *r)
{
	struct aescrypt_index_verdict v;
	char m[MESSAGE_MAX];

	if (!r->seq_keep)
		return AESCRYPT_OK;
	ae_ixcheck_compare(&r->ixc, r->h.len, r->h.chunk_log2,
	    ae_lib_reader_sig_every(r), r->h.len + r->pst.wire_bytes,
	    r->pst.records, &v);
	switch (v.kind) {
	case AESCRYPT_INDEX_MALFORMED:
		snprintf(m, sizeof m, "the archive's index authenticates but "
		    "%.900s", v.text);
		break;
	case AESCRYPT_INDEX_ENTRY:
		snprintf(m, sizeof m, "the archive's index does not match its "
		    "payload: entry %llu says '%.900s' at tar stream byte %llu, "
		    "where the payload has another member",
		    (unsigned long long)v.entry, v.text,
		    (unsigned long long)v.at);
		break;
	case AESCRYPT_INDEX_COUNT:
		snprintf(m, sizeof m, "the archive's index does not match its "
		    "payload: it lists %llu members, the payload holds %llu",
		    (unsigned long long)v.listed, (unsigned long long)v.seen);
		break;
	case AESCRYPT_INDEX_END:
		snprintf(m, sizeof m, "the archive's index does not match its "
		    "payload: the tar stream ends at byte %llu, not %llu",
		    (unsigned long long)v.at, (unsigned long long)v.tar_end);
		break;
	default:
		return AESCRYPT_OK;
	}
	return ae_lib_reader_fail_plain(r, AESCRYPT_EFORMAT, m);
}

int
aescrypt_reader_next(aescrypt_reader *r, struct aescrypt_entry *e)
{
	struct ae_diag d = { 0 };
	int err = ae_lib_reader_is_open(r);

	if (err != AESCRYPT_OK)
		return err;
	if (r->kind != AESCRYPT_ARCHIVE)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "a stream has no "
		    "members: read it with aescrypt_reader_read");
	if (e == NULL)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "no entry given");
	if ((err = ae_lib_reader_start(r)) != AE_OK)
		return err;
	r->have_member = 0;
	err = ae_tar_next(&r->tr, r->m, &d);
	if (err == 1) {
		if ((err = drain(r)) != AE_OK)
			return ae_lib_reader_seq_failed(r, err, NULL);
		r->seq_err = AESCRYPT_END;
		clean_end(r);
		if ((err = index_agrees(r)) != AESCRYPT_OK) {
			r->seq_clean = 0;
			return r->seq_err = err;
		}
		return AESCRYPT_END;
	}
	if (err != AE_OK)
		return ae_lib_reader_seq_failed(r, err, &d);
	r->have_member = 1;
	ae_lib_reader_entry_of_member(r->m, e);
	return AESCRYPT_OK;
}

int
aescrypt_reader_read(aescrypt_reader *r, void *buf, size_t n, size_t *got)
{
	size_t have = 0, k;
	int err = ae_lib_reader_is_open(r);

	if (got != NULL)
		*got = 0;
	if (err != AESCRYPT_OK)
		return err;
	if (got == NULL || (buf == NULL && n > 0))
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "no buffer");
	if (r->seq_err == AESCRYPT_END)
		return AESCRYPT_OK;     /* past the last member: nothing */
	if ((err = ae_lib_reader_start(r)) != AE_OK)
		return err;
	if (r->kind == AESCRYPT_STREAM) {
		if ((err = ae_chan_read(&r->chan, buf, n, got)) != AE_OK)
			return ae_lib_reader_seq_failed(r, err, NULL);
		if (*got < n)
			clean_end(r);       /* (short only at the clean end) */
		return AESCRYPT_OK;
	}
	if (!r->have_member)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "no member: call "
		    "aescrypt_reader_next first");
	while (have < n) {
		k = 0;
		err = ae_tar_read_data(&r->tr, r->m, (uint8_t *)buf + have,
		    n - have, &k, NULL);
		if (err != AE_OK)
			return ae_lib_reader_seq_failed(r, err, NULL);
		if (k == 0)
			break;
		have += k;
	}
	*got = have;
	return AESCRYPT_OK;
}

/* ---- the end ---- */

void
aescrypt_reader_free(aescrypt_reader *r)
{
	if (r == NULL)
		return;
	stop(r);
	ae_lib_raw_free(r);
	ae_lib_reader_verify_free(r);
	ae_ixcheck_free(&r->ixc);
	ae_ixdigest_free(&r->dx);
	if (r->tr_ok)
		ae_tar_reader_free(&r->tr);
	free(r->m);
	if (r->chan_ok)
		ae_chan_free(&r->chan);
	ae_lib_access_free(r);
	ae_index_free(&r->ix);
	free(r->data_at);
	if (r->have_gd)
		ae_cbc_wipe(&r->gd);
	if (r->have_keys) {
		ae_gcm_wipe(&r->g);
		if (r->h.payload_type == AE_PAYLOAD_PAX_INDEXED)
			ae_gcm_wipe(&r->ig);
	}
	ae_lib_source_close(&r->src);
	ae_lib_keyring_free(&r->keys);
	if (r->lock_ok)
		pthread_mutex_destroy(&r->lock);
	ae_secret_free(r, sizeof *r);
}

/* ---- the unstable part (aescrypt.h, AESCRYPT_STATIC_LINKING_ONLY) ---- */

int
aescrypt_reader_set_unlock_callback(aescrypt_reader *r, aescrypt_unlock_fn fn,
    void *ctx)
{
	int e = can_open(r);

	if (e != AESCRYPT_OK)
		return e;
	r->unlock_fn = fn;
	r->unlock_ctx = ctx;
	return AESCRYPT_OK;
}

const struct ae_diag *
aescrypt_reader_diag(const aescrypt_reader *r)
{
	return r != NULL && r->have_diag ? &r->diag : NULL;
}
