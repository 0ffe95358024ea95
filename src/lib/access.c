/*
 * access.c -- random access to an archive through its index: count,
 * entry, find and pread (contract in aescrypt.h; the handle in
 * handle.h).
 *
 * The index is read once, under the handle's lock, and checked by every
 * rule of format 6.8 (ae_index_parse), so it points only inside the
 * payload; from then on it is read-only.  A pread opens only the
 * records that hold its range (container/records.h), each whole and
 * authenticated under its own number before a byte of it is copied.
 * The first pread of a member also reads the member's header where the
 * index says it starts and checks that it is the member the index
 * names (path, type, size) and ends exactly where the next one starts:
 * a lying index leads to an error, never to another member's bytes.  Where its data starts is
 * then kept (under the lock) for later calls.
 *
 * Threads share no position: each call takes a record reader from a
 * small pool (or makes one), with a cursor of its own over the source's
 * pread, and gives it back; a pooled reader keeps the last record it
 * opened, so a run of small reads in one record opens it once.
 */
#include "config.h"
#include "handle.h"

#include <stdlib.h>
#include <string.h>

#include "archive/tar.h"
#include "container/format.h"
#include "container/records.h"
#include "common/wipe.h"
#include "disk/acl.h"
#include "disk/xattr.h"

/* Where a member's data starts: not yet known, or not a plain run (a
 * sparse member, read through the tar reader). */
#define AT_UNKNOWN UINT64_MAX
#define AT_SPARSE (UINT64_MAX - 1)

/* A record reader of a call's own. */
struct slot {
	struct ae_records rec;
	struct source_cursor cur;
	struct ae_reader rd;
	struct slot *next;          /* in the pool */
};

/* The pool lives beside the index; it is freed with the handle
 * (ae_lib_access_free). */
#define POOL_MAX 8

struct pool {
	struct slot *free;
	unsigned n;
};

/* The footer, where it says the index is, and the index's records into
 * c.  0 or an error with d. */
int
ae_lib_index_decode(aescrypt_reader *r, struct ae_writer *w, uint64_t *index_offset,
    uint64_t *records, struct ae_diag *d)
{
	const struct ae_header *h = &r->h;
	struct source_cursor cur;
	struct ae_reader rd;
	struct ae_pipe_params pp;
	struct ae_pipe_stats *st = &r->ix_pst;
	uint8_t footer[AE_FOOTER_LEN];
	uint64_t size = r->src.s.size;
	size_t got;
	int e;

	/* (a signed file's last signature follows the footer, 6.10) */
	uint64_t after = ae_header_tail_len(h) + (h->is_signed
	    ? AE_SIG_RECORD_LEN : 0);

	if (size < h->len + 2 * (AE_FRAME_LEN + AE_TAG_LEN) + AE_FOOTER_LEN
	    + after)
		return ae_fail(d, AE_ETRUNC, AE_AT_INDEX, "is missing (the file "
		    "is too short)", 0, 0);
	size -= after;
	if ((e = ae_lib_source_pread(&r->src, footer, sizeof footer,
	    size - AE_FOOTER_LEN, &got)) != AE_OK)
		return ae_fail(d, e, AE_AT_INPUT, "reading input", 0, 0);
	if (got != sizeof footer || ae_footer_open(&r->ig, footer,
	    index_offset, records) != AE_OK)
		return ae_fail(d, AE_EAUTH, AE_AT_INDEX, "cannot be used: the "
		    "file does not end with its footer (it may be cut short, "
		    "or its end damaged)", 0, size - AE_FOOTER_LEN);
	if (*index_offset < h->len + AE_FRAME_LEN + AE_TAG_LEN
	    || *index_offset > size - AE_FOOTER_LEN - (AE_FRAME_LEN
	    + AE_TAG_LEN) || *records == 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_INDEX, "footer points "
		    "outside the file", 0, size - AE_FOOTER_LEN);
	ae_lib_source_cursor(&r->src, &cur, &rd, *index_offset);
	memset(&pp, 0, sizeof pp);
	memset(st, 0, sizeof *st);
	pp.key = &r->ig;
	pp.chunk_log2 = h->chunk_log2;
	pp.codec = h->codec;
	pp.threads = 1;
	pp.offset = *index_offset;
	pp.trailer = 1;
	pp.engine = r->engine;
	pp.interrupt = r->interrupt;
	pp.timed = r->timed;
	if ((e = ae_pipe_decode(&pp, &rd, w, st, d)) != AE_OK) {
		/* a record of the index: said of the index (its record
		 * number stays in d->index) */
		if (d->where == AE_AT_CHUNK) {
			d->where = AE_AT_INDEX;
			if (e == AE_EAUTH)
				d->what = "fails authentication";
		}
		return e;
	}
	if (*index_offset + st->wire_bytes != size - AE_FOOTER_LEN)
		return ae_fail(d, AE_EFORMAT, AE_AT_INDEX, "does not end at the "
		    "footer", 0, *index_offset);
	return AE_OK;
}

