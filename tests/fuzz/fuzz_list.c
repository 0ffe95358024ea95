/*
 * fuzz_list.c -- the -tv path on a tar stream: the tar reader, member
 * selection, and the listing with its name quoting (cli/list.c, called
 * as cmd_list calls it once the payload has authenticated).
 *
 * The -x path is fuzz_extract's; this is the half of the old whole-path
 * harness that lives in the command face (quoting, mode strings, the
 * ls -l columns), so it links the CLI's library.
 */
#include "config.h"

#include <string.h>

#include "archive/tar_read.h"
#include "cli/list.h"
#include "cli/members.h"
#include "common/error.h"
#include "common/io.h"
#include "fuzz.h"

static FILE *devnull;

static int
expected(int r)
{
	return r == 1 || r == 0 || r == AE_ETRUNC || r == AE_EFORMAT
	    || r == AE_ETOOBIG || r == AE_ENOTSUP;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ae_tar_reader tr;
	struct ae_memio m;
	struct ae_reader rd;
	struct ae_diag d;
	struct members sel;
	struct selection none;
	int r, partial = 0;

	if (devnull == NULL)
		FUZZ_ASSERT((devnull = fopen("/dev/null", "w")) != NULL);
	memset(&none, 0, sizeof none);
	FUZZ_ASSERT(members_init(&sel, &none) == 0);
	memset(&m, 0, sizeof m);
	m.src = data;
	m.len = size;
	rd.read = ae_mem_read;
	rd.ctx = &m;
	rd.seek = NULL;
	FUZZ_ASSERT(ae_tar_reader_init(&tr, &rd) == AE_OK);
	memset(&d, 0, sizeof d);
	r = list_members(devnull, 1, &tr, &sel, &d, &partial, NULL);
	FUZZ_ASSERT(expected(r));
	ae_tar_reader_free(&tr);
	members_free(&sel);
	return 0;
}
