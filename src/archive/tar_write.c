/*
 * tar_write.c -- a member's header blocks (contract in tar_write.h).
 */
#include "config.h"
#include "tar_write.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "ustar.h"

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

/* "KEY=SEC[.FRAC]", negative times written as POSIX asks: -1.5 is
 * 1.5 seconds before the epoch. */
static void
add_time(struct records *r, const char *key, int64_t sec, uint32_t nsec)
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
	add_record(r, key, num, (size_t)k);
}

static void
set_checksum(uint8_t *b)
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

/*
 * e's ustar block into ustar (zeroed by the caller) and the pax records
 * for what it cannot hold exactly into r.  Paths are exact in ustar when
 * they fit and are plain ASCII; otherwise a pax record (raw bytes,
 * flagged as binary if they are not UTF-8, so a reader does not "fix"
 * them).  0, or AE_EINVAL for a malformed xattr list.
 */
static int
fill_header(const struct ae_tar_entry *e, uint8_t *ustar, struct records *r)
{
	const char *uname = e->uname ? e->uname : "";
	const char *gname = e->gname ? e->gname : "";
	int needs_link = e->type == AE_TAR_HARDLINK || e->type == AE_TAR_SYMLINK;
	int sparse = e->map != NULL && e->type == AE_TAR_REG, w;
	size_t xp, vl;
	const char *xname;
	const uint8_t *xval;

	/* A sparse entry: size is what is stored (map and runs), which the
	 * caller gives as e->size; the real size goes in a record. */
	common_fields(ustar, e->type, e->mode, e->uid, e->gid,
	    e->type == AE_TAR_REG ? e->size : 0, e->mtime);
	/* (pax has no record for device numbers: they fit ustar's
	 * fields or the member cannot be written) */
	if ((e->type == AE_TAR_CHR || e->type == AE_TAR_BLK)
	    && (put_octal(ustar + F_DEVMAJOR, W_DEV, e->devmajor) != 0
	    || put_octal(ustar + F_DEVMINOR, W_DEV, e->devminor) != 0))
		return AE_ETOOBIG;
	if (!is_utf8(e->path) || (needs_link && !is_utf8(e->linkpath)))
		add_record(r, "hdrcharset", "BINARY", 6);
	if (sparse) {
		char standin[4 * W_NAME];

		sparse_standin(e->path, standin, sizeof standin);
		if (put_path(ustar, standin) != 0)
			memset(ustar + F_PREFIX, 0, W_PREFIX);
		add_record(r, "GNU.sparse.major", "1", 1);
		add_record(r, "GNU.sparse.minor", "0", 1);
		add_record(r, "GNU.sparse.name", e->path, strlen(e->path));
		add_number(r, "GNU.sparse.realsize", e->real_size);
	} else if (put_path(ustar, e->path) != 0 || !is_ascii(e->path)) {
		add_record(r, "path", e->path, strlen(e->path));
	}
	if (needs_link) {
		size_t ll = strlen(e->linkpath);

		memcpy(ustar + F_LINK, e->linkpath, ll < W_LINK ? ll : W_LINK);
		if (ll > W_LINK || !is_ascii(e->linkpath))
			add_record(r, "linkpath", e->linkpath, ll);
	}
	if (e->type == AE_TAR_REG && e->size > 077777777777ull)
		add_number(r, "size", e->size);
	if (e->uid > 07777777)
		add_number(r, "uid", e->uid);
	if (e->gid > 07777777)
		add_number(r, "gid", e->gid);
	if (e->mtime_nsec != 0 || e->mtime < 0
	    || (uint64_t)e->mtime > 077777777777ull)
		add_time(r, "mtime", e->mtime, e->mtime_nsec);
	if (strlen(uname) < W_UNAME && is_ascii(uname))
		memcpy(ustar + F_UNAME, uname, strlen(uname));
	else
		add_record(r, "uname", uname, strlen(uname));
	if (strlen(gname) < W_GNAME && is_ascii(gname))
		memcpy(ustar + F_GNAME, gname, strlen(gname));
	else
		add_record(r, "gname", gname, strlen(gname));
	if (e->dumpdir != NULL && e->type == AE_TAR_DIR)
		add_record(r, "GNU.dumpdir", (const char *)e->dumpdir,
		    e->dumpdir_len);
	for (xp = 0; (w = ae_tar_xattr_walk(e->xattr, e->xattr_len, &xp,
	    &xname, &xval, &vl)) == 1;) {
		char key[13 + 256];

		/* an ACL's text goes as its own record (tar.h) */
		if (strncmp(xname, "SCHILY.acl.", 11) == 0)
			snprintf(key, sizeof key, "%s", xname);
		else
			snprintf(key, sizeof key, "SCHILY.xattr.%s", xname);
		add_record(r, key, (const char *)xval, vl);
	}
	return w == 0 ? AE_OK : AE_EINVAL;
}

