/*
 * source.h -- where a reader's container comes from: the caller's
 * callbacks or a descriptor, as the ae_reader the pipeline reads in
 * order, and (where the source can pread) as readers of their own for
 * each random access, which share no position and so no lock.
 */
#ifndef AE_LIB_SOURCE_H
#define AE_LIB_SOURCE_H

#include <stdint.h>

#include "aescrypt.h"
#include "common/error.h"
#include "common/io.h"

struct source {
	struct aescrypt_source s;   /* the caller's, or the descriptor's */
	int fd;                     /* the descriptor behind s, or -1 */
	int own_fd;                 /* opened here (by path): close it */
	uint64_t pos;               /* the sequential reader's position */
	struct ae_reader seq;       /* reads s in order from pos */
};

/* The caller's callbacks (read or pread required; pread needs size),
 * or descriptor fd (pread where it is a regular file).  0, or
 * AE_EINVAL. */
int ae_lib_source_callbacks(struct source *src, const struct aescrypt_source *s);
void ae_lib_source_fd(struct source *src, int fd, int own);

/* Close what ae_lib_source_fd was told to own. */
void ae_lib_source_close(struct source *src);

/* Whether random access can work: the source can pread. */
int ae_lib_source_seekable(const struct source *src);

/* A reader of its own at offset off, over pread (the caller's struct,
 * on its stack): for ae_records, whose seek it supports. */
struct source_cursor {
	const struct source *src;
	uint64_t pos;
};
void ae_lib_source_cursor(const struct source *src, struct source_cursor *c,
    struct ae_reader *r, uint64_t off);

/* All n bytes at off through pread, or fewer only at the end: 0 or
 * AE_EIO. */
int ae_lib_source_pread(const struct source *src, void *buf, size_t n,
    uint64_t off, size_t *got);

#endif
