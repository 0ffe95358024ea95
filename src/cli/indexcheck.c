/*
 * indexcheck.c -- the index against the payload (contract in
 * indexcheck.h).
 */
#include "config.h"
#include "indexcheck.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "crypto/sha256.h"
#include "crypto/wipe.h"
#include "exitcode.h"
#include "msg.h"
#include "names.h"

/* What the index says of a member, as one value: the fields of 6.8's
 * member entry, each name with its length. */
struct fields {
	uint64_t first, uid, gid, size;
	int64_t mtime;
	uint32_t mode, nsec;
	char type;
	const char *name[4];        /* path, link, owner, group */
};

static void
put_str(struct ae_sha256 *s, const char *p)
{
	uint8_t len[4];
	size_t n = strlen(p);

	store_be32(len, (uint32_t)n);
	ae_sha256_update(s, len, sizeof len);
	ae_sha256_update(s, p, n);
}

/* A SHA-256 of the fields, cut to 16 bytes: a forger would need a
 * second preimage to make a differing member match. */
static void
digest(const struct fields *f, uint8_t out[16])
{
	uint8_t b[8 * 5 + 4 * 2 + 1], h[AE_SHA256_LEN];
	struct ae_sha256 s;
	int i;

	store_be64(b, f->first);
	store_be64(b + 8, f->uid);
	store_be64(b + 16, f->gid);
	store_be64(b + 24, f->size);
	store_be64(b + 32, (uint64_t)f->mtime);
	store_be32(b + 40, f->mode);
	store_be32(b + 44, f->nsec);
	b[48] = (uint8_t)f->type;
	ae_sha256_init(&s);
	ae_sha256_update(&s, b, sizeof b);
	for (i = 0; i < 4; i++)
		put_str(&s, f->name[i] != NULL ? f->name[i] : "");
	ae_sha256_final(&s, h);
	memcpy(out, h, 16);
}

static void
of_member(const struct ae_tar_member *m, struct fields *f)
{
	f->first = m->first;
	f->type = m->type;
	f->mode = m->mode & 07777;
	f->uid = m->uid;
	f->gid = m->gid;
	f->size = m->size;
	f->mtime = m->mtime;
	f->nsec = m->mtime_nsec;
	f->name[0] = m->path;
	f->name[1] = m->linkpath;
	f->name[2] = m->uname;
	f->name[3] = m->gname;
}

static void
of_entry(const struct ae_index_member *e, struct fields *f)
{
	f->first = e->first;
	f->type = e->type;
	f->mode = e->mode & 07777;
	f->uid = e->uid;
	f->gid = e->gid;
	f->size = e->size;
	f->mtime = e->mtime;
	f->nsec = e->mtime_nsec;
	f->name[0] = e->path;
	f->name[1] = e->linkpath;
	f->name[2] = e->uname;
	f->name[3] = e->gname;
}

int
ixcheck_same(const struct ae_index_member *e, const struct ae_tar_member *m)
{
	struct fields a, b;
	uint8_t da[16], db[16];

	of_entry(e, &a);
	of_member(m, &b);
	digest(&a, da);
	digest(&b, db);
	return memcmp(da, db, sizeof da) == 0;
}

void
ixcheck_refuse(const char *name, const struct ae_index_member *e,
    const char *what)
{
	char q[1024];

	msg_warn("%s: the archive's index does not match its payload: %s at "
	    "tar stream byte %llu (the index says '%s'); reading the whole "
	    "archive", name, what, (unsigned long long)e->first,
	    names_quote(e->path, q, sizeof q));
}

/* The index's plaintext after the payload: collected up to the cap,
 * after which it is only counted (too big to hold: not checked). */
static int
ix_write(void *ctx, const uint8_t *b, size_t n)
{
	struct ixcheck *c = ctx;

	if (c->too_big || n > AE_INDEX_MAX - c->ixlen) {
		c->too_big = 1;
		return AE_OK;
	}
	if (c->ixlen + n > c->ixcap) {
		size_t cap = c->ixcap ? c->ixcap : 65536;
		uint8_t *p;

		while (cap < c->ixlen + n)
			cap *= 2;
		/* not realloc: the old copy (names: plaintext) is wiped */
		if ((p = malloc(cap)) == NULL) {
			c->too_big = 1;
			return AE_OK;
		}
		if (c->ixlen > 0)
			memcpy(p, c->ix, c->ixlen);
		if (c->ix != NULL) {
			ae_wipe(c->ix, c->ixlen);
			free(c->ix);
		}
		c->ix = p;
		c->ixcap = cap;
	}
	memcpy(c->ix + c->ixlen, b, n);
	c->ixlen += n;
	return AE_OK;
}

