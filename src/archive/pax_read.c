/*
 * pax_read.c -- the records of pax 'x' and 'g' headers as the tar reader
 * takes them (tar_rd.h): each key the reader knows is a row of pax_keys,
 * with the function that takes its value into the next member; numbers
 * and times as POSIX writes them, and strings bounded by their fields.
 */
#include "config.h"
#include "tar_read.h"
#include "tar_rd.h"

#include <stdlib.h>
#include <string.h>

#include "tar.h"
#include "common/grow.h"

/* Decimal digits, all of s[0, n). */
int
ae_tr_get_decimal(const char *s, size_t n, uint64_t *out)
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
int
ae_tr_get_mtime(const char *s, size_t n, int64_t *sec, uint32_t *nsec)
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
	if (ae_tr_get_decimal(s, wl, &whole) != 0 || whole > (uint64_t)INT64_MAX / 2)
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

/*
 * The one way a string from a header gets into a member: src[0, n), with
 * no NUL in it and fewer than cap bytes, copied with its terminator into
 * dst (cap bytes).  Names, link names and owner names all come through
 * here, so no input can overfill the member (the GNU long-name overflow
 * of issue 13 wrote past path[] when an 'L' block held AE_TAR_NAME_MAX +
 * 1 bytes with no NUL).
 */
int
ae_tr_set_string(char *dst, size_t cap, const void *src, size_t n)
{
	if (n >= cap)
		return STR_TOO_LONG;
	if (memchr(src, '\0', n) != NULL)
		return STR_HAS_NUL;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return STR_OK;
}

const char *
ae_tr_name_error(int why, int link)
{
	if (why == STR_TOO_LONG)
		return link ? "tar member's link name is longer than 65535 bytes" :
		    "tar member name is longer than 65535 bytes";
	return link ? "tar member's link name contains a NUL byte" :
	    "tar member name contains a NUL byte";
}

/* Append a data segment to the reader's sparse map.  0, or -1 if the map
 * would pass MAP_MAX entries or memory runs out. */
int
ae_tr_map_add(struct ae_tar_reader *r, uint64_t off, uint64_t len)
{
	if (ae_grow(&r->map, &r->capmap, r->nmap + 1, sizeof *r->map, 64,
	    MAP_MAX) != 0)
		return -1;
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
		if (ae_tr_get_decimal(v + start, i - start, &num[k]) != 0)
			return -1;
		if (k == 1 && ae_tr_map_add(r, num[0], num[1]) != 0)
			return -1;
		k ^= 1;
		if (i == n)
			return k == 0 ? 0 : -1;
		i++;
	}
}

/* Store an xattr record (SCHILY.xattr.NAME=VALUE) in the reader. */
int
ae_tr_xattr_add(struct ae_tar_reader *r, const char *name, size_t nl,
    const char *val, size_t vl)
{
	if (ae_tar_xattr_append(&r->xattr, &r->xattr_len, &r->xattr_cap,
	    AE_TAR_PAX_MAX * 2, name, nl, (const uint8_t *)val, vl) != 0)
		return -1;
	r->nxattr++;
	return 0;
}

/* One GNU.sparse.KEY record (formats 0.0, 0.1 and 1.0's header part)
 * into ov and the reader's map.  0, or -1 if it is malformed. */
static int
pax_sparse(struct ae_tar_reader *r, struct overrides *ov, const char *sk,
    size_t sl, const char *val, size_t vl)
{
#define SKEY(k) (sl == sizeof k - 1 && memcmp(sk, k, sl) == 0)
	uint64_t v;
	int bad = 0;

	ov->sparse = 1;
	if (SKEY("major") || SKEY("minor")) {
		bad = ae_tr_get_decimal(val, vl, &v) != 0 || v > 9;
		if (!bad && SKEY("major"))
			ov->sparse_major = (int)v;
		else if (!bad)
			ov->sparse_minor = (int)v;
	} else if (SKEY("size") || SKEY("realsize")) {
		bad = ae_tr_get_decimal(val, vl, &ov->realsize) != 0;
		ov->has_realsize = !bad;
	} else if (SKEY("numblocks")) {
		bad = ae_tr_get_decimal(val, vl, &v) != 0 || v > MAP_MAX;
	} else if (SKEY("offset")) {
		/* 0.0: an offset, then its numbytes */
		bad = ov->pending_offset || ae_tr_get_decimal(val, vl, &v) != 0
		    || ae_tr_map_add(r, v, 0) != 0;
		ov->pending_offset = !bad;
	} else if (SKEY("numbytes")) {
		/* (nmap > 0 whenever an offset is pending, but a later "map"
		 * record empties the map) */
		bad = !ov->pending_offset || r->nmap == 0
		    || ae_tr_get_decimal(val, vl, &v) != 0;
		if (!bad)
			r->map[r->nmap - 1].len = v;
		ov->pending_offset = 0;
	} else if (SKEY("map")) {
		bad = parse_map_01(r, val, vl) != 0;
		ov->pending_offset = 0;
	}
#undef SKEY
	return bad ? -1 : 0;
}

