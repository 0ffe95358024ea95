#include "config.h"
#include "io.h"

#include <errno.h>
#include <unistd.h>

#include "error.h"

/* Reads of more than this are split, as Linux does anyway (0x7ffff000). */
#define IO_MAX ((size_t)1 << 30)

int
ae_fd_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_fdio *f = ctx;
	size_t done = 0;

	while (done < n) {
		size_t want = n - done < IO_MAX ? n - done : IO_MAX;
		ssize_t r;

		if (f->stop != NULL && *f->stop)
			return AE_EINTR;
		r = read(f->fd, buf + done, want);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*got = done;
			return AE_EIO;
		}
		if (r == 0)
			break;
		done += (size_t)r;
		f->bytes += (uint64_t)r;
	}
	*got = done;
	return AE_OK;
}

int
ae_fd_write(void *ctx, const uint8_t *buf, size_t n)
{
	struct ae_fdio *f = ctx;

	while (n > 0) {
		size_t want = n < IO_MAX ? n : IO_MAX;
		ssize_t r;

		if (f->stop != NULL && *f->stop)
			return AE_EINTR;
		r = write(f->fd, buf, want);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return AE_EIO;
		}
		buf += r;
		n -= (size_t)r;
		f->bytes += (uint64_t)r;
	}
	return AE_OK;
}
