/*
 * tar.c -- what the tar reader and writer share (contract in tar.h):
 * the padding rule and the extended attribute list.
 */
#include "config.h"
#include "tar.h"

#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

size_t
ae_tar_padding(uint64_t size)
{
	return (size_t)((AE_TAR_BLOCK - size % AE_TAR_BLOCK) % AE_TAR_BLOCK);
}

int
ae_tar_xattr_append(uint8_t **buf, size_t *len, size_t *cap, size_t max,
    const char *name, size_t nl, const uint8_t *val, size_t vl)
{
	size_t need = nl + 1 + 4 + vl;

	if (nl == 0 || memchr(name, '\0', nl) != NULL || nl > 255
	    || vl > 65536 || need > max - *len)
		return -1;
	if (ae_grow(buf, cap, *len + need, 1, 1024, 0) != 0)
		return -1;
	memcpy(*buf + *len, name, nl);
	(*buf)[*len + nl] = '\0';
	(*buf)[*len + nl + 1] = (uint8_t)(vl >> 24);
	(*buf)[*len + nl + 2] = (uint8_t)(vl >> 16);
	(*buf)[*len + nl + 3] = (uint8_t)(vl >> 8);
	(*buf)[*len + nl + 4] = (uint8_t)vl;
	memcpy(*buf + *len + nl + 5, val, vl);
	*len += need;
	return 0;
}

int
ae_tar_xattr_walk(const uint8_t *list, size_t len, size_t *pos,
    const char **name, const uint8_t **value, size_t *vlen)
{
	const uint8_t *p;
	size_t nl;

	if (list == NULL || *pos >= len)
		return 0;
	p = list + *pos;
	nl = strnlen((const char *)p, len - *pos);
	if (nl == 0 || nl > 255 || len - *pos < nl + 5)
		return -1;
	*vlen = (size_t)p[nl + 1] << 24 | (size_t)p[nl + 2] << 16 |
	    (size_t)p[nl + 3] << 8 | p[nl + 4];
	if (*vlen > len - *pos - nl - 5)
		return -1;
	*name = (const char *)p;
	*value = p + nl + 5;
	*pos += nl + 5 + *vlen;
	return 1;
}