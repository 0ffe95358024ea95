/*
 * fuzz_roundtrip.c -- encrypt the fuzzer's bytes with the pipeline and
 * decrypt them again: they must come back exactly.  The first byte
 * picks the deflate level (0..9) and the thread count (1 or 2).
 */
#include "config.h"

#include <string.h>

#include "common/error.h"
#include "container/format.h"
#include "fuzz.h"
#include "crypto/gcm.h"
#include "common/io.h"
#include "pipeline/pipeline.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ae_pipe_params pp;
	struct ae_pipe_stats st;
	struct ae_memio a, b, c;
	struct ae_reader ra = { ae_mem_read, &a, NULL }, rb = { ae_mem_read, &b, NULL };
	struct ae_writer wb = { ae_mem_write, &b }, wc = { ae_mem_write, &c };
	struct ae_diag d;
	ae_gcm_ctx g;
	int rc;

	if (size < 1)
		return 0;
	ae_gcm_init(&g, FUZZ_KEY);
	memset(&pp, 0, sizeof pp);
	pp.key = &g;
	pp.chunk_log2 = AE_CHUNK_LOG2_MIN;
	pp.level = data[0] % 10;
	pp.threads = 1 + (data[0] / 10 & 1);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&c, 0, sizeof c);
	a.src = data + 1;
	a.len = size - 1;
	memset(&d, 0, sizeof d);
	rc = ae_pipe_encode(&pp, &ra, &wb, &st, &d);
	FUZZ_ASSERT(rc == AE_OK);
	b.src = b.dst;
	b.len = b.fill;
	rc = ae_pipe_decode(&pp, &rb, &wc, &st, &d);
	FUZZ_ASSERT(rc == AE_OK);
	FUZZ_ASSERT(c.fill == size - 1);
	FUZZ_ASSERT(c.fill == 0 || memcmp(c.dst, data + 1, c.fill) == 0);
	free(b.dst);
	free(c.dst);
	ae_gcm_wipe(&g);
	return 0;
}
