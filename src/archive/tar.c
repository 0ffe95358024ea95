#include "config.h"
#include "tar.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"

/* ustar field offsets and widths (POSIX.1-2017, pax "ustar Interchange
 * Format"). */
enum {
	F_NAME = 0, W_NAME = 100,
	F_MODE = 100, W_MODE = 8,
	F_UID = 108, W_UID = 8,
	F_GID = 116, W_GID = 8,
	F_SIZE = 124, W_SIZE = 12,
	F_MTIME = 136, W_MTIME = 12,
	F_CHKSUM = 148, W_CHKSUM = 8,
	F_TYPE = 156,
	F_LINK = 157, W_LINK = 100,
	F_MAGIC = 257,
	F_VERSION = 263,
	F_UNAME = 265, W_UNAME = 32,
	F_GNAME = 297, W_GNAME = 32,
	F_DEVMAJOR = 329, F_DEVMINOR = 337, W_DEV = 8,
	F_PREFIX = 345, W_PREFIX = 155
};

size_t
ae_tar_padding(uint64_t size)
{
	return (size_t)((AE_TAR_BLOCK - size % AE_TAR_BLOCK) % AE_TAR_BLOCK);
}

/* Write v as width-1 octal digits and a NUL.  0, or -1 if it does not fit. */
static int
put_octal(uint8_t *f, size_t width, uint64_t v)
{
	size_t i = width - 1;

	f[i] = '\0';
	while (i > 0) {
		f[--i] = (uint8_t)('0' + (v & 7));
		v >>= 3;
	}
	return v == 0 ? 0 : -1;
}

static int
is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

