/*
 * indexed.c -- an archive read through its index (contract in
 * indexed.h).
 */
#include "config.h"
#include "indexed.h"
#include "common/grow.h"
#include "exitcode.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/wipe.h"
#include "msg.h"
#include "names.h"
#include "run.h"
#include "signals.h"

/* Say why the index is not used (the full read follows): 0. */
static int
unusable(const struct unpack *u, const char *why)
{
	msg_warn("%s: the archive's index %s; reading the whole archive",
	    u->io.in.name, why);
	return 0;
}

/* Whether the index is to be used at all: an archive with one, on an
 * input that can pread (a pipe: silently not), unless --no-index,
 * --signer (a read through the index meets no signature, so it would
 * check none: format 6.10) or --test (which reads in full and compares
 * the index at the end; with --salvage it takes the index's record
 * offsets, as -x does). */
static int
wanted(const struct unpack *u)
{
	const struct run_prefs *p = u->run;

	return u->info.indexed && !p->no_index && !p->signer
	    && !(p->test && !p->salvage) && u->seekable;
}

/* The reader's failure to read the index, err, said: 0. */
static int
not_used(const struct unpack *u, int err)
{
	return unusable(u, run_index_why(err, aescrypt_reader_diag(u->r)));
}

int
indexed_load(struct unpack *u, struct ixview *v)
{
	struct aescrypt_index_figures f;
	int err;

	memset(v, 0, sizeof *v);
	if (!wanted(u))
		return 0;
	if ((err = aescrypt_reader_index_figures(u->r, &f)) != AESCRYPT_OK)
		return not_used(u, err);
	v->r = u->r;
	v->members = f.members;
	v->tar_end = f.tar_end;
	v->records = f.records;
	return 1;
}

uint64_t
indexed_first(const struct ixview *v, uint64_t i)
{
	struct aescrypt_index_entry ie;

	if (i >= v->members || !indexed_entry(v, i, &ie))
		return v->tar_end;
	return ie.first;
}

int
indexed_entry(const struct ixview *v, uint64_t i,
    struct aescrypt_index_entry *ie)
{
	if (v->entry != NULL)
		return v->entry(v->ctx, i, ie);
	return aescrypt_reader_index_entry(v->r, i, ie) == AESCRYPT_OK;
}

/* Where record k starts in the file. */
static uint64_t
record_offset(const struct ixview *v, uint64_t k)
{
	if (v->record_offset != NULL)
		return v->record_offset(v->ctx, k);
	return aescrypt_reader_record_offset(v->r, k);
}

int
indexed_load_digests(struct unpack *u)
{
	int err;

	if (!wanted(u))
		return 0;
	if ((err = aescrypt_reader_digests(u->r)) != AESCRYPT_OK)
		return not_used(u, err);
	return 1;
}

/* Ranges under construction: spans of the tar stream, each with the
 * members whose headers start in it, merged when their records touch. */
struct ranges {
	struct unpack_range *v;
	size_t n, cap;
	const struct ixview *ix;
	unsigned log2;
};

/* Add the span [start, end) holding members [m0, m1): merged into the
 * last range if their records touch, so no record is decoded twice and
 * the tar stream between them is there to be read.  0 or -1. */
static int
add_span(struct ranges *r, uint64_t start, uint64_t end, size_t m0,
    size_t m1)
{
	uint64_t lo = start >> r->log2, hi = (end - 1) >> r->log2;
	struct unpack_range *last = r->n > 0 ? &r->v[r->n - 1] : NULL;

	if (last != NULL && lo <= last->first + last->count) {
		if (hi >= last->first + last->count)
			last->count = hi - last->first + 1;
		if (end > (last->first << r->log2) + last->skip + last->len)
			last->len = end - (last->first << r->log2) - last->skip;
		last->m1 = m1;
		return 0;
	}
	if (ae_grow(&r->v, &r->cap, r->n + 1, sizeof *r->v, 16, 0) != 0)
		return -1;
	last = &r->v[r->n++];
	last->first = lo;
	last->count = hi - lo + 1;
	last->offset = record_offset(r->ix, lo);
	last->skip = start - (lo << r->log2);
	last->len = end - start;
	last->m0 = m0;
	last->m1 = m1;
	return 0;
}

/* Where member i ends: the next one's first, or the end blocks. */
static uint64_t
member_end(const struct ixview *ix, size_t i)
{
	return indexed_first(ix, i + 1);
}

