/*
 * dumpdir.c -- GNU tar's dumpdirs, read (contract in dumpdir.h).
 */
#include "config.h"
#include "dumpdir.h"

#include <string.h>

const char *
ae_dumpdir_next(const uint8_t *dd, size_t n, size_t *pos)
{
	const char *e;
	size_t el;

	if (*pos >= n || dd[*pos] == 0)
		return NULL;
	e = (const char *)dd + *pos;
	if ((el = strnlen(e, n - *pos)) == n - *pos)
		return NULL;
	*pos += el + 1;
	return e;
}

int
ae_dumpdir_letter(const uint8_t *dd, size_t n, const char *name)
{
	const char *e;
	size_t pos = 0;

	while ((e = ae_dumpdir_next(dd, n, &pos)) != NULL)
		if (e[0] != 'R' && e[0] != 'T' && strcmp(e + 1, name) == 0)
			return e[0];
	return 0;
}
