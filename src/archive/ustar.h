/*
 * ustar.h -- the layout of a ustar header block (POSIX.1-2017, pax
 * "ustar Interchange Format"), private to the tar reader and writer.
 */
#ifndef AE_USTAR_H
#define AE_USTAR_H

/* Field offsets and widths. */
enum {
	F_NAME = 0, W_NAME = 100,
	F_MODE = 100, W_MODE = 8,
	F_UID = 108, W_UID = 8,
	F_GID = 116, W_GID = 8,
	F_SIZE = 124, W_SIZE = 12,
	F_MTIME = 136, W_MTIME = 12,
	F_CHKSUM = 148, W_CHKSUM = 8,
	F_TYPE = 156,
	F_LINK = 157, W_LINK = 100,
	F_MAGIC = 257,
	F_VERSION = 263,
	F_UNAME = 265, W_UNAME = 32,
	F_GNAME = 297, W_GNAME = 32,
	F_DEVMAJOR = 329, F_DEVMINOR = 337, W_DEV = 8,
	F_PREFIX = 345, W_PREFIX = 155
};

/* GNU's old header (type 'S'): where the sparse map sits in the block
 * that ustar gives to the prefix, and in its extension blocks. */
enum {
	F_OLD_SPARSE = 386, OLD_SPARSE_N = 4,
	F_OLD_ISEXT = 482, F_OLD_REALSIZE = 483,
	EXT_SPARSE_N = 21, F_EXT_ISEXT = 504
};

#endif
