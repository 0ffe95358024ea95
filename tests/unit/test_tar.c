/*
 * test_tar.c -- the pax/ustar header encoder.
 *
 * In process: every header is whole blocks, its checksums are right, the
 * ustar fields say what they should, and every pax record's length
 * prefix is its true length.  With AE_TAR_OUT=FILE it also writes a test
 * archive (long, non-ASCII and non-UTF-8 names, long link targets,
 * sub-second and pre-1970 mtimes, big ids and long owner names, setuid)
 * that tests/cli/070-tar.bats hands to GNU tar to list and extract.
 *
 * The reader: everything the encoder writes reads back field for field;
 * every truncation and a set of hostile headers are refused.  With
 * AE_TAR_LIST=FILE it prints the paths of a tar file (one per line), so
 * the bats test can compare them with GNU tar's own listing of archives
 * GNU tar made.
 */
#include "config.h"

#include "check.h"
#include "common/error.h"
#include "common/io.h"
#include "archive/snapshot.h"
#include "archive/tar_read.h"
#include "archive/tar_write.h"

static unsigned long
octal(const uint8_t *f, size_t w)
{
	unsigned long v = 0;
	size_t i;

	for (i = 0; i < w && f[i] >= '0' && f[i] <= '7'; i++)
		v = v * 8 + (unsigned long)(f[i] - '0');
	return v;
}

static int
ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

/* Local twins of the encoder's helpers, for building hostile headers. */
static void
set_octal(uint8_t *f, size_t width, uint64_t v)
{
	size_t i = width - 1;

	f[i] = '\0';
	while (i > 0) {
		f[--i] = (uint8_t)('0' + (v & 7));
		v >>= 3;
	}
}

static void
fix_checksum(uint8_t *b)
{
	unsigned sum = 0;
	int i;

	memset(b + 148, ' ', 8);
	for (i = 0; i < AE_TAR_BLOCK; i++)
		sum += b[i];
	set_octal(b + 148, 7, sum);
}

static int
checksum_ok(const uint8_t *b)
{
	unsigned sum = 0;
	int i;

	for (i = 0; i < AE_TAR_BLOCK; i++)
		sum += (i >= 148 && i < 156) ? ' ' : b[i];
	return sum == octal(b + 148, 8);
}

/* Check the records of an 'x' header; return how many there were, or
 * -1 if a length prefix is wrong.  Copies the value of `key`, if found. */
static int
records(const uint8_t *p, size_t n, const char *key, char *val, size_t vcap)
{
	size_t off = 0;
	int count = 0;

	while (off < n) {
		size_t len = 0, i = off, k;

		while (i < n && p[i] >= '0' && p[i] <= '9')
			len = len * 10 + (size_t)(p[i++] - '0');
		if (i >= n || p[i] != ' ' || len == 0 || off + len > n
		    || p[off + len - 1] != '\n')
			return -1;
		k = strlen(key);
		if (val != NULL && memcmp(p + i + 1, key, k) == 0
		    && p[i + 1 + k] == '=') {
			size_t vl = off + len - 1 - (i + 2 + k);
			if (vl < vcap) {
				memcpy(val, p + i + 2 + k, vl);
				val[vl] = '\0';
			}
		}
		off += len;
		count++;
	}
	return count;
}