int
indexed_ranges(const struct ixview *ix, struct members *sel,
    unsigned chunk_log2, struct unpack_range **out, size_t *n)
{
	struct ranges r = { NULL, 0, 0, ix, chunk_log2 };
	struct aescrypt_index_entry ie;
	size_t i;

	for (i = 0; i < ix->members; i++) {
		if (!indexed_entry(ix, i, &ie)
		    || !members_select(sel, ie.e.path))
			continue;
		if (add_span(&r, ie.first, member_end(ix, i), i, i + 1)
		    != 0)
			goto oom;
	}
	*out = r.v;
	*n = r.n;
	return 0;
oom:
	free(r.v);
	return -1;
}

int
indexed_check(const struct ixview *ix, size_t i,
    const struct ae_tar_member *m)
{
	/* the header the index names, and the member ends (by its size)
	 * where the next one starts: no member hidden between, none made
	 * up inside another's data */
	return aescrypt_reader_entry_same(ix->r, i, m)
	    && m->end == member_end(ix, i);
}

void
indexed_refuse(const char *name, const struct ixview *ix, size_t i,
    const char *what)
{
	struct aescrypt_index_entry ie;
	char q[1024];

	if (!indexed_entry(ix, i, &ie)) {
		ie.e.path = "";
		ie.first = 0;
	}
	msg_warn("%s: the archive's index does not match its payload: %s at "
	    "tar stream byte %llu (the index says '%s'); reading the whole "
	    "archive", name, what, (unsigned long long)ie.first,
	    names_quote(ie.e.path, q, sizeof q));
}

/* src into dst (cap bytes), cut to fit: snprintf's "%s" cost a tenth
 * of a -t of many small files. */
static void
copy_name(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

void
indexed_member(const struct aescrypt_index_entry *ie, struct ae_tar_member *m)
{
	const struct aescrypt_entry *e = &ie->e;

	/* what follows the names, as the tar reader clears it: the names
	 * are 128 KiB that snprintf fills (clearing all of them for each
	 * member took 56% of -t on 200,000 files) */
	memset(&m->type, 0, sizeof *m - offsetof(struct ae_tar_member, type));
	/* the index's names are at most 65535 and 255 bytes (6.8) */
	copy_name(m->path, sizeof m->path, e->path);
	copy_name(m->linkpath, sizeof m->linkpath, e->linkpath);
	copy_name(m->uname, sizeof m->uname, e->uname);
	copy_name(m->gname, sizeof m->gname, e->gname);
	m->type = (char)e->type;
	m->mode = e->mode;
	m->uid = e->uid;
	m->gid = e->gid;
	m->size = e->size;
	m->stored = e->size;
	if (e->type == AE_TAR_CHR || e->type == AE_TAR_BLK) {
		/* a device's numbers (format 6.8); it has no data */
		m->devmajor = (uint32_t)(ie->stored_size >> 32);
		m->devminor = (uint32_t)ie->stored_size;
		m->size = m->stored = 0;
	}
	m->mtime = e->mtime;
	m->mtime_nsec = e->mtime_nsec;
	m->first = ie->first;
}


/* The tar stream at a position of its own, through the reader's
 * records (aescrypt_reader_tar_pread): what the checks below read
 * through a tar reader.  Its first failure is kept in err. */
struct at {
	aescrypt_reader *r;
	uint64_t pos;
	int err;
};

static int
at_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct at *a = ctx;
	int e = aescrypt_reader_tar_pread(a->r, a->pos, buf, n, got);

	if (e != AESCRYPT_OK) {
		if (a->err == AE_OK)
			a->err = e;
		return e;
	}
	a->pos += *got;
	return AE_OK;
}

/*
 * Member i's header, read from its first, checked against the index.
 * 1 if it holds; 0 if not; or the error of a record that failed.
 */
static int
check_member(const struct ixview *ix, size_t i, struct ae_tar_reader *tr,
    struct at *a, struct ae_tar_member *m)
{
	struct ae_diag d = { 0 };
	int next;

	a->pos = indexed_first(ix, i);
	a->err = AE_OK;
	ae_tar_reader_restart(tr, a->pos);
	next = ae_tar_next(tr, m, &d);
	if (a->err != AE_OK)
		return a->err;
	return next == AE_OK && indexed_check(ix, i, m);
}

