/*
 * path.c -- member name rules (contract in path.h).
 */
#include "config.h"
#include "path.h"

#include <string.h>

/* Whether p starts a ".." component. */
static int
is_dotdot(const char *p)
{
	return p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0');
}

const char *
ae_path_stored(const char *name, size_t *prefix)
{
	const char *p = name, *cut = name;

	while (*p != '\0') {
		if (is_dotdot(p))
			cut = p + 2;
		p += strcspn(p, "/");
		if (*p == '/')
			p++;
	}
	while (*cut == '/')
		cut++;
	*prefix = (size_t)(cut - name);
	return cut;
}

int
ae_path_has_dotdot(const char *name)
{
	const char *p = name;

	while (*p != '\0') {
		if (is_dotdot(p))
			return 1;
		p += strcspn(p, "/");
		while (*p == '/')
			p++;
	}
	return 0;
}

int
ae_path_normalize(const char *in, char *out, size_t cap)
{
	size_t n = 0, k;

	while (*in != '\0') {
		while (*in == '/')
			in++;
		k = strcspn(in, "/");
		if (k == 0)
			break;
		if (!(k == 1 && in[0] == '.')) {
			if (n + (n > 0) + k >= cap) {
				out[0] = '\0';
				return -1;
			}
			if (n > 0)
				out[n++] = '/';
			memcpy(out + n, in, k);
			n += k;
		}
		in += k;
	}
	out[n] = '\0';
	return 0;
}

const char *
ae_path_strip_components(const char *name, unsigned n)
{
	const char *p = name;

	while (n > 0) {
		while (*p == '/')
			p++;
		if (p[0] == '.' && (p[1] == '/' || p[1] == '\0')) {
			p++;
			continue;
		}
		p += strcspn(p, "/");
		if (*p == '\0')
			return NULL;
		n--;
	}
	while (*p == '/')
		p++;
	return *p != '\0' ? p : NULL;
}