static int fill(void *ctx, uint64_t i, uint8_t *out, size_t *len);

static int
hook_get(void *ctx, uint64_t i, const uint8_t **p, size_t *len)
{
	return ae_rcache_get(ctx, i, p, len);
}

static void
hook_unpin(void *ctx, uint64_t i)
{
	ae_rcache_unpin(ctx, i);
}

static void
hook_put(void *ctx, uint64_t i, const uint8_t *p, size_t len)
{
	ae_rcache_put(ctx, i, p, len);
}

static void
hook_drop(void *ctx, uint64_t i)
{
	ae_rcache_drop(ctx, i);
}

/* Load and check the index, once (under the lock).  0 or the error
 * (kept, with its message, for every later call). */
static int
load(aescrypt_reader *r)
{
	struct ae_index_plain c = { 0 };
	struct ae_writer w = { ae_index_plain_write, &c };
	struct ae_diag d = { 0 };
	uint64_t index_offset, records;
	size_t i;
	int e;

	if (r->kind != AESCRYPT_ARCHIVE
	    || r->h.payload_type != AE_PAYLOAD_PAX_INDEXED) {
		ae_lib_message_plain(r->ix_msg, sizeof r->ix_msg, NULL, "random access "
		    "needs an archive with an index (made without --no-index)");
		return AESCRYPT_ENOTSUP;
	}
	if (!ae_lib_source_seekable(&r->src)) {
		ae_lib_message_plain(r->ix_msg, sizeof r->ix_msg, NULL, "random access "
		    "needs a source that can pread (a regular file, not a "
		    "pipe)");
		return AESCRYPT_ENOTSUP;
	}
	e = ae_lib_index_decode(r, &w, &index_offset, &records, &d);
	if (e == AE_OK)
		e = ae_index_parse_signed(c.buf, c.len, r->h.len,
		    (size_t)1 << r->h.chunk_log2, ae_lib_reader_sig_every(r),
		    index_offset, records, &r->ix, &d);
	if (c.buf != NULL) {
		ae_wipe(c.buf, c.len);
		free(c.buf);
	}
	if (e == AE_OK && (r->data_at = malloc((r->ix.members + 1)
	    * sizeof *r->data_at)) == NULL)
		e = ae_fail(&d, AE_ENOMEM, AE_AT_NONE, "out of memory", 0, 0);
	if (e != AE_OK) {
		if (d.where == AE_AT_NONE && d.what != NULL)
			d.where = AE_AT_INDEX;
		ae_lib_message_describe(r->ix_msg, sizeof r->ix_msg, NULL, e, &d);
		r->ix_diag = d;
		ae_index_free(&r->ix);
		return e;
	}
	for (i = 0; i < r->ix.members; i++)
		r->data_at[i] = AT_UNKNOWN;
	/* the shared cache, when asked for (its threads start here: they
	 * need the index's records); without it, each record reader keeps
	 * its last record alone */
	if (r->cache_bytes > 0 && (r->rc = ae_rcache_new(r->cache_bytes,
	    (size_t)1 << r->h.chunk_log2, r->cache_ahead, fill, r)) != NULL) {
		r->rc_hook.get = hook_get;
		r->rc_hook.put = hook_put;
		r->rc_hook.drop = hook_drop;
		r->rc_hook.unpin = hook_unpin;
		r->rc_hook.ctx = r->rc;
	}
	return AE_OK;
}

/* The index is loaded: 0, or its error (with the message). */
static int
ready(aescrypt_reader *r)
{
	int e = ae_lib_reader_is_open(r), st;

	if (e != AESCRYPT_OK)
		return e;
	pthread_mutex_lock(&r->lock);
	if (r->ix_state == 0)
		r->ix_state = (e = load(r)) == AE_OK ? 1 : e;
	st = r->ix_state;
	pthread_mutex_unlock(&r->lock);
	if (st != 1) {
		pthread_mutex_lock(&r->lock);
		ae_lib_message_plain(r->msg, sizeof r->msg, NULL, r->ix_msg);
		pthread_mutex_unlock(&r->lock);
		return st;
	}
	return AESCRYPT_OK;
}

