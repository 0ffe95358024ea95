/*
 * indexed.c -- an archive read through its index (contract in
 * indexed.h).
 */
#include "config.h"
#include "indexed.h"
#include "container/records.h"
#include "common/grow.h"
#include "exitcode.h"
#include "indexcheck.h"
#include "indexdigest.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/wipe.h"
#include "msg.h"
#include "run.h"
#include "signals.h"

/* Back to the payload's start, for a full read (and the cancel flag
 * the index's run may have set, down). */
void
indexed_rewind(struct streams *io, const struct ae_header *h)
{
	atomic_store(&io->cancel, 0);
	if (lseek(io->in.fd, (off_t)h->len, SEEK_SET) >= 0)
		ae_fd_init(&io->rd, io->in.fd, &signals_stop, &io->cancel);
}

/* Say why the index is not used, and go back to the payload's start
 * for the full read. */
static int
unusable(struct streams *io, const struct ae_header *h, const char *why)
{
	msg_warn("%s: the archive's index %s; reading the whole archive",
	    io->in.name, why);
	indexed_rewind(io, h);
	return 0;
}

/*
 * Decode the index of io's input (after its header h was read and
 * unlocked) into w, checking the footer around it.  1 when all of it was
 * decoded, with *index_offset and *records as the footer says; 0 when
 * the index is not there or not usable (a pipe: silently; else warned,
 * and the input rewound for a full read).
 */
