/*
 * unzip.h -- a tar stream that may be compressed, read as plain tar:
 * gzip (RFC 1952, members one after another as gzip -d reads them)
 * and zstd (frames one after another), found by their magic in the
 * first bytes; anything else is handed on as it is (the tar reader
 * then judges it).  An ae_reader over an ae_reader, for tar streams
 * made elsewhere (`tar c | zstd | age`).
 */
#ifndef AE_ARCHIVE_UNZIP_H
#define AE_ARCHIVE_UNZIP_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/io.h"

enum ae_unzip_kind { AE_UNZIP_NONE = 0, AE_UNZIP_GZIP, AE_UNZIP_ZSTD,
    AE_UNZIP_XZ, AE_UNZIP_BZIP2 };

struct ae_unzip;

/*
 * Start reading src: its first bytes are read to see what it is.
 * Returns 0 with *u (ae_unzip_free frees it); AE_ENOTSUP for xz,
 * bzip2, or zstd in a build without libzstd (*kind says which, for the
 * words); src's errors; AE_ENOMEM.
 */
int ae_unzip_open(struct ae_unzip **u, struct ae_reader *src, int *kind);
void ae_unzip_free(struct ae_unzip *u);

/* u as a reader of the plain stream: n bytes, fewer only at its end.
 * A read fails with src's error, or AE_EFORMAT for compressed data
 * that is corrupt or cut short (u's what() says how). */
void ae_unzip_reader(struct ae_unzip *u, struct ae_reader *out);
const char *ae_unzip_what(const struct ae_unzip *u);

/* The compressed bytes read from src so far, and the name of the kind
 * ("gzip", "zstd", "none"). */
uint64_t ae_unzip_in_bytes(const struct ae_unzip *u);
const char *ae_unzip_name(int kind);

#endif
