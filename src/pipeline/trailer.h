/*
 * trailer.h -- what follows a payload's final record (format 6.8,
 * 6.9): an archive's index, sealed as records under the index key with
 * the payload's framing and compression, and the footer that points
 * back at it; then the copy of the header.  Written once the final
 * record is out, and checked once it is read: the command's modes and
 * the library's handles both end a container here.
 */
#ifndef AE_PIPELINE_TRAILER_H
#define AE_PIPELINE_TRAILER_H

#include "common/error.h"
#include "common/io.h"
#include "container/header.h"
#include "container/index.h"
#include "pipeline.h"

/*
 * After the payload's final record, sealed with payload (whose settings
 * the index's records share; its key and progress are not used): the
 * index of ib (every record and member noted, tar_end set), under ig,
 * then the footer, to out.  h is the file's header (its length starts
 * the offsets).  0, or the pipeline's or out's error with d.
 */
int ae_trailer_write_index(const struct ae_pipe_params *payload,
    const struct ae_index_builder *ib, const struct ae_header *h,
    const ae_gcm_ctx *ig, struct ae_writer *out, struct ae_diag *d);

/* The copy of h that ends its file (nothing without h->copy), to out.
 * 0, or out's error with d (AE_AT_OUTPUT). */
int ae_trailer_write_copy(struct ae_writer *out, const struct ae_header *h,
    struct ae_diag *d);

/*
 * After the payload was read in full with payload->trailer set (it
 * stopped at the final record, which ends at offset end): what follows
 * it.  For an archive with an index (payload_type 2), the index records
 * and the footer, with the index cipher ig: they must authenticate, and
 * the footer must name end (where the index starts) and `records`
 * payload records.  A sequential reader does not use the index, but this
 * is what tells it that nothing was cut off, swapped or appended; the
 * index's plaintext goes to keep (for the check of lib/ixcheck.h), or
 * nowhere if keep is NULL.  Then, with h->copy, the copy of the header
 * (6.9), byte for byte; and then the end of the input.  0, or an error
 * with d (AE_AT_INDEX for the index and footer, AE_AT_HEADER for the
 * copy).
 */
int ae_trailer_check(const struct ae_pipe_params *payload,
    const ae_gcm_ctx *ig, struct ae_reader *in, const struct ae_header *h,
    uint64_t end, uint64_t records, struct ae_writer *keep,
    struct ae_diag *d);

#endif
