/*
 * list.h -- aescrypt -t, and the listing of a tar stream on its own.
 *
 * cmd_list (opts.h) decrypts and calls list_members; the whole-path fuzz
 * harness (tests/fuzz/fuzz_extract.c) calls it on tar streams of its own.
 */
#ifndef AE_CLI_LIST_H
#define AE_CLI_LIST_H

#include <stdio.h>

#include "archive/tar_read.h"
#include "archive/tar_write.h"
#include "members.h"

/*
 * Print the members of tr that sel selects to fp, one line each, as
 * `tar -t` does (as `tar -tv` with verbose; verbose 3, for -tvv -g, adds
 * each directory's dumpdir as `tar -tvv -g` does), or nothing if fp is NULL
 * (--test: every header is still read and checked), until the end of the
 * archive, a tar error or a write error on fp (ferror(fp) then says
 * so).  The reader's warnings about a member are printed; a member that
 * cannot be extracted is listed, warned about, and sets *partial.
 * *count (NULL: not counted) is increased by each member selected.
 * Returns the last ae_tar_next result: 1 at the end marker, its error
 * (with d), or 0 if it stopped on a write error.
 */
int list_members(FILE *fp, int verbose, struct ae_tar_reader *tr,
    struct members *sel, struct ae_diag *d, int *partial, uint64_t *count);

/*
 * One `tar -tv` line for e, a member -c is writing (-cvv, as tar -cvv
 * prints it).  *ugswidth starts at 19 and is kept between calls, so the
 * columns line up as tar's do.  scratch is the caller's, kept from line
 * to line (a member holds two 64 KiB names: one for the run, not one a
 * line, and not on the walk's stack).
 */
void list_entry(FILE *fp, const struct ae_tar_entry *e, size_t *ugswidth,
    struct ae_tar_member *scratch);

#endif
