/*
 * fuzz_index.c -- an archive's index (6.8), from its bytes to the
 * offsets a reader seeks to: ae_index_parse, then indexed_ranges for
 * every member and for one pattern, as -x MEMBER would use them (the
 * command's view of the index, over the parsed one).  The
 * bytes are what an attacker who holds the file key could seal, so they
 * are taken as already authenticated.  The first 4 bytes choose the
 * header length and chunk size; the index is parsed once with an
 * index_offset taken from the input, and once with the one its own
 * record lengths add up to, so mutations get past that check.  Whatever
 * parses must only ever point inside the payload: asserted.
 */
#include "config.h"

#include <string.h>

#include "cli/indexed.h"
#include "common/bytes.h"
#include "container/index.h"
#include "fuzz.h"

/* The command's view of an index, over one parsed here (what the
 * library's reader gives it from the index it loaded). */
static int
entry_of(void *ctx, uint64_t i, struct aescrypt_index_entry *ie)
{
	const struct ae_index *ix = ctx;
	const struct ae_index_member *m;

	if (i >= ix->members)
		return 0;
	m = &ix->m[i];
	memset(ie, 0, sizeof *ie);
	ie->e.path = m->path;
	ie->e.linkpath = m->linkpath != NULL ? m->linkpath : "";
	ie->e.type = m->type;
	ie->e.size = m->size;
	ie->first = m->first;
	ie->stored_size = m->size;
	return 1;
}

static uint64_t
offset_of(void *ctx, uint64_t k)
{
	const struct ae_index *ix = ctx;

	return k <= ix->records ? ix->rec_off[k] : 0;
}

static void
check(const struct ae_index *ix, uint64_t L, unsigned log2, uint64_t io)
{
	struct ixview view = { NULL, ix->members, ix->tar_end, ix->records,
	    entry_of, offset_of, (void *)ix };
	struct members sel;
	struct unpack_range *v;
	char *pat[1];
	unsigned char hit[1];
	size_t n, i, k;

	FUZZ_ASSERT(ix->rec_off[0] == L && ix->rec_off[ix->records] == io);
	for (i = 0; i < ix->records; i++)
		FUZZ_ASSERT(ix->rec_off[i] < ix->rec_off[i + 1]);
	for (i = 0; i + 1 < ix->members; i++)
		FUZZ_ASSERT(ix->m[i].first + 512 <= ix->m[i + 1].first);
	for (k = 0; k < 2; k++) {
		memset(&sel, 0, sizeof sel);
		if (k == 1 && ix->members > 0) {
			/* one member by name (a directory name selects its
			 * subtree) */
			pat[0] = (char *)ix->m[ix->members / 2].path;
			sel.pats.v = pat;
			sel.pats.n = 1;
			hit[0] = 0;
			sel.hit = hit;
		}
		FUZZ_ASSERT(indexed_ranges(&view, &sel, log2, &v, &n) == 0);
		for (i = 0; i < n; i++) {
			const struct unpack_range *r = &v[i];

			FUZZ_ASSERT(r->count >= 1 && r->first < ix->records
			    && r->count <= ix->records - r->first);
			FUZZ_ASSERT(r->offset == ix->rec_off[r->first]);
			FUZZ_ASSERT(r->skip < ((uint64_t)1 << log2));
			FUZZ_ASSERT(r->len >= 512 && r->skip + r->len
			    <= r->count << log2);
			FUZZ_ASSERT(i == 0 || v[i - 1].first <= r->first);
		}
		free(v);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ae_index ix;
	uint64_t L, io, sum;
	unsigned log2;
	size_t i;

	if (size < 4)
		return 0;
	L = 69 + ((size_t)data[0] << 8 | data[1]) % 4028;
	log2 = 16 + data[2] % 7;
	io = L + 21 + (uint64_t)data[3] * 1000;
	data += 4;
	size -= 4;
	if (ae_index_parse(data, size, L, (size_t)1 << log2, io,
	    size >= 9 ? load_be64(data + 1) : 0, &ix, NULL) == AE_OK) {
		check(&ix, L, log2, io);
		ae_index_free(&ix);
	}
	/* the offset its own record lengths give */
	if (size < 25)
		return 0;
	sum = L;
	for (i = 0; i < load_be64(data + 1) && 25 + 4 * i + 4 <= size; i++)
		sum += load_be32(data + 25 + 4 * i);
	if (ae_index_parse(data, size, L, (size_t)1 << log2, sum,
	    load_be64(data + 1), &ix, NULL) == AE_OK) {
		check(&ix, L, log2, sum);
		ae_index_free(&ix);
	}
	return 0;
}
