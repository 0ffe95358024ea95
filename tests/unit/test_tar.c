/*
 * test_tar.c -- the pax/ustar header encoder.
 *
 * In process: every header is whole blocks, its checksums are right, the
 * ustar fields say what they should, and every pax record's length
 * prefix is its true length.  With AE_TAR_OUT=FILE it also writes a test
 * archive (long, non-ASCII and non-UTF-8 names, long link targets,
 * sub-second and pre-1970 mtimes, big ids and long owner names, setuid)
 * that tests/cli/070-tar.bats hands to GNU tar to list and extract.
 */
#include "config.h"

#include "check.h"
#include "error.h"
#include "tar.h"

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
};
#define NENTRIES (sizeof entries / sizeof *entries)

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
			if (strlen(e->path) > 100 || strchr(e->path, 0x80) ||
			    (unsigned char)e->path[strlen(e->path) - 1] >= 0x80)
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
		e.type = '3';
		CHECK(ae_tar_header(&e, hdr, sizeof hdr, &len) == AE_EINVAL,
		    "device type");
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
	return t_finish("test_tar");
}
