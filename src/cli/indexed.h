/*
 * indexed.h -- reading an archive through its index (format 6.8): -t
 * lists from the index alone, and -x with member operands decodes only
 * the records that hold the selected members.
 *
 * The index is used only where it can be trusted and is worth it: on a
 * seekable file, when its footer and records authenticate under the
 * file's index key and it passes every check of 6.8.  Anything else
 * (a pipe, --no-index, --test, or an index that fails) reads the
 * archive in full, which still authenticates every byte.  --salvage
 * reads in full too, using only the index's record offsets, to step
 * over a record whose frame is damaged.
 */
#ifndef AE_CLI_INDEXED_H
#define AE_CLI_INDEXED_H

#include "members.h"
#include "opts.h"
#include "unpack.h"

/* The index as the library's reader loaded and checked it, seen an
 * entry at a time (aescrypt_reader_index_entry): valid while the
 * reader lives (unpack_free).  A harness that has parsed an index
 * itself (tests/fuzz) sets entry and record_offset instead of r. */
struct ixview {
	aescrypt_reader *r;
	uint64_t members, tar_end, records;
	int (*entry)(void *ctx, uint64_t i, struct aescrypt_index_entry *ie);
	uint64_t (*record_offset)(void *ctx, uint64_t k);
	void *ctx;
};

/*
 * The archive's index, loaded and checked by the library's reader: 1
 * with v; 0 to read the archive in full (a pipe, --no-index, --test
 * without --salvage, no index; when the index was there but unusable, a
 * warning said why).
 */
int indexed_load(struct unpack *u, struct ixview *v);

/* Entry i (1, or 0 if it cannot be read), and where its headers start
 * (tar_end for i == members). */
int indexed_entry(const struct ixview *v, uint64_t i,
    struct aescrypt_index_entry *ie);
uint64_t indexed_first(const struct ixview *v, uint64_t i);

/*
 * indexed_load for a full read that checks each member against the index
 * in order (-x): the reader keeps only its digests, offsets and
 * front-coded paths (aescrypt_reader_digests), never the whole of it.
 * 1 with them made; 0 to read without them (warned when the index was
 * there but unusable).
 */
int indexed_load_digests(struct unpack *u);

/*
 * The runs of records that hold the members sel selects (consecutive
 * members merged into one range), in order; *n of them in a malloc'd
 * array, each naming the index members whose headers start in it.  0,
 * or -1 out of memory.
 */
int indexed_ranges(const struct ixview *ix, struct members *sel,
    unsigned chunk_log2, struct unpack_range **out, size_t *n);

/*
 * Whether member m, read where index entry i says a member starts, is
 * what the entry says (aescrypt_reader_entry_same), and ends (by its
 * header) where the next entry starts.  1 or 0.
 */
int indexed_check(const struct ixview *ix, size_t i,
    const struct ae_tar_member *m);

/* Say that the index does not match the header at entry i's place, and
 * that the archive is read in full instead. */
void indexed_refuse(const char *name, const struct ixview *ix, size_t i,
    const char *what);

/*
 * Before -t lists from the index: check that an end-of-archive block
 * stands at its tar_end (reading the record or two that hold it, and no
 * others).  With the checks of ae_index_parse (the first entry at 0,
 * entries in order) that is what 6.8 asks of a listing; that each
 * member is what its entry says is checked by -x before it writes a
 * byte of it (extract.c), and by --test for all.  0 if the index holds;
 * INDEXED_MISMATCH if not, or if that record cannot be read (warned:
 * read the archive in full); or an exit status (reported).  u is open
 * and no run of it is going.
 */
#define INDEXED_MISMATCH (-1)
int indexed_verify(struct unpack *u, const struct ixview *ix);

/* For the members which[] marks (not NULL): that the header at each
 * one's first is the one it names and that it ends where the next one
 * starts (-x MEMBER checks the member before each run it reads so). */
int indexed_verify_members(struct unpack *u, const struct ixview *ix,
    const unsigned char *which);

/* What the archive's global header says of it (tar.h), read from the
 * record(s) that hold its start, into g (g->present 0 if there is none).
 * 0 or an exit status (reported: a record that fails). */
int indexed_global(struct unpack *u, const struct ixview *ix,
    struct ae_tar_global *g);

/* A member as the tar reader gives it, from an index entry, for
 * listing. */
void indexed_member(const struct aescrypt_index_entry *ie,
    struct ae_tar_member *m);

#endif
