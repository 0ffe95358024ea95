/*
 * message.c -- core errors in words (contract in message.h).
 */
#include "config.h"
#include "message.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "aescrypt.h"

void
ae_lib_message_describe(char *buf, size_t cap, const char *name, int err,
    const struct ae_diag *d)
{
	struct ae_diag none = { 0 };
	char pre[MESSAGE_MAX / 2];
	const char *what;

	if (cap == 0)
		return;
	if (d == NULL)
		d = &none;
	what = d->what != NULL ? d->what : ae_strerror(err);
	pre[0] = '\0';
	if (name != NULL)
		snprintf(pre, sizeof pre, "%s: ", name);
	if (err == AE_EINTR) {
		snprintf(buf, cap, "%sinterrupted", pre);
		return;
	}
	switch (d->where) {
	case AE_AT_CHUNK:
		snprintf(buf, cap, "%schunk %llu at offset %llu %s", pre,
		    d->index, d->offset, what);
		break;
	case AE_AT_INDEX:
		snprintf(buf, cap, "%sthe archive's index (at offset %llu): %s",
		    pre, d->offset, what);
		break;
	case AE_AT_STANZA:
		if (err == AE_ELIMIT)
			snprintf(buf, cap, "%skey slot %llu asks for %s %llu, "
			    "over the limit of %llu", pre, d->index, what,
			    d->have, d->limit);
		else
			snprintf(buf, cap, "%skey slot %llu: %s", pre, d->index,
			    what);
		break;
	case AE_AT_HEADER:
		if (err == AE_ENOTSUP && d->have != 0)
			snprintf(buf, cap, "%s%s %llu", pre, what, d->have);
		else
			snprintf(buf, cap, "%s%s", pre, what);
		break;
	case AE_AT_INPUT:
	case AE_AT_OUTPUT:
		if (err == AE_EIO && d->sys_errno != 0)
			snprintf(buf, cap, "%s%s: %s", pre, what,
			    strerror(d->sys_errno));
		else if (d->index != 0 && d->offset == 0)
			snprintf(buf, cap, "%sline %llu: %s", pre, d->index,
			    what);
		else
			snprintf(buf, cap, "%s%s (at offset %llu)", pre, what,
			    d->offset);
		break;
	case AE_AT_MEMBER:
		/* (the offset counts bytes of the tar stream, not of the
		 * container: the command says so too) */
		snprintf(buf, cap, "%sthe member at byte %llu of the archive's "
		    "tar stream: %s", pre, d->offset, what);
		break;
	case AE_AT_NONE:
		snprintf(buf, cap, "%s%s", pre, what);
		break;
	}
}

void
ae_lib_message_plain(char *buf, size_t cap, const char *name, const char *what)
{
	if (cap == 0)
		return;
	if (name != NULL)
		snprintf(buf, cap, "%s: %s", name, what);
	else
		snprintf(buf, cap, "%s", what);
}

int
ae_lib_callback_status(int r)
{
	if (r == 0)
		return AE_OK;
	if (r == AESCRYPT_EINTR)
		return AE_EINTR;
	/* a callback that says AESCRYPT_EIO may have left errno saying
	 * why (ENOSPC, EPIPE): the message keeps it */
	if (r != AESCRYPT_EIO || errno == 0)
		errno = EIO;
	return AE_EIO;
}