/* The entries below give the fields up to the owner names; the later
 * ones (a sparse map, xattrs) stay zero, which is what these tests
 * mean. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static const char long_dir[] =
    "dir/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static char long_path[600], long_target[300];

static struct ae_tar_entry entries[] = {
	{ "dir", NULL, AE_TAR_DIR, 0755, 0, 0, 0, 1000000000, 500000000,
	    "root", "root" },
	{ "dir/file.txt", NULL, AE_TAR_REG, 0644, 1000, 1000, 6, 1700000000,
	    123456789, "alice", "staff" },
	{ long_path, NULL, AE_TAR_REG, 0600, 0, 0, 5, 1700000001, 0, NULL,
	    NULL },
	{ "dir/caf\xc3\xa9", NULL, AE_TAR_REG, 0644, 0, 0, 5, 1700000002, 0,
	    NULL, NULL },
	{ "dir/bad\xff\xfe", NULL, AE_TAR_REG, 0644, 0, 0, 5, 1700000003, 0,
	    NULL, NULL },
	{ "dir/link", "file.txt", AE_TAR_SYMLINK, 0777, 0, 0, 0, 1700000004,
	    0, NULL, NULL },
	{ "dir/longlink", long_target, AE_TAR_SYMLINK, 0777, 0, 0, 0,
	    1700000005, 0, NULL, NULL },
	{ "dir/hard", "dir/file.txt", AE_TAR_HARDLINK, 0644, 1000, 1000, 0,
	    1700000000, 0, NULL, NULL },
	{ "dir/suid", NULL, AE_TAR_REG, 04755, 3000000, 3000001, 5,
	    1700000006, 0, "a-user-name-that-is-longer-than-32-bytes",
	    "group" },
	{ "dir/old", NULL, AE_TAR_REG, 0644, 0, 0, 5, -1, 0, NULL, NULL },
	{ "dir/spaces and\nnewline", NULL, AE_TAR_REG, 0644, 0, 0, 5,
	    1700000007, 0, NULL, NULL },
	/* devices keep their numbers (the largest minor Linux has); a FIFO
	 * is a header alone */
	{ "dev/null", NULL, AE_TAR_CHR, 0666, 0, 0, 0, 1700000008, 0, "root",
	    "root", 1, 3 },
	{ "dev/big", NULL, AE_TAR_BLK, 0660, 0, 6, 0, 1700000009, 0, NULL,
	    NULL, 4095, 1048575 },
	{ "dev/fifo", NULL, AE_TAR_FIFO, 0644, 0, 0, 0, 1700000010, 0, NULL,
	    NULL, 0, 0 },
};
#define NENTRIES (sizeof entries / sizeof *entries)

/* Print the paths in a tar file; the exit status says if it read. */
static int
list(const char *path)
{
	static struct ae_tar_member m;
	struct ae_tar_reader r;
	struct ae_memio mem = { 0 };
	struct ae_reader rd = { ae_mem_read, &mem, NULL };
	struct ae_diag d = { 0 };
	size_t n;
	char *buf = t_slurp(".", path, &n);
	int e;

	mem.src = (const uint8_t *)buf;
	mem.len = n;
	if (ae_tar_reader_init(&r, &rd) != AE_OK)
		return 2;
	while ((e = ae_tar_next(&r, &m, &d)) == AE_OK)
		printf("%s\n", m.path);
	ae_tar_reader_free(&r);
	free(buf);
	if (e != 1) {
		fprintf(stderr, "tar reader: %s at %llu\n", d.what, d.offset);
		return 1;
	}
	return 0;
}

/* Read arc[0, n) and compare with entries[]; returns the status of the
 * first failure, or 1 for a clean end. */
static int
read_back(const uint8_t *arc, size_t n, int check)
{
	static struct ae_tar_member m;
	struct ae_tar_reader r;
	struct ae_memio mem = { .src = arc, .len = n };
	struct ae_reader rd = { ae_mem_read, &mem, NULL };
	size_t i = 0, got;
	uint8_t data[16];
	int e;

	ae_tar_reader_init(&r, &rd);
	while ((e = ae_tar_next(&r, &m, NULL)) == AE_OK) {
		const struct ae_tar_entry *x = &entries[i];

		if (check && i < NENTRIES) {
			CHECK(strcmp(m.path, x->path) == 0, "path %zu", i);
			CHECK(m.type == x->type && m.mode == x->mode
			    && m.uid == x->uid && m.gid == x->gid
			    && m.mtime == x->mtime
			    && m.mtime_nsec == x->mtime_nsec,
			    "fields %zu: mtime %lld.%u", i, (long long)m.mtime,
			    m.mtime_nsec);
			CHECK(m.size == (x->type == AE_TAR_REG ? x->size : 0),
			    "size %zu", i);
			CHECK(m.devmajor == x->devmajor
			    && m.devminor == x->devminor, "device %zu: %u,%u",
			    i, m.devmajor, m.devminor);
			if (x->linkpath != NULL)
				CHECK(strcmp(m.linkpath, x->linkpath) == 0,
				    "link %zu", i);
			CHECK(strcmp(m.uname, x->uname ? x->uname : "") == 0
			    && strcmp(m.gname, x->gname ? x->gname : "") == 0,
			    "names %zu", i);
			e = ae_tar_read_data(&r, &m, data, sizeof data, &got, NULL);
			CHECK(e == AE_OK && got == m.size && (i != 1
			    || memcmp(data, "hello\n", 6) == 0), "data %zu", i);
		}
		i++;
	}
	if (check)
		CHECK(e == 1 && i == NENTRIES, "read %zu members, end %d", i, e);
	ae_tar_reader_free(&r);
	return e;
}

