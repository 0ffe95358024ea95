/*
 * ixdigest.c -- an index held small (contract in ixdigest.h).
 */
#include "config.h"
#include "ixdigest.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/grow.h"
#include "common/wipe.h"
#include "ixcheck.h"

#define RESTART 32

void
ae_ixdigest_init(struct ixdigest *x)
{
	memset(x, 0, sizeof *x);
}

void
ae_ixdigest_free(struct ixdigest *x)
{
	free(x->first);
	free(x->digest);
	if (x->paths != NULL)
		ae_wipe(x->paths, x->plen);     /* names are plaintext */
	free(x->paths);
	free(x->restart);
	free(x->last);
	free(x->name);
	ae_ixdigest_init(x);
}

/* Room for n more bytes of paths.  0 or -1. */
static int
paths_room(struct ixdigest *x, size_t n)
{
	uint8_t *p;

	if ((p = ae_wiped_grow(x->paths, x->plen, &x->pcap, x->plen + n))
	    == NULL)
		return -1;
	x->paths = p;
	return 0;
}

int
ae_ixdigest_add(struct ixdigest *x, const struct ae_index_member *e)
{
	size_t pl = strlen(e->path), shared = 0;

	if (x->n == x->cap) {
		/* (two arrays, one room: first's may run ahead) */
		size_t fcap = x->cap;

		if (ae_grow(&x->first, &fcap, x->n + 1, sizeof *x->first, 1024,
		    0) != 0 || ae_grow(&x->digest, &x->cap, x->n + 1,
		    sizeof *x->digest, 1024, 0) != 0)
			return -1;
	}
	if (x->n % RESTART == 0) {
		size_t *r = realloc(x->restart, (x->n / RESTART + 1)
		    * sizeof *r);

		if (r == NULL)
			return -1;
		x->restart = r;
		x->restart[x->n / RESTART] = x->plen;
	} else {
		while (shared < pl && shared < x->lastlen
		    && x->last[shared] == e->path[shared])
			shared++;
	}
	if (x->last == NULL && ((x->last = malloc(AE_TAR_NAME_MAX + 1)) == NULL
	    || (x->name = malloc(AE_TAR_NAME_MAX + 1)) == NULL))
		return -1;
	if (pl > AE_TAR_NAME_MAX || paths_room(x, 20 + pl - shared) != 0)
		return -1;
	x->plen += ae_put_varint(x->paths + x->plen, shared);
	x->plen += ae_put_varint(x->paths + x->plen, pl - shared);
	memcpy(x->paths + x->plen, e->path + shared, pl - shared);
	x->plen += pl - shared;
	memcpy(x->last + shared, e->path + shared, pl - shared + 1);
	x->lastlen = pl;
	x->first[x->n] = e->first;
	ae_ixcheck_entry_digest(e, x->digest[x->n]);
	x->n++;
	return 0;
}

int
ae_ixdigest_from_index(struct ixdigest *x, const struct ae_index *ix)
{
	size_t i;

	x->members = ix->members;
	x->tar_end = ix->tar_end;
	for (i = 0; i < ix->members; i++)
		if (ae_ixdigest_add(x, &ix->m[i]) != 0)
			return -1;
	return 0;
}

int
ae_ixdigest_same(const struct ixdigest *x, size_t k,
    const struct ae_tar_member *m)
{
	uint8_t d[AE_SHA256_LEN];

	if (k >= x->n)
		return 0;
	ae_ixcheck_member_digest(m, d);
	return memcmp(d, x->digest[k], sizeof d) == 0 && m->end ==
	    (k + 1 < x->n ? x->first[k + 1] : x->tar_end);
}

const char *
ae_ixdigest_path(struct ixdigest *x, size_t k)
{
	size_t at, i, shared, rest, len = 0;

	if (k >= x->n || x->name == NULL)
		return NULL;
	at = x->restart[k / RESTART];
	for (i = k - k % RESTART; i <= k; i++) {
		at += ae_get_varint(x->paths + at, &shared);
		at += ae_get_varint(x->paths + at, &rest);
		/* (shared <= len: what add wrote) */
		memcpy(x->name + shared, x->paths + at, rest);
		at += rest;
		len = shared + rest;
	}
	x->name[len] = '\0';
	return x->name;
}