int
ae_tar_header(const struct ae_tar_entry *e, uint8_t *out, size_t cap,
    size_t *len)
{
	uint8_t ustar[AE_TAR_BLOCK];
	struct records r;
	size_t total;
	int err;

	if (e->path == NULL || e->path[0] == '\0')
		return AE_EINVAL;
	if (e->type != AE_TAR_REG && e->type != AE_TAR_HARDLINK
	    && e->type != AE_TAR_SYMLINK && e->type != AE_TAR_DIR
	    && e->type != AE_TAR_CHR && e->type != AE_TAR_BLK
	    && e->type != AE_TAR_FIFO)
		return AE_EINVAL;
	if ((e->type == AE_TAR_HARDLINK || e->type == AE_TAR_SYMLINK)
	    && (e->linkpath == NULL || e->linkpath[0] == '\0'))
		return AE_EINVAL;
	if (cap < 3 * AE_TAR_BLOCK)
		return AE_ETOOBIG;
	/* The records are built where they go, after the 'x' block, with
	 * room kept for that block and the ustar one. */
	r.p = out + AE_TAR_BLOCK;
	r.len = 0;
	r.cap = cap - 2 * AE_TAR_BLOCK;
	r.overflow = 0;
	memset(ustar, 0, sizeof ustar);
	if ((err = fill_header(e, ustar, &r)) != AE_OK)
		return err;
	if (r.overflow)
		return AE_ETOOBIG;
	set_checksum(ustar);

	total = AE_TAR_BLOCK;
	if (r.len > 0)
		total += AE_TAR_BLOCK + r.len + ae_tar_padding(r.len);
	if (total > cap)
		return AE_ETOOBIG;
	if (r.len > 0) {
		/* The 'x' header block, named as pax suggests, before the
		 * records, which are padded to a block. */
		const char *base = strrchr(e->path, '/');
		char name[W_NAME + 1];

		base = base != NULL ? base + 1 : e->path;
		snprintf(name, sizeof name, "PaxHeaders/%.88s", base);
		memset(out, 0, AE_TAR_BLOCK);
		memcpy(out + F_NAME, name, strlen(name));
		common_fields(out, 'x', 0644, 0, 0, r.len,
		    e->mtime < 0 ? 0 : e->mtime);
		set_checksum(out);
		memset(out + AE_TAR_BLOCK + r.len, 0, ae_tar_padding(r.len));
		out += AE_TAR_BLOCK + r.len + ae_tar_padding(r.len);
	}
	memcpy(out, ustar, AE_TAR_BLOCK);
	*len = total;
	return AE_OK;
}

int
ae_tar_global_header(const struct ae_tar_global *g, uint8_t *out,
    size_t cap, size_t *len)
{
	struct records r;
	size_t total;

	if (cap < 2 * AE_TAR_BLOCK)
		return AE_ETOOBIG;
	r.p = out + AE_TAR_BLOCK;
	r.len = 0;
	r.cap = cap - AE_TAR_BLOCK;
	r.overflow = 0;
	add_time(&r, "AESCRYPT.created", g->created, g->created_nsec);
	if (g->level >= 0)
		add_number(&r, "AESCRYPT.level", (uint64_t)g->level);
	if (g->level > 0 && g->continues)
		add_time(&r, "AESCRYPT.continues", g->cont, g->cont_nsec);
	total = AE_TAR_BLOCK + r.len + ae_tar_padding(r.len);
	if (r.overflow || total > cap)
		return AE_ETOOBIG;
	/* named as Python's tarfile and git archive name theirs */
	memset(out, 0, AE_TAR_BLOCK);
	memcpy(out + F_NAME, "pax_global_header", 17);
	common_fields(out, 'g', 0644, 0, 0, r.len,
	    g->created < 0 ? 0 : g->created);
	set_checksum(out);
	memset(out + AE_TAR_BLOCK + r.len, 0, ae_tar_padding(r.len));
	*len = total;
	return AE_OK;
}