int
ae_lib_access_ready(aescrypt_reader *r)
{
	return ready(r);
}

int
aescrypt_reader_count(aescrypt_reader *r, uint64_t *n)
{
	int e = ready(r);

	if (e != AESCRYPT_OK)
		return e;
	if (n == NULL)
		return AESCRYPT_EINVAL;
	*n = r->ix.members;
	return AESCRYPT_OK;
}

int
aescrypt_reader_entry(aescrypt_reader *r, uint64_t i, struct aescrypt_entry *e)
{
	int err = ready(r);

	if (err != AESCRYPT_OK)
		return err;
	if (e == NULL || i >= r->ix.members)
		return AESCRYPT_EINVAL;
	ae_lib_reader_entry_of_index(&r->ix.m[i], e);
	return AESCRYPT_OK;
}

int
aescrypt_reader_find(aescrypt_reader *r, const char *path, uint64_t *i)
{
	size_t k, n;
	int err = ready(r);

	if (err != AESCRYPT_OK)
		return err;
	if (path == NULL || i == NULL)
		return AESCRYPT_EINVAL;
	n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	for (k = 0; k < r->ix.members; k++) {
		const char *p = r->ix.m[k].path;
		size_t pn = strlen(p);

		if (pn > 1 && p[pn - 1] == '/')
			pn--;
		if (pn == n && memcmp(p, path, n) == 0) {
			*i = k;
			return AESCRYPT_OK;
		}
	}
	return AESCRYPT_END;
}

/* ---- the pool ---- */

/* A record reader: one from the pool, or a new one.  NULL out of
 * memory. */
static struct slot *
take(aescrypt_reader *r)
{
	struct pool *p = (struct pool *)r->pool;
	struct slot *s = NULL;

	pthread_mutex_lock(&r->lock);
	if (p != NULL && p->free != NULL) {
		s = p->free;
		p->free = s->next;
		p->n--;
	}
	pthread_mutex_unlock(&r->lock);
	if (s != NULL)
		return s;
	if ((s = calloc(1, sizeof *s)) == NULL)
		return NULL;
	ae_lib_source_cursor(&r->src, &s->cur, &s->rd, 0);
	if (ae_records_init(&s->rec, &s->rd, r->ix.rec_off, r->ix.records,
	    r->h.chunk_log2, &r->g, r->h.codec, 0) != AE_OK) {
		free(s);
		return NULL;
	}
	s->rec.cache = r->rc != NULL ? &r->rc_hook : NULL;
	s->rec.sig_every = ae_lib_reader_sig_every(r);
	return s;
}

static void
drop(struct slot *s)
{
	ae_records_free(&s->rec);
	free(s);
}

/* Back to the pool, or freed when it is full. */
static void
give(aescrypt_reader *r, struct slot *s)
{
	struct pool *p;

	pthread_mutex_lock(&r->lock);
	if (r->pool == NULL)
		r->pool = calloc(1, sizeof(struct pool));
	p = r->pool;
	if (p != NULL && p->n < POOL_MAX) {
		s->next = p->free;
		p->free = s;
		p->n++;
		s = NULL;
	}
	pthread_mutex_unlock(&r->lock);
	if (s != NULL)
		drop(s);
}

/* The read-ahead's work (on its thread): record i opened by a record
 * reader of the pool straight into the place the cache holds for it.
 * 0, or non-zero for a failure (dropped here: the read that needs the
 * record meets it itself). */
static int
fill(void *ctx, uint64_t i, uint8_t *out, size_t *len)
{
	aescrypt_reader *r = ctx;
	struct slot *s = take(r);
	struct ae_diag d = { 0 };
	int e;

	if (s == NULL)
		return -1;
	e = ae_records_open_into(&s->rec, i, out, len, &d);
	give(r, s);
	return e;
}

int
aescrypt_reader_set_cache(aescrypt_reader *r, uint64_t bytes,
    unsigned ahead)
{
	int e = AESCRYPT_OK;

	if (r == NULL)
		return AESCRYPT_EINVAL;
	pthread_mutex_lock(&r->lock);
	if (r->ix_state != 0)
		e = AESCRYPT_ESTATE;
	else {
		r->cache_bytes = bytes;
		r->cache_ahead = ahead > AESCRYPT_THREADS_MAX ?
		    AESCRYPT_THREADS_MAX : ahead;
	}
	pthread_mutex_unlock(&r->lock);
	return e;
}