static size_t
build(uint8_t *arc, size_t cap)
{
	static const uint8_t zeros[AE_TAR_END_LEN];
	size_t off = 0, len, i;

	for (i = 0; i < NENTRIES; i++) {
		uint64_t n = entries[i].type == AE_TAR_REG ? entries[i].size : 0;

		if (ae_tar_header(&entries[i], arc + off, cap - off, &len) != AE_OK)
			return 0;
		off += len;
		memset(arc + off, 'x', (size_t)n);
		if (i == 1)
			memcpy(arc + off, "hello\n", 6);
		off += (size_t)n;
		memset(arc + off, 0, ae_tar_padding(n));
		off += ae_tar_padding(n);
	}
	memcpy(arc + off, zeros, sizeof zeros);
	return off + sizeof zeros;
}

/*
 * Read the first member of arc[0, n): its data (holes passed over) to
 * *total, then the next header, which must be the end.  Returns the
 * first ae_tar_next result, or -100 if the end did not follow.
 */
static int
first_member(const uint8_t *arc, size_t n, struct ae_tar_member *m,
    uint64_t *total)
{
	struct ae_tar_reader r;
	struct ae_memio mem = { .src = arc, .len = n };
	struct ae_reader rd = { ae_mem_read, &mem, NULL };
	uint8_t buf[1000];
	size_t got;
	int e, hole;

	*total = 0;
	ae_tar_reader_init(&r, &rd);
	if ((e = ae_tar_next(&r, m, NULL)) == AE_OK) {
		while (ae_tar_read_data(&r, m, buf, sizeof buf, &got, &hole)
		    == AE_OK && got > 0)
			*total += got;
		if (ae_tar_next(&r, m + 1, NULL) != 1)
			e = -100;
	}
	ae_tar_reader_free(&r);
	return e;
}

