/*
 * reader_more.c -- the unstable part of aescrypt.h for readers: the
 * engine, signals and timing, events, salvage, the payload decoded to
 * a sink on the caller's thread, and the run's figures (contracts in
 * aescrypt.h below AESCRYPT_STATIC_LINKING_ONLY; the handle's insides
 * in handle.h).
 */
#include "config.h"
#include "handle.h"
#include "build.h"

#include <string.h>

#include "container/codec.h"
#include "pipeline/trailer.h"
#include "inspect.h"
#include "sink.h"

/* Settings: before _open (as reader.c's before_open, which is its
 * own). */
static int
settable(aescrypt_reader *r)
{
	if (r == NULL)
		return AESCRYPT_EINVAL;
	if (r->state != R_NEW)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "the reader "
		    "is already open: settings come before "
		    "aescrypt_reader_open");
	return AESCRYPT_OK;
}

int
aescrypt_reader_set_engine(aescrypt_reader *r, int engine)
{
	const char *why;
	int e = settable(r);

	if (e != AESCRYPT_OK)
		return e;
	if ((e = ae_lib_engine_check(engine, &why)) != AESCRYPT_OK)
		return ae_lib_reader_fail_plain(r, e, why);
	r->engine = engine;
	return AESCRYPT_OK;
}

int
aescrypt_reader_set_signals(aescrypt_reader *r, const atomic_int *interrupt,
    atomic_int *cancel)
{
	int e = settable(r);

	if (e != AESCRYPT_OK)
		return e;
	r->interrupt = interrupt;
	r->ext_cancel = cancel;
	return AESCRYPT_OK;
}

int
aescrypt_reader_set_timed(aescrypt_reader *r, int on)
{
	int e = settable(r);

	if (e != AESCRYPT_OK)
		return e;
	r->timed = on != 0;
	return AESCRYPT_OK;
}

int
aescrypt_reader_set_events(aescrypt_reader *r, aescrypt_event_fn fn,
    void *ctx)
{
	if (r == NULL)
		return AESCRYPT_EINVAL;
	r->event_fn = fn;
	r->event_ctx = ctx;
	return AESCRYPT_OK;
}

int
aescrypt_reader_set_salvage(aescrypt_reader *r, aescrypt_lost_fn fn,
    void *ctx)
{
	int e = settable(r);

	if (e != AESCRYPT_OK)
		return e;
	r->salvage = 1;
	r->lost_fn = fn;
	r->lost_ctx = ctx;
	return AESCRYPT_OK;
}

int
aescrypt_reader_add_keys(aescrypt_reader *r, const aescrypt_keys *k)
{
	if (r == NULL)
		return AESCRYPT_EINVAL;
	if (r->state != R_NEW && r->state != R_UNLOCKING)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "the reader "
		    "is already open: keys come before aescrypt_reader_open");
	if (ae_lib_keyring_add_all_identities(&r->keys, ae_lib_keys_ring(k))
	    != AE_OK)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM, "out of "
		    "memory");
	return AESCRYPT_OK;
}

void
ae_lib_reader_event(aescrypt_reader *r, int event, int status,
    unsigned flags, const struct ae_diag *d)
{
	if (r->event_fn != NULL)
		r->event_fn(r->event_ctx, event, status, flags, d);
}

void
ae_lib_reader_params(aescrypt_reader *r, struct ae_pipe_params *pp)
{
	memset(pp, 0, sizeof *pp);
	pp->key = &r->g;
	pp->chunk_log2 = r->h.chunk_log2;
	pp->codec = r->h.codec;
	pp->engine = r->engine;
	pp->threads = r->threads;
	pp->offset = r->h.len;
	pp->interrupt = r->interrupt;
	/* (the caller's flag, when given, so that its own blocked read
	 * gives up when the pipeline stops early) */
	pp->cancel = r->ext_cancel != NULL ? r->ext_cancel : &r->cancel;
	pp->trailer = r->h.payload_type == AE_PAYLOAD_PAX_INDEXED || r->h.copy;
	pp->timed = r->timed;
	pp->progress = r->progress;
	pp->progress_ctx = r->progress_ctx;
}

/* ---- what the open found ---- */

int
aescrypt_reader_codec(const aescrypt_reader *r)
{
	return r != NULL && r->have_header ? r->h.codec : -1;
}

int
aescrypt_reader_info(const aescrypt_reader *r, struct aescrypt_info *info)
{
	if (r == NULL || info == NULL)
		return AESCRYPT_EINVAL;
	if (r->state != R_OPEN && !(r->state == R_DONE && r->have_keys))
		return AESCRYPT_ESTATE;
	ae_lib_info_of(&r->h, info);
	return AESCRYPT_OK;
}