/*
 * The records of an 'x' header this reader takes, one row each: a key
 * (or, with prefix set, the start of a family of keys) and what takes
 * its value.  A key no row names is passed over, as POSIX asks.
 */
struct pax_ctx {
	struct ae_tar_reader *r;
	struct overrides *ov;
	struct ae_tar_member *m;
	const char *key;            /* the whole key, and its length */
	size_t kl;
	int *which;
};

/* Each returns 0, a STR_* code (with *which set) for a path or linkpath
 * that ae_tr_set_string refuses, or PAX_BAD. */
typedef int (*pax_take)(struct pax_ctx *c, const char *val, size_t vl);

static int
take_name(struct pax_ctx *c, char *dst, size_t cap, int link,
    const char *val, size_t vl)
{
	int e = ae_tr_set_string(dst, cap, val, vl);

	if (e != 0)
		*c->which = link;
	return e;
}

static int
take_path(struct pax_ctx *c, const char *val, size_t vl)
{
	int e;

	if (c->ov->has_sparse_name)
		return 0;   /* GNU.sparse.name is the real name */
	if ((e = take_name(c, c->m->path, sizeof c->m->path, 0, val, vl)) == 0)
		c->ov->has_path = 1;
	return e;
}

static int
take_sparse_name(struct pax_ctx *c, const char *val, size_t vl)
{
	int e;

	if ((e = take_name(c, c->m->path, sizeof c->m->path, 0, val, vl)) == 0)
		c->ov->has_path = c->ov->has_sparse_name = 1;
	return e;
}

static int
take_linkpath(struct pax_ctx *c, const char *val, size_t vl)
{
	int e;

	if ((e = take_name(c, c->m->linkpath, sizeof c->m->linkpath, 1, val,
	    vl)) == 0)
		c->ov->has_link = 1;
	return e;
}

/* The data's length: without it the stream cannot be followed, so no
 * leniency here. */
static int
take_size(struct pax_ctx *c, const char *val, size_t vl)
{
	if (ae_tr_get_decimal(val, vl, &c->ov->size) != 0)
		return PAX_BAD;
	c->ov->has_size = 1;
	return 0;
}

static int
take_id(struct pax_ctx *c, const char *val, size_t vl)
{
	uint64_t v;

	if (ae_tr_get_decimal(val, vl, &v) != 0) {
		c->ov->warning = "a malformed pax uid or gid was ignored";
	} else if (c->key[0] == 'u') {
		c->ov->uid = v;
		c->ov->has_uid = 1;
	} else {
		c->ov->gid = v;
		c->ov->has_gid = 1;
	}
	return 0;
}

/* As bsdtar: the leading number of a malformed time, with a warning (GNU
 * tar warns too). */
static int
take_mtime(struct pax_ctx *c, const char *val, size_t vl)
{
	struct overrides *ov = c->ov;
	size_t k = vl;

	if (ae_tr_get_mtime(val, vl, &ov->mtime, &ov->mtime_nsec) != 0) {
		k = number_prefix(val, vl);
		ov->warning = "a malformed pax mtime was read up to its first "
		    "stray character";
		if (k == 0 || ae_tr_get_mtime(val, k, &ov->mtime,
		    &ov->mtime_nsec) != 0) {
			ov->warning = "a malformed pax mtime was ignored";
			k = 0;
		}
	}
	ov->has_mtime = k > 0;
	return 0;
}

static int
take_owner(struct pax_ctx *c, const char *val, size_t vl)
{
	int user = c->key[0] == 'u';
	char *dst = user ? c->m->uname : c->m->gname;
	size_t cap = user ? sizeof c->m->uname : sizeof c->m->gname;

	if (ae_tr_set_string(dst, cap, val, vl) != 0)
		c->ov->warning = user ? "a pax uname that is too long or has "
		    "a NUL was ignored" : "a pax gname that is too long or "
		    "has a NUL was ignored";
	else if (user)
		c->ov->has_uname = 1;
	else
		c->ov->has_gname = 1;
	return 0;
}

static int
take_xattr(struct pax_ctx *c, const char *val, size_t vl)
{
	if (ae_tr_xattr_add(c->r, c->key + 13, c->kl - 13, val, vl) != 0)
		c->ov->warning = "an extended attribute that is too large or "
		    "badly named was dropped";
	return 0;
}

/* ACLs as text (GNU tar, bsdtar, star), in the same list under their
 * own names (tar.h). */
static int
take_acl(struct pax_ctx *c, const char *val, size_t vl)
{
	if (ae_tr_xattr_add(c->r, c->key, c->kl, val, vl) != 0)
		c->ov->warning = "an ACL record that is too large was dropped";
	return 0;
}

static int
take_dumpdir(struct pax_ctx *c, const char *val, size_t vl)
{
	struct ae_tar_reader *r = c->r;

	/* (a pax header is at most AE_TAR_PAX_MAX bytes, so vl is) */
	if (vl > r->dumpdir_cap) {
		uint8_t *t = realloc(r->dumpdir, vl);

		if (t == NULL)
			return PAX_BAD;
		r->dumpdir = t;
		r->dumpdir_cap = vl;
	}
	memcpy(r->dumpdir, val, vl);
	r->dumpdir_len = vl;
	c->ov->has_dumpdir = 1;
	return 0;
}