/* 1 if s is well-formed UTF-8 (no overlongs, surrogates or > U+10FFFF). */
static int
is_utf8(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		unsigned c = *s, n, cp, i;

		if (c < 0x80) {
			s++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			return 0;
		for (i = 1; i <= n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
		    || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return 0;
		s += n + 1;
	}
	return 1;
}

/* A growing list of pax records, "LEN key=value\n". */
struct records {
	uint8_t *p;
	size_t len, cap;
	int overflow;
};

static size_t
ndigits(size_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static void
add_record(struct records *r, const char *key, const char *val, size_t vlen)
{
	size_t base = strlen(key) + vlen + 3, n = base + 1;
	char num[32];
	int k;

	/* The length counts its own digits. */
	while (n != base + ndigits(n))
		n = base + ndigits(n);
	if (r->len + n > r->cap) {
		r->overflow = 1;
		return;
	}
	k = snprintf(num, sizeof num, "%zu ", n);
	memcpy(r->p + r->len, num, (size_t)k);
	memcpy(r->p + r->len + k, key, strlen(key));
	r->p[r->len + k + strlen(key)] = '=';
	memcpy(r->p + r->len + k + strlen(key) + 1, val, vlen);
	r->p[r->len + n - 1] = '\n';
	r->len += n;
}

static void
add_number(struct records *r, const char *key, uint64_t v)
{
	char num[32];
	int k = snprintf(num, sizeof num, "%llu", (unsigned long long)v);

	add_record(r, key, num, (size_t)k);
}

/* "mtime=SEC[.FRAC]", negative times written as POSIX asks: -1.5 is
 * 1.5 seconds before the epoch. */
static void
add_mtime(struct records *r, int64_t sec, uint32_t nsec)
{
	char num[48];
	int k;

	if (nsec == 0)
		k = snprintf(num, sizeof num, "%lld", (long long)sec);
	else if (sec >= 0)
		k = snprintf(num, sizeof num, "%lld.%09u", (long long)sec, nsec);
	else
		k = snprintf(num, sizeof num, "-%lld.%09u",
		    -(long long)(sec + 1), 1000000000u - nsec);
	while (nsec != 0 && num[k - 1] == '0')
		k--;
	add_record(r, "mtime", num, (size_t)k);
}

static void
checksum(uint8_t *b)
{
	unsigned sum = 0;
	int i;

	memset(b + F_CHKSUM, ' ', W_CHKSUM);
	for (i = 0; i < AE_TAR_BLOCK; i++)
		sum += b[i];
	/* six digits, NUL, space: what every tar writes */
	put_octal(b + F_CHKSUM, 7, sum);
	b[F_CHKSUM + 7] = ' ';
}

static void
common_fields(uint8_t *b, char type, uint32_t mode, uint64_t uid,
    uint64_t gid, uint64_t size, int64_t mtime)
{
	put_octal(b + F_MODE, W_MODE, mode & 07777);
	if (put_octal(b + F_UID, W_UID, uid) != 0)
		put_octal(b + F_UID, W_UID, 0);
	if (put_octal(b + F_GID, W_GID, gid) != 0)
		put_octal(b + F_GID, W_GID, 0);
	if (put_octal(b + F_SIZE, W_SIZE, size) != 0)
		put_octal(b + F_SIZE, W_SIZE, 0);
	if (mtime < 0 || put_octal(b + F_MTIME, W_MTIME, (uint64_t)mtime) != 0)
		put_octal(b + F_MTIME, W_MTIME, 0);
	b[F_TYPE] = (uint8_t)type;
	memcpy(b + F_MAGIC, "ustar", 6);
	memcpy(b + F_VERSION, "00", 2);
	put_octal(b + F_DEVMAJOR, W_DEV, 0);
	put_octal(b + F_DEVMINOR, W_DEV, 0);
}

/* Put path in name/prefix if ustar can hold it exactly.  0, or -1. */
static int
put_path(uint8_t *b, const char *path)
{
	size_t len = strlen(path), i;

	if (len <= W_NAME) {
		memcpy(b + F_NAME, path, len);
		return 0;
	}
	/* prefix "/" name, with prefix <= 155 and name <= 100 */
	for (i = len - 1; i > 0; i--) {
		if (path[i] != '/')
			continue;
		if (len - i - 1 > W_NAME)
			break;
		if (i <= W_PREFIX && len - i - 1 > 0) {
			memcpy(b + F_PREFIX, path, i);
			memcpy(b + F_NAME, path + i + 1, len - i - 1);
			return 0;
		}
	}
	/* Does not fit: a readable stand-in, the pax record rules. */
	memcpy(b + F_NAME, path, W_NAME);
	return -1;
}

size_t
ae_tar_sparse_map(const struct ae_tar_segment *map, size_t n, uint8_t *out,
    size_t cap)
{
	size_t len = 0, i;
	int k;

	k = snprintf((char *)out, cap, "%zu\n", n);
	if (k < 0 || (size_t)k >= cap)
		return 0;
	len = (size_t)k;
	for (i = 0; i < n; i++) {
		k = snprintf((char *)out + len, cap - len, "%llu\n%llu\n",
		    (unsigned long long)map[i].offset,
		    (unsigned long long)map[i].len);
		if (k < 0 || (size_t)k >= cap - len)
			return 0;
		len += (size_t)k;
	}
	if (len + ae_tar_padding(len) > cap)
		return 0;
	memset(out + len, 0, ae_tar_padding(len));
	return len + ae_tar_padding(len);
}

/* The name GNU tar gives a sparse 1.0 member in its ustar header, so
 * that a tar that knows no sparse format extracts it out of the way:
 * DIR/GNUSparseFile.0/BASE (GNU puts its process id where the 0 is;
 * a constant keeps archives reproducible). */
static void
sparse_standin(const char *path, char *out, size_t cap)
{
	const char *base = strrchr(path, '/');

	if (base == NULL)
		snprintf(out, cap, "GNUSparseFile.0/%s", path);
	else
		snprintf(out, cap, "%.*s/GNUSparseFile.0/%s",
		    (int)(base - path), path, base + 1);
}

int
ae_tar_header(const struct ae_tar_entry *e, uint8_t *out, size_t cap,
    size_t *len)
{
	uint8_t ustar[AE_TAR_BLOCK], recbuf[AE_TAR_HEADER_MAX];
	struct records r = { recbuf, 0, sizeof recbuf, 0 };
	const char *uname = e->uname ? e->uname : "";
	const char *gname = e->gname ? e->gname : "";
	int binary = 0, needs_link;
	int sparse = e->map != NULL && e->type == AE_TAR_REG, w;
	size_t total, xp, vl;
	const char *xname;
	const uint8_t *xval;

	if (e->path == NULL || e->path[0] == '\0')
		return AE_EINVAL;
	if (e->type != AE_TAR_REG && e->type != AE_TAR_HARDLINK
	    && e->type != AE_TAR_SYMLINK && e->type != AE_TAR_DIR)
		return AE_EINVAL;
	needs_link = e->type == AE_TAR_HARDLINK || e->type == AE_TAR_SYMLINK;
	if (needs_link && (e->linkpath == NULL || e->linkpath[0] == '\0'))
		return AE_EINVAL;

	memset(ustar, 0, sizeof ustar);
	/* A sparse entry: size is what is stored (map and runs), which the
	 * caller gives as e->size; the real size goes in a record. */
	common_fields(ustar, e->type, e->mode, e->uid, e->gid,
	    e->type == AE_TAR_REG ? e->size : 0, e->mtime);


	/* Paths: exact in ustar when they fit and are plain ASCII;
	 * otherwise a pax record (raw bytes, flagged as binary if they are
	 * not UTF-8, so a reader does not "fix" them). */
	if (!is_utf8(e->path) || (needs_link && !is_utf8(e->linkpath)))
		binary = 1;
	if (binary)
		add_record(&r, "hdrcharset", "BINARY", 6);
	if (sparse) {
		char standin[4 * W_NAME];

		sparse_standin(e->path, standin, sizeof standin);
		if (put_path(ustar, standin) != 0)
			memset(ustar + F_PREFIX, 0, W_PREFIX);
		add_record(&r, "GNU.sparse.major", "1", 1);
		add_record(&r, "GNU.sparse.minor", "0", 1);
		add_record(&r, "GNU.sparse.name", e->path, strlen(e->path));
		add_number(&r, "GNU.sparse.realsize", e->real_size);
	} else if (put_path(ustar, e->path) != 0 || !is_ascii(e->path)) {
		add_record(&r, "path", e->path, strlen(e->path));
	}
	if (needs_link) {
		size_t ll = strlen(e->linkpath);

		memcpy(ustar + F_LINK, e->linkpath, ll < W_LINK ? ll : W_LINK);
		if (ll > W_LINK || !is_ascii(e->linkpath))
			add_record(&r, "linkpath", e->linkpath, ll);
	}
	if (e->type == AE_TAR_REG && e->size > 077777777777ull)
		add_number(&r, "size", e->size);
	if (e->uid > 07777777)
		add_number(&r, "uid", e->uid);
	if (e->gid > 07777777)
		add_number(&r, "gid", e->gid);
	if (e->mtime_nsec != 0 || e->mtime < 0
	    || (uint64_t)e->mtime > 077777777777ull)
		add_mtime(&r, e->mtime, e->mtime_nsec);
	if (strlen(uname) < W_UNAME && is_ascii(uname))
		memcpy(ustar + F_UNAME, uname, strlen(uname));
	else
		add_record(&r, "uname", uname, strlen(uname));
	if (strlen(gname) < W_GNAME && is_ascii(gname))
		memcpy(ustar + F_GNAME, gname, strlen(gname));
	else
		add_record(&r, "gname", gname, strlen(gname));
	for (xp = 0; (w = ae_tar_xattr_walk(e->xattr, e->xattr_len, &xp,
	    &xname, &xval, &vl)) == 1;) {
		char key[13 + 256];

		snprintf(key, sizeof key, "SCHILY.xattr.%s", xname);
		add_record(&r, key, (const char *)xval, vl);
	}
	if (w != 0)
		return AE_EINVAL;
	if (r.overflow)
		return AE_ETOOBIG;
	checksum(ustar);

	total = AE_TAR_BLOCK;
	if (r.len > 0)
		total += AE_TAR_BLOCK + r.len + ae_tar_padding(r.len);
	if (total > cap)
		return AE_ETOOBIG;
	if (r.len > 0) {
		/* The 'x' header block, named as pax suggests, then the
		 * records, padded to a block. */
		uint8_t *x = out;
		const char *base = strrchr(e->path, '/');
		char name[W_NAME + 1];

		base = base != NULL ? base + 1 : e->path;
		snprintf(name, sizeof name, "PaxHeaders/%.88s", base);
		memset(x, 0, AE_TAR_BLOCK);
		memcpy(x + F_NAME, name, strlen(name));
		common_fields(x, 'x', 0644, 0, 0, r.len,
		    e->mtime < 0 ? 0 : e->mtime);
		checksum(x);
		memcpy(out + AE_TAR_BLOCK, r.p, r.len);
		memset(out + AE_TAR_BLOCK + r.len, 0, ae_tar_padding(r.len));
		out += AE_TAR_BLOCK + r.len + ae_tar_padding(r.len);
	}
	memcpy(out, ustar, AE_TAR_BLOCK);
	*len = total;
	return AE_OK;
}

/* ---- reading ---- */

#include <stdlib.h>

/* GNU's old header (type 'S'): where the sparse map sits in the block
 * that ustar gives to the prefix. */
enum {
	F_OLD_SPARSE = 386, OLD_SPARSE_N = 4,
	F_OLD_ISEXT = 482, F_OLD_REALSIZE = 483,
	EXT_SPARSE_N = 21, F_EXT_ISEXT = 504
};

/* The most data segments a sparse member may have (16 bytes each). */
#define MAP_MAX (1u << 20)

/* What 'x' records and GNU 'L'/'K' blocks say about the next member. */
struct overrides {
	int has_path, has_link, has_size, has_uid, has_gid, has_mtime;
	int has_uname, has_gname, has_sparse_name;
	int sparse;                 /* GNU.sparse.* records seen */
	int sparse_major, sparse_minor;
	int has_realsize;
	uint64_t size, uid, gid, realsize;
	int64_t mtime;
	uint32_t mtime_nsec;
	int pending_offset;         /* 0.0: an offset waits for numbytes */
	const char *warning;        /* a record worked around */
	const char *unreadable;     /* why the member cannot be read */
};

int
ae_tar_reader_init(struct ae_tar_reader *r, struct ae_reader *in)
{
	memset(r, 0, sizeof *r);
	r->in = in;
	r->pax = malloc(AE_TAR_PAX_MAX + AE_TAR_BLOCK);
	return r->pax == NULL ? AE_ENOMEM : AE_OK;
}

void
ae_tar_reader_free(struct ae_tar_reader *r)
{
	free(r->pax);
	free(r->map);
	free(r->xattr);
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

/* Decimal digits, all of s[0, n). */
static int
get_decimal(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 19)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* The length of the leading "[-]digits[.digits]" of s[0, n), 0 if
 * there is none: what a lenient reader takes from a malformed time. */
static size_t
number_prefix(const char *s, size_t n)
{
	size_t i = 0, d;

	if (i < n && s[i] == '-')
		i++;
	for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d)
		return 0;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			i--;    /* "12." : the dot is not part of it */
	}
	return i;
}

/* "[-]SEC[.FRAC]" */
static int
get_mtime(const char *s, size_t n, int64_t *sec, uint32_t *nsec)
{
	int neg = n > 0 && s[0] == '-';
	const char *dot;
	uint64_t whole = 0, frac = 0;
	size_t wl, fl, i;

	if (neg) {
		s++;
		n--;
	}
	dot = memchr(s, '.', n);
	wl = dot != NULL ? (size_t)(dot - s) : n;
	if (get_decimal(s, wl, &whole) != 0 || whole > (uint64_t)INT64_MAX / 2)
		return -1;
	fl = dot != NULL ? n - wl - 1 : 0;
	for (i = 0; i < 9; i++) {
		char c = i < fl ? dot[1 + i] : '0';

		if (c < '0' || c > '9')
			return -1;
		frac = frac * 10 + (uint64_t)(c - '0');
	}
	for (; i < fl; i++)         /* digits past nanoseconds: dropped */
		if (dot[1 + i] < '0' || dot[1 + i] > '9')
			return -1;
	if (!neg) {
		*sec = (int64_t)whole;
		*nsec = (uint32_t)frac;
	} else if (frac == 0) {
		*sec = -(int64_t)whole;
		*nsec = 0;
	} else {
		*sec = -(int64_t)whole - 1;
		*nsec = (uint32_t)(1000000000u - frac);
	}
	return 0;
}

/* Why a string was refused, for the caller's message. */
enum { STR_OK = 0, STR_TOO_LONG = -1, STR_HAS_NUL = -2 };

/*
 * The one way a string from a header gets into a member: src[0, n), with
 * no NUL in it and fewer than cap bytes, copied with its terminator into
 * dst (cap bytes).  Names, link names and owner names all come through
 * here, so no input can overfill the member (the GNU long-name overflow
 * of issue 13 wrote past path[] when an 'L' block held AE_TAR_NAME_MAX +
 * 1 bytes with no NUL).
 */
static int
set_string(char *dst, size_t cap, const void *src, size_t n)
{
	if (n >= cap)
		return STR_TOO_LONG;
	if (memchr(src, '\0', n) != NULL)
		return STR_HAS_NUL;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return STR_OK;
}

static const char *
name_error(int why, int link)
{
	if (why == STR_TOO_LONG)
		return link ? "tar member's link name is longer than 4096 bytes" :
		    "tar member name is longer than 4096 bytes";
	return link ? "tar member's link name contains a NUL byte" :
	    "tar member name contains a NUL byte";
}

/* Append a data segment to the reader's sparse map.  0, or -1 if the map
 * would pass MAP_MAX entries or memory runs out. */
static int
map_add(struct ae_tar_reader *r, uint64_t off, uint64_t len)
{
	if (r->nmap == r->capmap) {
		size_t cap = r->capmap ? 2 * r->capmap : 64;
		struct ae_tar_segment *m;

		if (cap > MAP_MAX || (m = realloc(r->map, cap * sizeof *m))
		    == NULL)
			return -1;
		r->map = m;
		r->capmap = cap;
	}
	r->map[r->nmap].offset = off;
	r->map[r->nmap++].len = len;
	return 0;
}

/* GNU.sparse.map (format 0.1): "off,len,off,len,..." */
static int
parse_map_01(struct ae_tar_reader *r, const char *v, size_t n)
{
	uint64_t num[2];
	size_t i = 0, k = 0, start;

	r->nmap = 0;
	for (;;) {
		start = i;
		while (i < n && v[i] != ',')
			i++;
		if (get_decimal(v + start, i - start, &num[k]) != 0)
			return -1;
		if (k == 1 && map_add(r, num[0], num[1]) != 0)
			return -1;
		k ^= 1;
		if (i == n)
			return k == 0 ? 0 : -1;
		i++;
	}
}

/* Store an xattr record (SCHILY.xattr.NAME=VALUE) in the reader. */
static int
xattr_add(struct ae_tar_reader *r, const char *name, size_t nl,
    const char *val, size_t vl)
{
	if (ae_tar_xattr_append(&r->xattr, &r->xattr_len, &r->xattr_cap,
	    AE_TAR_PAX_MAX * 2, name, nl, (const uint8_t *)val, vl) != 0)
		return -1;
	r->nxattr++;
	return 0;
}

/* Parse the records of an 'x' header into ov and m.  0; PAX_BAD for a
 * malformed record or size; for a path or linkpath record that
 * set_string refuses, its STR_* code, with *which set to 0 (path) or 1
 * (link).  What a member can do without (a malformed time or id, a bad
 * sparse record) sets ov->warning or ov->unreadable instead. */
#define PAX_BAD (-3)
static int
parse_pax(struct ae_tar_reader *r, const uint8_t *p, size_t n,
    struct overrides *ov, struct ae_tar_member *m, int *which)
{
	size_t off = 0;
	uint64_t v;
	int e;

	while (off < n) {
		size_t len = 0, i = off, kl, vl;
		const char *key, *val, *eq;

		if (p[off] == '\0')
			break;          /* some writers pad with NULs */
		while (i < n && i - off < 8 && p[i] >= '0' && p[i] <= '9')
			len = len * 10 + (size_t)(p[i++] - '0');
		if (i >= n || p[i] != ' ' || len < 5 || len > n - off
		    || p[off + len - 1] != '\n')
			return PAX_BAD;
		key = (const char *)p + i + 1;
		eq = memchr(key, '=', off + len - 1 - (i + 1));
		if (eq == NULL)
			return PAX_BAD;
		kl = (size_t)(eq - key);
		val = eq + 1;
		vl = (size_t)((const char *)p + off + len - 1 - val);
#define KEY(k) (kl == sizeof k - 1 && memcmp(key, k, kl) == 0)
		if (KEY("path") && !ov->has_sparse_name) {
			if ((e = set_string(m->path, sizeof m->path, val, vl))
			    != 0) {
				*which = 0;
				return e;
			}
			ov->has_path = 1;
		} else if (KEY("GNU.sparse.name")) {
			if ((e = set_string(m->path, sizeof m->path, val, vl))
			    != 0) {
				*which = 0;
				return e;
			}
			ov->has_path = ov->has_sparse_name = 1;
		} else if (KEY("linkpath")) {
			if ((e = set_string(m->linkpath, sizeof m->linkpath, val,
			    vl)) != 0) {
				*which = 1;
				return e;
			}
			ov->has_link = 1;
		} else if (KEY("size")) {
			/* The data's length: without it the stream cannot
			 * be followed, so no leniency here. */
			if (get_decimal(val, vl, &ov->size) != 0)
				return PAX_BAD;
			ov->has_size = 1;
		} else if (KEY("uid") || KEY("gid")) {
			if (get_decimal(val, vl, &v) != 0) {
				ov->warning = "a malformed pax uid or gid was "
				    "ignored";
			} else if (KEY("uid")) {
				ov->uid = v;
				ov->has_uid = 1;
			} else {
				ov->gid = v;
				ov->has_gid = 1;
			}
		} else if (KEY("mtime")) {
			/* As bsdtar: the leading number of a malformed time,
			 * with a warning (GNU tar warns too). */
			size_t k = vl;

			if (get_mtime(val, vl, &ov->mtime, &ov->mtime_nsec)
			    != 0) {
				k = number_prefix(val, vl);
				ov->warning = "a malformed pax mtime was read "
				    "up to its first stray character";
				if (k == 0 || get_mtime(val, k, &ov->mtime,
				    &ov->mtime_nsec) != 0) {
					ov->warning = "a malformed pax mtime was "
					    "ignored";
					k = 0;
				}
			}
			ov->has_mtime = k > 0;
		} else if (KEY("uname")) {
			if (set_string(m->uname, sizeof m->uname, val, vl) == 0)
				ov->has_uname = 1;
			else
				ov->warning = "a pax uname that is too long or "
				    "has a NUL was ignored";
		} else if (KEY("gname")) {
			if (set_string(m->gname, sizeof m->gname, val, vl) == 0)
				ov->has_gname = 1;
			else
				ov->warning = "a pax gname that is too long or "
				    "has a NUL was ignored";
		} else if (kl > 13 && memcmp(key, "SCHILY.xattr.", 13) == 0) {
			if (xattr_add(r, key + 13, kl - 13, val, vl) != 0)
				ov->warning = "an extended attribute that is "
				    "too large or badly named was dropped";
		} else if (kl > 11 && memcmp(key, "GNU.sparse.", 11) == 0) {
			const char *sk = key + 11;
			size_t sl = kl - 11;
#define SKEY(k) (sl == sizeof k - 1 && memcmp(sk, k, sl) == 0)
			int bad = 0;

			ov->sparse = 1;
			if (SKEY("major") || SKEY("minor")) {
				bad = get_decimal(val, vl, &v) != 0 || v > 9;
				if (!bad && SKEY("major"))
					ov->sparse_major = (int)v;
				else if (!bad)
					ov->sparse_minor = (int)v;
			} else if (SKEY("size") || SKEY("realsize")) {
				bad = get_decimal(val, vl, &ov->realsize) != 0;
				ov->has_realsize = !bad;
			} else if (SKEY("numblocks")) {
				bad = get_decimal(val, vl, &v) != 0 || v > MAP_MAX;
			} else if (SKEY("offset")) {
				/* 0.0: an offset, then its numbytes */
				bad = ov->pending_offset
				    || get_decimal(val, vl, &v) != 0
				    || map_add(r, v, 0) != 0;
				ov->pending_offset = !bad;
			} else if (SKEY("numbytes")) {
				/* (nmap > 0 whenever an offset is pending, but a
				 * later "map" record empties the map) */
				bad = !ov->pending_offset || r->nmap == 0
				    || get_decimal(val, vl, &v) != 0;
				if (!bad)
					r->map[r->nmap - 1].len = v;
				ov->pending_offset = 0;
			} else if (SKEY("map")) {
				bad = parse_map_01(r, val, vl) != 0;
				ov->pending_offset = 0;
			}
#undef SKEY
			if (bad)
				ov->unreadable = "its GNU sparse map is "
				    "malformed or too large";
		}
#undef KEY
		off += len;
	}
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
			    || map_add(r, (uint64_t)off, (uint64_t)len) != 0)
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
		} else if (map_add(r, off, v) != 0) {
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

int
ae_tar_next(struct ae_tar_reader *r, struct ae_tar_member *m,
    struct ae_diag *d)
{
	struct overrides ov;
	uint8_t b[AE_TAR_BLOCK];
	uint64_t first;             /* where this member's headers start */
	int64_t v;
	size_t got;
	int e, posix, resync = 0;
	uint64_t after_gap = UINT64_MAX;    /* where the last gap ended */

	if (r->ended)
		return 1;
	if ((e = skip_data(r, d)) != AE_OK)
		return e;
	memset(&ov, 0, sizeof ov);
	memset(m, 0, sizeof *m);
	r->nmap = 0;
	r->nxattr = 0;
	r->xattr_len = 0;
	r->map_active = 0;
	r->pos = 0;
	r->seg = 0;
	first = r->offset;          /* after skip_data: its first block */
	for (;;) {
		uint64_t hoff = r->offset, size, real = 0, gap_end;
		char t;
		int sparse_bad = 0;

		if ((e = read_some(r, b, AE_TAR_BLOCK, &got, d)) != AE_OK)
			return e;
		/* (asked once the block is here: by then the decoder has
		 * reported the chunk it came from) */
		if (got > 0 && r->gap != NULL
		    && r->gap(r->gap_ctx, hoff, &gap_end)) {
			/* A lost chunk where a header would be: step over
			 * it, then look for the next block that is a
			 * header (salvage). */
			if (gap_end == UINT64_MAX
			    || (e = skip_to(r, gap_end, d)) == 1) {
				r->ended = r->lost_end = 1;
				return 1;
			}
			if (e != AE_OK)
				return e;
			memset(&ov, 0, sizeof ov);
			memset(m, 0, sizeof *m);
			r->nmap = r->nxattr = r->xattr_len = 0;
			resync = 1;
			first = after_gap = r->offset;
			continue;
		}
		if (got == 0 && resync) {
			r->ended = r->lost_end = 1;
			return 1;
		}
		if (resync && (got < AE_TAR_BLOCK || is_zero_block(b)
		    || !checksum_matches(b))) {
			first = r->offset;  /* not a header: on to the next */
			continue;
		}
		if (got == 0 && hoff == first && hoff > 0) {
			/* The stream ends where a header would start: older
			 * tars wrote no end marker.  The container has
			 * authenticated where the data ends, so this is a
			 * note, not an error. */
			r->ended = 1;
			r->no_end_marker = 1;
			return 1;
		}
		if (got < AE_TAR_BLOCK)
			return ae_fail(d, AE_ETRUNC, AE_AT_INPUT,
			    "the archive ends before its end marker", 0,
			    r->offset);
		if (is_zero_block(b)) {
			r->ended = 1;
			return 1;
		}
		if (!checksum_matches(b))
			return fail_at(d, AE_EFORMAT, "bad tar header checksum",
			    first);
		if (get_number(b + F_SIZE, W_SIZE, 0, &v) != 0)
			return fail_at(d, AE_EFORMAT, "bad size in a tar header",
			    first);
		size = (uint64_t)v;
		t = b[F_TYPE] == '\0' ? '0' : (char)b[F_TYPE];
		/* 'X': Solaris's name for 'x' before POSIX; 'A': a
		 * Solaris ACL header before its file (skipped quietly). */
		if (t == 'x' || t == 'X' || t == 'g' || t == 'L' || t == 'K'
		    || t == 'A') {
			size_t cap = (t == 'L' || t == 'K') ? AE_TAR_NAME_MAX + 1 :
			    AE_TAR_PAX_MAX;


			if (size > cap && (t == 'L' || t == 'K'))
				return fail_at(d, AE_EFORMAT,
				    name_error(STR_TOO_LONG, t == 'K'), first);
			if (size > cap)
				return fail_at(d, AE_ETOOBIG,
				    "extended tar header too large", first);
			e = read_exact(r, r->pax, (size_t)size +
			    ae_tar_padding(size), d);
			if (e != AE_OK)
				return e;
			if (touches_gap(r, r->offset - size -
			    ae_tar_padding(size), size)) {
				/* its records were lost (salvage): this
				 * member cannot be read; on to the next
				 * header */
				memset(&ov, 0, sizeof ov);
				memset(m, 0, sizeof *m);
				r->nmap = r->nxattr = r->xattr_len = 0;
				resync = 1;
				first = r->offset;
				continue;
			}
			if (t == 'x' || t == 'X') {
				int which = 0;

				e = parse_pax(r, r->pax, (size_t)size, &ov, m,
				    &which);
				if (e == PAX_BAD)
					return fail_at(d, AE_EFORMAT,
					    "bad pax extended header", first);
				if (e != 0)
					return fail_at(d, AE_EFORMAT,
					    name_error(e, which), first);
			}
			/* 'g' records are global defaults; none of those
			 * this reader uses may be global, so they are only
			 * skipped. */
			if (t == 'L' || t == 'K') {
				/* GNU tar ends the name with a NUL inside the
				 * data; one without it takes all the data. */
				size_t n = strnlen((char *)r->pax, (size_t)size);

				e = t == 'L' ?
				    set_string(m->path, sizeof m->path, r->pax, n) :
				    set_string(m->linkpath, sizeof m->linkpath,
				    r->pax, n);
				if (e != 0)
					return fail_at(d, AE_EFORMAT,
					    name_error(e, t == 'K'), first);
				if (t == 'L')
					ov.has_path = 1;
				else
					ov.has_link = 1;
			}
			continue;
		}
		m->offset = hoff;
		m->first = first;
		/* Right after a gap, its extended header (a long name, say)
		 * may have been in the gap: it cannot be read as it was. */
		m->after_gap = !resync ? 0 : hoff == after_gap ? 2 : 1;
		posix = memcmp(b + F_MAGIC, "ustar", 6) == 0;
		if (!ov.has_path) {
			/* prefix '/' name: at most 155 + 1 + 100 bytes.  Only
			 * POSIX ustar has a prefix; GNU's old header keeps
			 * times and the sparse map there. */
			char ustar[W_PREFIX + 1 + W_NAME];
			size_t nl = strnlen((char *)b + F_NAME, W_NAME);
			size_t pl = posix ?
			    strnlen((char *)b + F_PREFIX, W_PREFIX) : 0;

			if (pl > 0) {
				memcpy(ustar, b + F_PREFIX, pl);
				ustar[pl++] = '/';
			}
			memcpy(ustar + pl, b + F_NAME, nl);
			(void)set_string(m->path, sizeof m->path, ustar, pl + nl);
		}
		if (!ov.has_link)
			(void)set_string(m->linkpath, sizeof m->linkpath,
			    b + F_LINK, strnlen((char *)b + F_LINK, W_LINK));
		if (m->path[0] == '\0')
			return fail_at(d, AE_EFORMAT, "tar member with no name",
			    first);
		if (get_number(b + F_MODE, W_MODE, 0, &v) != 0)
			return fail_at(d, AE_EFORMAT, "bad mode", first);
		m->mode = (uint32_t)v & 07777;
		if (get_number(b + F_UID, W_UID, 0, &v) != 0)
			return fail_at(d, AE_EFORMAT, "bad uid", first);
		m->uid = ov.has_uid ? ov.uid : (uint64_t)v;
		if (get_number(b + F_GID, W_GID, 0, &v) != 0)
			return fail_at(d, AE_EFORMAT, "bad gid", first);
		m->gid = ov.has_gid ? ov.gid : (uint64_t)v;
		if (get_number(b + F_MTIME, W_MTIME, 1, &v) != 0)
			return fail_at(d, AE_EFORMAT, "bad mtime", first);
		m->mtime = ov.has_mtime ? ov.mtime : v;
		m->mtime_nsec = ov.has_mtime ? ov.mtime_nsec : 0;
		if (ov.has_size)
			size = ov.size;
		/* Owner names exist from ustar on (POSIX and GNU's old
		 * magic alike); a V7 header has none. */
		if (!ov.has_uname && memcmp(b + F_MAGIC, "ustar", 5) == 0)
			set_string(m->uname, sizeof m->uname,
			    (char *)b + F_UNAME, strnlen((char *)b + F_UNAME,
			    W_UNAME));
		if (!ov.has_gname && memcmp(b + F_MAGIC, "ustar", 5) == 0)
			set_string(m->gname, sizeof m->gname,
			    (char *)b + F_GNAME, strnlen((char *)b + F_GNAME,
			    W_GNAME));
		r->data_left = size + ae_tar_padding(size);
		m->size = size;
		m->warning = ov.warning;
		m->unreadable = ov.unreadable;

		/* Before POSIX, a directory was a regular member whose
		 * name ends in '/' (GNU tar and bsdtar read it so). */
		if ((t == '0' || t == '7') && m->path[strlen(m->path) - 1] == '/')
			t = AE_TAR_DIR;
		/* GNU's dumpdir ('D'): a directory whose data lists its
		 * contents (for incremental dumps); the data is skipped. */
		if (t == 'D')
			t = AE_TAR_DIR;
		m->type = t;

		/* Sparse members: the map, the real size. */
		if (t == 'S') {
			e = read_old_sparse(r, b, &real, d);
			if (e < 0)
				return e;
			sparse_bad = e;
			m->type = AE_TAR_REG;
		} else if (ov.sparse && ov.sparse_major == 1
		    && ov.sparse_minor == 0 && (t == '0' || t == '7')) {
			e = read_map_10(r, d);
			if (e < 0)
				return e;
			sparse_bad = e || !ov.has_realsize;
			size = r->data_left - ae_tar_padding(size);
			real = ov.realsize;
		} else if (ov.sparse && ov.sparse_major == 0
		    && (t == '0' || t == '7')) {
			sparse_bad = !ov.has_realsize || ov.pending_offset;
			real = ov.realsize;
		} else if (ov.sparse) {
			sparse_bad = 1;     /* a version this reader does
			                     * not know */
		}
		if (ov.sparse || t == 'S') {
			if (sparse_bad || !map_valid(r, real, size)) {
				if (m->unreadable == NULL)
					m->unreadable = "its GNU sparse map is "
					    "malformed or of an unknown "
					    "version";
			} else {
				/* (a file that is all hole may have no run
				 * at all: map is still set, to say sparse) */
				static const struct ae_tar_segment none[1];

				m->size = real;
				m->stored = size;
				m->map = r->nmap > 0 ? r->map : none;
				m->nmap = r->nmap;
				r->map_active = 1;
			}
		} else {
			m->stored = size;
		}
		if (r->nxattr > 0) {
			m->xattr = r->xattr;
			m->xattr_len = r->xattr_len;
			m->nxattr = r->nxattr;
		}
		/* Links, devices, directories (pre-POSIX ones too) and
		 * FIFOs carry no data, whatever their size field says, as
		 * GNU tar reads them; a dumpdir's data is skipped with it,
		 * as is a label's and an unknown type's. */
		if (strchr("123456", m->type) != NULL && b[F_TYPE] != 'D') {
			m->size = m->stored = 0;
			r->data_left = 0;
		} else if (m->type == AE_TAR_DIR) {
			/* a dumpdir: its size shows (GNU tar's -tv does) */
			m->stored = 0;
		}
		if (m->unreadable != NULL) {
			m->map = NULL;
			m->nmap = 0;
			r->map_active = 0;
		}
		m->end = r->offset + r->data_left;
		return AE_OK;
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

int
ae_tar_xattr_append(uint8_t **buf, size_t *len, size_t *cap, size_t max,
    const char *name, size_t nl, const uint8_t *val, size_t vl)
{
	size_t need = nl + 1 + 4 + vl;

	if (nl == 0 || memchr(name, '\0', nl) != NULL || nl > 255
	    || vl > 65536 || need > max - *len)
		return -1;
	if (*len + need > *cap) {
		size_t c = *cap ? *cap : 1024;
		uint8_t *x;

		while (c < *len + need)
			c *= 2;
		if ((x = realloc(*buf, c)) == NULL)
			return -1;
		*buf = x;
		*cap = c;
	}
	memcpy(*buf + *len, name, nl);
	(*buf)[*len + nl] = '\0';
	(*buf)[*len + nl + 1] = (uint8_t)(vl >> 24);
	(*buf)[*len + nl + 2] = (uint8_t)(vl >> 16);
	(*buf)[*len + nl + 3] = (uint8_t)(vl >> 8);
	(*buf)[*len + nl + 4] = (uint8_t)vl;
	memcpy(*buf + *len + nl + 5, val, vl);
	*len += need;
	return 0;
}

int
ae_tar_xattr_walk(const uint8_t *list, size_t len, size_t *pos,
    const char **name, const uint8_t **value, size_t *vlen)
{
	const uint8_t *p;
	size_t nl;

	if (list == NULL || *pos >= len)
		return 0;
	p = list + *pos;
	nl = strnlen((const char *)p, len - *pos);
	if (nl == 0 || nl > 255 || len - *pos < nl + 5)
		return -1;
	*vlen = (size_t)p[nl + 1] << 24 | (size_t)p[nl + 2] << 16 |
	    (size_t)p[nl + 3] << 8 | p[nl + 4];
	if (*vlen > len - *pos - nl - 5)
		return -1;
	*name = (const char *)p;
	*value = p + nl + 5;
	*pos += nl + 5 + *vlen;
	return 1;
}
