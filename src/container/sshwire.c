/*
 * sshwire.c -- SSH's wire encoding (contract in sshwire.h).
 */
#include "config.h"
#include "sshwire.h"

#include <string.h>

#include "common/bytes.h"

int
ae_ssh_string(const uint8_t **p, const uint8_t *end, const uint8_t **str,
    size_t *len)
{
	uint32_t n;

	if (end - *p < 4)
		return -1;
	n = load_be32(*p);
	if ((size_t)(end - *p - 4) < n)
		return -1;
	*str = *p + 4;
	*len = n;
	*p += 4 + (size_t)n;
	return 0;
}

int
ae_ssh_string_is(const uint8_t *s, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(s, want, n) == 0;
}

void
ae_ssh_put(struct ae_ssh_out *o, const void *s, size_t n)
{
	if (o->over || n > o->cap - o->len) {
		o->over = 1;
		return;
	}
	if (n > 0)
		memcpy(o->p + o->len, s, n);
	o->len += n;
}

void
ae_ssh_put_u32(struct ae_ssh_out *o, uint32_t v)
{
	uint8_t b[4];

	store_be32(b, v);
	ae_ssh_put(o, b, 4);
}

void
ae_ssh_put_string(struct ae_ssh_out *o, const void *s, size_t n)
{
	if (n > UINT32_MAX) {
		o->over = 1;
		return;
	}
	ae_ssh_put_u32(o, (uint32_t)n);
	ae_ssh_put(o, s, n);
}
