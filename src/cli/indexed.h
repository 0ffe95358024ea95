/*
 * indexed.h -- reading an archive through its index (format 6.8): -t
 * lists from the index alone, and -x with member operands decodes only
 * the records that hold the selected members.
 *
 * The index is used only where it can be trusted and is worth it: on a
 * seekable file, when its footer and records authenticate under the
 * file's index key and it passes every check of 6.8.  Anything else
 * (a pipe, --no-index, --test, --salvage, or an index that fails) reads
 * the archive in full, which still authenticates every byte.
 */
#ifndef AE_CLI_INDEXED_H
#define AE_CLI_INDEXED_H

#include "container/index.h"
#include "members.h"
#include "opts.h"
#include "unpack.h"

/*
 * After unpack_open_keys: load and check u's index.  1 with ix filled
 * (the caller frees it); 0 to read the archive in full (when the index
 * was there but unusable, a warning said why).
 */
int indexed_load(struct unpack *u, const struct opts *o,
    struct ae_index *ix);

/*
 * The runs of records that hold the members sel selects (consecutive
 * members merged into one range), in order; *n of them in a malloc'd
 * array.  0, or -1 out of memory.
 */
int indexed_ranges(const struct ae_index *ix, struct members *sel,
    unsigned chunk_log2, struct unpack_range **out, size_t *n);

/* A member as the tar reader gives it, from an index entry, for
 * listing (static storage: valid until the next call). */
const struct ae_tar_member *indexed_member(const struct ae_index_member *e);

#endif
