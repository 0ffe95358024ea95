/*
 * tar_read.c -- reading a tar stream (contract in tar_read.h).
 *
 * ae_tar_next reads header blocks until one describes a member: each
 * kind of header has its function (header_pax_extension and
 * header_gnu_longname for what describes the next member, header_ustar
 * for the member itself, read_old_sparse and read_map_10 for GNU's
 * sparse maps), and a `next` holds what the headers read so far say.
 * Every string a header gives reaches the member through set_string,
 * which bounds it by its field.
 */
#include "config.h"
#include "tar_read.h"
#include "tar_rd.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "ustar.h"

int
ae_tar_reader_init(struct ae_tar_reader *r, struct ae_reader *in)
{
	memset(r, 0, sizeof *r);
	r->in = in;
	r->global.level = -1;
	r->pax = malloc(AE_TAR_PAX_MAX + AE_TAR_BLOCK);
	return r->pax == NULL ? AE_ENOMEM : AE_OK;
}

void
ae_tar_reader_restart(struct ae_tar_reader *r, uint64_t offset)
{
	r->offset = offset;
	r->data_left = 0;
	r->ended = 0;
	r->no_end_marker = 0;
	r->lost_end = 0;
	r->rescanned = 0;
	r->end_at = 0;
	r->nmap = 0;
	r->map_active = 0;
	r->pos = 0;
	r->seg = 0;
	r->xattr_len = 0;
	r->nxattr = 0;
}

void
ae_tar_reader_free(struct ae_tar_reader *r)
{
	free(r->pax);
	free(r->map);
	free(r->xattr);
	free(r->dumpdir);
	r->dumpdir = NULL;
	r->pax = NULL;
	r->map = NULL;
	r->xattr = NULL;
}

/* A member that cannot be read: off is where its first header starts. */
static int
fail_at(struct ae_diag *d, int err, const char *what, uint64_t off)
{
	return ae_fail(d, err, AE_AT_MEMBER, what, 0, off);
}

/* Read n bytes; *got is how many came (fewer only at the end of the
 * stream).  The reader's errors. */
static int
read_some(struct ae_tar_reader *r, uint8_t *buf, size_t n, size_t *got,
    struct ae_diag *d)
{
	int e = r->in->read(r->in->ctx, buf, n, got);

	if (e != AE_OK)
		return ae_fail(d, e, AE_AT_INPUT, "reading the archive", 0,
		    r->offset);
	r->offset += *got;
	return AE_OK;
}

/* Read exactly n bytes; AE_ETRUNC if the stream ends first. */
static int
read_exact(struct ae_tar_reader *r, uint8_t *buf, size_t n,
    struct ae_diag *d)
{
	size_t got;
	int e = read_some(r, buf, n, &got, d);

	if (e != AE_OK)
		return e;
	if (got < n)
		return ae_fail(d, AE_ETRUNC, AE_AT_INPUT,
		    "the archive ends before its end marker", 0, r->offset);
	return AE_OK;
}

/* A numeric field: octal (NUL- or space-terminated, leading spaces
 * allowed) or GNU base-256 (high bit of the first byte).  0 or -1. */
static int
get_number(const uint8_t *f, size_t w, int allow_negative, int64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (f[0] & 0x80) {
		int neg = (f[0] & 0x40) != 0;

		if (neg && !allow_negative)
			return -1;
		v = neg ? ~(uint64_t)0 : 0;
		for (i = 0; i < w; i++) {
			uint8_t b = i == 0 ? (uint8_t)(f[0] & 0x7f) : f[i];

			if (i == 0 && neg)
				b |= 0x80;
			if (!neg && (v >> 55) != 0)
				return -1;
			v = v << 8 | b;
		}
		if (!neg && v > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)v;
		return 0;
	}
	while (i < w && f[i] == ' ')
		i++;
	for (; i < w && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 60)
			return -1;
		v = v * 8 + (uint64_t)(f[i] - '0');
	}
	if (i < w && f[i] != '\0' && f[i] != ' ')
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* Skip what is left of the current member's data and padding. */
static int
skip_data(struct ae_tar_reader *r, struct ae_diag *d)
{
	uint8_t buf[4096];
	int e;

	while (r->data_left > 0) {
		size_t n = r->data_left < sizeof buf ? (size_t)r->data_left :
		    sizeof buf;

		if ((e = read_exact(r, buf, n, d)) != AE_OK)
			return e;
		r->data_left -= n;
	}
	return AE_OK;
}

