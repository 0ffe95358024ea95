/*
 * random.c -- bytes from the operating system (contract in random.h).
 */
#include "config.h"
#include "random.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>
#if defined(HAVE_GETRANDOM) || defined(HAVE_GETENTROPY)
#include <sys/random.h>
#endif

#include "common/error.h"

#if defined(HAVE_GETRANDOM)
/* getrandom() returns at most 32 MiB per call and may be cut short by a
 * signal, so loop. */
static ssize_t
os_random(void *p, size_t n)
{
	return getrandom(p, n, 0);
}
#elif defined(HAVE_GETENTROPY)
/* getentropy() gives at most 256 bytes per call, all or nothing. */
static ssize_t
os_random(void *p, size_t n)
{
	if (n > 256)
		n = 256;
	return getentropy(p, n) == 0 ? (ssize_t)n : -1;
}
#else
/* Opened for each call: the core keeps no descriptors between calls,
 * and this path is for systems that have neither call above. */
static ssize_t
os_random(void *p, size_t n)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -1;
	r = read(fd, p, n);
	close(fd);
	return r == 0 ? -1 : r;
}
#endif

int
ae_random(void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n > 0) {
		ssize_t r = os_random(p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return AE_EIO;
		}
		p += r;
		n -= (size_t)r;
	}
	return AE_OK;
}