static int
decode_index(struct streams *io, const struct ae_header *h,
    const ae_gcm_ctx *ig, const struct run_prefs *p, struct ae_writer *w,
    struct ae_pipe_stats *stats, uint64_t *index_offset, uint64_t *records,
    int *err, struct ae_diag *d)
{
	uint8_t footer[AE_FOOTER_LEN];
	uint64_t size;
	struct ae_pipe_params pp;
	struct ae_pipe_stats st;
	struct stat sb;

	*err = AE_OK;
	/* (--test reads in full and compares the index at the end; with
	 * --salvage it takes the index's record offsets, as -x does) */
	if (h->payload_type != AE_PAYLOAD_PAX_INDEXED || p->no_index
	    || (p->test && !p->salvage))
		return 0;
	if (fstat(io->in.fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;       /* a pipe: the index is out of reach */
	/* The container must start the file (offsets in the footer and
	 * the index count from there): not so for a file handed over as
	 * standard input part-way through. */
	if (lseek(io->in.fd, 0, SEEK_CUR) != (off_t)h->len)
		return 0;
	/* size: where the footer ends, before the copy of the header */
	size = (uint64_t)sb.st_size;
	if (size < h->len + 2 * (AE_FRAME_LEN + AE_TAG_LEN) + AE_FOOTER_LEN
	    + ae_header_tail_len(h))
		return unusable(io, h, "is missing (the file is too short)");
	size -= ae_header_tail_len(h);
	if (pread(io->in.fd, footer, sizeof footer,
	    (off_t)(size - AE_FOOTER_LEN)) != (ssize_t)sizeof footer)
		return unusable(io, h, "cannot be read");
	/* The last 32 bytes of a cut file are ciphertext: say that first,
	 * not "fails authentication", which reads like tampering; the full
	 * read then names the cut or the damage where it is. */
	if (ae_footer_open(ig, footer, index_offset, records) != AE_OK)
		return unusable(io, h, "cannot be used: the file does not end "
		    "with its footer (it may be cut short, or its end damaged)");
	if (*index_offset < h->len + AE_FRAME_LEN + AE_TAG_LEN
	    || *index_offset > size - AE_FOOTER_LEN - (AE_FRAME_LEN + AE_TAG_LEN)
	    || *records == 0)
		return unusable(io, h, "footer points outside the file");
	if (lseek(io->in.fd, (off_t)*index_offset, SEEK_SET) < 0)
		return unusable(io, h, "cannot be read");
	ae_fd_init(&io->rd, io->in.fd, &signals_stop, &io->cancel);
	run_pipe_params(p, ig, h, io, &pp);
	/* An index is a few records: one worker, and the few job buffers
	 * that go with it, start faster than a pool sized for a payload
	 * (-t of 12,800 files: the pool's setup was a tenth of it). */
	if (*index_offset + (2u << h->chunk_log2) > size)
		pp.threads = 1;
	pp.offset = *index_offset;
	pp.trailer = 1;
	pp.progress = NULL;
	memset(&st, 0, sizeof st);
	*err = ae_pipe_decode(&pp, &io->reader, w, &st, d);
	if (stats != NULL)
		*stats = st;
	if (*err == AE_OK && *index_offset + st.wire_bytes != size
	    - AE_FOOTER_LEN)
		*err = ae_fail(d, AE_EFORMAT, AE_AT_NONE, "does not end at the "
		    "footer", 0, 0);
	return 1;
}

/* After decode_index: err (with d) said as why the index is not used
 * (0), or the input rewound for the payload (1). */
static int
decoded(struct streams *io, const struct ae_header *h, int err,
    const struct ae_diag *d)
{
	if (err == AE_EINTR || atomic_load(&signals_stop))
		return unusable(io, h, "was not read (interrupted)");
	if (err == AE_EAUTH)
		return unusable(io, h, "fails authentication");
	if (err == AE_ETOOBIG)
		return unusable(io, h, "is too large to hold");
	if (err == AE_ENOMEM)
		return unusable(io, h, "does not fit in memory");
	if (err != AE_OK) {
		char why[160];

		snprintf(why, sizeof why, "%s", d->what != NULL ? d->what :
		    "is damaged");
		return unusable(io, h, why);
	}
	indexed_rewind(io, h);
	return 1;
}

int
indexed_load(struct streams *io, const struct ae_header *h,
    const ae_gcm_ctx *ig, const struct run_prefs *p, struct ae_index *ix,
    struct ae_pipe_stats *stats)
{
	uint64_t index_offset, records;
	struct ae_index_plain c = { 0 };
	struct ae_writer w = { ae_index_plain_write, &c };
	struct ae_diag d = { 0 };
	int r;

	memset(ix, 0, sizeof *ix);
	if (!decode_index(io, h, ig, p, &w, stats, &index_offset, &records,
	    &r, &d)) {
		free(c.buf);
		return 0;
	}
	if (r == AE_OK)
		r = ae_index_parse(c.buf, c.len, h->len,
		    (size_t)1 << h->chunk_log2, index_offset, records, ix, &d);
	if (c.buf != NULL) {
		ae_wipe(c.buf, c.len);
		free(c.buf);
	}
	return decoded(io, h, r, &d);
}

/* The index's plaintext as it is decoded, an entry at a time, into an
 * ixdigest: what has not yet made a whole entry waits in carry. */
struct feed {
	struct ixdigest *x;
	struct ae_index_cursor cur;
	uint64_t header_len, index_offset, records;
	size_t chunk;
	int head;                   /* the head was read */
	uint8_t *carry;
	size_t len, cap;
	char *names;                /* one entry's names */
	int err;                    /* the first failure, with d */
	struct ae_diag d;
};

/* Take what carry holds, whole entries only unless final.  0, or the
 * failure (also in f->err). */
static int
feed_take(struct feed *f, int final)
{
	struct ae_index_member e;
	size_t pos = 0, used;
	int r = AE_OK;

	if (!f->head) {
		r = ae_index_cursor_head(&f->cur, f->carry, f->len, final, &used,
		    f->header_len, f->chunk, f->index_offset, f->records, NULL,
		    &f->d);
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
		if (ixdigest_add(f->x, &e) != 0)
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

static int
feed_write(void *ctx, const uint8_t *b, size_t n)
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

int
indexed_load_digests(struct streams *io, const struct ae_header *h,
    const ae_gcm_ctx *ig, const struct run_prefs *p, struct ixdigest *x,
    struct ae_pipe_stats *stats)
{
	struct feed f;
	struct ae_writer w = { feed_write, &f };
	struct ae_diag d = { 0 };
	int r;

	memset(&f, 0, sizeof f);
	ixdigest_init(x);
	f.x = x;
	f.header_len = h->len;
	f.chunk = (size_t)1 << h->chunk_log2;
	/* (one entry's four names, each with its NUL: 6.8's caps) */
	if ((f.names = malloc(2 * (AE_TAR_NAME_MAX + 1) + 2 * 256)) == NULL)
		return 0;
	if (!decode_index(io, h, ig, p, &w, stats, &f.index_offset,
	    &f.records, &r, &d)) {
		free(f.names);
		return 0;
	}
	if (r == AE_OK && f.err == AE_OK)
		feed_take(&f, 1);
	if (r == AE_OK && f.err != AE_OK) {
		r = f.err;
		d = f.d;
	}
	if (f.carry != NULL) {
		ae_wipe(f.carry, f.len);
		free(f.carry);
	}
	ae_wipe(f.names, 2 * (AE_TAR_NAME_MAX + 1) + 2 * 256);
	free(f.names);
	if (r != AE_OK)
		ixdigest_free(x);
	return decoded(io, h, r, &d);
}

/* Ranges under construction: spans of the tar stream, each with the
 * members whose headers start in it, merged when their records touch. */
struct ranges {
	struct unpack_range *v;
	size_t n, cap;
	const struct ae_index *ix;
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
	last->offset = r->ix->rec_off[lo];
	last->skip = start - (lo << r->log2);
	last->len = end - start;
	last->m0 = m0;
	last->m1 = m1;
	return 0;
}

/* Where member i ends: the next one's first, or the end blocks. */
static uint64_t
member_end(const struct ae_index *ix, size_t i)
{
	return i + 1 < ix->members ? ix->m[i + 1].first : ix->tar_end;
}

int
indexed_ranges(const struct ae_index *ix, struct members *sel,
    unsigned chunk_log2, struct unpack_range **out, size_t *n)
{
	struct ranges r = { NULL, 0, 0, ix, chunk_log2 };
	size_t i;

	for (i = 0; i < ix->members; i++) {
		if (!members_select(sel, ix->m[i].path))
			continue;
		if (add_span(&r, ix->m[i].first, member_end(ix, i), i, i + 1)
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
indexed_check(const struct ae_index *ix, size_t i,
    const struct ae_tar_member *m)
{
	/* the header the index names, and the member ends (by its size)
	 * where the next one starts: no member hidden between, none made
	 * up inside another's data */
	return ixcheck_same(&ix->m[i], m) && m->end == member_end(ix, i);
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
indexed_member(const struct ae_index_member *e, struct ae_tar_member *m)
{
	/* what follows the names, as the tar reader clears it: the names
	 * are 128 KiB that snprintf fills (clearing all of them for each
	 * member took 56% of -t on 200,000 files) */
	memset(&m->type, 0, sizeof *m - offsetof(struct ae_tar_member, type));
	/* the index's names are at most 65535 and 255 bytes (6.8) */
	copy_name(m->path, sizeof m->path, e->path);
	copy_name(m->linkpath, sizeof m->linkpath, e->linkpath);
	copy_name(m->uname, sizeof m->uname, e->uname);
	copy_name(m->gname, sizeof m->gname, e->gname);
	m->type = e->type;
	m->mode = e->mode;
	m->uid = e->uid;
	m->gid = e->gid;
	m->size = e->size;
	m->stored = e->size;
	if (e->type == AE_TAR_CHR || e->type == AE_TAR_BLK) {
		/* a device's numbers (format 6.8); it has no data */
		m->devmajor = (uint32_t)(e->size >> 32);
		m->devminor = (uint32_t)e->size;
		m->size = m->stored = 0;
	}
	m->mtime = e->mtime;
	m->mtime_nsec = e->mtime_nsec;
	m->first = e->first;
}


/*
 * Member i's header, read from its first through the records that hold
 * it (v), checked against the index.  1 if it holds; 0 if not; or the
 * error of a record that failed (with v->d).
 */
static int
check_member(const struct ae_index *ix, size_t i, struct ae_tar_reader *tr,
    struct ae_records_view *v, struct ae_tar_member *m)
{
	struct ae_diag d = { 0 };
	int next;

	v->pos = ix->m[i].first;
	v->err = AE_OK;
	ae_tar_reader_restart(tr, ix->m[i].first);
	next = ae_tar_next(tr, m, &d);
	if (v->err != AE_OK)
		return v->err;
	return next == AE_OK && indexed_check(ix, i, m);
}

/*
 * The end-of-archive block at tar_end.  With the entries tiling the
 * stream from offset 0 (index.c checks the first is there) and each
 * member ending where the next starts, a zero block here is what shows
 * that a sequential reader stops where the index does: an index that
 * drops the last member and moves tar_end back points at that member's
 * header instead.  Reads the record(s) that hold it.  1, 0, or a
 * record's error (with v->d).
 */
static int
check_end(const struct ae_index *ix, struct ae_reader *in,
    struct ae_records_view *v)
{
	uint8_t b[512];
	size_t got, k;

	v->pos = ix->tar_end;
	v->err = AE_OK;
	if (in->read(in->ctx, b, sizeof b, &got) != AE_OK)
		return v->err != AE_OK ? v->err : 0;
	if (got != sizeof b)
		return 0;
	for (k = 0; k < sizeof b; k++)
		if (b[k] != 0)
			return 0;
	return 1;
}

int
indexed_verify_members(struct unpack *u, const struct ae_index *ix,
    const unsigned char *which)
{
	struct ae_records rr;
	struct ae_records_view v = { &rr, 0, AE_OK, { 0 } };
	struct ae_reader in = { ae_records_read, &v, NULL };
	struct ae_tar_reader tr;
	struct ae_tar_member *m = malloc(sizeof *m);
	size_t i;
	int st = EXIT_OK, ok = 1;

	if (m == NULL || ae_records_init(&rr, &u->io.reader, ix->rec_off,
	    ix->records, u->h.chunk_log2, &u->gcm, u->h.codec, u->run->engine)
	    != AE_OK) {
		free(m);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (ae_tar_reader_init(&tr, &in) != AE_OK) {
		ae_records_free(&rr);
		free(m);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (which == NULL) {
		/* a listing: the index must end where the stream does */
		if ((ok = check_end(ix, &in, &v)) < 0) {
			char why[200];

			snprintf(why, sizeof why, "%s", v.d.what != NULL ?
			    v.d.what : ae_strerror(ok));
			msg_warn("%s: the chunk that holds the end of the tar "
			    "stream cannot be read (%s), so the index cannot "
			    "be shown to be complete; reading the whole "
			    "archive", u->io.in.name, why);
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
				ok = check_member(ix, i, &tr, &v, m);
		if (ok < 0)
			st = msg_core_error(u->io.in.name, ok, &v.d);
		else if (!ok) {
			ixcheck_refuse(u->io.in.name, &ix->m[i - 1], "no member "
			    "with this header that ends where the next one "
			    "starts,");
			st = INDEXED_MISMATCH;
		}
	}
	ae_tar_reader_free(&tr);
	ae_records_free(&rr);
	ae_wipe(m, sizeof *m);
	free(m);
	return st;
}

int
indexed_global(struct unpack *u, const struct ae_index *ix,
    struct ae_tar_global *g)
{
	struct ae_records rr;
	struct ae_records_view v = { &rr, 0, AE_OK, { 0 } };
	struct ae_reader in = { ae_records_read, &v, NULL };
	struct ae_tar_reader tr;
	struct ae_tar_member *m;
	struct ae_diag d = { 0 };
	int st = EXIT_OK;

	memset(g, 0, sizeof *g);
	g->level = -1;
	if (ix->members == 0)
		return EXIT_OK;
	if ((m = malloc(sizeof *m)) == NULL || ae_records_init(&rr,
	    &u->io.reader, ix->rec_off, ix->records, u->h.chunk_log2, &u->gcm,
	    u->h.codec, u->run->engine) != AE_OK) {
		free(m);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (ae_tar_reader_init(&tr, &in) != AE_OK) {
		msg_error("out of memory");
		st = EXIT_SYSTEM;
	} else {
		/* the global header is read on the way to the first member,
		 * whose headers start at 0 */
		if (ae_tar_next(&tr, m, &d) == AE_OK || v.err == AE_OK)
			*g = tr.global;
		if (v.err != AE_OK)
			st = msg_core_error(u->io.in.name, v.err, &v.d);
		ae_tar_reader_free(&tr);
	}
	ae_records_free(&rr);
	ae_wipe(m, sizeof *m);
	free(m);
	return st;
}

int
indexed_verify(struct unpack *u, const struct ae_index *ix)
{
	return indexed_verify_members(u, ix, NULL);
}
