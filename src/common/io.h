/*
 * io.h -- the byte sources and sinks the container code reads and writes.
 *
 * The core never opens files; the caller hands it a reader and a writer.
 * Stream mode uses the file-descriptor ones below; archives (later) put a
 * tar producer or consumer behind the same two calls; the built-in
 * benchmark uses the memory ones.
 *
 * The pipeline calls the reader from its own thread and the writer from
 * the caller's thread, never both from one, and never one from two.
 */
#ifndef AE_IO_H
#define AE_IO_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/*
 * read: fill buf with up to n bytes.  It returns fewer than n (in *got)
 * only at end of input, so a short count always means EOF.
 * Returns 0, or AE_EIO (errno set), or AE_EINTR.
 */
struct ae_reader {
	int (*read)(void *ctx, uint8_t *buf, size_t n, size_t *got);
	void *ctx;
	/* optional: go to byte offset off of the input (0 or AE_EIO); NULL
	 * where the input cannot seek */
	int (*seek)(void *ctx, uint64_t off);
};

/* write: write all n bytes.  Returns 0, AE_EIO (errno set), AE_EINTR or
 * AE_ENOMEM. */
struct ae_writer {
	int (*write)(void *ctx, const uint8_t *buf, size_t n);
	void *ctx;
};

/*
 * A file descriptor as a reader or writer.  While a call waits, it
 * checks two flags: stop (the caller's, e.g. set by a signal handler)
 * and cancel (the pipeline's, set when it fails elsewhere); if either is
 * non-zero it returns AE_EINTR.  A read on anything but a regular file
 * waits in poll(2) with a short timeout, so a stalled pipe or terminal
 * cannot keep it from seeing them.  Either flag may be NULL.  bytes
 * counts what passed.
 */
struct ae_fdio {
	int fd;
	const atomic_int *stop;
	const atomic_int *cancel;
	uint64_t bytes;
	int pollable;       /* set by ae_fd_init: not a regular file */
};

/* Set up f for fd with the given flags. */
void ae_fd_init(struct ae_fdio *f, int fd, const atomic_int *stop,
    const atomic_int *cancel);

int ae_fd_read(void *fdio, uint8_t *buf, size_t n, size_t *got);
int ae_fd_seek(void *fdio, uint64_t off);
int ae_fd_write(void *fdio, const uint8_t *buf, size_t n);

/* All n bytes of buf to fd, again after a short write or EINTR, with no
 * flag to stop it (ae_fd_write is the stoppable, counted one).  0, or -1
 * with errno. */
int ae_write_full(int fd, const void *buf, size_t n);

/*
 * Memory: ae_mem_read reads src[pos, len); ae_mem_write appends to dst,
 * growing it with realloc (the caller frees dst), or, when discard is
 * set, only counts the bytes.
 */
struct ae_memio {
	const uint8_t *src;
	size_t len, pos;
	uint8_t *dst;
	size_t cap, fill;
	int discard;
};

int ae_mem_read(void *memio, uint8_t *buf, size_t n, size_t *got);
int ae_mem_write(void *memio, const uint8_t *buf, size_t n);

#endif