int
aescrypt_reader_from_copy(const aescrypt_reader *r)
{
	return r != NULL && r->have_keys && r->h.from_copy;
}

void
aescrypt_reader_kdf_cost(const aescrypt_reader *r, uint64_t *cpu_ns,
    uint64_t *wall_ns, uint64_t *m_kib)
{
	*cpu_ns = r != NULL ? r->kdf_cpu_ns : 0;
	*wall_ns = r != NULL ? r->kdf_wall_ns : 0;
	*m_kib = r != NULL ? r->kdf_m_kib : 0;
}

const char *
aescrypt_reader_tier(const aescrypt_reader *r)
{
	if (r == NULL || !r->have_keys)
		return "none";
	return ae_gcm_tier_name(ae_gcm_ctx_tier(&r->g));
}

const struct ae_pipe_stats *
aescrypt_reader_pipe_stats(const aescrypt_reader *r)
{
	return r != NULL && r->have_pst ? &r->pst : NULL;
}

/* ---- the payload to a sink ---- */

/* Salvage's hook in the pipeline: the caller is told, then a chunk of
 * zeros stands for a lost record but the final one, whose length is
 * not known. */
static int
lost_record(void *ctx, uint64_t seq, int final, const struct ae_diag *d)
{
	static const uint8_t zeros[65536];
	struct ae_lost_fill *l = ctx;
	uint64_t left;
	int e = AE_OK;

	/* (the statuses are the core's: status.c ties them) */
	if (l->r->lost_fn != NULL
	    && (e = l->r->lost_fn(l->r->lost_ctx, seq, final, d)) != 0)
		return e < 0 ? e : AE_ENOMEM;
	/* (bytes passed over stand for no chunk: nothing is written) */
	for (left = final || seq == AE_PIPE_NO_RECORD ? 0 : l->chunk;
	    left > 0 && e == AE_OK;) {
		size_t n = left < sizeof zeros ? (size_t)left : sizeof zeros;

		e = l->out->write(l->out->ctx, zeros, n);
		left -= n;
	}
	return e;
}

/* Salvage of an archive with an index, where the source can pread: the
 * index's record offsets let the pipeline step over a damaged frame.
 * Without them it reads on as it can (told as an event). */
static void
salvage_offsets(aescrypt_reader *r, struct ae_pipe_params *pp)
{
	int e;

	if (r->h.payload_type != AE_PAYLOAD_PAX_INDEXED
	    || !ae_lib_source_seekable(&r->src))
		return;
	if ((e = ae_lib_access_ready(r)) != AE_OK) {
		ae_lib_reader_event(r, AESCRYPT_EVENT_INDEX_UNUSABLE, e, 0,
		    &r->ix_diag);
		return;
	}
	pp->rec_off = r->ix.rec_off;
	pp->nrec = r->ix.records;
}

void
ae_lib_reader_salvage_params(aescrypt_reader *r, struct ae_pipe_params *pp,
    struct ae_lost_fill *l, struct ae_writer *out)
{
	l->r = r;
	l->out = out;
	l->chunk = (uint64_t)1 << r->h.chunk_log2;
	pp->salvage = 1;
	pp->damaged = lost_record;
	pp->damaged_ctx = l;
	pp->dkey = r->have_gd ? &r->gd : NULL;
	salvage_offsets(r, pp);
}

int
aescrypt_reader_decode_to(aescrypt_reader *r, aescrypt_write_fn fn,
    void *ctx)
{
	struct sink s;
	struct ae_writer *out = &s.w;
	struct ae_pipe_params pp;
	struct ae_lost_fill l;
	int e = ae_lib_reader_is_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (fn == NULL)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "no sink");
	ae_lib_sink_callback(&s, fn, ctx);
	if (r->seq_started || r->decoded || r->raw_started || r->raw_whole)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "the payload "
		    "is read once");
	r->decoded = r->have_pst = 1;
	memset(&r->pst, 0, sizeof r->pst);
	memset(&r->pd, 0, sizeof r->pd);
	ae_lib_reader_params(r, &pp);
	if (r->salvage)
		ae_lib_reader_salvage_params(r, &pp, &l, out);
	out = ae_lib_reader_signed_out(r, &pp, out);
	e = ae_pipe_decode(&pp, &r->src.seq, out, &r->pst, &r->pd);
	if (e == AE_OK && pp.trailer)
		e = ae_trailer_check(&pp, &r->ig, &r->src.seq, &r->h,
		    r->h.len + r->pst.wire_bytes, r->pst.records, NULL, &r->pd);
	ae_lib_reader_signed_end(r, e, &r->pst, &r->pd);
	if (e != AE_OK)
		return ae_lib_reader_fail(r, e, &r->pd);
	r->seq_clean = 1;
	return AESCRYPT_OK;
}
