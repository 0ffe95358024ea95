/*
 * header_copy.c -- a reader's header taken from its copy at the end of
 * the file (format 6.9) when the one at the start is damaged or fails
 * authentication, under the reader's salvage setting (contracts in
 * handle.h; the events in aescrypt.h).
 *
 * The copy is only as good as its MAC, so it is used only once a slot
 * opens it with the same keys; until then it is a candidate.  Every
 * step is told to the caller's event callback, which words it: the
 * library says what happened, never how to put it.
 */
#include "config.h"
#include "handle.h"

#include <stdlib.h>
#include <string.h>

#include "common/wipe.h"

/* The copy at the end of r's source into h.  AE_OK; AE_EFORMAT (d)
 * when none parses there; AE_EIO when it cannot be read; AE_ENOTSUP
 * when the source cannot pread (a pipe). */
static int
parse_copy(aescrypt_reader *r, struct ae_header *h, struct ae_diag *d)
{
	uint8_t buf[AE_HEADER_MAX + AE_COPY_LEN_LEN];
	uint64_t size = r->src.s.size;
	size_t n, got;
	int e;

	if (!ae_lib_source_seekable(&r->src))
		return AE_ENOTSUP;
	n = size < sizeof buf ? (size_t)size : sizeof buf;
	if ((e = ae_lib_source_pread(&r->src, buf, n, size - n, &got))
	    != AE_OK || got != n)
		return ae_fail(d, AE_EIO, AE_AT_INPUT, "reading input", 0,
		    size - n);
	return ae_header_parse_copy(buf, n, h, d);
}

/* Whether the source ends with what parses as a copy: only its MAC can
 * say more. */
static int
copy_present(aescrypt_reader *r)
{
	struct ae_header *h = malloc(sizeof *h);
	struct ae_diag d = { 0 };
	int ok;

	if (h == NULL)
		return 0;
	ok = parse_copy(r, h, &d) == AE_OK;
	free(h);
	return ok;
}

/* The copy into h, told as an event: AE_OK with the sequential reader
 * at the first record, or the error (said). */
static int
take_copy(aescrypt_reader *r, struct ae_header *h, struct ae_diag *d)
{
	int e = parse_copy(r, h, d);

	if (e == AE_ENOTSUP) {
		ae_lib_reader_event(r, AESCRYPT_EVENT_COPY_UNREADABLE, AE_EFORMAT,
		    0, NULL);
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "has a copy of its "
		    "header that a pipe cannot reach", 0, 0);
	}
	if (e != AE_OK) {
		ae_lib_reader_event(r, AESCRYPT_EVENT_COPY_BAD, e, 0, d);
		return e;
	}
	if (r->src.seq.seek == NULL
	    || r->src.seq.seek(r->src.seq.ctx, h->len) != AE_OK) {
		e = ae_fail(d, AE_EIO, AE_AT_INPUT, "reading input", 0,
		    h->len);
		ae_lib_reader_event(r, AESCRYPT_EVENT_COPY_BAD, e, 0, d);
		return e;
	}
	ae_lib_reader_event(r, AESCRYPT_EVENT_COPY_USED, AE_OK, 0, NULL);
	return AE_OK;
}

int
ae_lib_header_damaged(aescrypt_reader *r, int err, struct ae_diag *d)
{
	/* Damage past the magic (a version, a length, a checksum that is
	 * wrong): not another kind of file, nor an empty one.  A bad magic
	 * is damage too when the file ends with a copy of a header: the
	 * start was zeroed or overwritten, the most common damage of all. */
	int damaged = err != AE_EIO && ae_header_damaged(d)
	    && !(err == AE_ETRUNC && d->offset == 0);
	unsigned flags = 0;

	if (!damaged && ae_header_bad_magic(d))
		damaged = copy_present(r);
	if (damaged)
		flags = AESCRYPT_HEADER_DAMAGED | (copy_present(r)
		    ? AESCRYPT_HEADER_COPY : 0) | (r->salvage
		    ? AESCRYPT_HEADER_RETRY : 0);
	ae_lib_reader_event(r, AESCRYPT_EVENT_HEADER_BAD, err, flags, d);
	if (!damaged || !r->salvage)
		return err;
	return take_copy(r, &r->h, d);
}

int
ae_lib_header_unauthentic(aescrypt_reader *r,
    uint8_t file_key[AE_FILE_KEY_LEN], struct ae_diag *d)
{
	struct ae_header *c;
	unsigned flags = 0;
	int e;

	if (r->h.from_copy)
		flags |= AESCRYPT_HEADER_FROM_COPY;
	else if (copy_present(r))
		flags |= AESCRYPT_HEADER_COPY;
	if (r->salvage && !r->h.from_copy)
		flags |= AESCRYPT_HEADER_RETRY;
	ae_lib_reader_event(r, AESCRYPT_EVENT_HEADER_UNAUTHENTIC, AE_EAUTH,
	    flags, d);
	if (!(flags & AESCRYPT_HEADER_RETRY))
		return AE_EAUTH;
	if ((c = malloc(sizeof *c)) == NULL)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, "out of memory", 0, 0);
	/* The copy, with the same keys: used only if it authenticates. */
	if ((e = take_copy(r, c, d)) == AE_OK) {
		memset(d, 0, sizeof *d);
		e = ae_lib_keyring_unlock(&r->keys, r->max_kib, c, file_key, d);
		if (e == AE_OK)
			memcpy(&r->h, c, sizeof r->h);
		else
			ae_lib_reader_event(r, AESCRYPT_EVENT_COPY_UNAUTHENTIC,
			    e, 0, d);
	}
	ae_wipe(c, sizeof *c);
	free(c);
	return e;
}
