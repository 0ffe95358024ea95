/*
 * minitar.c -- the engine without the command line: make an encrypted
 * archive of a directory, and extract one, through the core and disk/
 * headers alone (no cli/, no struct opts), as libarchive's minitar shows
 * its library.  The archive is an ordinary aescrypt file: aescrypt -t
 * and -x read it.
 *
 *   minitar -c KEYFILE OUT.aes DIR     (KEYFILE from aescrypt --gen-key)
 *   minitar -x KEYFILE IN.aes DESTDIR
 *
 * For brevity the tar stream is held in memory between the walk and the
 * pipeline; cli/create.c streams it through pipeline/chan.h instead.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/tar_read.h"
#include "container/header.h"
#include "container/keyfile.h"
#include "crypto/wipe.h"
#include "disk/reader.h"
#include "disk/writer.h"
#include "pipeline/pipeline.h"

static int
fail(const char *what, int err)
{
	fprintf(stderr, "minitar: %s: %s\n", what, ae_strerror(err));
	return 1;
}

/* The 32-byte key of a key file (its text, as aescrypt writes it). */
static int
read_key(const char *path, uint8_t key[32])
{
	char text[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return AE_EIO;
	n = read(fd, text, sizeof text);
	close(fd);
	e = n > 0 ? ae_keyfile_parse(text, (size_t)n, key) : AE_EIO;
	ae_wipe(text, sizeof text);
	return e;
}

/* The walk's reports: warnings to stderr; nothing stops it. */
static int
on_walk(void *ctx, const struct ae_dr_report *r)
{
	(void)ctx;
	if (r->event == AE_DR_WARNING || r->event == AE_DR_FAILED)
		fprintf(stderr, "minitar: %s: %s\n", r->name, r->why);
	return 0;
}

static int
create(const uint8_t key[32], const char *out, char *dir)
{
	struct ae_header h;
	struct ae_memio tar = { 0 }, src = { 0 };
	struct ae_dr_params dp = { 0 };
	struct ae_fdio fo;
	struct ae_writer tw = { ae_mem_write, &tar }, fw = { ae_fd_write, &fo };
	struct ae_reader tr = { ae_mem_read, &src, NULL };
	struct ae_pipe_params pp = { 0 };
	struct ae_pipe_stats st = { 0 };
	struct ae_diag d = { 0 };
	uint8_t fk[AE_FILE_KEY_LEN], tail[AE_HEADER_MAX + 2];
	ae_gcm_ctx gcm;
	uint64_t tar_end;
	int partial, e, fd;

	/* the header: one key-file slot wrapping a fresh file key */
	if ((e = ae_header_new(&h, AE_PAYLOAD_PAX, AE_CODEC_DEFLATE,
	    AE_CHUNK_LOG2_DEFAULT, fk)) != AE_OK
	    || (e = ae_header_add_keyfile(&h, key, fk)) != AE_OK
	    || (e = ae_header_encode(&h, fk)) != AE_OK)
		return fail("header", e);
	ae_header_payload_cipher(&h, fk, &gcm);
	ae_wipe(fk, sizeof fk);
	/* the tar stream of dir */
	dp.report = on_walk;
	if ((e = ae_dr_walk(&dp, &dir, 1, &tw, &tar_end, &partial)) != AE_OK)
		return fail(dir, e);
	/* header, records, the copy of the header */
	if ((fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
		return fail(out, AE_EIO);
	ae_fd_init(&fo, fd, NULL, NULL);
	src.src = tar.dst;
	src.len = tar.fill;
	pp.key = &gcm;
	pp.chunk_log2 = h.chunk_log2;
	pp.codec = h.codec;
	pp.level = 6;
	pp.threads = 2;
	ae_header_tail(&h, tail);
	if ((e = fw.write(fw.ctx, h.raw, h.len)) != AE_OK
	    || (e = ae_pipe_encode(&pp, &tr, &fw, &st, &d)) != AE_OK
	    || (e = fw.write(fw.ctx, tail, ae_header_tail_len(&h))) != AE_OK)
		fail(out, e);
	ae_gcm_wipe(&gcm);
	free(tar.dst);
	if (close(fd) != 0 && e == AE_OK)
		e = AE_EIO;
	return e != AE_OK;
}

/* The writer's reports: what was not made, to stderr. */
static void
on_member(void *ctx, const struct ae_dw_report *r)
{
	(void)ctx;
	if (r->event == AE_DW_SKIPPED || r->event == AE_DW_FAILED)
		fprintf(stderr, "minitar: %s: %s\n", r->name,
		    r->why != NULL ? r->why : "not made");
}

static int
extract(const uint8_t key[32], const char *in, const char *dest)
{
	struct ae_header h;
	struct ae_unlock u = { 0 };
	struct ae_memio tar = { 0 }, src = { 0 };
	struct ae_fdio fi;
	struct ae_reader fr = { ae_fd_read, &fi, NULL };
	struct ae_reader rr = { ae_mem_read, &src, NULL };
	struct ae_writer tw = { ae_mem_write, &tar };
	struct ae_pipe_params pp = { 0 };
	struct ae_pipe_stats st = { 0 };
	struct ae_dw_params wp = { 0 };
	struct ae_tar_reader tr;
	struct ae_tar_member *m = malloc(sizeof *m);
	struct ae_diag d = { 0 };
	struct ae_dw *w;
	uint8_t fk[AE_FILE_KEY_LEN];
	ae_gcm_ctx gcm;
	int e, fd = open(in, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || m == NULL)
		return fail(in, fd < 0 ? AE_EIO : AE_ENOMEM);
	ae_fd_init(&fi, fd, NULL, NULL);
	u.key = key;
	ae_kdf_default_limits(&u.limits);
	if ((e = ae_header_read(&fr, &h, &d)) != AE_OK
	    || (e = ae_header_unlock(&h, &u, fk, &d)) != AE_OK)
		return fail(in, e);
	ae_header_payload_cipher(&h, fk, &gcm);
	ae_wipe(fk, sizeof fk);
	/* every record authenticates before a byte of it is passed on; the
	 * copy of the header follows the final one (trailer) */
	pp.key = &gcm;
	pp.chunk_log2 = h.chunk_log2;
	pp.codec = h.codec;
	pp.threads = 2;
	pp.offset = h.len;
	pp.trailer = h.copy;
	e = ae_pipe_decode(&pp, &fr, &tw, &st, &d);
	ae_gcm_wipe(&gcm);
	if (e == AE_OK && h.copy) {
		/* the copy must end the file, byte for byte (6.9) */
		uint8_t rest[AE_HEADER_MAX + 3];
		size_t got = 0, n;

		while (got < sizeof rest && fr.read(fr.ctx, rest + got,
		    sizeof rest - got, &n) == AE_OK && n > 0)
			got += n;
		e = ae_header_check_tail(&h, rest, got, 0, &d);
	}
	close(fd);
	if (e != AE_OK)
		return fail(in, e);
	/* the members, made beneath dest by disk/writer.h's rules */
	src.src = tar.dst;
	src.len = tar.fill;
	wp.root = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	wp.umask = 022;
	wp.report = on_member;
	if (wp.root < 0 || ae_tar_reader_init(&tr, &rr) != AE_OK
	    || ae_dw_open(&wp, &w) != AE_OK)
		return fail(dest, AE_EIO);
	while ((e = ae_tar_next(&tr, m, &d)) == AE_OK
	    && (e = ae_dw_member(w, &tr, m)) == AE_OK)
		;
	ae_dw_close(w);
	ae_tar_reader_free(&tr);
	close(wp.root);
	free(tar.dst);
	free(m);
	return e == 1 ? 0 : fail(in, e);   /* 1: the end of the archive */
}

int
main(int argc, char **argv)
{
	uint8_t key[32];
	int r;

	if (argc != 5 || (strcmp(argv[1], "-c") != 0
	    && strcmp(argv[1], "-x") != 0)) {
		fprintf(stderr, "usage: minitar -c KEYFILE OUT.aes DIR\n"
		    "       minitar -x KEYFILE IN.aes DESTDIR\n");
		return 2;
	}
	if ((r = read_key(argv[2], key)) != AE_OK)
		return fail(argv[2], r);
	r = argv[1][1] == 'c' ? create(key, argv[3], argv[4])
	    : extract(key, argv[3], argv[4]);
	ae_wipe(key, sizeof key);
	return r;
}
