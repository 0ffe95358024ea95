/*
 * tar.h -- POSIX pax (ustar-compatible) headers: the payload of an
 * archive container (format/aescrypt-v1.md, payload type 1).
 *
 * Both halves, for `aescrypt -c` and `-t`/`-x`.  A member's header is a ustar block,
 * preceded by a pax extended header ('x') when ustar cannot hold a field
 * exactly: a path or link name that does not fit, bytes that are not
 * UTF-8, a size of 8 GiB or more, ids over 2097151, names over 31 bytes,
 * a sub-second or negative mtime.  GNU tar reads what this writes (tests/cli/070-tar),
 * and the reader reads GNU tar's pax, gnu ('L'/'K' long names) and
 * ustar archives.  Sparse members are refused.
 */
#ifndef AE_TAR_H
#define AE_TAR_H

#include <stddef.h>
#include <stdint.h>

#define AE_TAR_BLOCK 512
/* The most a header can take: an 'x' header with long path and link
 * name records, and the ustar block. */
#define AE_TAR_HEADER_MAX (16 * 1024)

enum ae_tar_type {
	AE_TAR_REG = '0',
	AE_TAR_HARDLINK = '1',
	AE_TAR_SYMLINK = '2',
	AE_TAR_DIR = '5'
};

struct ae_tar_entry {
	const char *path;       /* relative, '/'-separated; directories
	                         * end in '/', as tar writes them */
	const char *linkpath;   /* hard link target or symlink text, or NULL */
	char type;              /* enum ae_tar_type */
	uint32_t mode;          /* permission bits, 07777 */
	uint64_t uid, gid;
	uint64_t size;          /* bytes of data that follow (regular files) */
	int64_t mtime;          /* seconds since the epoch */
	uint32_t mtime_nsec;
	const char *uname;      /* owner names, or NULL */
	const char *gname;
};

/*
 * Encode the header blocks for e into out (cap bytes; AE_TAR_HEADER_MAX
 * is always enough for paths and link names of up to 4096 bytes).
 * *len is a multiple of 512.  Returns 0; AE_EINVAL for an empty path, an
 * unknown type or a missing link name; AE_ETOOBIG if it does not fit.
 */
int ae_tar_header(const struct ae_tar_entry *e, uint8_t *out, size_t cap,
    size_t *len);

/* Bytes of zero padding after `size` bytes of member data. */
size_t ae_tar_padding(uint64_t size);

/* The end of an archive: two zero blocks (1024 bytes). */
#define AE_TAR_END_LEN (2 * AE_TAR_BLOCK)

/* ---- reading ---- */

#include "common/error.h"
#include "common/io.h"

#define AE_TAR_NAME_MAX 4096        /* longer paths are refused */
#define AE_TAR_PAX_MAX (1u << 20)   /* larger 'x'/'g' headers are refused */

/*
 * A member as the reader saw it, with pax and GNU long-name overrides
 * applied.  type is the raw typeflag ('\0' is read as '0').
 *
 * Whatever the input says, path and linkpath hold at most
 * AE_TAR_NAME_MAX bytes, are NUL-terminated and contain no other NUL:
 * the reader fills them only through one bounded setter and refuses
 * (AE_EFORMAT) a longer name from any source (pax record, GNU 'L'/'K'
 * block, ustar prefix + name).  So a copy of path into a buffer of
 * AE_TAR_NAME_MAX + 1 bytes always fits.
 */
struct ae_tar_member {
	char path[AE_TAR_NAME_MAX + 1];
	char linkpath[AE_TAR_NAME_MAX + 1];
	char type;
	uint32_t mode;
	uint64_t uid, gid, size;
	int64_t mtime;
	uint32_t mtime_nsec;
	char uname[256], gname[256];
	uint64_t offset;            /* of its header in the tar stream */
};

struct ae_tar_reader {
	struct ae_reader *in;
	uint64_t offset;            /* bytes of the tar stream consumed */
	uint64_t data_left;         /* of the current member, with padding */
	uint8_t *pax;               /* scratch for 'x', 'g', 'L', 'K' */
	int ended;
};

/* Whether b is a tar header block: not all zeros, and its checksum
 * matches (how a stream payload is told from a tar one).  1 or 0. */
int ae_tar_is_header(const uint8_t b[AE_TAR_BLOCK]);

/* Start reading a tar stream from in.  0 or AE_ENOMEM. */
int ae_tar_reader_init(struct ae_tar_reader *r, struct ae_reader *in);
void ae_tar_reader_free(struct ae_tar_reader *r);

/*
 * The next member's header, skipping what is left of the previous
 * member's data.  Returns 0 with m filled; 1 at the end of the archive
 * (a zero block); AE_ETRUNC if the stream ends inside a header or before
 * the end marker (d->where AE_AT_INPUT, d->offset where it ended);
 * AE_EFORMAT for a bad checksum, a bad number, a bad pax record, or a
 * name or link name over AE_TAR_NAME_MAX bytes or with a NUL in it
 * (d->where AE_AT_MEMBER, d->what says which, d->offset where the
 * member's first header starts, its 'x' or 'L'/'K' block if it has
 * one); AE_ETOOBIG for a pax header over AE_TAR_PAX_MAX and AE_ENOTSUP
 * for sparse members (also at AE_AT_MEMBER); the reader's errors.
 */
int ae_tar_next(struct ae_tar_reader *r, struct ae_tar_member *m,
    struct ae_diag *d);

/*
 * Read up to n bytes of the current member's data into buf (*got is 0
 * at its end; the padding is skipped by the next ae_tar_next).
 * Returns 0, AE_ETRUNC, or the reader's errors.
 */
int ae_tar_read_data(struct ae_tar_reader *r, const struct ae_tar_member *m,
    uint8_t *buf, size_t n, size_t *got);

#endif