int
aescrypt_reader_cache_figures(aescrypt_reader *r, uint64_t *hits,
    uint64_t *misses, uint64_t *ahead)
{
	*hits = *misses = *ahead = 0;
	if (r == NULL || r->rc == NULL)
		return AESCRYPT_ENOTSUP;
	ae_rcache_figures(r->rc, hits, misses, ahead);
	return AESCRYPT_OK;
}

void
ae_lib_access_free(aescrypt_reader *r)
{
	struct pool *p;
	struct slot *s;

	/* the read-ahead's threads first (they use the pool), then the
	 * pool (its readers give back what the cache lent them), then the
	 * cache */
	ae_rcache_stop(r->rc);
	if ((p = r->pool) != NULL) {
		while ((s = p->free) != NULL) {
			p->free = s->next;
			drop(s);
		}
		free(p);
		r->pool = NULL;
	}
	ae_rcache_free(r->rc);
	r->rc = NULL;
}

/* ---- a member's data ---- */

/* Read member i's header where the index says it starts, check it is
 * the member named there and ends where the next one starts, and leave
 * tr at its data.  0, or an error with d. */
static int
member_header(aescrypt_reader *r, uint64_t i, struct ae_tar_reader *tr,
    struct ae_tar_member *m, struct ae_diag *d)
{
	const struct ae_index_member *x = &r->ix.m[i];
	uint64_t next = i + 1 < r->ix.members ? r->ix.m[i + 1].first :
	    r->ix.tar_end;
	int e;

	ae_tar_reader_restart(tr, x->first);
	e = ae_tar_next(tr, m, d);
	if (e == 1)
		e = ae_fail(d, AE_EFORMAT, AE_AT_MEMBER, "the index names a "
		    "member where the archive ends", 0, x->first);
	if (e != AE_OK)
		return e;
	/* The members tile the tar stream, so it must end exactly where the
	 * next one starts: a member smuggled into the index from inside
	 * another's data (a stored .tar) ends short of it.  A regular
	 * member's size too: pread's bounds are the index's, so an index
	 * that said more would read into the next member. */
	if (m->first != x->first || strcmp(m->path, x->path) != 0
	    || m->end != next || m->type != x->type
	    || (x->type == AE_TAR_REG && m->size != x->size))
		return ae_fail(d, AE_EFORMAT, AE_AT_MEMBER, "is not the member "
		    "the index names there (the index does not match the "
		    "archive)", 0, x->first);
	return AE_OK;
}

/* A sparse member: its data read through the tar reader from its
 * start, the first off bytes passed over: a hole at once (its bytes
 * are zeros), the data between through a buffer. */
static int
read_sparse(struct ae_tar_reader *tr, const struct ae_tar_member *m,
    uint8_t *buf, size_t n, uint64_t off, size_t *got)
{
	uint8_t skip[16384];
	size_t k, z = 0;
	int e, hole;

	*got = 0;
	while (off > 0) {
		k = off < sizeof skip ? (size_t)off : sizeof skip;
		if ((e = ae_tar_read_data(tr, m, skip, k, &k, &hole)) != AE_OK)
			return e;
		if (k == 0)
			return AE_OK;
		if (hole && k > off) {
			/* the hole goes on past off: its rest is the first
			 * bytes asked for */
			z = (size_t)(k - off < n ? k - off : n);
			break;
		}
		off -= k;
	}
	memset(buf, 0, z);
	*got = z;
	while (*got < n) {
		if ((e = ae_tar_read_data(tr, m, buf + *got, n - *got, &k,
		    NULL)) != AE_OK)
			return e;
		if (k == 0)
			break;
		*got += k;
	}
	return AE_OK;
}

/* The cached start of member i's data (AT_UNKNOWN, AT_SPARSE or an
 * offset of the tar stream). */
static uint64_t
cached_start(aescrypt_reader *r, uint64_t i)
{
	uint64_t at;

	pthread_mutex_lock(&r->lock);
	at = r->data_at[i];
	pthread_mutex_unlock(&r->lock);
	return at;
}

/* A member whose start is not known yet, or a sparse one: its header
 * read (and checked) through a tar reader over v, its start kept, and
 * a sparse member's range read through the tar reader.  *at is where a
 * plain member's data starts. */
static int
through_header(aescrypt_reader *r, uint64_t i, struct ae_records_view *v,
    uint8_t *buf, size_t want, uint64_t off, size_t *got, uint64_t *at,
    struct ae_diag *d)
{
	struct ae_reader vr = { ae_records_read, v, NULL };
	struct ae_tar_reader tr;
	struct ae_tar_member *m = malloc(sizeof *m);
	int e;