/*
 * The end-of-archive block at tar_end.  With the entries tiling the
 * stream from offset 0 (index.c checks the first is there) and each
 * member ending where the next starts, a zero block here is what shows
 * that a sequential reader stops where the index does: an index that
 * drops the last member and moves tar_end back points at that member's
 * header instead.  Reads the record(s) that hold it.  1, 0, or a
 * record's error.
 */
static int
check_end(const struct ixview *ix, struct at *a)
{
	uint8_t b[512];
	size_t got, k;
	int e;

	a->pos = ix->tar_end;
	a->err = AE_OK;
	if ((e = at_read(a, b, sizeof b, &got)) != AE_OK)
		return e;
	if (got != sizeof b)
		return 0;
	for (k = 0; k < sizeof b; k++)
		if (b[k] != 0)
			return 0;
	return 1;
}

/* The reader's words for a record that failed: its place's, or its
 * message's. */
static const char *
failed_why(struct unpack *u, int e)
{
	const struct ae_diag *d = aescrypt_reader_diag(u->r);

	return d != NULL && d->what != NULL ? d->what : ae_strerror(e);
}

static int
failed(struct unpack *u, int e)
{
	const struct ae_diag *d = aescrypt_reader_diag(u->r);

	if (d != NULL)
		return msg_core_error(u->io.in.name, e, d);
	msg_error("%s", aescrypt_reader_error(u->r));
	return exit_for(e);
}

int
indexed_verify_members(struct unpack *u, const struct ixview *ix,
    const unsigned char *which)
{
	struct at a = { u->r, 0, AE_OK };
	struct ae_reader in = { at_read, &a, NULL };
	struct ae_tar_reader tr;
	struct ae_tar_member *m = malloc(sizeof *m);
	size_t i;
	int st = EXIT_OK, ok = 1;

	if (m == NULL || ae_tar_reader_init(&tr, &in) != AE_OK) {
		free(m);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (which == NULL) {
		/* a listing: the index must end where the stream does */
		if ((ok = check_end(ix, &a)) < 0) {
			msg_warn("%s: the chunk that holds the end of the tar "
			    "stream cannot be read (%s), so the index cannot "
			    "be shown to be complete; reading the whole "
			    "archive", u->io.in.name, failed_why(u, ok));
			st = INDEXED_MISMATCH;
		} else if (!ok) {
			msg_warn("%s: the archive's index does not match its "
			    "payload: no end-of-archive block at tar stream "
			    "byte %llu, where the index ends; reading the "
			    "whole archive", u->io.in.name,
			    (unsigned long long)ix->tar_end);
			st = INDEXED_MISMATCH;
		}
	} else {
		for (i = 0; i < ix->members && ok == 1; i++)
			if (which[i])
				ok = check_member(ix, i, &tr, &a, m);
		if (ok < 0)
			st = failed(u, ok);
		else if (!ok) {
			indexed_refuse(u->io.in.name, ix, i - 1, "no member "
			    "with this header that ends where the next one "
			    "starts,");
			st = INDEXED_MISMATCH;
		}
	}
	ae_tar_reader_free(&tr);
	ae_wipe(m, sizeof *m);
	free(m);
	return st;
}

int
indexed_global(struct unpack *u, const struct ixview *ix,
    struct ae_tar_global *g)
{
	struct at a = { u->r, 0, AE_OK };
	struct ae_reader in = { at_read, &a, NULL };
	struct ae_tar_reader tr;
	struct ae_tar_member *m;
	struct ae_diag d = { 0 };
	int st = EXIT_OK;

	memset(g, 0, sizeof *g);
	g->level = -1;
	if (ix->members == 0)
		return EXIT_OK;
	if ((m = malloc(sizeof *m)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (ae_tar_reader_init(&tr, &in) != AE_OK) {
		msg_error("out of memory");
		st = EXIT_SYSTEM;
	} else {
		/* the global header is read on the way to the first member,
		 * whose headers start at 0 */
		if (ae_tar_next(&tr, m, &d) == AE_OK || a.err == AE_OK)
			*g = tr.global;
		if (a.err != AE_OK)
			st = failed(u, a.err);
		ae_tar_reader_free(&tr);
	}
	ae_wipe(m, sizeof *m);
	free(m);
	return st;
}

int
indexed_verify(struct unpack *u, const struct ixview *ix)
{
	return indexed_verify_members(u, ix, NULL);
}
