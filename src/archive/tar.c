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

int
ae_tar_header(const struct ae_tar_entry *e, uint8_t *out, size_t cap,
    size_t *len)
{
	uint8_t ustar[AE_TAR_BLOCK], recbuf[AE_TAR_HEADER_MAX];
	struct records r = { recbuf, 0, sizeof recbuf, 0 };
	const char *uname = e->uname ? e->uname : "";
	const char *gname = e->gname ? e->gname : "";
	int binary = 0, needs_link;
	size_t total;

	if (e->path == NULL || e->path[0] == '\0')
		return AE_EINVAL;
	if (e->type != AE_TAR_REG && e->type != AE_TAR_HARDLINK
	    && e->type != AE_TAR_SYMLINK && e->type != AE_TAR_DIR)
		return AE_EINVAL;
	needs_link = e->type == AE_TAR_HARDLINK || e->type == AE_TAR_SYMLINK;
	if (needs_link && (e->linkpath == NULL || e->linkpath[0] == '\0'))
		return AE_EINVAL;

	memset(ustar, 0, sizeof ustar);
	common_fields(ustar, e->type, e->mode, e->uid, e->gid,
	    e->type == AE_TAR_REG ? e->size : 0, e->mtime);

	/* Paths: exact in ustar when they fit and are plain ASCII;
	 * otherwise a pax record (raw bytes, flagged as binary if they are
	 * not UTF-8, so a reader does not "fix" them). */
	if (!is_utf8(e->path) || (needs_link && !is_utf8(e->linkpath)))
		binary = 1;
	if (binary)
		add_record(&r, "hdrcharset", "BINARY", 6);
	if (put_path(ustar, e->path) != 0 || !is_ascii(e->path))
		add_record(&r, "path", e->path, strlen(e->path));
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

/* What 'x' records and GNU 'L'/'K' blocks say about the next member. */
struct overrides {
	int has_path, has_link, has_size, has_uid, has_gid, has_mtime;
	int has_uname, has_gname, sparse;
	uint64_t size, uid, gid;
	int64_t mtime;
	uint32_t mtime_nsec;
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
	r->pax = NULL;
}

/* A member that cannot be read: off is where its first header starts. */
static int
fail_at(struct ae_diag *d, int err, const char *what, uint64_t off)
{
	return ae_fail(d, err, AE_AT_MEMBER, what, 0, off);
}

/* Read exactly n bytes; AE_ETRUNC if the stream ends first. */
static int
read_exact(struct ae_tar_reader *r, uint8_t *buf, size_t n,
    struct ae_diag *d)
{
	size_t got;
	int e = r->in->read(r->in->ctx, buf, n, &got);

	if (e != AE_OK)
		return ae_fail(d, e, AE_AT_INPUT, "reading the archive", 0,
		    r->offset);
	r->offset += got;
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

/* Parse the records of an 'x' header into ov and m.  0; PAX_BAD for a
 * malformed record; for a path or linkpath record that set_string
 * refuses, its STR_* code, with *which set to 0 (path) or 1 (link). */
#define PAX_BAD (-3)
static int
parse_pax(const uint8_t *p, size_t n, struct overrides *ov,
    struct ae_tar_member *m, int *which)
{
	size_t off = 0;
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
		if (KEY("path")) {
			if ((e = set_string(m->path, sizeof m->path, val, vl))
			    != 0) {
				*which = 0;
				return e;
			}
			ov->has_path = 1;
		} else if (KEY("linkpath")) {
			if ((e = set_string(m->linkpath, sizeof m->linkpath, val,
			    vl)) != 0) {
				*which = 1;
				return e;
			}
			ov->has_link = 1;
		} else if (KEY("size")) {
			if (get_decimal(val, vl, &ov->size) != 0)
				return PAX_BAD;
			ov->has_size = 1;
		} else if (KEY("uid")) {
			if (get_decimal(val, vl, &ov->uid) != 0)
				return PAX_BAD;
			ov->has_uid = 1;
		} else if (KEY("gid")) {
			if (get_decimal(val, vl, &ov->gid) != 0)
				return PAX_BAD;
			ov->has_gid = 1;
		} else if (KEY("mtime")) {
			if (get_mtime(val, vl, &ov->mtime, &ov->mtime_nsec) != 0)
				return PAX_BAD;
			ov->has_mtime = 1;
		} else if (KEY("uname")) {
			if (set_string(m->uname, sizeof m->uname, val, vl) != 0)
				return PAX_BAD;
			ov->has_uname = 1;
		} else if (KEY("gname")) {
			if (set_string(m->gname, sizeof m->gname, val, vl) != 0)
				return PAX_BAD;
			ov->has_gname = 1;
		} else if (kl > 11 && memcmp(key, "GNU.sparse.", 11) == 0) {
			ov->sparse = 1;
		}
#undef KEY
		off += len;
	}
	return 0;
}

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

int
ae_tar_next(struct ae_tar_reader *r, struct ae_tar_member *m,
    struct ae_diag *d)
{
	struct overrides ov;
	uint8_t b[AE_TAR_BLOCK];
	uint64_t first;             /* where this member's headers start */
	int64_t v;
	int e;

	if (r->ended)
		return 1;
	if ((e = skip_data(r, d)) != AE_OK)
		return e;
	memset(&ov, 0, sizeof ov);
	memset(m, 0, sizeof *m);
	first = r->offset;          /* after skip_data: its first block */
	for (;;) {
		uint64_t hoff = r->offset, size;
		char t;

		if ((e = read_exact(r, b, AE_TAR_BLOCK, d)) != AE_OK)
			return e;
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
		if (t == 'x' || t == 'g' || t == 'L' || t == 'K') {
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
			if (t == 'x') {
				int which = 0;

				e = parse_pax(r->pax, (size_t)size, &ov, m, &which);
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
		if (t == 'S' || ov.sparse)
			return fail_at(d, AE_ENOTSUP,
			    "sparse tar members are not supported", first);
		m->offset = hoff;
		m->type = t;
		if (!ov.has_path) {
			/* prefix '/' name: at most 155 + 1 + 100 bytes */
			char ustar[W_PREFIX + 1 + W_NAME];
			size_t nl = strnlen((char *)b + F_NAME, W_NAME);
			size_t pl = memcmp(b + F_MAGIC, "ustar", 5) == 0 ?
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
		m->size = ov.has_size ? ov.size : size;
		if (!ov.has_uname)
			set_string(m->uname, sizeof m->uname,
			    (char *)b + F_UNAME, strnlen((char *)b + F_UNAME,
			    W_UNAME));
		if (!ov.has_gname)
			set_string(m->gname, sizeof m->gname,
			    (char *)b + F_GNAME, strnlen((char *)b + F_GNAME,
			    W_GNAME));
		/* Links, devices, directories and FIFOs carry no data. */
		if (strchr("123456", t) != NULL)
			m->size = 0;
		r->data_left = m->size + ae_tar_padding(m->size);
		return AE_OK;
	}
}

int
ae_tar_read_data(struct ae_tar_reader *r, const struct ae_tar_member *m,
    uint8_t *buf, size_t n, size_t *got)
{
	uint64_t pad = ae_tar_padding(m->size);
	uint64_t left = r->data_left > pad ? r->data_left - pad : 0;
	int e;

	if (n > left)
		n = (size_t)left;
	*got = 0;
	if (n == 0)
		return AE_OK;
	if ((e = read_exact(r, buf, n, NULL)) != AE_OK)
		return e;
	r->data_left -= n;
	*got = n;
	return AE_OK;
}
