/*
 * indexcheck.c -- the index against the payload (contract in
 * indexcheck.h).
 */
#include "config.h"
#include "indexcheck.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/wipe.h"
#include "exitcode.h"
#include "msg.h"
#include "names.h"

/* What the index says of a member: the fields of 6.8's member entry.
 * (A full read keeps these, names and all, for each member; it kept a
 * SHA-256 of them before, which cost 2% of a -x on the main thread.) */
struct fields {
	uint64_t first, uid, gid, size;
	int64_t mtime;
	uint32_t mode, nsec;
	char type;
	const char *name[4];        /* path, link, owner, group */
};

/* Two members agree: every field, every name. */
static int
same_fields(const struct fields *a, const struct fields *b)
{
	int i;

	if (a->first != b->first || a->uid != b->uid || a->gid != b->gid
	    || a->size != b->size || a->mtime != b->mtime
	    || a->mode != b->mode || a->nsec != b->nsec || a->type != b->type)
		return 0;
	for (i = 0; i < 4; i++)
		if (strcmp(a->name[i] != NULL ? a->name[i] : "",
		    b->name[i] != NULL ? b->name[i] : "") != 0)
			return 0;
	return 1;
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
	/* a device's entry holds its numbers in size (format 6.8) */
	if (m->type == AE_TAR_CHR || m->type == AE_TAR_BLK)
		f->size = (uint64_t)m->devmajor << 32 | m->devminor;
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

	of_entry(e, &a);
	of_member(m, &b);
	return same_fields(&a, &b);
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
	uint8_t *p;

	if (c->too_big || n > AE_INDEX_MAX - c->ixlen) {
		c->too_big = 1;
		return AE_OK;
	}
	if ((p = ae_wiped_grow(c->ix, c->ixlen, &c->ixcap, c->ixlen + n))
	    == NULL) {
		c->too_big = 1;
		return AE_OK;
	}
	c->ix = p;
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
	free(c->rec);
	if (c->names != NULL) {
		ae_wipe(c->names, c->nlen);
		free(c->names);
	}
	if (c->ix != NULL) {
		ae_wipe(c->ix, c->ixlen);
		free(c->ix);
	}
	ixcheck_init(c);
}

/* Room for n more bytes of names; 0, or -1 when over the cap or out of
 * memory. */
static int
names_room(struct ixcheck *c, size_t n)
{
	char *p;

	if (n > AE_INDEX_MAX - c->nlen || (p = ae_wiped_grow(c->names,
	    c->nlen, &c->ncap, c->nlen + n)) == NULL)
		return -1;
	c->names = p;
	return 0;
}

void
ixcheck_seen(void *ctx, const struct ae_tar_member *m, uint64_t end_at)
{
	struct ixcheck *c = ctx;
	struct ixrec *r;
	struct fields f;
	size_t len[4], all = 0;
	int i;

	if (m == NULL) {
		c->ended = 1;
		c->end_at = end_at;
		return;
	}
	if (c->oom)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1024;

		if ((r = realloc(c->rec, cap * sizeof *r)) == NULL) {
			c->oom = 1;
			return;
		}
		c->rec = r;
		c->cap = cap;
	}
	of_member(m, &f);
	for (i = 0; i < 4; i++)
		all += len[i] = strlen(f.name[i]) + 1;
	if (names_room(c, all) != 0) {
		c->oom = 1;
		return;
	}
	r = &c->rec[c->n++];
	r->first = f.first;
	r->uid = f.uid;
	r->gid = f.gid;
	r->size = f.size;
	r->mtime = f.mtime;
	r->mode = f.mode;
	r->nsec = f.nsec;
	r->type = f.type;
	r->names_at = c->nlen;
	for (i = 0; i < 4; i++) {
		memcpy(c->names + c->nlen, f.name[i], len[i]);
		c->nlen += len[i];
	}
}

/* Record i's fields, its names pointing into c->names. */
static void
of_record(const struct ixcheck *c, size_t i, struct fields *f)
{
	const struct ixrec *r = &c->rec[i];
	const char *p = c->names + r->names_at;
	int k;

	f->first = r->first;
	f->uid = r->uid;
	f->gid = r->gid;
	f->size = r->size;
	f->mtime = r->mtime;
	f->mode = r->mode;
	f->nsec = r->nsec;
	f->type = r->type;
	for (k = 0; k < 4; k++) {
		f->name[k] = p;
		p += strlen(p) + 1;
	}
}

/* The first entry of ix that differs from what the read saw, or
 * ix->members if none does (and the counts agree). */
static size_t
first_difference(const struct ixcheck *c, const struct ae_index *ix)
{
	struct fields e, f;
	size_t i;

	for (i = 0; i < ix->members && i < c->n; i++) {
		of_entry(&ix->m[i], &e);
		of_record(c, i, &f);
		if (!same_fields(&e, &f))
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