/* The index's plaintext as it is decoded, an entry at a time, into an
 * ixdigest: what has not yet made a whole entry waits in carry. */

/* Take what carry holds, whole entries only unless final.  0, or the
 * failure (also in f->err). */
static int
feed_take(struct feed *f, int final)
{
	struct ae_index_member e;
	size_t pos = 0, used;
	int r = AE_OK;

	if (!f->head) {
		r = ae_index_cursor_head_signed(&f->cur, f->carry, f->len,
		    final, &used, f->header_len, f->chunk, f->sig_every,
		    f->index_offset, f->records, NULL, &f->d);
		if (r == AE_OK) {
			f->head = 1;
			f->x->members = f->cur.members;
			f->x->tar_end = f->cur.tar_end;
			pos = used;
		}
	}
	while (r == AE_OK && f->cur.next < f->cur.members) {
		char *n = f->names;

		r = ae_index_cursor_member(&f->cur, f->carry + pos, f->len - pos,
		    final, &used, &e, &n, &f->d);
		if (r != AE_OK)
			break;
		pos += used;
		if (ae_ixdigest_add(f->x, &e) != 0)
			r = AE_ENOMEM;
	}
	if (r == AE_OK && final && pos != f->len)
		r = ae_fail(&f->d, AE_EFORMAT, AE_AT_NONE, "has bytes after its "
		    "last member", 0, 0);
	if (r == AE_ETRUNC && !final)
		r = AE_OK;      /* the rest of the entry is still to come */
	if (pos > 0) {
		memmove(f->carry, f->carry + pos, f->len - pos);
		f->len -= pos;
	}
	if (r != AE_OK && f->err == AE_OK)
		f->err = r;
	return r;
}

int
ae_ixdigest_feed_write(void *ctx, const uint8_t *b, size_t n)
{
	struct feed *f = ctx;
	uint8_t *p;

	if (f->err != AE_OK)
		return AE_OK;   /* (reported once the decode ends) */
	if ((p = ae_wiped_grow(f->carry, f->len, &f->cap, f->len + n)) == NULL) {
		f->err = AE_ENOMEM;
		return AE_OK;
	}
	f->carry = p;
	memcpy(f->carry + f->len, b, n);
	f->len += n;
	feed_take(f, 0);
	return AE_OK;
}

/* (one entry's four names, each with its NUL: 6.8's caps) */
#define FEED_NAMES (2 * (AE_TAR_NAME_MAX + 1) + 2 * 256)

int
ae_ixdigest_feed_init(struct feed *f, struct ixdigest *x, uint64_t header_len,
    unsigned chunk_log2, uint64_t sig_every)
{
	memset(f, 0, sizeof *f);
	ae_ixdigest_init(x);
	f->x = x;
	f->header_len = header_len;
	f->sig_every = sig_every;
	f->chunk = (size_t)1 << chunk_log2;
	if ((f->names = malloc(FEED_NAMES)) == NULL)
		return AE_ENOMEM;
	return AE_OK;
}

int
ae_ixdigest_feed_end(struct feed *f, int err, struct ae_diag *d)
{
	if (err == AE_OK && f->err == AE_OK)
		feed_take(f, 1);
	if (err == AE_OK && f->err != AE_OK) {
		err = f->err;
		*d = f->d;
	}
	if (f->carry != NULL) {
		ae_wipe(f->carry, f->len);
		free(f->carry);
	}
	if (f->names != NULL) {
		ae_wipe(f->names, FEED_NAMES);
		free(f->names);
	}
	if (err != AE_OK)
		ae_ixdigest_free(f->x);
	memset(f, 0, sizeof *f);
	return err;
}
