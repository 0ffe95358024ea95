/*
 * indexdigest.c -- an index held small (contract in indexdigest.h).
 */
#include "config.h"
#include "indexdigest.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/grow.h"
#include "common/wipe.h"
#include "indexcheck.h"

#define RESTART 32

void
ixdigest_init(struct ixdigest *x)
{
	memset(x, 0, sizeof *x);
}

void
ixdigest_free(struct ixdigest *x)
{
	free(x->first);
	free(x->digest);
	if (x->paths != NULL)
		ae_wipe(x->paths, x->plen);     /* names are plaintext */
	free(x->paths);
	free(x->restart);
	free(x->last);
	free(x->name);
	ixdigest_init(x);
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
ixdigest_add(struct ixdigest *x, const struct ae_index_member *e)
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
	ixcheck_entry_digest(e, x->digest[x->n]);
	x->n++;
	return 0;
}

int
ixdigest_from_index(struct ixdigest *x, const struct ae_index *ix)
{
	size_t i;

	x->members = ix->members;
	x->tar_end = ix->tar_end;
	for (i = 0; i < ix->members; i++)
		if (ixdigest_add(x, &ix->m[i]) != 0)
			return -1;
	return 0;
}

int
ixdigest_same(const struct ixdigest *x, size_t k,
    const struct ae_tar_member *m)
{
	uint8_t d[AE_SHA256_LEN];

	if (k >= x->n)
		return 0;
	ixcheck_member_digest(m, d);
	return memcmp(d, x->digest[k], sizeof d) == 0 && m->end ==
	    (k + 1 < x->n ? x->first[k + 1] : x->tar_end);
}

const char *
ixdigest_path(struct ixdigest *x, size_t k)
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
