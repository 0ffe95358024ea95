/*
 * fuzz_api.c -- the public library's whole reading path on hostile
 * input: aescrypt_reader_open, then listing and random access through
 * the index (count, entry, find, pread), reading in order (next, read),
 * and extraction through the safe writer, all through aescrypt.h, with
 * the escape oracle (oracle.h) after each input.
 *
 * The first byte picks the mode and the source:
 *   bit 0-1  0: the rest is a container as it comes, opened with the
 *            fixed key (the header, its slots, the records; past
 *            authentication only by chance);
 *            1: the rest is a tar stream, sealed here with the fixed
 *            key as an archive without an index, so that it verifies:
 *            the tar reader, the names' rules and the disk writer see
 *            the fuzzer's bytes, as aescrypt -x would;
 *            2: the rest is a list of members (name, data) written by
 *            aescrypt_writer_add_entry into an archive with an index,
 *            which then has one byte changed where the input's last
 *            two bytes say: a damaged index, footer or record under
 *            random access;
 *   bit 2    the source can pread (else it is a pipe);
 *   bit 3    extract (else read every member's data in order).
 * Every failure must be a status of aescrypt.h with a message; a
 * success must be consistent (a pread never returns more than asked).
 */
#include "config.h"

#include <string.h>

#include <aescrypt.h>

#include "common/io.h"
#include "container/header.h"
#include "common/wipe.h"
#include "fuzz.h"
#include "oracle.h"
#include "../unit/memio.h"
#include "pipeline/pipeline.h"
#include "pipeline/trailer.h"

/* A status is one of aescrypt.h's, and a failure has a message. */
static void
sane(const aescrypt_reader *r, int st)
{
	FUZZ_ASSERT(st >= AESCRYPT_ESTATE && st <= AESCRYPT_END);
	FUZZ_ASSERT(st >= 0 || aescrypt_reader_error(r)[0] != '\0');
}

/* Random access: every member listed, a few ranges of each read. */
static void
random_access(aescrypt_reader *r)
{
	static uint8_t buf[70000];
	struct aescrypt_entry e;
	uint64_t n, i, j;
	size_t got;
	int st;

	if ((st = aescrypt_reader_count(r, &n)) != AESCRYPT_OK) {
		sane(r, st);
		return;
	}
	for (i = 0; i < n && i < 64; i++) {
		FUZZ_ASSERT(aescrypt_reader_entry(r, i, &e) == AESCRYPT_OK);
		FUZZ_ASSERT(e.path != NULL && e.linkpath != NULL);
		st = aescrypt_reader_find(r, e.path, &j);
		FUZZ_ASSERT(st == AESCRYPT_OK && j <= i);
		st = aescrypt_reader_pread(r, i, buf, sizeof buf, 0, &got);
		sane(r, st);
		FUZZ_ASSERT(got <= sizeof buf && (st == AESCRYPT_OK || got == 0));
		FUZZ_ASSERT(got <= e.size);
		st = aescrypt_reader_pread(r, i, buf, 100, e.size / 2, &got);
		sane(r, st);
		FUZZ_ASSERT(got <= 100);
	}
	FUZZ_ASSERT(aescrypt_reader_entry(r, n, &e) == AESCRYPT_EINVAL);
}

/* Reading in order: every member's data, or extraction. */
static void
in_order(aescrypt_reader *r, int extract)
{
	static uint8_t buf[65536];
	struct aescrypt_entry e;
	size_t got;
	int st;

	if (aescrypt_reader_kind(r) == AESCRYPT_STREAM) {
		while ((st = aescrypt_reader_read(r, buf, sizeof buf, &got))
		    == AESCRYPT_OK && got > 0)
			FUZZ_ASSERT(got <= sizeof buf);
		sane(r, st);
		return;
	}
	if (extract) {
		st = aescrypt_reader_extract(r, oracle_dest, 0);
		sane(r, st);
		FUZZ_ASSERT(st != AESCRYPT_END);
		return;
	}
	while ((st = aescrypt_reader_next(r, &e)) == AESCRYPT_OK) {
		FUZZ_ASSERT(e.path != NULL && strlen(e.path) <= 65535);
		while ((st = aescrypt_reader_read(r, buf, sizeof buf, &got))
		    == AESCRYPT_OK && got > 0)
			;
		if (st != AESCRYPT_OK)
			break;
	}
	sane(r, st);
	/* a failure or the end is sticky */
	FUZZ_ASSERT(aescrypt_reader_next(r, &e) == st);
}

/* Open the container c (n bytes) and read it every way the mode says. */
static void
read_all(const uint8_t *c, size_t n, unsigned mode)
{
	struct mem m;
	struct aescrypt_source s;
	aescrypt_reader *r = aescrypt_reader_new();
	int st;

	FUZZ_ASSERT(r != NULL);
	mem_init(&m);
	m.p = (uint8_t *)c;     /* (only read: mem_read and mem_pread) */
	m.len = m.cap = n;
	s = mem_source(&m, (mode & 4) != 0);
	FUZZ_ASSERT(aescrypt_reader_add_key(r, FUZZ_KEY) == AESCRYPT_OK);
	FUZZ_ASSERT(aescrypt_reader_set_threads(r, 1 + (mode >> 4 & 1))
	    == AESCRYPT_OK);
	st = aescrypt_reader_open(r, &s);
	sane(r, st);
	if (st == AESCRYPT_OK) {
		if (mode & 4)
			random_access(r);
		in_order(r, (mode & 8) != 0);
	}
	aescrypt_reader_free(r);
}