static void
test_reader(void)
{
	static uint8_t arc[64 * 1024], bad[64 * 1024];
	size_t n = build(arc, sizeof arc), cut, i;
	int e;

	CHECK(n > 0, "archive built");
	read_back(arc, n, 1);
	/* Every truncation before the end marker is refused, except one
	 * exactly between two members: older tars wrote no end marker, so
	 * that reads as an end (the container authenticates where the data
	 * ends).  Every block start is tried. */
	{
		size_t ends = 0;

		for (cut = 0; cut < n - AE_TAR_END_LEN;
		    cut += (cut % 512 < 2 ? 1 : 255)) {
			e = read_back(arc, cut, 0);
			CHECK(e == AE_ETRUNC || (e == 1 && cut % 512 == 0
			    && cut > 0), "cut at %zu: %d", cut, e);
			ends += e == 1;
		}
		CHECK(ends == NENTRIES - 1, "%zu cuts between members read as "
		    "an end", ends);
	}
	/* A flipped bit anywhere in a header block is caught by the
	 * checksum, except in the checksum field's NUL and space, which
	 * readers ignore.  (A pax record block has no checksum: tar has no
	 * integrity of its own; the container's GCM tags are what protect
	 * an archive.)  Blocks 0 and 3 are 'x' headers, 2 and 5 ustar. */
	{
		static const size_t blocks[] = { 0, 2, 3, 5 };
		size_t k;

		for (k = 0; k < 4; k++)
			for (i = 0; i < 8 * AE_TAR_BLOCK; i += 7) {
				size_t at = blocks[k] * AE_TAR_BLOCK + i / 8;

				if (i / 8 == 154 || i / 8 == 155)
					continue;
				memcpy(bad, arc, n);
				bad[at] ^= (uint8_t)(1 << (i % 8));
				e = read_back(bad, n, 0);
				CHECK(e == AE_EFORMAT, "block %zu bit %zu: %d",
				    blocks[k], i, e);
			}
	}
	/* Hostile: a pax length prefix that overruns; an 'x' header over the
	 * cap; a sparse member; a base-256 negative size. */
	{
		struct ae_tar_entry e1 = { "a", NULL, AE_TAR_REG, 0644, 0, 0, 0,
		    1, 500, NULL, NULL };
		static struct ae_tar_member mm[2];
		uint64_t total;
		size_t len;
		uint8_t *x = bad;

		ae_tar_header(&e1, bad, sizeof bad, &len);
		memset(bad + len, 0, AE_TAR_END_LEN);
		CHECK(read_back(bad, len + AE_TAR_END_LEN, 0) == 1, "control");
		x[512] = '9';           /* "30 mtime=..." -> "90 ..." */
		CHECK(read_back(bad, len + AE_TAR_END_LEN, 0) == AE_EFORMAT,
		    "pax length overrun");
		ae_tar_header(&e1, bad, sizeof bad, &len);
		set_octal(x + 124, 12, AE_TAR_PAX_MAX + 1);
		fix_checksum(x);
		CHECK(read_back(bad, len + AE_TAR_END_LEN, 0) == AE_EFORMAT,
		    "pax header over the cap");
		ae_tar_header(&e1, bad, sizeof bad, &len);
		x = bad + len - AE_TAR_BLOCK;
		x[156] = 'S';
		x[483] = 'z';           /* its real size: not a number */
		fix_checksum(x);
		/* an old GNU sparse member whose map is malformed: skipped,
		 * and the stream goes on to its end */
		CHECK(read_back(bad, len + AE_TAR_END_LEN, 0) == 1,
		    "unreadable sparse member");
		CHECK(first_member(bad, len + AE_TAR_END_LEN, mm, &total)
		    == AE_OK && mm[0].unreadable != NULL && mm[0].map == NULL
		    && total == 0, "the 'S' member is marked unreadable, "
		    "reads as empty, and the end follows");
		/* an old GNU sparse member with no run at all: a file that
		 * is all hole, its real size 4096, nothing stored */
		x[483] = '0';
		memcpy(x + 483, "00000010000", 11);
		fix_checksum(x);
		CHECK(first_member(bad, len + AE_TAR_END_LEN, mm, &total)
		    == AE_OK && mm[0].unreadable == NULL && mm[0].size == 4096
		    && mm[0].stored == 0 && mm[0].map != NULL && mm[0].nmap == 0
		    && total == 4096, "all-hole 'S' member: size %llu, read "
		    "%llu", (unsigned long long)mm[0].size,
		    (unsigned long long)total);
		x[156] = '0';
		x[483] = 0;
		memset(x + 483, 0, 12);
		memset(x + 124, 0xff, 12);
		fix_checksum(x);
		CHECK(read_back(bad, len + AE_TAR_END_LEN, 0) == AE_EFORMAT,
		    "negative base-256 size");
	}
}

/* A GNU 'L' or 'K' block of n bytes of c (with a NUL after them when
 * nul), at b; returns the bytes used. */
static size_t
gnu_long(uint8_t *b, char type, char c, size_t n, int nul)
{
	size_t size = n + (nul != 0);

	memset(b, 0, AE_TAR_BLOCK);
	strcpy((char *)b, "././@LongLink");
	memcpy(b + 100, "0000644", 7);
	set_octal(b + 124, 12, size);
	b[156] = (uint8_t)type;
	memcpy(b + 257, "ustar\0" "00", 8);
	fix_checksum(b);
	memset(b + AE_TAR_BLOCK, 0, (size + 511) / 512 * 512);
	memset(b + AE_TAR_BLOCK, c, n);
	return AE_TAR_BLOCK + (size + 511) / 512 * 512;
}

