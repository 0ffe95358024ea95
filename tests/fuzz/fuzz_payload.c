/*
 * fuzz_payload.c -- the chunk frame parser and the decrypt loop (the
 * pipeline's decoder), and what lies behind authentication.
 *
 * The first byte picks the mode (bit 0), the threads (bit 1) and the
 * codec (bit 2: zstd, where the build has it, else DEFLATE):
 *   even: the rest is a payload as it comes off the wire, decoded with
 *         the fixed key (frames, lengths, truncation, trailing data; the
 *         tags almost never verify);
 *   odd:  the rest is a list of chunks, each sealed here with the fixed
 *         key in its right place, so that they do verify: the codec
 *         then sees the fuzzer's bytes as DEFLATE or zstd data, the
 *         chunk rules see its lengths and flags, and the plaintext goes
 *         on to the tar reader, as -t and -x would feed it.
 * A chunk in the list is: flags (1 byte: 0x01 FINAL, 0x02 COMPRESSED,
 * or unknown bits), length (2 bytes, little-endian, cut to what is
 * left), bytes.
 */
#include "config.h"

#include <string.h>

#include "common/bytes.h"
#include "container/chunk.h"
#include "common/error.h"
#include "container/format.h"
#include "container/zstd.h"
#include "fuzz.h"
#include "crypto/gcm.h"
#include "common/io.h"
#include "pipeline/pipeline.h"
#include "archive/tar_read.h"

#define LOG2 AE_CHUNK_LOG2_MIN
#define CS ((size_t)1 << LOG2)

static size_t
seal_list(const ae_gcm_ctx *g, const uint8_t *p, size_t n, uint8_t *out,
    size_t cap)
{
	uint8_t nonce[AE_NONCE_LEN];
	size_t pos = 0, len, olen = 0;
	uint64_t index = 0;

	while (pos + 3 <= n && olen + AE_FRAME_LEN + AE_TAG_LEN <= cap) {
		uint8_t flags = p[pos];

		len = (size_t)p[pos + 1] | (size_t)p[pos + 2] << 8;
		pos += 3;
		if (len > n - pos)
			len = n - pos;
		if (len > cap - olen - AE_FRAME_LEN - AE_TAG_LEN)
			len = cap - olen - AE_FRAME_LEN - AE_TAG_LEN;
		out[olen] = flags;
		store_be32(out + olen + 1, (uint32_t)len);
		ae_chunk_nonce(index++, flags & AE_FLAG_FINAL, nonce);
		ae_gcm_seal(g, nonce, sizeof nonce, out + olen, AE_FRAME_LEN,
		    p + pos, len, out + olen + AE_FRAME_LEN,
		    out + olen + AE_FRAME_LEN + len);
		olen += AE_FRAME_LEN + len + AE_TAG_LEN;
		pos += len;
	}
	return olen;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t sealed[4 * CS];
	static struct ae_tar_member mb;
	struct ae_pipe_params pp;
	struct ae_pipe_stats st;
	struct ae_memio in, out;
	struct ae_reader rd = { ae_mem_read, &in, NULL };
	struct ae_writer wr = { ae_mem_write, &out };
	struct ae_diag d;
	struct ae_tar_reader tr;
	struct ae_memio tin;
	struct ae_reader trd = { ae_mem_read, &tin, NULL };
	ae_gcm_ctx g;
	int rc;

	if (size < 1)
		return 0;
	ae_gcm_init(&g, FUZZ_KEY);
	memset(&in, 0, sizeof in);
	if (data[0] & 1) {
		in.src = sealed;
		in.len = seal_list(&g, data + 1, size - 1, sealed,
		    sizeof sealed);
	} else {
		in.src = data + 1;
		in.len = size - 1;
	}
	memset(&out, 0, sizeof out);
	memset(&pp, 0, sizeof pp);
	memset(&d, 0, sizeof d);
	memset(&st, 0, sizeof st);     /* the pipeline adds to it */
	pp.key = &g;
	pp.chunk_log2 = LOG2;
	pp.codec = (data[0] & 4) && ae_zstd_available() ? AE_CODEC_ZSTD
	    : AE_CODEC_DEFLATE;
	pp.threads = 1 + (data[0] >> 1 & 1);
	rc = ae_pipe_decode(&pp, &rd, &wr, &st, &d);
	FUZZ_ASSERT(rc == AE_OK || rc == AE_EAUTH || rc == AE_EFORMAT
	    || rc == AE_ETRUNC);
	FUZZ_ASSERT(out.fill == st.plain_bytes);
	if (rc != AE_OK)
		FUZZ_ASSERT(d.where == AE_AT_CHUNK || d.where == AE_AT_INPUT);

	/* What verified goes on to the tar reader, as for -t and -x. */
	memset(&tin, 0, sizeof tin);
	tin.src = out.dst;
	tin.len = out.fill;
	if (ae_tar_reader_init(&tr, &trd) == AE_OK) {
		while (ae_tar_next(&tr, &mb, &d) == AE_OK)
			;
		ae_tar_reader_free(&tr);
	}
	free(out.dst);
	ae_gcm_wipe(&g);
	return 0;
}
