/*
 * catmember.c -- print a byte range of one member of an archive, read
 * at random through its index: only the records that hold the range
 * are read and opened (libaescrypt's aescrypt_reader_pread), as a mount
 * reads a file.
 *
 *   catmember KEYFILE ARCHIVE NAME [OFFSET [LENGTH]]
 *
 * Build: cc catmember.c $(pkg-config --cflags --libs aescrypt)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <aescrypt.h>

static int
number(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno == 0 && *s != '\0' && *s != '-' && *end == '\0';
}

int
main(int argc, char **argv)
{
	static char buf[1 << 16];
	aescrypt_reader *r;
	struct aescrypt_entry e;
	uint64_t i, off = 0, len = UINT64_MAX;
	size_t got;
	int st;

	if (argc < 4 || argc > 6 || (argc > 4 && !number(argv[4], &off))
	    || (argc > 5 && !number(argv[5], &len))) {
		fprintf(stderr, "usage: catmember KEYFILE ARCHIVE NAME "
		    "[OFFSET [LENGTH]]\n");
		return 2;
	}
	if ((r = aescrypt_reader_new()) == NULL)
		return 1;
	if ((st = aescrypt_reader_add_keyfile(r, argv[1])) != AESCRYPT_OK
	    || (st = aescrypt_reader_open_path(r, argv[2])) != AESCRYPT_OK
	    || (st = aescrypt_reader_find(r, argv[3], &i)) < 0
	    || (st = aescrypt_reader_entry(r, i, &e)) < 0)
		goto out;
	if (st == AESCRYPT_END || e.type != AESCRYPT_FILE) {
		fprintf(stderr, "catmember: %s: no such file in %s\n", argv[3],
		    argv[2]);
		aescrypt_reader_free(r);
		return 1;
	}
	while (len > 0) {
		size_t n = len < sizeof buf ? (size_t)len : sizeof buf;

		if ((st = aescrypt_reader_pread(r, i, buf, n, off, &got))
		    != AESCRYPT_OK || got == 0)
			break;
		if (fwrite(buf, 1, got, stdout) != got) {
			perror("catmember: standard output");
			aescrypt_reader_free(r);
			return 1;
		}
		off += got;
		len -= got;
	}
out:
	if (st < 0)
		fprintf(stderr, "catmember: %s: %s\n", argv[2],
		    aescrypt_reader_error(r));
	aescrypt_reader_free(r);
	return st < 0 || fflush(stdout) != 0;
}