/* Names at and over AE_TAR_NAME_MAX from 'L' and 'K' blocks (issue 13:
 * 4097 bytes with no NUL wrote past path[]): the reader keeps the whole
 * name, terminated, within AE_TAR_NAME_MAX, or refuses it. */
static void
test_long_names(void)
{
	static uint8_t arc[160 * 1024];
	enum { CAP = AE_TAR_NAME_MAX };
	static const struct { size_t n; int nul; char type; int want; } c[] = {
		{ CAP - 1, 1, 'L', AE_OK }, { CAP, 1, 'L', AE_OK },
		{ CAP, 0, 'L', AE_OK }, { CAP + 1, 0, 'L', AE_EFORMAT },
		{ CAP + 1, 1, 'L', AE_EFORMAT }, { CAP, 0, 'K', AE_OK },
		{ CAP + 1, 0, 'K', AE_EFORMAT }, { 4097, 0, 'L', AE_OK },
	};
	struct ae_tar_entry e1 = { "m", "t", AE_TAR_SYMLINK, 0644, 0, 0, 0,
	    1, 0, NULL, NULL };
	size_t i, n, len;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		static struct ae_tar_member m;
		struct ae_memio mio = { 0 };
		struct ae_reader in = { ae_mem_read, &mio, NULL };
		struct ae_tar_reader tr;
		struct ae_diag d = { 0 };
		int e;

		n = gnu_long(arc, c[i].type, 'A', c[i].n, c[i].nul);
		ae_tar_header(&e1, arc + n, sizeof arc - n, &len);
		n += len;
		memset(arc + n, 0, AE_TAR_END_LEN);
		n += AE_TAR_END_LEN;
		mio.src = arc;
		mio.len = n;
		memset(&m, 0x55, sizeof m);
		CHECK(ae_tar_reader_init(&tr, &in) == AE_OK, "init");
		e = ae_tar_next(&tr, &m, &d);
		CHECK(e == c[i].want, "%c %zu%s: %d", c[i].type, c[i].n,
		    c[i].nul ? "+NUL" : "", e);
		if (e == AE_OK) {
			const char *s = c[i].type == 'L' ? m.path : m.linkpath;

			/* the whole name, terminated (the struct was filled
			 * with 0x55 before) */
			CHECK(strlen(s) == c[i].n && s[0] == 'A'
			    && s[c[i].n - 1] == 'A', "%c %zu: length %zu",
			    c[i].type, c[i].n, strlen(s));
			CHECK(strlen(m.path) <= AE_TAR_NAME_MAX
			    && strlen(m.linkpath) <= AE_TAR_NAME_MAX,
			    "both names within the cap");
		} else {
			CHECK(d.offset == 0 && d.where == AE_AT_MEMBER && d.what != NULL
			    && strstr(d.what, "longer than 65535") != NULL,
			    "%c %zu: the member's position and why", c[i].type,
			    c[i].n);
		}
		ae_tar_reader_free(&tr);
	}
}

/* The attribute list: built, walked, and refused when it is not well
 * formed, by the walker and by the encoder that takes it from -c. */
