/*
 * ixcheck.c -- the index against the payload (contract in ixcheck.h).
 */
#include "config.h"
#include "ixcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/grow.h"
#include "crypto/sha256.h"
#include "common/wipe.h"

/* What the index says of a member: the fields of 6.8's member entry.
 * A full read keeps a SHA-256 of them for each member (32 bytes, where
 * the fields and names took about 90 on a tree of small files, and the
 * index's entries then had to be held to compare): -x, which costs it
 * most, checks its members against an index it loaded instead. */
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
ae_ixcheck_same(const struct ae_index_member *e, const struct ae_tar_member *m)
{
	struct fields a, b;

	of_entry(e, &a);
	of_member(m, &b);
	return same_fields(&a, &b);
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
ae_ixcheck_init(struct ixcheck *c)
{
	memset(c, 0, sizeof *c);
	c->ixw.write = ix_write;
	c->ixw.ctx = c;
}

void
ae_ixcheck_free(struct ixcheck *c)
{
	free(c->seen);
	if (c->ix != NULL) {
		ae_wipe(c->ix, c->ixlen);
		free(c->ix);
	}
	ae_ixcheck_init(c);
}

/* Room for one index entry's four names, each with its NUL: a path and
 * a link of at most 65,535 bytes, owners of at most 255 (6.8). */
#define ENTRY_NAMES (2 * (65535 + 1) + 2 * (255 + 1))

/* The digest of a member's fields: every field in a fixed order and
 * width, then each name with its NUL, so that no two members share an
 * encoding. */
static void
digest(const struct fields *f, uint8_t out[AE_SHA256_LEN])
{
	struct ae_sha256 h;
	uint8_t b[8 * 5 + 4 * 2 + 1];
	int i;

	store_be64(b, f->first);
	store_be64(b + 8, f->uid);
	store_be64(b + 16, f->gid);
	store_be64(b + 24, f->size);
	store_be64(b + 32, (uint64_t)f->mtime);
	store_be32(b + 40, f->mode);
	store_be32(b + 44, f->nsec);
	b[48] = (uint8_t)f->type;
	ae_sha256_init(&h);
	ae_sha256_update(&h, b, sizeof b);
	for (i = 0; i < 4; i++) {
		const char *n = f->name[i] != NULL ? f->name[i] : "";

		ae_sha256_update(&h, n, strlen(n) + 1);
	}
	ae_sha256_final(&h, out);
}

void
ae_ixcheck_entry_digest(const struct ae_index_member *e,
    uint8_t out[AE_SHA256_LEN])
{
	struct fields f;

	of_entry(e, &f);
	digest(&f, out);
}

void
ae_ixcheck_member_digest(const struct ae_tar_member *m,
    uint8_t out[AE_SHA256_LEN])
{
	struct fields f;

	of_member(m, &f);
	digest(&f, out);
}

void
ae_ixcheck_seen(void *ctx, const struct ae_tar_member *m, uint64_t end_at)
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
	if (ae_grow(&c->seen, &c->cap, c->n + 1, sizeof *c->seen, 1024,
	    AE_INDEX_MAX / AE_SHA256_LEN) != 0) {
		c->oom = 1;
		return;
	}
	of_member(m, &f);
	digest(&f, c->seen[c->n++]);
}

/*
 * The index's entries one at a time (the cursor checks 6.8's rules as
 * ae_index_parse does), each against the digest of the member read at
 * its place: nothing of the index is held but the entry at hand.
 * AE_OK with *k the first entry that differs (or the count read);
 * AE_EFORMAT with d; AE_ENOMEM.
 */
static int
walk_index(const struct ixcheck *c, uint64_t header_len, size_t chunk_size,
    uint64_t sig_every, uint64_t index_offset, uint64_t records,
    struct ae_index_cursor *cur,
    struct ae_index_member *e, char **names, size_t *k, struct ae_diag *d)
{
	uint8_t want[AE_SHA256_LEN];
	size_t pos, used;
	struct fields f;
	int err;

	if ((err = ae_index_cursor_head_signed(cur, c->ix, c->ixlen, 1, &pos,
	    header_len, chunk_size, sig_every, index_offset, records, NULL, d))
	    != AE_OK)
		return err;
	for (*k = 0; *k < cur->members; (*k)++) {
		char *n = *names;

		if ((err = ae_index_cursor_member(cur, c->ix + pos,
		    c->ixlen - pos, 1, &used, e, &n, d)) != AE_OK)
			return err;
		pos += used;
		if (*k >= c->n)
			continue;   /* (the count tells) */
		of_entry(e, &f);
		digest(&f, want);
		if (memcmp(want, c->seen[*k], sizeof want) != 0)
			return AE_OK;
	}
	if (pos != c->ixlen)
		return ae_fail(d, AE_EFORMAT, AE_AT_NONE, "has bytes after "
		    "its last member", 0, 0);
	return AE_OK;
}

void
ae_ixcheck_compare(struct ixcheck *c, uint64_t header_len,
    unsigned chunk_log2, uint64_t sig_every, uint64_t index_offset,
    uint64_t records, struct aescrypt_index_verdict *v)
{
	struct ae_index_cursor cur;
	struct ae_index_member e;
	struct ae_diag d = { 0 };
	char *names;
	size_t k = 0;
	int err;

	memset(v, 0, sizeof *v);
	if (c->too_big || c->oom) {
		v->kind = AESCRYPT_INDEX_NOT_HELD;
		return;
	}
	if ((names = malloc(ENTRY_NAMES)) == NULL) {
		v->kind = AESCRYPT_INDEX_NO_MEMORY;
		return;
	}
	err = walk_index(c, header_len, (size_t)1 << chunk_log2, sig_every,
	    index_offset, records, &cur, &e, &names, &k, &d);
	if (err != AE_OK) {
		v->kind = AESCRYPT_INDEX_MALFORMED;
		snprintf(v->text, sizeof v->text, "%s", d.what != NULL ? d.what
		    : "is malformed");
	} else if (k < cur.members && k < c->n) {
		v->kind = AESCRYPT_INDEX_ENTRY;
		v->entry = k;
		v->at = e.first;
		snprintf(v->text, sizeof v->text, "%s", e.path);
	} else if (cur.members != c->n) {
		v->kind = AESCRYPT_INDEX_COUNT;
		v->listed = cur.members;
		v->seen = c->n;
	} else if (c->ended && cur.tar_end != c->end_at) {
		v->kind = AESCRYPT_INDEX_END;
		v->at = c->end_at;
		v->tar_end = cur.tar_end;
	}
	ae_wipe(names, ENTRY_NAMES);
	free(names);
}