static int
is_zero_block(const uint8_t *b)
{
	int i;

	for (i = 0; i < AE_TAR_BLOCK; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

static int
checksum_matches(const uint8_t *b)
{
	int64_t want;
	unsigned long u = 0;
	long s = 0;
	int i;

	if (get_number(b + F_CHKSUM, W_CHKSUM, 0, &want) != 0)
		return 0;
	for (i = 0; i < AE_TAR_BLOCK; i++) {
		uint8_t c = (i >= F_CHKSUM && i < F_CHKSUM + W_CHKSUM) ? ' ' :
		    b[i];
		u += c;
		s += (signed char)c;    /* some old tars summed signed */
	}
	return (int64_t)u == want || (int64_t)s == want;
}

int
ae_tar_is_header(const uint8_t b[AE_TAR_BLOCK])
{
	return !is_zero_block(b) && checksum_matches(b);
}

/* Old GNU sparse ('S'): the map's entries in the header, then in
 * extension blocks while each says there is more.  Each entry is an
 * offset and a length, 12 octal bytes each; an empty offset ends the
 * list.  0, 1 if the map is unusable (the member is skipped), or a read
 * error. */
static int
read_old_sparse(struct ae_tar_reader *r, const uint8_t *b, uint64_t *real,
    struct ae_diag *d)
{
	uint8_t ext[AE_TAR_BLOCK];
	const uint8_t *p = b + F_OLD_SPARSE;
	int more = b[F_OLD_ISEXT] != 0, n = OLD_SPARSE_N, i, bad = 0, e;
	int64_t off, len, rs;

	r->nmap = 0;
	for (;;) {
		for (i = 0; i < n; i++, p += 24) {
			if (p[0] == '\0')
				break;
			if (get_number(p, 12, 0, &off) != 0
			    || get_number(p + 12, 12, 0, &len) != 0
			    || ae_tr_map_add(r, (uint64_t)off, (uint64_t)len) != 0)
				bad = 1;
		}
		if (!more)
			break;
		/* The extension blocks belong to the header: they are
		 * read whatever the map holds, so the stream stays in
		 * step. */
		if ((e = read_exact(r, ext, sizeof ext, d)) != AE_OK)
			return e;
		p = ext;
		n = EXT_SPARSE_N;
		more = ext[F_EXT_ISEXT] != 0;
	}
	if (get_number(b + F_OLD_REALSIZE, 12, 0, &rs) != 0)
		bad = 1;
	*real = (uint64_t)rs;
	return bad;
}

/* Sparse 1.0: the map is at the start of the member's data, as decimal
 * lines (count, then offset and length per segment), padded to a block.
 * Reads it, taking its bytes out of r->data_left.  0, 1 if the map is
 * unusable (the rest of the data is then skipped with the member), or a
 * read error. */
static int
read_map_10(struct ae_tar_reader *r, struct ae_diag *d)
{
	uint8_t blk[AE_TAR_BLOCK];
	uint64_t v = 0, count = 0, nums = 0, off = 0;
	size_t i = AE_TAR_BLOCK;
	int digits = 0, e;

	r->nmap = 0;
	for (;;) {
		if (i == AE_TAR_BLOCK) {
			if (r->data_left < AE_TAR_BLOCK)
				return 1;
			if ((e = read_exact(r, blk, sizeof blk, d)) != AE_OK)
				return e;
			r->data_left -= AE_TAR_BLOCK;
			i = 0;
		}
		if (blk[i] >= '0' && blk[i] <= '9') {
			if (digits++ >= 19)
				return 1;
			v = v * 10 + (uint64_t)(blk[i++] - '0');
			continue;
		}
		if (blk[i++] != '\n' || digits == 0)
			return 1;
		if (nums == 0) {
			if (v > MAP_MAX)
				return 1;
			count = v;
		} else if (nums % 2 == 1) {
			off = v;
		} else if (ae_tr_map_add(r, off, v) != 0) {
			return 1;
		}
		nums++;
		v = 0;
		digits = 0;
		if (nums == 1 + 2 * count)
			return 0;   /* the rest of this block is padding */
	}
}

/* Whether the map fits the member: segments in order, not overlapping,
 * inside the real size, and their lengths adding up to the stored
 * data. */
static int
map_valid(const struct ae_tar_reader *r, uint64_t real, uint64_t stored)
{
	uint64_t end = 0, sum = 0;
	size_t i;

	for (i = 0; i < r->nmap; i++) {
		const struct ae_tar_segment *s = &r->map[i];

		if (s->offset < end || s->offset > real
		    || s->len > real - s->offset)
			return 0;
		end = s->offset + s->len;
		sum += s->len;
	}
	return sum == stored;
}

/* Whether any block of [off, off + n) lies in a gap (salvage).  Gaps
 * are whole chunks, and chunks are whole blocks, so the blocks' starts
 * are enough. */
static int
touches_gap(struct ae_tar_reader *r, uint64_t off, uint64_t n)
{
	uint64_t end, o;

	if (r->gap == NULL)
		return 0;
	for (o = off; o < off + n; o += AE_TAR_BLOCK)
		if (r->gap(r->gap_ctx, o, &end))
			return 1;
	return 0;
}

/* Read and drop the stream up to gap_end (its bytes stand for a lost
 * chunk).  0, 1 if the stream ended, or a read error. */
static int
skip_to(struct ae_tar_reader *r, uint64_t gap_end, struct ae_diag *d)
{
	uint8_t buf[4096];
	size_t got;
	int e;

	while (r->offset < gap_end) {
		size_t n = gap_end - r->offset < sizeof buf ?
		    (size_t)(gap_end - r->offset) : sizeof buf;

		if ((e = read_some(r, buf, n, &got, d)) != AE_OK)
			return e;
		if (got < n)
			return 1;
	}
	return 0;
}

/* What ae_tar_next has learnt of the member it is reading. */
struct next {
	struct overrides ov;
	uint64_t first;             /* where its headers start */
	uint64_t after_gap;         /* where the last gap ended (salvage) */
	int resync;                 /* headers after a gap are looked for */
	int indexed;                /* ... or were gone to by the index */
};

/* Forget what the headers read so far said (a new member starts).  The
 * two name buffers (64 KiB each) only become empty strings: clearing
 * them whole for every member cost 2% of a -x, and every write to them
 * ends with its NUL (set_string). */
static void
forget(struct ae_tar_reader *r, struct next *nx, struct ae_tar_member *m)
{
	const size_t names = offsetof(struct ae_tar_member, type);

	memset(&nx->ov, 0, sizeof nx->ov);
	memset((char *)m + names, 0, sizeof *m - names);
	m->path[0] = m->linkpath[0] = '\0';
	r->nmap = r->nxattr = r->xattr_len = 0;
	r->dumpdir_len = 0;
}

enum { BLOCK_HEADER, BLOCK_PASSED, BLOCK_END };

/*
 * After a gap (salvage), at r->offset: with the caller's index (resync),
 * on to the next member it names, whose headers are then read as any
 * member's; without one, look for the next block that checks as a
 * header, whatever it turns out to be (nx->resync).  BLOCK_PASSED, or
 * BLOCK_END if the index names no member after it, or a read error.
 */
static int
resync(struct ae_tar_reader *r, struct next *nx, struct ae_tar_member *m,
    struct ae_diag *d)
{
	uint64_t to;
	int e;

	forget(r, nx, m);
	if (r->resync == NULL) {
		nx->resync = 1;
		nx->first = nx->after_gap = r->offset;
		return BLOCK_PASSED;
	}
	if (!r->resync(r->resync_ctx, r->offset, &to)
	    || (e = skip_to(r, to, d)) == 1) {
		r->ended = r->lost_end = 1;
		return BLOCK_END;
	}
	if (e != AE_OK)
		return e;
	nx->resync = 0;
	nx->indexed = 1;
	nx->first = r->offset;
	return BLOCK_PASSED;
}

/*
 * The next block that may be a header, into b (its offset in *hoff).
 * BLOCK_HEADER: a header block with a good checksum; BLOCK_PASSED: a
 * block or gap was passed over while resynchronising (salvage), call
 * again; BLOCK_END: the end of the archive (r->ended set); or an error.
 */
static int
header_block(struct ae_tar_reader *r, struct next *nx, struct ae_tar_member *m,
    uint8_t b[AE_TAR_BLOCK], uint64_t *hoff, struct ae_diag *d)
{
	uint64_t gap_end;
	size_t got;
	int e;

	*hoff = r->offset;
	if ((e = read_some(r, b, AE_TAR_BLOCK, &got, d)) != AE_OK)
		return e;
	/* (asked once the block is here: by then the decoder has reported
	 * the chunk it came from) */
	if (got > 0 && r->gap != NULL && r->gap(r->gap_ctx, *hoff, &gap_end)) {
		/* A lost chunk where a header would be: step over it, then
		 * go to the next member the index names, or look for the next
		 * block that is a header. */
		if (gap_end == UINT64_MAX || (e = skip_to(r, gap_end, d)) == 1) {
			r->ended = r->lost_end = 1;
			return BLOCK_END;
		}
		if (e != AE_OK)
			return e;
		return resync(r, nx, m, d);
	}
	if (got == 0 && nx->resync) {
		/* the payload ended while a header was looked for: after a
		 * gap, the end was lost; after a rescan, this is the end */
		r->ended = 1;
		r->lost_end = !r->rescanned || nx->after_gap == r->offset;
		r->end_at = *hoff;
		return BLOCK_END;
	}
	if (nx->resync && (got < AE_TAR_BLOCK || is_zero_block(b)
	    || !checksum_matches(b))) {
		nx->first = r->offset;      /* not a header: on to the next */
		return BLOCK_PASSED;
	}
	if (r->rescanned && got == AE_TAR_BLOCK && is_zero_block(b)) {
		/* After a rescan, an end marker may be that of a tar stored
		 * in the archive, whose member a rescan found: the payload
		 * goes on, so the search does too, to its end. */
		nx->resync = 1;
		nx->first = r->offset;
		return BLOCK_PASSED;
	}
	if (got == 0 && *hoff == nx->first && *hoff > 0) {
		/* The stream ends where a header would start: older tars
		 * wrote no end marker.  The container has authenticated where
		 * the data ends, so this is a note, not an error. */
		r->ended = 1;
		r->no_end_marker = 1;
		r->end_at = *hoff;
		return BLOCK_END;
	}
	if (got < AE_TAR_BLOCK)
		return ae_fail(d, AE_ETRUNC, AE_AT_INPUT,
		    "the archive ends before its end marker", 0, r->offset);
	if (is_zero_block(b)) {
		r->ended = 1;
		r->end_at = *hoff;
		return BLOCK_END;
	}
	if (!checksum_matches(b))
		return fail_at(d, AE_EFORMAT, "bad tar header checksum",
		    nx->first);
	return BLOCK_HEADER;
}

/*
 * The data of a header that describes the next member ('x', 'X', 'g',
 * 'A', 'L', 'K'), size bytes, into r->pax.  0 with it read; 1 if its
 * bytes touch a gap (salvage: resynchronising now); or an error.
 */
static int
extension_data(struct ae_tar_reader *r, struct next *nx,
    struct ae_tar_member *m, char t, uint64_t size, struct ae_diag *d)
{
	int longname = t == 'L' || t == 'K';
	size_t cap = longname ? AE_TAR_NAME_MAX + 1 : AE_TAR_PAX_MAX;
	int e;

	if (size > cap && longname)
		return fail_at(d, AE_EFORMAT, ae_tr_name_error(STR_TOO_LONG, t == 'K'),
		    nx->first);
	/* (a header no tar stream needs, as bsdtar refuses it too: the
	 * stream cannot be read, exit 4, like a name over the limit) */
	if (size > cap)
		return fail_at(d, AE_EFORMAT, "extended tar header over 1 MiB",
		    nx->first);
	e = read_exact(r, r->pax, (size_t)size + ae_tar_padding(size), d);
	if (e != AE_OK)
		return e;
	if (touches_gap(r, r->offset - size - ae_tar_padding(size), size)) {
		/* its records were lost (salvage): this member cannot be
		 * read; on to the next header */
		e = resync(r, nx, m, d);
		return e == BLOCK_PASSED ? 1 : e == BLOCK_END ? 2 : e;
	}
	return 0;
}

/*
 * Solaris's ACL header ('A', before its file): an octal type and count
 * (the type in the high part: 1, POSIX draft ACLs; 3, NFSv4 ACEs), a
 * NUL, then the entries, comma-separated, those of a directory's default
 * ACL prefixed "default" (as libarchive reads it).  POSIX ones become
 * the SCHILY.acl.access and .default texts that star and GNU tar write,
 * whose entry forms they share, so -x applies them; anything else is
 * said, not applied (tar.h).
 */
static void
solaris_acl(struct ae_tar_reader *r, const uint8_t *p, size_t n)
{
	unsigned long long type = 0;
	size_t i = 0, tl, al = 0, dl = 0, el;
	const char *text, *e, *end;
	char *acc = NULL, *def = NULL;

	while (i < n && i < 22 && p[i] >= '0' && p[i] <= '7')
		type = type * 8 + (unsigned)(p[i++] - '0');
	if (i == 0 || i >= n || p[i] != '\0' || type >> 18 != 1)
		goto foreign;
	text = (const char *)p + i + 1;
	tl = strnlen(text, n - i - 1);
	if ((acc = malloc(tl + 1)) == NULL || (def = malloc(tl + 1)) == NULL)
		goto foreign;
	for (e = text; e < text + tl; e = end + 1) {
		if ((end = memchr(e, ',', (size_t)(text + tl - e))) == NULL)
			end = text + tl;
		el = (size_t)(end - e);
		if (el > 7 && memcmp(e, "default", 7) == 0 && e[7] != ':') {
			if (dl > 0)
				def[dl++] = ',';
			memcpy(def + dl, e + 7, el - 7);
			dl += el - 7;
		} else if (el > 0) {
			if (al > 0)
				acc[al++] = ',';
			memcpy(acc + al, e, el);
			al += el;
		}
	}
	if ((al > 0 && ae_tr_xattr_add(r, "SCHILY.acl.access", 17, acc, al)
	    != 0) || (dl > 0 && ae_tr_xattr_add(r, "SCHILY.acl.default", 18,
	    def, dl) != 0))
		goto foreign;
	free(acc);
	free(def);
	return;
foreign:
	free(acc);
	free(def);
	(void)ae_tr_xattr_add(r, "SCHILY.acl.solaris", 18, "", 0);
}

/* A pax extended header ('x', or Solaris's 'X' from before POSIX): its
 * records override the next member's ustar fields. */
static int
header_pax_extension(struct ae_tar_reader *r, struct next *nx,
    struct ae_tar_member *m, uint64_t size, struct ae_diag *d)
{
	int which = 0, e;

	e = ae_tr_parse_pax(r, r->pax, (size_t)size, &nx->ov, m, &which);
	if (e == PAX_BAD)
		return fail_at(d, AE_EFORMAT, "bad pax extended header",
		    nx->first);
	if (e != 0)
		return fail_at(d, AE_EFORMAT, ae_tr_name_error(e, which), nx->first);
	return AE_OK;
}

/* GNU's long name ('L') or long link name ('K'): the data is the name.
 * GNU tar ends it with a NUL inside the data; one without it takes all
 * the data. */
static int
header_gnu_longname(struct ae_tar_reader *r, struct next *nx,
    struct ae_tar_member *m, char t, uint64_t size, struct ae_diag *d)
{
	size_t n = strnlen((char *)r->pax, (size_t)size);
	int e;

	e = t == 'L' ? ae_tr_set_string(m->path, sizeof m->path, r->pax, n) :
	    ae_tr_set_string(m->linkpath, sizeof m->linkpath, r->pax, n);
	if (e != 0)
		return fail_at(d, AE_EFORMAT, ae_tr_name_error(e, t == 'K'),
		    nx->first);
	if (t == 'L')
		nx->ov.has_path = 1;
	else
		nx->ov.has_link = 1;
	return AE_OK;
}

/* The name in a ustar block: prefix '/' name, at most 155 + 1 + 100
 * bytes.  Only POSIX ustar has a prefix; GNU's old header keeps times
 * and the sparse map there. */
static void
ustar_name(const uint8_t *b, int posix, struct ae_tar_member *m)
{
	char ustar[W_PREFIX + 1 + W_NAME];
	size_t nl = strnlen((const char *)b + F_NAME, W_NAME);
	size_t pl = posix ? strnlen((const char *)b + F_PREFIX, W_PREFIX) : 0;

	if (pl > 0) {
		memcpy(ustar, b + F_PREFIX, pl);
		ustar[pl++] = '/';
	}
	memcpy(ustar + pl, b + F_NAME, nl);
	(void)ae_tr_set_string(m->path, sizeof m->path, ustar, pl + nl);
}

/*
 * The member's own header: a ustar block (POSIX or GNU's old magic) or
 * a V7 one, with what the headers before it override.  Fills m's names,
 * mode, ids, time and size (the data's length in the stream) and
 * returns its type as read; or an error.
 */
static int
header_ustar(struct ae_tar_reader *r, struct next *nx, const uint8_t *b,
    struct ae_tar_member *m, uint64_t *size, char *type, struct ae_diag *d)
{
	const struct overrides *ov = &nx->ov;
	int ustar = memcmp(b + F_MAGIC, "ustar", 5) == 0;
	int64_t v;
	char t;

	if (!ov->has_path)
		ustar_name(b, memcmp(b + F_MAGIC, "ustar", 6) == 0, m);
	if (!ov->has_link)
		(void)ae_tr_set_string(m->linkpath, sizeof m->linkpath, b + F_LINK,
		    strnlen((const char *)b + F_LINK, W_LINK));
	if (m->path[0] == '\0')
		return fail_at(d, AE_EFORMAT, "tar member with no name",
		    nx->first);
	if (get_number(b + F_MODE, W_MODE, 0, &v) != 0)
		return fail_at(d, AE_EFORMAT, "bad mode", nx->first);
	m->mode = (uint32_t)v & 07777;
	if (get_number(b + F_UID, W_UID, 0, &v) != 0)
		return fail_at(d, AE_EFORMAT, "bad uid", nx->first);
	m->uid = ov->has_uid ? ov->uid : (uint64_t)v;
	if (get_number(b + F_GID, W_GID, 0, &v) != 0)
		return fail_at(d, AE_EFORMAT, "bad gid", nx->first);
	m->gid = ov->has_gid ? ov->gid : (uint64_t)v;
	if (get_number(b + F_MTIME, W_MTIME, 1, &v) != 0)
		return fail_at(d, AE_EFORMAT, "bad mtime", nx->first);
	m->mtime = ov->has_mtime ? ov->mtime : v;
	m->mtime_nsec = ov->has_mtime ? ov->mtime_nsec : 0;
	if (ov->has_size)
		*size = ov->size;
	/* Owner names exist from ustar on (POSIX and GNU's old magic
	 * alike); a V7 header has none. */
	if (!ov->has_uname && ustar)
		ae_tr_set_string(m->uname, sizeof m->uname, (const char *)b + F_UNAME,
		    strnlen((const char *)b + F_UNAME, W_UNAME));
	if (!ov->has_gname && ustar)
		ae_tr_set_string(m->gname, sizeof m->gname, (const char *)b + F_GNAME,
		    strnlen((const char *)b + F_GNAME, W_GNAME));
	r->data_left = *size + ae_tar_padding(*size);
	m->size = *size;
	m->warning = ov->warning;
	m->unreadable = ov->unreadable;

	t = b[F_TYPE] == '\0' ? '0' : (char)b[F_TYPE];
	/* A device's numbers (an unreadable field reads as 0, as a
	 * listing can still show the member) */
	if ((t == '3' || t == '4') && ustar) {
		if (get_number(b + F_DEVMAJOR, W_DEV, 0, &v) == 0
		    && v <= UINT32_MAX)
			m->devmajor = (uint32_t)v;
		if (get_number(b + F_DEVMINOR, W_DEV, 0, &v) == 0
		    && v <= UINT32_MAX)
			m->devminor = (uint32_t)v;
	}
	/* Before POSIX, a directory was a regular member whose name ends
	 * in '/' (GNU tar and bsdtar read it so).  GNU's dumpdir ('D') is a
	 * directory whose data lists its contents (for incremental dumps);
	 * the data is skipped. */
	if (((t == '0' || t == '7') && m->path[strlen(m->path) - 1] == '/')
	    || t == 'D')
		t = AE_TAR_DIR;
	*type = t;
	return AE_OK;
}

/*
 * A sparse member's map and real size: GNU's old 'S' header (its map in
 * the header and extension blocks), pax 1.0 (the map starts the data),
 * 0.0 or 0.1 (the map in the records).  size is what the stream holds
 * and becomes m->stored; a map that is malformed, of an unknown version
 * or does not fit the member makes it unreadable.  0 or a read error.
 */
static int
member_sparse(struct ae_tar_reader *r, const struct overrides *ov,
    const uint8_t *b, char t, uint64_t size, struct ae_tar_member *m,
    struct ae_diag *d)
{
	/* (a file that is all hole may have no run at all: map is still
	 * set, to say sparse) */
	static const struct ae_tar_segment none[1];
	uint64_t real = 0;
	int bad, e;

	if (t == 'S') {
		if ((e = read_old_sparse(r, b, &real, d)) < 0)
			return e;
		bad = e;
		m->type = AE_TAR_REG;
	} else if (ov->sparse_major == 1 && ov->sparse_minor == 0
	    && (t == '0' || t == '7')) {
		if ((e = read_map_10(r, d)) < 0)
			return e;
		bad = e || !ov->has_realsize;
		size = r->data_left - ae_tar_padding(size);
		real = ov->realsize;
	} else if (ov->sparse_major == 0 && (t == '0' || t == '7')) {
		bad = !ov->has_realsize || ov->pending_offset;
		real = ov->realsize;
	} else {
		bad = 1;        /* a version this reader does not know */
	}
	if (bad || !map_valid(r, real, size)) {
		if (m->unreadable == NULL)
			m->unreadable = "its GNU sparse map is malformed or of "
			    "an unknown version";
		return AE_OK;
	}
	m->size = real;
	m->stored = size;
	m->map = r->nmap > 0 ? r->map : none;
	m->nmap = r->nmap;
	r->map_active = 1;
	return AE_OK;
}

/* The member described by the ustar block b at hoff, with what the
 * headers before it said: its fields, its sparse map, its xattrs, and
 * where its data ends. */
static int
header_member(struct ae_tar_reader *r, struct next *nx, const uint8_t *b,
    uint64_t hoff, uint64_t size, struct ae_tar_member *m, struct ae_diag *d)
{
	char t = 0;
	int e;

	m->offset = hoff;
	m->first = nx->first;
	/* Right after a gap, its extended header (a long name, say) may
	 * have been in the gap: it cannot be read as it was.  A member the
	 * index led to is as any other, but says so. */
	m->after_gap = nx->indexed ? 3 : nx->resync ?
	    (hoff == nx->after_gap ? 2 : 1) : r->rescanned;
	if (nx->resync)
		r->rescanned = 1;
	if ((e = header_ustar(r, nx, b, m, &size, &t, d)) != AE_OK)
		return e;
	m->type = t;
	if (nx->ov.sparse || t == 'S') {
		if ((e = member_sparse(r, &nx->ov, b, t, size, m, d)) != AE_OK)
			return e;
	} else {
		m->stored = size;
	}
	if (r->nxattr > 0) {
		m->xattr = r->xattr;
		m->xattr_len = r->xattr_len;
		m->nxattr = r->nxattr;
	}
	if (nx->ov.has_dumpdir && m->type == AE_TAR_DIR) {
		m->dumpdir = r->dumpdir;
		m->dumpdir_len = r->dumpdir_len;
	}
	/* Links, devices, directories (pre-POSIX ones too) and FIFOs carry
	 * no data, whatever their size field says, as GNU tar reads them; a
	 * dumpdir's data is skipped with it, as is a label's and an unknown
	 * type's. */
	if (strchr("123456", m->type) != NULL && b[F_TYPE] != 'D') {
		m->size = m->stored = 0;
		r->data_left = 0;
	} else if (m->type == AE_TAR_DIR) {
		/* a dumpdir: its size shows (GNU tar's -tv does) */
		m->stored = 0;
	}
	if (b[F_TYPE] == 'D' && size <= AE_TAR_PAX_MAX && !nx->ov.has_dumpdir) {
		/* GNU tar -g in its own format: the dumpdir is the data, in
		 * the form of pax's GNU.dumpdir.  (A larger one is skipped
		 * as data, and the directory restored without it.) */
		size_t n = (size_t)size, padded = n + (size_t)ae_tar_padding(size);

		if ((e = read_exact(r, r->pax, padded, d)) != AE_OK)
			return e;
		r->data_left = 0;
		if (!touches_gap(r, r->offset - padded, n)) {
			if (n > r->dumpdir_cap) {
				uint8_t *t2 = realloc(r->dumpdir, n);

				if (t2 == NULL)
					return fail_at(d, AE_ENOMEM, NULL,
					    nx->first);
				r->dumpdir = t2;
				r->dumpdir_cap = n;
			}
			memcpy(r->dumpdir, r->pax, n);
			r->dumpdir_len = n;
			m->dumpdir = r->dumpdir;
			m->dumpdir_len = n;
		}
	}
	if (m->unreadable != NULL) {
		m->map = NULL;
		m->nmap = 0;
		r->map_active = 0;
	}
	m->end = r->offset + r->data_left;
	return AE_OK;
}

int
ae_tar_next(struct ae_tar_reader *r, struct ae_tar_member *m,
    struct ae_diag *d)
{
	struct next nx;
	uint8_t b[AE_TAR_BLOCK];
	uint64_t hoff, size;
	int64_t v;
	int e;
	char t;

	if (r->ended)
		return 1;
	if ((e = skip_data(r, d)) != AE_OK)
		return e;
	memset(&nx, 0, sizeof nx);
	forget(r, &nx, m);
	r->map_active = 0;
	r->pos = 0;
	r->seg = 0;
	nx.first = r->offset;       /* after skip_data: its first block */
	nx.after_gap = UINT64_MAX;
	for (;;) {
		e = header_block(r, &nx, m, b, &hoff, d);
		if (e == BLOCK_PASSED)
			continue;
		if (e == BLOCK_END) {
			if (r->seen != NULL && !r->lost_end)
				r->seen(r->seen_ctx, NULL, r->end_at);
			return 1;
		}
		if (e != BLOCK_HEADER)
			return e;
		if (get_number(b + F_SIZE, W_SIZE, 0, &v) != 0)
			return fail_at(d, AE_EFORMAT, "bad size in a tar header",
			    nx.first);
		size = (uint64_t)v;
		t = b[F_TYPE] == '\0' ? '0' : (char)b[F_TYPE];
		/* 'g' records are global defaults; none of those this reader
		 * uses may be global, so they are only skipped (but for the
		 * archive's own description at offset 0, parse_global), as is
		 * Solaris's 'A', an ACL header before its file. */
		if (strchr("xXgALK", t) == NULL) {
			e = header_member(r, &nx, b, hoff, size, m, d);
			if (e == AE_OK && r->seen != NULL)
				r->seen(r->seen_ctx, m, 0);
			return e;
		}
		if ((e = extension_data(r, &nx, m, t, size, d)) == 1)
			continue;
		if (e == 2)
			return 1;
		if (e == AE_OK && (t == 'x' || t == 'X'))
			e = header_pax_extension(r, &nx, m, size, d);
		else if (e == AE_OK && t == 'g' && nx.first == 0)
			ae_tr_parse_global(r, r->pax, (size_t)size);
		else if (e == AE_OK && t == 'A')
			solaris_acl(r, r->pax, (size_t)size);
		else if (e == AE_OK && (t == 'L' || t == 'K'))
			e = header_gnu_longname(r, &nx, m, t, size, d);
		if (e != AE_OK)
			return e;
	}
}

int
ae_tar_read_data(struct ae_tar_reader *r, const struct ae_tar_member *m,
    uint8_t *buf, size_t n, size_t *got, int *hole)
{
	const struct ae_tar_segment *s;
	uint64_t pad = ae_tar_padding(m->stored), left, end;
	int e;

	*got = 0;
	if (hole != NULL)
		*hole = 0;
	if (m->unreadable != NULL)
		return AE_OK;
	if (!r->map_active || m->map == NULL) {
		left = r->data_left > pad ? r->data_left - pad : 0;
		if (n > left)
			n = (size_t)left;
		if (n == 0)
			return AE_OK;
		if ((e = read_exact(r, buf, n, NULL)) != AE_OK)
			return e;
		r->data_left -= n;
		*got = n;
		return AE_OK;
	}
	if (r->pos >= m->size)
		return AE_OK;
	while (r->seg < m->nmap && m->map[r->seg].offset + m->map[r->seg].len
	    <= r->pos)
		r->seg++;
	s = r->seg < m->nmap ? &m->map[r->seg] : NULL;
	if (s != NULL && r->pos >= s->offset) {
		/* In a segment: its bytes are the next ones stored. */
		left = s->offset + s->len - r->pos;
		if (n > left)
			n = (size_t)left;
		if ((e = read_exact(r, buf, n, NULL)) != AE_OK)
			return e;
		r->data_left -= n;
	} else {
		/* In a hole, up to the next segment or the end: all of it
		 * at once for a caller that skips holes. */
		end = s != NULL ? s->offset : m->size;
		left = end - r->pos;
		if (hole != NULL) {
			*hole = 1;
			n = left > SIZE_MAX ? SIZE_MAX : (size_t)left;
		} else {
			if (n > left)
				n = (size_t)left;
			memset(buf, 0, n);
		}
	}
	r->pos += n;
	*got = n;
	return AE_OK;
}
