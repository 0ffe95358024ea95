/*
 * extract.c -- aescrypt_reader_extract: an archive's members made
 * beneath a directory by the safe writer, disk/writer.h (contract in
 * aescrypt.h; the handle in handle.h).
 *
 * The members come from the same tar reader as aescrypt_reader_next,
 * over the same channel of verified plaintext, so a member that the
 * stream fails inside is never given its name, and the run ends with
 * the stream's error.
 */
#include "config.h"
#include "handle.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk/writer.h"

/* The writer's reports: a member not made, or not made as it was, is
 * the run's partial result, and its words the message. */
static void
on_member(void *ctx, const struct ae_dw_report *rep)
{
	aescrypt_reader *r = ctx;
	char why[1024];

	if (rep->event != AE_DW_SKIPPED && rep->event != AE_DW_WARNING
	    && rep->event != AE_DW_FAILED && rep->event != AE_DW_LOST)
		return;
	r->partial = 1;
	if (rep->event == AE_DW_FAILED)
		r->dw_failed = 1;
	if (rep->why == NULL)
		snprintf(why, sizeof why, "not made");
	else if (strstr(rep->why, "%s") != NULL && rep->arg != NULL)
		/* (the phrase holds one %s, for raw text of the archive's) */
		snprintf(why, sizeof why, "%.*s'%s'%s",
		    (int)(strstr(rep->why, "%s") - rep->why), rep->why,
		    rep->arg, strstr(rep->why, "%s") + 2);
	else
		snprintf(why, sizeof why, "%s", rep->why);
	if (rep->event == AE_DW_FAILED && rep->err != 0)
		snprintf(r->msg, sizeof r->msg, "%s: %s: %s", rep->name != NULL
		    ? rep->name : "", why, strerror(rep->err));
	else
		snprintf(r->msg, sizeof r->msg, "%s: %s", rep->name != NULL ?
		    rep->name : "", why);
}

static unsigned
dw_flags(unsigned flags)
{
	unsigned f = 0;

	if (flags & AESCRYPT_X_KEEP_OLD)
		f |= AE_DW_KEEP_OLD;
	if (flags & AESCRYPT_X_PERMS)
		f |= AE_DW_PERMS;
	if (flags & AESCRYPT_X_OWNER)
		f |= AE_DW_OWNER;
	if (flags & AESCRYPT_X_XATTRS)
		f |= AE_DW_XATTRS;
	if (flags & AESCRYPT_X_ACLS)
		f |= AE_DW_ACLS;
	if (flags & AESCRYPT_X_NO_DEVICES)
		f |= AE_DW_NO_DEVICES;
	return f;
}

int
aescrypt_reader_extract(aescrypt_reader *r, const char *dir, unsigned flags)
{
	struct ae_dw_params wp;
	struct ae_dw *w;
	struct aescrypt_entry e;
	mode_t mask;
	int st = ae_lib_reader_is_open(r), root;

	if (st != AESCRYPT_OK)
		return st;
	if (r->kind != AESCRYPT_ARCHIVE)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "a stream has no "
		    "members to extract");
	if (dir == NULL || flags & ~0x3fu)
		return ae_lib_reader_fail_plain(r, AESCRYPT_EINVAL, "no directory, or "
		    "an unknown flag");
	if ((root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		snprintf(r->msg, sizeof r->msg, "%s: %s", dir, strerror(errno));
		return AESCRYPT_EIO;
	}
	memset(&wp, 0, sizeof wp);
	wp.root = root;
	wp.flags = dw_flags(flags);
	/* (umask cannot be read without setting it) */
	mask = umask(022);
	umask(mask);
	wp.umask = mask;
	wp.report = on_member;
	wp.ctx = r;
	if (ae_dw_open(&wp, &w) != AE_OK) {
		close(root);
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM, "out of memory");
	}
	r->partial = 0;
	r->dw_failed = 0;
	while ((st = aescrypt_reader_next(r, &e)) == AESCRYPT_OK)
		if ((st = ae_dw_member(w, &r->tr, r->m)) != AE_OK)
			break;
	if (st != AESCRYPT_OK && st != AESCRYPT_END && r->seq_err == AE_OK) {
		/* the member ended the run: a write failed (a full disk; the
		 * report's words are the message, kept), or the stream failed
		 * inside it (the pipeline's words) */
		char kept[MESSAGE_MAX];

		snprintf(kept, sizeof kept, "%s", r->msg);
		st = ae_lib_reader_seq_failed(r, st, NULL);
		if (r->dw_failed)
			snprintf(r->msg, sizeof r->msg, "%s", kept);
	}
	ae_dw_close(w);
	close(root);
	return st == AESCRYPT_END ? AESCRYPT_OK : st;
}

int
aescrypt_reader_partial(const aescrypt_reader *r)
{
	return r != NULL && r->partial;
}