static void
test_xattr_list(void)
{
	static uint8_t hdr[AE_TAR_HEADER_MAX];
	static char longname[300];
	uint8_t *buf = NULL, big[70000] = { 0 };
	size_t len = 0, cap = 0, pos = 0, vl, hl;
	const char *name;
	const uint8_t *val;
	struct ae_tar_entry e = { "f", NULL, AE_TAR_REG, 0644, 0, 0, 0, 1, 0,
	    NULL, NULL };

	CHECK(ae_tar_xattr_append(&buf, &len, &cap, 1 << 20, "user.a", 6,
	    (const uint8_t *)"one", 3) == 0
	    && ae_tar_xattr_append(&buf, &len, &cap, 1 << 20, "user.b", 6,
	    (const uint8_t *)"", 0) == 0, "append two");
	CHECK(ae_tar_xattr_walk(buf, len, &pos, &name, &val, &vl) == 1
	    && strcmp(name, "user.a") == 0 && vl == 3
	    && memcmp(val, "one", 3) == 0, "walk: first");
	CHECK(ae_tar_xattr_walk(buf, len, &pos, &name, &val, &vl) == 1
	    && strcmp(name, "user.b") == 0 && vl == 0, "walk: second");
	CHECK(ae_tar_xattr_walk(buf, len, &pos, &name, &val, &vl) == 0,
	    "walk: end");
	memset(longname, 'n', 256);
	CHECK(ae_tar_xattr_append(&buf, &len, &cap, 1 << 20, longname, 256,
	    big, 1) == -1, "a 256-byte name is refused");
	CHECK(ae_tar_xattr_append(&buf, &len, &cap, 1 << 20, "user.c", 6,
	    big, 65537) == -1, "a value over 64 KiB is refused");
	CHECK(ae_tar_xattr_append(&buf, &len, &cap, len + 10, "user.c", 6,
	    big, 10) == -1, "past max is refused");
	e.xattr = buf;
	e.xattr_len = len;
	e.nxattr = 2;
	CHECK(ae_tar_header(&e, hdr, sizeof hdr, &hl) == AE_OK, "encode");
	/* a value length that runs past the list */
	buf[6 + 1 + 3] = 200;
	pos = 0;
	CHECK(ae_tar_xattr_walk(buf, len, &pos, &name, &val, &vl) == -1,
	    "walk refuses a length past the end");
	CHECK(ae_tar_header(&e, hdr, sizeof hdr, &hl) == AE_EINVAL,
	    "encode refuses it too");
	e.xattr_len = 3;        /* a cut name */
	pos = 0;
	CHECK(ae_tar_xattr_walk(buf, 3, &pos, &name, &val, &vl) == -1,
	    "walk refuses a cut entry");
	free(buf);
}

/* GNU tar's snapshot files (format 2): one made by GNU tar 1.34 reads
 * and encodes back byte for byte; every cut of it and every changed
 * byte either parses or is refused, never read past. */
