/*
 * indexed.c -- an archive read through its index (contract in
 * indexed.h).
 */
#include "config.h"
#include "indexed.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/wipe.h"
#include "msg.h"
#include "run.h"
#include "signals.h"

/* The index's plaintext, collected with a cap. */
struct collect {
	uint8_t *buf;
	size_t len, cap;
};

static int
collect_write(void *ctx, const uint8_t *b, size_t n)
{
	struct collect *c = ctx;

	if (n > AE_INDEX_MAX - c->len)
		return AE_ETOOBIG;
	if (c->len + n > c->cap) {
		size_t cap = c->cap ? c->cap : 65536;
		uint8_t *p;

		while (cap < c->len + n)
			cap *= 2;
		/* not realloc: the old copy (names: plaintext) is wiped */
		if ((p = malloc(cap)) == NULL)
			return AE_ENOMEM;
		if (c->len > 0)
			memcpy(p, c->buf, c->len);
		if (c->buf != NULL) {
			ae_wipe(c->buf, c->len);
			free(c->buf);
		}
		c->buf = p;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, b, n);
	c->len += n;
	return AE_OK;
}

/* Back to the payload's start, for a full read (and the cancel flag
 * the index's run may have set, down). */
static void
rewind_payload(struct streams *io, const struct ae_header *h)
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
	rewind_payload(io, h);
	return 0;
}

int
indexed_load(struct streams *io, const struct ae_header *h,
    const ae_gcm_ctx *ig, const struct opts *o, struct ae_index *ix,
    struct ae_pipe_stats *stats)
{
	uint8_t footer[AE_FOOTER_LEN];
	uint64_t index_offset, records, size;
	struct ae_pipe_params pp;
	struct ae_pipe_stats st;
	struct collect c = { 0 };
	struct ae_writer w = { collect_write, &c };
	struct ae_diag d = { 0 };
	struct stat sb;
	size_t chunk = (size_t)1 << h->chunk_log2;
	int r;

	memset(ix, 0, sizeof *ix);
	if (h->payload_type != AE_PAYLOAD_PAX_INDEXED || o->no_index
	    || o->test)
		return 0;
	if (fstat(io->in.fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;       /* a pipe: the index is out of reach */
	/* The container must start the file (offsets in the footer and
	 * the index count from there): not so for a file handed over as
	 * standard input part-way through. */
	if (lseek(io->in.fd, 0, SEEK_CUR) != (off_t)h->len)
		return 0;
	size = (uint64_t)sb.st_size;
	if (size < h->len + 2 * (AE_FRAME_LEN + AE_TAG_LEN) + AE_FOOTER_LEN)
		return unusable(io, h, "is missing (the file is too short)");
	if (pread(io->in.fd, footer, sizeof footer,
	    (off_t)(size - AE_FOOTER_LEN)) != (ssize_t)sizeof footer)
		return unusable(io, h, "cannot be read");
	/* The last 32 bytes of a cut file are ciphertext: say that first,
	 * not "fails authentication", which reads like tampering; the full
	 * read then names the cut or the damage where it is. */
	if (ae_footer_open(ig, footer, &index_offset, &records) != AE_OK)
		return unusable(io, h, "cannot be used: the file does not end "
		    "with its footer (it may be cut short, or its end damaged)");
	if (index_offset < h->len + AE_FRAME_LEN + AE_TAG_LEN
	    || index_offset > size - AE_FOOTER_LEN - (AE_FRAME_LEN + AE_TAG_LEN)
	    || records == 0)
		return unusable(io, h, "footer points outside the file");
	if (lseek(io->in.fd, (off_t)index_offset, SEEK_SET) < 0)
		return unusable(io, h, "cannot be read");
	ae_fd_init(&io->rd, io->in.fd, &signals_stop, &io->cancel);
	run_pipe_params(o, ig, h->chunk_log2, io, &pp);
	pp.offset = index_offset;
	pp.trailer = 1;
	pp.progress = NULL;
	memset(&st, 0, sizeof st);
	r = ae_pipe_decode(&pp, &io->reader, &w, &st, &d);
	if (stats != NULL)
		*stats = st;
	if (r == AE_OK && index_offset + st.wire_bytes != size - AE_FOOTER_LEN)
		r = ae_fail(&d, AE_EFORMAT, AE_AT_NONE, "does not end at the "
		    "footer", 0, 0);
	if (r == AE_OK)
		r = ae_index_parse(c.buf, c.len, h->len, chunk,
		    index_offset, records, ix, &d);
	if (c.buf != NULL) {
		ae_wipe(c.buf, c.len);
		free(c.buf);
	}
	if (r == AE_EINTR || atomic_load(&signals_stop))
		return unusable(io, h, "was not read (interrupted)");
	if (r == AE_EAUTH)
		return unusable(io, h, "fails authentication");
	if (r == AE_ETOOBIG)
		return unusable(io, h, "is too large to hold");
	if (r == AE_ENOMEM)
		return unusable(io, h, "does not fit in memory");
	if (r != AE_OK) {
		char why[160];

		snprintf(why, sizeof why, "%s", d.what != NULL ? d.what :
		    "is damaged");
		return unusable(io, h, why);
	}
	rewind_payload(io, h);
	return 1;
}

int
indexed_ranges(const struct ae_index *ix, struct members *sel,
    unsigned chunk_log2, struct unpack_range **out, size_t *n)
{
	struct unpack_range *v = NULL;
	size_t i, nv = 0, cap = 0;
	uint64_t start = 0, end = 0;
	int open = 0;

	for (i = 0; i <= ix->members; i++) {
		int take = i < ix->members
		    && members_select(sel, ix->m[i].path);
		uint64_t first = i < ix->members ? ix->m[i].first : 0;

		if (take && open && first == end) {
			/* the next member: the range grows */
		} else if (open) {
			struct unpack_range *r;
			uint64_t lo = start >> chunk_log2;
			uint64_t hi = (end - 1) >> chunk_log2;

			if (nv == cap) {
				size_t c = cap ? cap * 2 : 16;
				struct unpack_range *p;

				if ((p = realloc(v, c * sizeof *v)) == NULL) {
					free(v);
					return -1;
				}
				v = p;
				cap = c;
			}
			r = &v[nv++];
			r->first = lo;
			r->count = hi - lo + 1;
			r->offset = ix->rec_off[lo];
			r->skip = start - (lo << chunk_log2);
			r->len = end - start;
			open = 0;
		}
		if (take) {
			if (!open)
				start = first;
			open = 1;
			end = i + 1 < ix->members ? ix->m[i + 1].first :
			    ix->tar_end;
		}
	}
	*out = v;
	*n = nv;
	return 0;
}

void
indexed_member(const struct ae_index_member *e, struct ae_tar_member *m)
{
	memset(m, 0, sizeof *m);
	/* the index's names are at most 65535 and 255 bytes (6.8) */
	snprintf(m->path, sizeof m->path, "%s", e->path);
	snprintf(m->linkpath, sizeof m->linkpath, "%s", e->linkpath);
	snprintf(m->uname, sizeof m->uname, "%s", e->uname);
	snprintf(m->gname, sizeof m->gname, "%s", e->gname);
	m->type = e->type;
	m->mode = e->mode;
	m->uid = e->uid;
	m->gid = e->gid;
	m->size = e->size;
	m->stored = e->size;
	m->mtime = e->mtime;
	m->mtime_nsec = e->mtime_nsec;
	m->first = e->first;
}
