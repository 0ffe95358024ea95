/*
 * dr_stream.c -- the tree walk's output and reports (dr.h): the tar
 * stream gathered in one buffer and handed on when full, and every event
 * to the caller's callback (the walk never prints).
 */
#include "config.h"
#include "reader.h"
#include "dr.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "common/error.h"

void
ae_dr_flush(struct packer *p)
{
	int e;

	if (!p->stopped && p->olen > 0
	    && (e = p->w->write(p->w->ctx, p->out, p->olen)) != AE_OK)
		p->stopped = e;
	p->flushed += p->olen;
	p->olen = 0;
}

/* Report r; a callback that asks to stop stops the walk. */
void
ae_dr_notify(struct packer *p, struct ae_dr_report *r)
{
	if (p->po->report(p->po->ctx, r) != 0 && !p->stopped)
		p->stopped = AE_EIO;
}

void
ae_dr_report_path(struct packer *p, int ev, const char *path,
    const char *why, int err)
{
	struct ae_dr_report r;

	memset(&r, 0, sizeof r);
	r.event = ev;
	r.name = path;
	r.why = why;
	r.err = err;
	ae_dr_notify(p, &r);
}

/* Whether a stop was asked for (a signal). */
int
ae_dr_stop_asked(struct packer *p)
{
	if (p->po->stop != NULL && atomic_load(p->po->stop) && !p->stopped)
		p->stopped = AE_EINTR;
	return p->stopped != 0;
}

void
ae_dr_emit(struct packer *p, const uint8_t *b, size_t n)
{
	size_t k;

	while (n > 0 && !p->stopped) {
		if (p->olen == OUT_BUF)
			ae_dr_flush(p);
		k = OUT_BUF - p->olen < n ? OUT_BUF - p->olen : n;
		memcpy(p->out + p->olen, b, k);
		p->olen += k;
		b += k;
		n -= k;
	}
}

void
ae_dr_emit_zeros(struct packer *p, uint64_t n)
{
	static const uint8_t zero[AE_TAR_BLOCK * 8];

	while (n > 0 && !p->stopped) {
		size_t k = n < sizeof zero ? (size_t)n : sizeof zero;

		ae_dr_emit(p, zero, k);
		n -= k;
	}
}

void
ae_dr_warn_errno(struct packer *p, const char *path, const char *what)
{
	ae_dr_report_path(p, AE_DR_WARNING, path, what, errno);
	p->partial = 1;
}

void
ae_dr_warn_plain(struct packer *p, const char *path, const char *what)
{
	ae_dr_report_path(p, AE_DR_WARNING, path, what, 0);
	p->partial = 1;
}