static void
snapshot_tests(void)
{
	static const char gnu[] = "GNU tar-1.34-2\n1796179308\000591597052\000"
	    "0\0001796179308\000523253388\00065024\00011001866\000d/t\000"
	    "Nb\000\000\000"
	    "0\0001796179308\000575253388\00065024\00010960904\000d\000"
	    "Yc\000Dt\000\000\000";
	const size_t len = sizeof gnu - 1;
	struct ae_snapshot s;
	uint8_t *out, *bad;
	size_t olen, i;
	int err;

	ae_snapshot_init(&s);
	CHECK(ae_snapshot_parse((const uint8_t *)gnu, len, &s) == AE_OK
	    && s.n == 2 && s.time == 1796179308 && s.time_nsec == 591597052,
	    "snapshot: GNU tar's parses");
	CHECK(s.n == 2 && strcmp(s.dirs[0].name, "d/t") == 0
	    && s.dirs[0].dev == 65024 && s.dirs[0].ino == 11001866
	    && s.dirs[0].dumpdir_len == 4
	    && memcmp(s.dirs[0].dumpdir, "Nb\0\0", 4) == 0,
	    "snapshot: its first directory");
	CHECK(ae_snapshot_find(&s, 65024, 10960904) == &s.dirs[1]
	    && ae_snapshot_find(&s, 65024, 1) == NULL, "snapshot: find");
	CHECK(ae_snapshot_encode(&s, &out, &olen) == AE_OK && olen == len
	    && memcmp(out, gnu, len) == 0, "snapshot: encodes back");
	free(out);
	ae_snapshot_free(&s);
	for (i = 0; i < len; i++) {
		ae_snapshot_init(&s);
		bad = malloc(i ? i : 1);
		memcpy(bad, gnu, i);
		err = ae_snapshot_parse(bad, i, &s);
		/* a cut at a record's end is a shorter, valid snapshot */
		CHECK(err == AE_OK || err == AE_EFORMAT, "snapshot: cut %zu", i);
		ae_snapshot_free(&s);
		free(bad);
	}
	for (i = 0; i < len; i++) {
		ae_snapshot_init(&s);
		bad = malloc(len);
		memcpy(bad, gnu, len);
		bad[i] ^= 0x5a;
		err = ae_snapshot_parse(bad, len, &s);
		CHECK(err == AE_OK || err == AE_EFORMAT, "snapshot: byte %zu", i);
		ae_snapshot_free(&s);
		free(bad);
	}
	/* the index by device and inode: many directories, each found, a
	 * missing one not, and of two with the same pair the first */
	ae_snapshot_init(&s);
	{
		struct ae_snap_dir d;
		char name[32];
		size_t k, found = 0, right = 0;

		memset(&d, 0, sizeof d);
		d.name = name;
		d.dumpdir = (uint8_t *)"";
		d.dumpdir_len = 1;
		for (k = 0; k < 20000; k++) {
			snprintf(name, sizeof name, "d%zu", k);
			d.dev = 64 + k % 3;
			d.ino = 1000 + 7 * k;
			CHECK(ae_snapshot_add(&s, &d) == AE_OK, "snapshot: add %zu",
			    k);
		}
		snprintf(name, sizeof name, "again");
		d.dev = 64;
		d.ino = 1000;
		CHECK(ae_snapshot_add(&s, &d) == AE_OK, "snapshot: add a twin");
		for (k = 0; k < 20000; k++) {
			const struct ae_snap_dir *f = ae_snapshot_find(&s,
			    64 + k % 3, 1000 + 7 * k);

			snprintf(name, sizeof name, "d%zu", k);
			found += f != NULL;
			right += f != NULL && strcmp(f->name, name) == 0;
		}
		CHECK(found == 20000 && right == 20000,
		    "snapshot: 20,000 directories found by device and inode "
		    "(%zu found, %zu right)", found, right);
		CHECK(ae_snapshot_find(&s, 64, 1001) == NULL
		    && ae_snapshot_find(&s, 63, 1000) == NULL,
		    "snapshot: a pair not there is not found");
		CHECK(ae_snapshot_find(&s, 64, 1000) == &s.dirs[0],
		    "snapshot: of two with one pair, the first");
	}
	ae_snapshot_free(&s);
	ae_snapshot_init(&s);
	CHECK(ae_snapshot_parse((const uint8_t *)"GNU tar-1.34-1\n1\0000\000",
	    19, &s) == AE_EFORMAT, "snapshot: format 1 refused");
	ae_snapshot_free(&s);
}


