/*
 * verify.c -- a reader of a signed file (format 6.10; the contract for
 * callers is aescrypt.h's "signing", the insides handle.h's): the keys
 * allowed to sign, each signature checked as the records come, and the
 * plaintext held back until a signature covers it, so that nothing a
 * forger could have written reaches the caller's sink.
 */
#include "config.h"
#include "handle.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/wipe.h"
#include "container/sshsig.h"

int
aescrypt_reader_set_signers(aescrypt_reader *r, const char *text,
    size_t len, struct ae_diag *d)
{
	int e;

	if (r == NULL || text == NULL || d == NULL)
		return AESCRYPT_EINVAL;
	if (r->state != R_NEW && r->state != R_UNLOCKING)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "signers are "
		    "set before the reader opens");
	memset(d, 0, sizeof *d);
	if (r->have_allowed) {
		ae_allowed_free(&r->allowed);
		r->have_allowed = 0;
	}
	if ((e = ae_allowed_parse(&r->allowed, text, len, d)) != AE_OK)
		return e;
	r->have_allowed = 1;
	return AESCRYPT_OK;
}

int
ae_lib_reader_check_signer(aescrypt_reader *r)
{
	char fp[AE_SSH_FINGERPRINT_MAX];
	int why;

	r->allowed_at = -1;
	if (r->h.is_signed && r->salvage)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOTSUP, "--salvage "
		    "does not read signed files yet");
	if (!r->have_allowed)
		return AESCRYPT_OK;
	if (!r->h.is_signed)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESIGNER, "the file "
		    "is not signed");
	ae_ssh_fingerprint(r->h.signer, fp);
	r->allowed_at = ae_allowed_find(&r->allowed, r->h.signer,
	    AE_SIG_NAMESPACE, (int64_t)time(NULL), &why);
	if (r->allowed_at >= 0)
		return AESCRYPT_OK;
	snprintf(r->msg, sizeof r->msg, "signed by ED25519 key %s, which the "
	    "signers file %s", fp, ae_allowed_why(why));
	r->state = R_DONE;
	return AESCRYPT_ESIGNER;
}

/* Plaintext no signature covers yet: kept (in memory wiped when it
 * goes), at most an interval's chunks and one more. */
static int
hold_write(void *ctx, const uint8_t *buf, size_t n)
{
	aescrypt_reader *r = ctx;
	uint8_t *p;

	if (n == 0)
		return AE_OK;
	if (n > SIZE_MAX - r->hold_len)
		return AE_ENOMEM;
	if ((p = ae_wiped_grow(r->hold, r->hold_len, &r->hold_cap,
	    r->hold_len + n)) == NULL)
		return AE_ENOMEM;
	r->hold = p;
	memcpy(r->hold + r->hold_len, buf, n);
	r->hold_len += n;
	return AE_OK;
}

/* The pipeline's signed_fn: each record's digest in order; a signature
 * record where one belongs, checked, and then what it covers let go. */
static int
signed_record(void *ctx, uint64_t seq, int final,
    const uint8_t digest[AE_SIG_DIGEST_LEN], const uint8_t *sig_rec, int due,
    uint64_t end, struct ae_diag *d)
{
	aescrypt_reader *r = ctx;
	int e;

	(void)seq;
	(void)due;
	ae_sigchain_add(&r->chain, digest);
	if (sig_rec == NULL)
		return AE_OK;
	if ((e = ae_sigchain_check(&r->chain, sig_rec, final, r->h.signer, d))
	    != AE_OK)
		return e;
	r->signed_to = end;
	if (r->hold_len > 0) {
		e = r->held_to.write(r->held_to.ctx, r->hold, r->hold_len);
		ae_wipe(r->hold, r->hold_len);
		r->hold_len = 0;
		if (e != AE_OK)
			return ae_fail(d, e, AE_AT_OUTPUT, "writing output", 0,
			    0);
	}
	return AE_OK;
}

struct ae_writer *
ae_lib_reader_signed_out(aescrypt_reader *r, struct ae_pipe_params *pp,
    struct ae_writer *out)
{
	if (!r->h.is_signed)
		return out;
	ae_sigchain_init(&r->chain, r->h.raw, r->h.len);
	pp->sign = 1;
	pp->sig_log2 = r->h.sig_log2;
	pp->sig_intervals = 1;
	pp->sig_last = r->h.payload_type != AE_PAYLOAD_PAX_INDEXED;
	pp->signed_fn = signed_record;
	pp->signed_ctx = r;
	r->held_to = *out;
	r->hold_w.write = hold_write;
	r->hold_w.ctx = r;
	r->hold_len = 0;
	r->signed_to = 0;
	return &r->hold_w;
}

void
ae_lib_reader_signed_end(aescrypt_reader *r, int e, struct ae_pipe_stats *st,
    struct ae_diag *d)
{
	if (!r->h.is_signed)
		return;
	/* A file cut short, forged or damaged is signed only as far as
	 * its last signature that verified: said, since a reader of a
	 * pipe has had what those signatures cover and no more. */
	if ((e == AE_ETRUNC || e == AE_EAUTH || e == AE_EFORMAT) && d != NULL
	    && (d->where == AE_AT_CHUNK || d->where == AE_AT_INDEX)) {
		const char *what = d->what != NULL ? d->what : ae_strerror(e);

		if (r->signed_to == 0)
			snprintf(r->cut_what, sizeof r->cut_what, "%s; no "
			    "signature verified before it, so none of the file "
			    "is signed", what);
		else
			snprintf(r->cut_what, sizeof r->cut_what, "%s; the "
			    "file is not signed past offset %llu, where its "
			    "last signature that verified ends", what,
			    (unsigned long long)r->signed_to);
		d->what = r->cut_what;
	}
	if (r->hold_len == 0)
		return;
	st->plain_bytes -= r->hold_len < st->plain_bytes ? r->hold_len
	    : st->plain_bytes;
	st->write_bytes -= r->hold_len < st->write_bytes ? r->hold_len
	    : st->write_bytes;
	ae_wipe(r->hold, r->hold_len);
	r->hold_len = 0;
}

int
aescrypt_reader_signer(const aescrypt_reader *r,
    char fp[AESCRYPT_FINGERPRINT_MAX], char *who, size_t cap)
{
	if (r == NULL || fp == NULL)
		return AESCRYPT_EINVAL;
	if (!r->have_header)
		return AESCRYPT_ESTATE;
	if (who != NULL && cap > 0)
		who[0] = 0;
	if (!r->h.is_signed) {
		fp[0] = 0;
		return 0;
	}
	ae_ssh_fingerprint(r->h.signer, fp);
	if (who != NULL && cap > 0 && r->have_allowed && r->allowed_at >= 0)
		snprintf(who, cap, "%s",
		    r->allowed.v[r->allowed_at].principals);
	return 1;
}

uint64_t
ae_lib_reader_sig_every(const aescrypt_reader *r)
{
	return r->h.is_signed ? (uint64_t)1 << r->h.sig_log2 : 0;
}

void
ae_lib_reader_verify_free(aescrypt_reader *r)
{
	if (r->hold != NULL) {
		ae_wipe(r->hold, r->hold_cap);
		free(r->hold);
	}
	r->hold = NULL;
	r->hold_len = r->hold_cap = 0;
	if (r->have_allowed)
		ae_allowed_free(&r->allowed);
	r->have_allowed = 0;
}
