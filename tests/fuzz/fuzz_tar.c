/*
 * fuzz_tar.c -- the pax/ustar reader: every member header and every byte
 * of data, to the end marker or the first error, and the header test
 * that tells a tar payload from a stream; then the same input again with
 * two blocks of it standing for a lost chunk (--salvage's gap).
 */
#include "config.h"

#include <string.h>

#include "common/error.h"
#include "fuzz.h"
#include "common/io.h"
#include "archive/tar_read.h"

/* --salvage's gap: blocks [g, g + 2) of the stream, g from the first
 * byte of the input, stand for a lost chunk. */
static uint64_t gap_start;

static int
gap(void *ctx, uint64_t off, uint64_t *end)
{
	(void)ctx;
	if (off < gap_start || off >= gap_start + 2 * AE_TAR_BLOCK)
		return 0;
	*end = gap_start + 2 * AE_TAR_BLOCK;
	return 1;
}

static void read_all(const uint8_t *data, size_t size, int with_gap);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= AE_TAR_BLOCK)
		(void)ae_tar_is_header(data);
	read_all(data, size, 0);
	/* again as if a chunk were lost: the reader steps over it and
	 * looks for the next header */
	if (size > 0) {
		gap_start = (uint64_t)(data[0] % 16) * AE_TAR_BLOCK;
		read_all(data, size, 1);
	}
	return 0;
}

static void
read_all(const uint8_t *data, size_t size, int with_gap)
{
	static struct ae_tar_member mb;
	static uint8_t buf[4096];
	struct ae_tar_reader tr;
	struct ae_memio m;
	struct ae_reader r = { ae_mem_read, &m, NULL };
	struct ae_diag d;
	uint64_t total;
	size_t got;
	int rc, hole;

	memset(&m, 0, sizeof m);
	m.src = data;
	m.len = size;
	memset(&d, 0, sizeof d);
	if (ae_tar_reader_init(&tr, &r) != AE_OK)
		return;
	if (with_gap)
		tr.gap = gap;
	while ((rc = ae_tar_next(&tr, &mb, &d)) == AE_OK) {
		/* a header is never taken from inside the gap */
		FUZZ_ASSERT(!with_gap || mb.offset < gap_start
		    || mb.offset >= gap_start + 2 * AE_TAR_BLOCK);
		FUZZ_ASSERT(mb.first <= mb.offset && mb.offset < mb.end);
		FUZZ_ASSERT(strlen(mb.path) <= AE_TAR_NAME_MAX);
		FUZZ_ASSERT(strlen(mb.linkpath) <= AE_TAR_NAME_MAX);
		FUZZ_ASSERT(mb.path[0] != '\0');
		total = 0;
		while ((rc = ae_tar_read_data(&tr, &mb, buf, sizeof buf, &got,
		    &hole)) == AE_OK && got > 0) {
			FUZZ_ASSERT(hole || got <= sizeof buf);
			total += got;
		}
		if (rc != AE_OK)
			break;
		/* every byte of the file, holes included, exactly once;
		 * nothing of a member that cannot be read */
		FUZZ_ASSERT(total == (mb.unreadable != NULL ? 0 : mb.size));
		FUZZ_ASSERT(mb.map == NULL || mb.unreadable == NULL);
	}
	FUZZ_ASSERT(rc == 1 || rc == AE_ETRUNC || rc == AE_EFORMAT
	    || rc == AE_ETOOBIG || rc == AE_ENOTSUP || rc == AE_OK);
	ae_tar_reader_free(&tr);
}
