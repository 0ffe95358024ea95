/*
 * writer_more.c -- the unstable part of aescrypt.h for writers: the
 * DEFLATE engine, signals, a stream read from a source on the caller's
 * thread, every figure of the run, the failure's place (contract in
 * aescrypt.h below AESCRYPT_STATIC_LINKING_ONLY; the handle's insides
 * in writer.h).
 */
#include "config.h"
#include "writer.h"
#include "build.h"

#include <string.h>


/* ---- the unstable part (aescrypt.h, AESCRYPT_STATIC_LINKING_ONLY) ---- */

const struct ae_diag *
aescrypt_writer_diag(const aescrypt_writer *w)
{
	return w != NULL && w->have_diag ? &w->diag : NULL;
}

int
aescrypt_writer_set_engine(aescrypt_writer *w, int engine)
{
	const char *why;
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if ((e = ae_lib_engine_check(engine, &why)) != AESCRYPT_OK)
		return ae_lib_writer_fail_plain(w, e, why);
	w->engine = engine;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_signals(aescrypt_writer *w, const atomic_int *interrupt,
    atomic_int *cancel)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	w->interrupt = interrupt;
	w->ext_cancel = cancel;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_timed(aescrypt_writer *w, int on)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	w->timed = on != 0;
	return AESCRYPT_OK;
}

/* The caller's source as the pipeline's input. */
static int
source_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	const struct aescrypt_source *src = ctx;

	*got = 0;
	return ae_lib_callback_status(src->read(src->ctx, buf, n, got));
}

int
aescrypt_writer_write_from(aescrypt_writer *w,
    const struct aescrypt_source *src)
{
	struct ae_reader in;
	int e = ae_lib_writer_is_open(w, 0);

	if (e != AESCRYPT_OK)
		return e;
	if (src == NULL || src->read == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no source to read");
	if (w->started || w->fed)
		return ae_lib_writer_fail_plain(w, AESCRYPT_ESTATE, "a stream is read from a "
		    "source once, before any aescrypt_writer_write");
	in.read = source_read;
	in.ctx = (void *)src;
	in.seek = NULL;
	memset(&w->pst, 0, sizeof w->pst);
	w->fed = 1;
	if ((e = ae_pipe_encode(&w->pp, &in, w->out, &w->pst, &w->pd))
	    != AE_OK) {
		w->state = W_DONE;
		ae_lib_sink_abort(&w->sink);
		return ae_lib_writer_fail(w, e, &w->pd);
	}
	return AESCRYPT_OK;
}

const struct ae_pipe_stats *
aescrypt_writer_pipe_stats(const aescrypt_writer *w)
{
	return w != NULL && w->closed ? &w->pst : NULL;
}

const char *
aescrypt_writer_tier(const aescrypt_writer *w)
{
	if (w == NULL || !w->have_keys)
		return "none";
	return ae_gcm_tier_name(ae_gcm_ctx_tier(&w->g));
}

int
aescrypt_writer_set_signer(aescrypt_writer *w, aescrypt_signer *s)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (s == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no signer");
	w->signer = s;
	return AESCRYPT_OK;
}

int
aescrypt_writer_set_walk(aescrypt_writer *w, const struct ae_dr_params *p)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (p == NULL || p->report == NULL)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "a walk "
		    "needs its report");
	w->dp = *p;
	w->caller_report = p->report;
	w->caller_excluded = p->excluded;
	w->caller_ctx = p->ctx;
	w->walk_set = 1;
	return AESCRYPT_OK;
}

int
aescrypt_writer_add_paths(aescrypt_writer *w, char *const *paths, size_t n)
{
	int e = ae_lib_writer_is_open(w, 1);

	if (e != AESCRYPT_OK)
		return e;
	if (paths == NULL && n > 0)
		return ae_lib_writer_fail_plain(w, AESCRYPT_EINVAL, "no paths");
	return ae_lib_writer_walked(w, ae_dr_add_all(w->walk, paths, n));
}

int
aescrypt_writer_add_keys(aescrypt_writer *w, const aescrypt_keys *k)
{
	int e = ae_lib_writer_before_open(w);

	if (e != AESCRYPT_OK)
		return e;
	if (ae_lib_keyring_add_all_recipients(&w->keys, ae_lib_keys_ring(k))
	    != AE_OK)
		return ae_lib_writer_fail_plain(w, AESCRYPT_ENOMEM, "out of "
		    "memory");
	return AESCRYPT_OK;
}