	if (m == NULL || ae_tar_reader_init(&tr, &vr) != AE_OK) {
		free(m);
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, "out of memory", 0, 0);
	}
	v->pos = r->ix.m[i].first;
	if ((e = member_header(r, i, &tr, m, d)) == AE_OK) {
		*at = m->map != NULL ? AT_SPARSE : tr.offset;
		pthread_mutex_lock(&r->lock);
		r->data_at[i] = *at;
		pthread_mutex_unlock(&r->lock);
		if (*at == AT_SPARSE)
			e = read_sparse(&tr, m, buf, want, off, got);
	}
	ae_tar_reader_free(&tr);
	/* (it held names, and a sparse member's map) */
	ae_wipe(m, sizeof *m);
	free(m);
	return e;
}

int
aescrypt_reader_pread(aescrypt_reader *r, uint64_t i, void *buf, size_t n,
    uint64_t off, size_t *got)
{
	struct ae_records_view v;
	struct ae_diag d = { 0 };
	struct slot *s;
	uint64_t at, size;
	size_t want;
	int e = ready(r);

	if (got != NULL)
		*got = 0;
	if (e != AESCRYPT_OK)
		return e;
	if (got == NULL || (buf == NULL && n > 0) || i >= r->ix.members)
		return AESCRYPT_EINVAL;
	size = r->ix.m[i].type == AE_TAR_REG || r->ix.m[i].type == '\0' ?
	    r->ix.m[i].size : 0;
	if (off >= size || n == 0)
		return AESCRYPT_OK;
	want = size - off < n ? (size_t)(size - off) : n;
	if ((s = take(r)) == NULL)
		return AESCRYPT_ENOMEM;
	memset(&v, 0, sizeof v);
	v.r = &s->rec;
	at = cached_start(r, i);
	e = AE_OK;
	if (at == AT_UNKNOWN || at == AT_SPARSE)
		e = through_header(r, i, &v, buf, want, off, got, &at, &d);
	if (e == AE_OK && at != AT_SPARSE) {
		v.pos = at + off;
		e = ae_records_read(&v, buf, want, got);
		if (e == AE_OK && *got < want)
			e = ae_fail(&d, AE_ETRUNC, AE_AT_MEMBER, "the payload ends "
			    "inside the member", 0, r->ix.m[i].first);
		/* a read that goes on from the last one of this member has
		 * the next records read ahead */
		if (e == AE_OK && r->rc != NULL && *got > 0)
			ae_rcache_read(r->rc, i, (at + off) >> r->h.chunk_log2,
			    (at + off + *got - 1) >> r->h.chunk_log2,
			    r->ix.records);
	}
	if (e != AE_OK && v.err != AE_OK) {
		e = v.err;
		d = v.d;
	}
	give(r, s);
	if (e != AE_OK) {
		*got = 0;
		pthread_mutex_lock(&r->lock);
		ae_lib_message_describe(r->msg, sizeof r->msg, r->ix.m[i].path, e, &d);
		pthread_mutex_unlock(&r->lock);
	}
	return e;
}

/* ---- what the index does not hold: a member's extras ---- */

/* Member m's attributes into x: ACL text in the kernel's form, the
 * kernel's own system.* and foreign ACLs left out.  0 or -1 out of
 * memory. */
static int
copy_xattrs(const struct ae_tar_member *m, struct aescrypt_extras *x)
{
	struct ae_owners own;
	const char *name;
	const uint8_t *val;
	uint8_t *acl = NULL;
	size_t pos = 0, len;
	int rc = 0;

	if (m->nxattr == 0)
		return 0;
	if ((x->xattrs = calloc(m->nxattr, sizeof *x->xattrs)) == NULL)
		return -1;
	ae_owners_init(&own);
	while (rc == 0 && ae_tar_xattr_walk(m->xattr, m->xattr_len, &pos,
	    &name, &val, &len) == 1) {
		struct aescrypt_xattr *a = &x->xattrs[x->nxattrs];
		enum ae_xattr_kind k = ae_xattr_kind(name);

		if (x->nxattrs == m->nxattr || k == AE_XATTR_NEVER
		    || k == AE_XATTR_ACL_FOREIGN)
			continue;
		if (k == AE_XATTR_ACL_TEXT) {
			ssize_t bl;

			if (acl == NULL && (acl = malloc(AE_ACL_MAX)) == NULL) {
				rc = -1;
				break;
			}
			if ((bl = ae_acl_from_text(&own, (const char *)val, len,
			    acl, AE_ACL_MAX)) < 0)
				continue;   /* (-x leaves it out too) */
			name = strcmp(name, "SCHILY.acl.access") == 0 ?
			    "system.posix_acl_access" : "system.posix_acl_default";
			val = acl;
			len = (size_t)bl;
		}
		if ((a->name = strdup(name)) == NULL
		    || (a->value = malloc(len ? len : 1)) == NULL) {
			free(a->name);
			rc = -1;
			break;
		}
		memcpy(a->value, val, len);
		a->len = len;
		x->nxattrs++;
	}
	free(acl);
	return rc;
}

