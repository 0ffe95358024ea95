/*
 * io.h -- the byte sources and sinks the container code reads and writes.
 *
 * The core never opens files; the caller hands it a reader and a writer.
 * Stream mode uses the file-descriptor ones below; archives (later) put a
 * tar producer or consumer behind the same two calls.
 */
#ifndef AE_IO_H
#define AE_IO_H

#include <signal.h>
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
};

/* write: write all n bytes.  Returns 0, AE_EIO (errno set) or AE_EINTR. */
struct ae_writer {
	int (*write)(void *ctx, const uint8_t *buf, size_t n);
	void *ctx;
};

/*
 * A file descriptor as a reader or writer.  stop, if not NULL, is polled
 * when a call is interrupted by a signal: if it is set the call returns
 * AE_EINTR, otherwise the call is retried.  bytes counts what passed.
 */
struct ae_fdio {
	int fd;
	volatile sig_atomic_t *stop;
	uint64_t bytes;
};

int ae_fd_read(void *fdio, uint8_t *buf, size_t n, size_t *got);
int ae_fd_write(void *fdio, const uint8_t *buf, size_t n);

#endif
