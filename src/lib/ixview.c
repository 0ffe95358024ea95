/*
 * ixview.c -- the index as the command reads it: its entries one at a
 * time, where each member starts, the records' offsets, an entry
 * against a member read, and the index held small as digests for -x
 * (contracts in aescrypt.h below AESCRYPT_STATIC_LINKING_ONLY).
 *
 * The index is access.c's, loaded and checked once; nothing here
 * copies it.  What a caller gets is a view of one entry at a time.
 */
#include "config.h"
#include "handle.h"

#include <string.h>

/* The index loaded (with r's message and place if not): 0 or why. */
static int
loaded(aescrypt_reader *r)
{
	int e = ae_lib_access_ready(r);

	if (e != AESCRYPT_OK) {
		r->diag = r->ix_diag;
		r->have_diag = r->ix_diag.what != NULL;
	}
	return e;
}

int
aescrypt_reader_index_figures(aescrypt_reader *r,
    struct aescrypt_index_figures *f)
{
	int e = loaded(r);

	if (e != AESCRYPT_OK)
		return e;
	f->members = r->ix.members;
	f->tar_end = r->ix.tar_end;
	f->records = r->ix.records;
	return AESCRYPT_OK;
}

int
aescrypt_reader_index_entry(aescrypt_reader *r, uint64_t i,
    struct aescrypt_index_entry *ie)
{
	int e = loaded(r);

	if (e != AESCRYPT_OK)
		return e;
	if (i >= r->ix.members)
		return AESCRYPT_EINVAL;
	ae_lib_reader_entry_of_index(&r->ix.m[i], &ie->e);
	ie->first = r->ix.m[i].first;
	ie->stored_size = r->ix.m[i].size;
	return AESCRYPT_OK;
}

uint64_t
aescrypt_reader_index_find_first(aescrypt_reader *r, uint64_t off)
{
	size_t lo = 0, hi;

	if (loaded(r) != AESCRYPT_OK)
		return 0;
	hi = r->ix.members;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ix.m[mid].first < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t
aescrypt_reader_record_offset(aescrypt_reader *r, uint64_t k)
{
	if (loaded(r) != AESCRYPT_OK || k > r->ix.records)
		return 0;
	return r->ix.rec_off[k];
}

int
aescrypt_reader_entry_same(aescrypt_reader *r, uint64_t i,
    const struct ae_tar_member *m)
{
	if (m == NULL || loaded(r) != AESCRYPT_OK || i >= r->ix.members)
		return 0;
	return ae_ixcheck_same(&r->ix.m[i], m);
}

/* ---- the index held small ---- */

/* Decoded for the digests alone: the index never held whole. */
static int
digests_decoded(aescrypt_reader *r)
{
	struct feed f;
	struct ae_writer w = { ae_ixdigest_feed_write, &f };
	struct ae_diag d = { 0 };
	int e;

	if (ae_ixdigest_feed_init(&f, &r->dx, r->h.len, r->h.chunk_log2,
	    ae_lib_reader_sig_every(r)) != AE_OK) {
		ae_ixdigest_feed_end(&f, AE_ENOMEM, &d);
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM, "out of "
		    "memory");
	}
	/* (the footer's offset and count are set before the first byte
	 * reaches the feed, whose head needs them) */
	e = ae_lib_index_decode(r, &w, &f.index_offset, &f.records, &d);
	if ((e = ae_ixdigest_feed_end(&f, e, &d)) != AE_OK) {
		if (d.where == AE_AT_NONE && d.what != NULL)
			d.where = AE_AT_INDEX;
		return ae_lib_reader_fail(r, e, &d);
	}
	return AESCRYPT_OK;
}

int
aescrypt_reader_digests(aescrypt_reader *r)
{
	int e = ae_lib_reader_is_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (r->dx_state == 1)
		return AESCRYPT_OK;
	if (r->kind != AESCRYPT_ARCHIVE
	    || r->h.payload_type != AE_PAYLOAD_PAX_INDEXED
	    || !ae_lib_source_seekable(&r->src))
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOTSUP, "no index "
		    "to read: an archive with one, from a source that can "
		    "pread");
	ae_ixdigest_free(&r->dx);
	if (r->ix_state == 1) {
		if (ae_ixdigest_from_index(&r->dx, &r->ix) != 0) {
			ae_ixdigest_free(&r->dx);
			return ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM,
			    "out of memory");
		}
	} else if ((e = digests_decoded(r)) != AESCRYPT_OK)
		return e;
	r->dx_state = 1;
	return AESCRYPT_OK;
}

int
aescrypt_reader_digest_figures(aescrypt_reader *r, uint64_t *n,
    uint64_t *tar_end)
{
	if (r == NULL || r->dx_state != 1)
		return AESCRYPT_ESTATE;
	*n = r->dx.n;
	*tar_end = r->dx.tar_end;
	return AESCRYPT_OK;
}

int
aescrypt_reader_digest_same(aescrypt_reader *r, uint64_t k,
    const struct ae_tar_member *m)
{
	if (r == NULL || r->dx_state != 1 || k >= r->dx.n)
		return 0;
	return ae_ixdigest_same(&r->dx, (size_t)k, m);
}

int
aescrypt_reader_digest_entry(aescrypt_reader *r, uint64_t k, uint64_t *first,
    const char **path)
{
	if (r == NULL || r->dx_state != 1 || k >= r->dx.n)
		return AESCRYPT_EINVAL;
	*first = r->dx.first[k];
	if ((*path = ae_ixdigest_path(&r->dx, (size_t)k)) == NULL)
		return AESCRYPT_ENOMEM;
	return AESCRYPT_OK;
}