void
ixcheck_init(struct ixcheck *c)
{
	memset(c, 0, sizeof *c);
	c->ixw.write = ix_write;
	c->ixw.ctx = c;
}

void
ixcheck_free(struct ixcheck *c)
{
	free(c->first);
	free(c->dig);
	if (c->ix != NULL) {
		ae_wipe(c->ix, c->ixlen);
		free(c->ix);
	}
	ixcheck_init(c);
}

void
ixcheck_seen(void *ctx, const struct ae_tar_member *m, uint64_t end_at)
{
	struct ixcheck *c = ctx;
	struct fields f;

	if (m == NULL) {
		c->ended = 1;
		c->end_at = end_at;
		return;
	}
	if (c->oom)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1024;
		uint64_t *fi = realloc(c->first, cap * sizeof *fi);
		uint8_t (*dg)[16];

		if (fi == NULL) {
			c->oom = 1;
			return;
		}
		c->first = fi;
		if ((dg = realloc(c->dig, cap * sizeof *dg)) == NULL) {
			c->oom = 1;
			return;
		}
		c->dig = dg;
		c->cap = cap;
	}
	of_member(m, &f);
	c->first[c->n] = m->first;
	digest(&f, c->dig[c->n]);
	c->n++;
}

/* The first entry of ix that differs from what the read saw, or
 * ix->members if none does (and the counts agree). */
static size_t
first_difference(const struct ixcheck *c, const struct ae_index *ix)
{
	struct fields f;
	uint8_t d[16];
	size_t i;

	for (i = 0; i < ix->members && i < c->n; i++) {
		of_entry(&ix->m[i], &f);
		digest(&f, d);
		if (c->first[i] != ix->m[i].first
		    || memcmp(d, c->dig[i], sizeof d) != 0)
			return i;
	}
	return i;
}

int
ixcheck_compare(struct ixcheck *c, uint64_t header_len, unsigned chunk_log2,
    uint64_t index_offset, uint64_t records, const char *name)
{
	struct ae_index ix;
	struct ae_diag d = { 0 };
	char q[1024];
	size_t i;
	int err, st = EXIT_OK;

	if (c->too_big || c->oom) {
		msg_warn("%s: the archive's index is too large to hold, so it "
		    "was not compared with the payload", name);
		return EXIT_OK;
	}
	err = ae_index_parse(c->ix, c->ixlen, header_len, (size_t)1 << chunk_log2,
	    index_offset, records, &ix, &d);
	if (err == AE_ENOMEM) {
		msg_warn("%s: the archive's index does not fit in memory, so it "
		    "was not compared with the payload", name);
		return EXIT_OK;
	}
	if (err != AE_OK) {
		msg_error("%s: the archive's index authenticates but %s",
		    name, d.what != NULL ? d.what : "is malformed");
		return EXIT_DATA;
	}
	i = first_difference(c, &ix);
	if (i < ix.members && i < c->n) {
		msg_error("%s: the archive's index does not match its payload: "
		    "entry %zu says '%s' at tar stream byte %llu, where the "
		    "payload has another member", name, i, names_quote(
		    ix.m[i].path, q, sizeof q),
		    (unsigned long long)ix.m[i].first);
		st = EXIT_DATA;
	} else if (ix.members != c->n) {
		msg_error("%s: the archive's index does not match its payload: "
		    "it lists %zu members, the payload holds %zu", name,
		    ix.members, c->n);
		st = EXIT_DATA;
	} else if (c->ended && ix.tar_end != c->end_at) {
		msg_error("%s: the archive's index does not match its payload: "
		    "the tar stream ends at byte %llu, not %llu", name,
		    (unsigned long long)c->end_at,
		    (unsigned long long)ix.tar_end);
		st = EXIT_DATA;
	}
	if (st != EXIT_OK)
		msg_hint("the payload was read in full and is what the archive "
		    "holds; -t and -x NAME, which use the index, would not "
		    "show the same (read with --no-index)");
	ae_index_free(&ix);
	return st;
}
