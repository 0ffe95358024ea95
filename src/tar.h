/*
 * tar.h -- POSIX pax (ustar-compatible) headers: the payload of an
 * archive container (format/aescrypt-v1.md, payload type 1).
 *
 * This is the encoding half, used by `aescrypt -c` (in progress; see
 * issue 5).  A member's header is a ustar block, preceded by a pax
 * extended header ('x') when ustar cannot hold a field exactly: a path or
 * link name that does not fit, bytes that are not UTF-8, a size of 8 GiB
 * or more, ids over 2097151, names over 31 bytes, a sub-second or
 * negative mtime.  GNU tar and bsdtar read what this writes.
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
	const char *path;       /* relative, '/'-separated; no trailing '/' */
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

#endif