/* Mode 1: the fuzzer's tar stream sealed with the fixed key, as -c
 * seals one (an archive without an index, with the copy of the header
 * at its end), into *out (malloc'd). */
static size_t
seal_tar(const uint8_t *tar, size_t n, uint8_t **out)
{
	static struct ae_header h;
	struct ae_memio src = { 0 }, dst = { 0 };
	struct ae_reader rd = { ae_mem_read, &src, NULL };
	struct ae_writer wr = { ae_mem_write, &dst };
	struct ae_pipe_params pp;
	struct ae_pipe_stats st;
	uint8_t fk[AE_FILE_KEY_LEN];
	ae_gcm_ctx g;

	FUZZ_ASSERT(ae_header_new(&h, AE_PAYLOAD_PAX, AE_CODEC_DEFLATE,
	    AE_CHUNK_LOG2_MIN, fk) == AE_OK);
	FUZZ_ASSERT(ae_header_add_keyfile(&h, FUZZ_KEY, fk) == AE_OK);
	FUZZ_ASSERT(ae_header_encode(&h, fk) == AE_OK);
	ae_header_payload_cipher(&h, fk, &g);
	ae_wipe(fk, sizeof fk);
	FUZZ_ASSERT(ae_mem_write(&dst, h.raw, h.len) == AE_OK);
	src.src = tar;
	src.len = n;
	memset(&pp, 0, sizeof pp);
	memset(&st, 0, sizeof st);
	pp.key = &g;
	pp.chunk_log2 = h.chunk_log2;
	pp.codec = h.codec;
	pp.level = 1;
	pp.threads = 1;
	FUZZ_ASSERT(ae_pipe_encode(&pp, &rd, &wr, &st, NULL) == AE_OK);
	FUZZ_ASSERT(ae_trailer_write_copy(&wr, &h, NULL) == AE_OK);
	ae_gcm_wipe(&g);
	*out = dst.dst;
	return dst.fill;
}

static int
grow_write(void *ctx, const void *buf, size_t n)
{
	return ae_mem_write(ctx, buf, n) == AE_OK ? 0 : -1;
}

/* Mode 2: members from the input, each a name length (1 byte), the name
 * and a data length (2 bytes) and the data, written through the public
 * writer into an indexed archive; then one byte of it changed. */
static size_t
write_members(const uint8_t *p, size_t n, uint8_t **out)
{
	struct ae_memio dst = { 0 };
	aescrypt_writer *w = aescrypt_writer_new();
	struct aescrypt_entry e;
	char name[257];
	size_t pos = 0, at;
	int st;

	FUZZ_ASSERT(w != NULL);
	FUZZ_ASSERT(aescrypt_writer_add_key(w, FUZZ_KEY) == AESCRYPT_OK);
	FUZZ_ASSERT(aescrypt_writer_set_chunk_log2(w, 16) == AESCRYPT_OK);
	FUZZ_ASSERT(aescrypt_writer_set_threads(w, 1) == AESCRYPT_OK);
	FUZZ_ASSERT(aescrypt_writer_open(w, AESCRYPT_ARCHIVE, grow_write, &dst)
	    == AESCRYPT_OK);
	memset(&e, 0, sizeof e);
	e.mode = 0644;
	while (pos + 3 <= n) {
		size_t nl = p[pos], dl;

		if (nl > n - pos - 1)
			nl = n - pos - 1;
		memcpy(name, p + pos + 1, nl);
		name[nl] = '\0';
		pos += 1 + nl;
		if (pos + 2 > n)
			break;
		dl = (size_t)p[pos] | (size_t)p[pos + 1] << 8;
		pos += 2;
		if (dl > n - pos)
			dl = n - pos;
		e.path = name;
		e.type = dl == 0 && nl > 0 && name[nl - 1] == '/' ?
		    AESCRYPT_DIR : AESCRYPT_FILE;
		e.size = e.type == AESCRYPT_FILE ? dl : 0;
		st = aescrypt_writer_add_entry(w, &e, e.size ? p + pos : NULL,
		    (size_t)e.size);
		/* a name tar cannot hold, or a bad one, is the caller's
		 * mistake, and the writer stays usable */
		FUZZ_ASSERT(st == AESCRYPT_OK || st == AESCRYPT_EINVAL);
		pos += dl;
	}
	FUZZ_ASSERT(aescrypt_writer_close(w) == AESCRYPT_OK);
	aescrypt_writer_free(w);
	if (n >= 2 && dst.fill > 0) {
		at = ((size_t)p[n - 2] << 8 | p[n - 1]) * 7 % dst.fill;
		dst.dst[at] ^= (uint8_t)(1u << (p[n - 1] % 8));
	}
	*out = dst.dst;
	return dst.fill;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *c = NULL;
	size_t n;
	unsigned mode;

	if (size < 1)
		return 0;
	oracle_setup();
	mode = data[0];
	switch (mode & 3) {
	case 1:
		n = seal_tar(data + 1, size - 1, &c);
		read_all(c, n, mode);
		break;
	case 2:
		n = write_members(data + 1, size - 1, &c);
		read_all(c, n, mode | 4);
		break;
	default:
		read_all(data + 1, size - 1, mode);
		break;
	}
	free(c);
	oracle_check();
	oracle_empty();
	return 0;
}
