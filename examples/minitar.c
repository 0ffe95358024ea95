/*
 * minitar.c -- an encrypted archive of a directory, and its extraction,
 * through libaescrypt's public API alone (aescrypt.h), as libarchive's
 * minitar shows its library.  The archive is an ordinary aescrypt file:
 * aescrypt -t and -x read it, and minitar reads what aescrypt -c writes.
 *
 *   minitar -c KEYFILE OUT.aes DIR     (KEYFILE from aescrypt --gen-key)
 *   minitar -x KEYFILE IN.aes DESTDIR
 *
 * Build: cc minitar.c $(pkg-config --cflags --libs aescrypt)
 */
#include <stdio.h>
#include <string.h>

#include <aescrypt.h>

/* Make OUT.aes from DIR: the writer walks DIR as aescrypt -c does (the
 * file appears under its name only once it is whole). */
static int
create(const char *keyfile, const char *out, const char *dir)
{
	aescrypt_writer *w = aescrypt_writer_new();
	int st;

	if (w == NULL)
		return AESCRYPT_ENOMEM;
	if ((st = aescrypt_writer_add_keyfile(w, keyfile)) == AESCRYPT_OK
	    && (st = aescrypt_writer_open_path(w, AESCRYPT_ARCHIVE, out))
	    == AESCRYPT_OK
	    && (st = aescrypt_writer_add_path(w, dir)) == AESCRYPT_OK)
		st = aescrypt_writer_close(w);
	if (st != AESCRYPT_OK)
		fprintf(stderr, "minitar: %s: %s\n", out,
		    aescrypt_writer_error(w));
	else if (aescrypt_writer_partial(w))
		fprintf(stderr, "minitar: %s (and perhaps more)\n",
		    aescrypt_writer_error(w));
	aescrypt_writer_free(w);
	return st;
}

/* Extract IN.aes beneath DESTDIR, listing each member as it is made:
 * the loop of libarchive's, then the safe writer for the rest. */
static int
extract(const char *keyfile, const char *in, const char *dest)
{
	aescrypt_reader *r = aescrypt_reader_new();
	int st;

	if (r == NULL)
		return AESCRYPT_ENOMEM;
	if ((st = aescrypt_reader_add_keyfile(r, keyfile)) == AESCRYPT_OK
	    && (st = aescrypt_reader_open_path(r, in)) == AESCRYPT_OK) {
		if (aescrypt_reader_kind(r) != AESCRYPT_ARCHIVE) {
			fprintf(stderr, "minitar: %s: a stream, not an archive\n",
			    in);
			aescrypt_reader_free(r);
			return AESCRYPT_EFORMAT;
		}
		st = aescrypt_reader_extract(r, dest, 0);
	}
	if (st != AESCRYPT_OK)
		fprintf(stderr, "minitar: %s\n", aescrypt_reader_error(r));
	else if (aescrypt_reader_partial(r))
		fprintf(stderr, "minitar: %s (and perhaps more)\n",
		    aescrypt_reader_error(r));
	aescrypt_reader_free(r);
	return st;
}

int
main(int argc, char **argv)
{
	int st;

	if (argc != 5 || (strcmp(argv[1], "-c") != 0
	    && strcmp(argv[1], "-x") != 0)) {
		fprintf(stderr, "usage: minitar -c KEYFILE OUT.aes DIR\n"
		    "       minitar -x KEYFILE IN.aes DESTDIR\n");
		return 2;
	}
	if (aescrypt_version_number() / 10000 != AESCRYPT_VERSION_MAJOR) {
		fprintf(stderr, "minitar: built for libaescrypt %d, running "
		    "with %s\n", AESCRYPT_VERSION_MAJOR,
		    aescrypt_version_string());
		return 1;
	}
	st = argv[1][1] == 'c' ? create(argv[2], argv[3], argv[4])
	    : extract(argv[2], argv[3], argv[4]);
	return st != AESCRYPT_OK;
}
