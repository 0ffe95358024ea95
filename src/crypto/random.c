#include "config.h"
#include "random.h"

#include <errno.h>
#include <stdint.h>
#include <sys/random.h>

#include "common/error.h"

int
ae_random(void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n > 0) {
		/* getrandom() returns at most 32 MiB per call and may be
		 * cut short by a signal, so loop. */
		ssize_t r = getrandom(p, n, 0);
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