int
main(void)
{
	static uint8_t hdr[AE_TAR_HEADER_MAX];
	const char *outpath = getenv("AE_TAR_OUT");
	FILE *fp = NULL;
	size_t i, len;
	char val[1024];

	snprintf(long_path, sizeof long_path, "%s/%s/%s", long_dir,
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
	    "file");
	memset(long_target, 't', 150);
	long_target[150] = '\0';
	test_xattr_list();
	if (getenv("AE_TAR_LIST") != NULL)
		return list(getenv("AE_TAR_LIST"));
	if (outpath != NULL && (fp = fopen(outpath, "wb")) == NULL) {
		perror(outpath);
		return 2;
	}
	for (i = 0; i < NENTRIES; i++) {
		const struct ae_tar_entry *e = &entries[i];
		const uint8_t *u;
		int r = ae_tar_header(e, hdr, sizeof hdr, &len);

		CHECK(r == AE_OK && len % AE_TAR_BLOCK == 0 && len > 0,
		    "entry %zu encodes: %d", i, r);
		if (r != AE_OK)
			continue;
		u = hdr + len - AE_TAR_BLOCK;
		CHECK(checksum_ok(u), "entry %zu ustar checksum", i);
		CHECK(memcmp(u + 257, "ustar\0" "00", 8) == 0, "magic %zu", i);
		CHECK(u[156] == (uint8_t)e->type, "type %zu", i);
		CHECK(octal(u + 100, 8) == (e->mode & 07777), "mode %zu", i);
		if (len > AE_TAR_BLOCK) {
			size_t n = octal(hdr + 124, 12);
			int count;

			CHECK(checksum_ok(hdr) && hdr[156] == 'x',
			    "entry %zu x header", i);
			CHECK(len == 2 * AE_TAR_BLOCK + n + (AE_TAR_BLOCK -
			    n % AE_TAR_BLOCK) % AE_TAR_BLOCK, "x size %zu", i);
			val[0] = '\0';
			count = records(hdr + AE_TAR_BLOCK, n, "path", val,
			    sizeof val);
			CHECK(count > 0, "entry %zu record lengths", i);
			/* A path ustar cannot hold exactly must be in a
			 * record, byte for byte. */
			if (strlen(e->path) > 100 || !ascii(e->path))
				CHECK(strcmp(val, e->path) == 0,
				    "entry %zu path record", i);
		} else {
			CHECK(strlen(e->path) <= 100 && memcmp(u, e->path,
			    strlen(e->path)) == 0, "entry %zu plain name", i);
		}
		if (fp != NULL) {
			static const uint8_t zeros[AE_TAR_BLOCK];
			char data[16];
			uint64_t n = e->type == AE_TAR_REG ? e->size : 0;

			memset(data, 'x', sizeof data);
			if (i == 1)
				memcpy(data, "hello\n", 6);
			fwrite(hdr, 1, len, fp);
			fwrite(data, 1, (size_t)n, fp);
			fwrite(zeros, 1, ae_tar_padding(n), fp);
		}
	}
	/* A path that splits into prefix and name needs no 'x' header. */
	{
		char p[200];
		struct ae_tar_entry e = { p, NULL, AE_TAR_REG, 0644, 0, 0, 0,
		    1, 0, NULL, NULL };

		memset(p, 'p', 150);
		memcpy(p + 150, "/name.txt", 10);
		CHECK(ae_tar_header(&e, hdr, sizeof hdr, &len) == AE_OK
		    && len == AE_TAR_BLOCK && memcmp(hdr, "name.txt", 9) == 0
		    && hdr[345] == 'p' && hdr[345 + 149] == 'p'
		    && hdr[345 + 150] == 0, "prefix/name split");
	}
	/* Refusals. */
	{
		struct ae_tar_entry e = { "", NULL, AE_TAR_REG, 0644, 0, 0, 0,
		    0, 0, NULL, NULL };

		CHECK(ae_tar_header(&e, hdr, sizeof hdr, &len) == AE_EINVAL,
		    "empty path");
		e.path = "x";
		e.type = 'Z';
		CHECK(ae_tar_header(&e, hdr, sizeof hdr, &len) == AE_EINVAL,
		    "unknown type");
		e.type = AE_TAR_CHR;
		e.devmajor = 07777777 + 1;
		CHECK(ae_tar_header(&e, hdr, sizeof hdr, &len) == AE_ETOOBIG,
		    "device number over ustar's field");
		e.devmajor = 0;
		e.type = AE_TAR_SYMLINK;
		CHECK(ae_tar_header(&e, hdr, sizeof hdr, &len) == AE_EINVAL,
		    "symlink without target");
		e.type = AE_TAR_REG;
		CHECK(ae_tar_header(&e, hdr, 100, &len) == AE_ETOOBIG,
		    "no room");
		e.size = 1ull << 40;   /* 1 TiB: a pax size record */
		CHECK(ae_tar_header(&e, hdr, sizeof hdr, &len) == AE_OK
		    && len > AE_TAR_BLOCK && records(hdr + AE_TAR_BLOCK,
		    octal(hdr + 124, 12), "size", val, sizeof val) > 0
		    && strcmp(val, "1099511627776") == 0, "size over 8 GiB");
	}
	if (fp != NULL) {
		static const uint8_t end[AE_TAR_END_LEN];

		fwrite(end, 1, sizeof end, fp);
		if (fclose(fp) != 0) {
			perror(outpath);
			return 2;
		}
	}
	test_reader();
	test_long_names();
	snapshot_tests();
	return t_finish("test_tar");
}
