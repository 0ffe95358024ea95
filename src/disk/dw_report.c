/*
 * dw_report.c -- how the disk writer reports (dw.h): every event goes to
 * the caller's callback (the writer never prints), and what was not
 * made as the archive has it marks the run partial.
 */
#include "config.h"
#include "writer.h"
#include "dw.h"

#include <errno.h>

void
ae_dw_notify(struct ae_dw *w, int ev, const struct ae_tar_member *m,
    const char *name, const char *why, int err)
{
	struct ae_dw_report r;

	r.event = ev;
	r.name = name;
	r.m = m;
	r.why = why;
	r.arg = NULL;
	r.err = err;
	w->p->report(w->p->ctx, &r);
}

/* A member not made, for a reason that is not an errno. */
void
ae_dw_skip(struct ae_dw *w, const struct ae_tar_member *m, const char *why)
{
	ae_dw_notify(w, AE_DW_SKIPPED, m, m->path, why, 0);
	w->partial = 1;
}

/* A member not made because a system call failed (errno). */
void
ae_dw_skip_errno(struct ae_dw *w, const struct ae_tar_member *m, const char *what)
{
	ae_dw_notify(w, AE_DW_SKIPPED, m, m->path, what, errno);
	w->partial = 1;
}

/* A member made, but not all as it was (errno). */
void
ae_dw_warn_errno(struct ae_dw *w, const struct ae_tar_member *m, const char *name,
    const char *what)
{
	ae_dw_notify(w, AE_DW_WARNING, m, name, what, errno);
	w->partial = 1;
}

/* A member made, but not all as it was (no errno). */
void
ae_dw_warn_plain(struct ae_dw *w, const struct ae_tar_member *m, const char *what)
{
	ae_dw_notify(w, AE_DW_WARNING, m, m->path, what, 0);
	w->partial = 1;
}

/* A write error ends the run: the next member would fail the same way
 * (a full disk), and the user should know at once. */
void
ae_dw_fatal_errno(struct ae_dw *w, const struct ae_tar_member *m)
{
	ae_dw_notify(w, AE_DW_FAILED, m, m->path, NULL, errno);
	w->fatal = AE_EIO;
}
