/*
 * grow.c -- a growable array's one way to grow (contract in grow.h).
 */
#include "config.h"
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int
ae_grow(void *pv, size_t *cap, size_t need, size_t elem, size_t first,
    size_t max)
{
	size_t c = *cap ? *cap : first;
	void *old, *p;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if ((max != 0 && c > max) || elem == 0 || c > SIZE_MAX / elem)
		return -1;
	/* (the pointer is copied out and back, not cast through void **:
	 * the array's pointer may be any object pointer type) */
	memcpy(&old, pv, sizeof old);
	if ((p = realloc(old, c * elem)) == NULL)
		return -1;
	memcpy(pv, &p, sizeof p);
	*cap = c;
	return 0;
}