int
aescrypt_reader_extras(aescrypt_reader *r, uint64_t i,
    struct aescrypt_extras *x)
{
	struct ae_records_view v;
	struct ae_reader vr = { ae_records_read, &v, NULL };
	struct ae_tar_reader tr;
	struct ae_tar_member *m;
	struct ae_diag d = { 0 };
	struct slot *s;
	int e = ready(r);

	if (x == NULL)
		return AESCRYPT_EINVAL;
	memset(x, 0, sizeof *x);
	if (e != AESCRYPT_OK)
		return e;
	if (i >= r->ix.members)
		return AESCRYPT_EINVAL;
	if ((s = take(r)) == NULL)
		return AESCRYPT_ENOMEM;
	if ((m = malloc(sizeof *m)) == NULL
	    || ae_tar_reader_init(&tr, &vr) != AE_OK) {
		free(m);
		give(r, s);
		return AESCRYPT_ENOMEM;
	}
	memset(&v, 0, sizeof v);
	v.r = &s->rec;
	v.pos = r->ix.m[i].first;
	e = member_header(r, i, &tr, m, &d);
	if (e == AE_OK && (copy_xattrs(m, x) != 0 || (m->dumpdir != NULL
	    && (x->dumpdir = malloc(m->dumpdir_len)) == NULL)))
		e = ae_fail(&d, AE_ENOMEM, AE_AT_NONE, "out of memory", 0, 0);
	else if (e == AE_OK && m->dumpdir != NULL) {
		memcpy(x->dumpdir, m->dumpdir, m->dumpdir_len);
		x->dumpdir_len = m->dumpdir_len;
	}
	if (e != AE_OK && v.err != AE_OK) {
		e = v.err;
		d = v.d;
	}
	ae_tar_reader_free(&tr);
	ae_wipe(m, sizeof *m);
	free(m);
	give(r, s);
	if (e != AE_OK) {
		aescrypt_extras_free(x);
		pthread_mutex_lock(&r->lock);
		ae_lib_message_describe(r->msg, sizeof r->msg, r->ix.m[i].path,
		    e, &d);
		pthread_mutex_unlock(&r->lock);
	}
	return e;
}

void
aescrypt_extras_free(struct aescrypt_extras *x)
{
	size_t k;

	if (x == NULL)
		return;
	for (k = 0; k < x->nxattrs; k++) {
		free(x->xattrs[k].name);
		free(x->xattrs[k].value);
	}
	free(x->xattrs);
	free(x->dumpdir);
	memset(x, 0, sizeof *x);
}

/* ---- the index and the tar stream, for the command (the unstable
 * part) ---- */

const struct ae_pipe_stats *
aescrypt_reader_index_stats(const aescrypt_reader *r)
{
	return r != NULL && r->ix_state == 1 ? &r->ix_pst : NULL;
}

int
aescrypt_reader_tar_pread(aescrypt_reader *r, uint64_t off, void *buf,
    size_t n, size_t *got)
{
	struct ae_records_view v;
	struct slot *s;
	int e = ready(r);

	*got = 0;
	if (e != AESCRYPT_OK)
		return e;
	if ((s = take(r)) == NULL)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM, "out of "
		    "memory");
	memset(&v, 0, sizeof v);
	v.r = &s->rec;
	v.pos = off;
	e = ae_records_read(&v, buf, n, got);
	if (e != AE_OK && v.err != AE_OK)
		e = v.err;
	give(r, s);
	if (e != AE_OK) {
		*got = 0;
		pthread_mutex_lock(&r->lock);
		ae_lib_reader_fail(r, e, v.err != AE_OK ? &v.d : NULL);
		pthread_mutex_unlock(&r->lock);
	}
	return e;
}