static int
take_sparse(struct pax_ctx *c, const char *val, size_t vl)
{
	if (pax_sparse(c->r, c->ov, c->key + 11, c->kl - 11, val, vl) != 0)
		c->ov->unreadable = "its GNU sparse map is malformed or too "
		    "large";
	return 0;
}

static const struct pax_key {
	const char *key;
	int prefix;                 /* the key's start, followed by more */
	pax_take take;
} pax_keys[] = {
	{ "path", 0, take_path },
	{ "GNU.sparse.name", 0, take_sparse_name },
	{ "linkpath", 0, take_linkpath },
	{ "size", 0, take_size },
	{ "uid", 0, take_id },
	{ "gid", 0, take_id },
	{ "mtime", 0, take_mtime },
	{ "uname", 0, take_owner },
	{ "gname", 0, take_owner },
	{ "GNU.dumpdir", 0, take_dumpdir },
	{ "SCHILY.acl.access", 0, take_acl },
	{ "SCHILY.acl.default", 0, take_acl },
	{ "SCHILY.acl.ace", 0, take_acl },
	/* families, after every whole key (GNU.sparse.name is one) */
	{ "SCHILY.xattr.", 1, take_xattr },
	{ "GNU.sparse.", 1, take_sparse },
};

/* One record of an 'x' header, key[0, kl) = val[0, vl), into ov and m,
 * through the row of pax_keys that names it.  0; for a path or linkpath
 * that ae_tr_set_string refuses, its STR_* code, with *which set to 0
 * (path) or 1 (link); PAX_BAD for a size that cannot be read.  What a
 * member can do without (a malformed time or id, a bad sparse record)
 * sets ov->warning or ov->unreadable instead. */
static int
pax_record(struct ae_tar_reader *r, struct overrides *ov,
    struct ae_tar_member *m, const char *key, size_t kl, const char *val,
    size_t vl, int *which)
{
	struct pax_ctx c = { r, ov, m, key, kl, which };
	size_t i;

	for (i = 0; i < sizeof pax_keys / sizeof pax_keys[0]; i++) {
		const struct pax_key *k = &pax_keys[i];
		size_t n = strlen(k->key);

		if (k->prefix ? kl > n && memcmp(key, k->key, n) == 0
		    : kl == n && memcmp(key, k->key, n) == 0)
			return k->take(&c, val, vl);
	}
	return 0;
}

/* Parse the records of an 'x' header ("LEN key=value\n" each) into ov
 * and m.  0; PAX_BAD for a malformed record or size; or pax_record's
 * code for a name it refuses. */
int
ae_tr_parse_pax(struct ae_tar_reader *r, const uint8_t *p, size_t n,
    struct overrides *ov, struct ae_tar_member *m, int *which)
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
		if ((e = pax_record(r, ov, m, key, kl, val, vl, which)) != 0)
			return e;
		off += len;
	}
	return 0;
}

/*
 * A 'g' header at the start of the stream: the AESCRYPT.* records that
 * describe the archive (tar.h) into r->global.  Other keys, and values
 * that do not parse, are passed over: nothing here decides how a member
 * is read, so a record this reader cannot take is no error.  A level
 * over 9999 is not taken either.
 */
void
ae_tr_parse_global(struct ae_tar_reader *r, const uint8_t *p, size_t n)
{
	struct ae_tar_global g;
	size_t off = 0;

	memset(&g, 0, sizeof g);
	g.level = -1;
	while (off < n && p[off] != '\0') {
		size_t len = 0, i = off, kl, vl;
		const char *key, *val, *eq;
		uint64_t v;

		while (i < n && i - off < 8 && p[i] >= '0' && p[i] <= '9')
			len = len * 10 + (size_t)(p[i++] - '0');
		if (i >= n || p[i] != ' ' || len < 5 || len > n - off
		    || p[off + len - 1] != '\n')
			return;
		key = (const char *)p + i + 1;
		if ((eq = memchr(key, '=', off + len - 1 - (i + 1))) == NULL)
			return;
		kl = (size_t)(eq - key);
		val = eq + 1;
		vl = (size_t)((const char *)p + off + len - 1 - val);
		if (kl == 16 && memcmp(key, "AESCRYPT.created", 16) == 0
		    && ae_tr_get_mtime(val, vl, &g.created, &g.created_nsec) == 0)
			g.present = 1;
		else if (kl == 14 && memcmp(key, "AESCRYPT.level", 14) == 0
		    && vl > 0 && vl <= 4 && ae_tr_get_decimal(val, vl, &v) == 0)
			g.level = (int)v;
		else if (kl == 18 && memcmp(key, "AESCRYPT.continues", 18) == 0
		    && ae_tr_get_mtime(val, vl, &g.cont, &g.cont_nsec) == 0)
			g.continues = 1;
		off += len;
	}
	if (!g.present)
		return;
	if (g.level <= 0)
		g.continues = 0;
	r->global = g;
}
