/*
 * namelist.c -- names from operands and -T (contract in namelist.h).
 */
#include "config.h"
#include "namelist.h"
#include "common/grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"
#include "msg.h"

int
namelist_add(struct namelist *l, char *p, size_t tag)
{
	if (l->n == l->cap) {
		/* (two arrays, one room: v's may run ahead if tag's fails) */
		size_t vcap = l->cap;

		if (ae_grow(&l->v, &vcap, l->n + 1, sizeof *l->v, 16, 0) != 0
		    || ae_grow(&l->tag, &l->cap, l->n + 1, sizeof *l->tag, 16, 0)
		    != 0)
			return -1;
	}
	l->tag[l->n] = tag;
	l->v[l->n++] = p;
	return 0;
}

int
namelist_read(struct namelist *l, const char *file, int null_sep, size_t tag)
{
	int fd = STDIN_FILENO, e;
	size_t len = 0, cap = 0;
	char *p, *end, sep = null_sep ? '\0' : '\n';
	ssize_t n;

	if (strcmp(file, "-") != 0
	    && (fd = open(file, O_RDONLY | O_CLOEXEC)) < 0) {
		e = errno;
		msg_file_error(file, e);
		return e == ENOENT || e == ENOTDIR ? EXIT_USAGE : EXIT_SYSTEM;
	}
	for (;;) {
		if (ae_grow(&l->text, &cap, len + 4096 + 1, 1, 65536, 0) != 0) {
			msg_error("out of memory reading a list of names");
			goto fail;
		}
		n = read(fd, l->text + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			msg_file_error(file, errno);
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (l->text == NULL)
		return EXIT_OK;
	l->text[len] = sep;
	for (p = l->text; p < l->text + len; p = end + 1) {
		end = memchr(p, sep, (size_t)(l->text + len + 1 - p));
		*end = '\0';
		if (*p != '\0' && namelist_add(l, p, tag) != 0) {
			msg_error("out of memory reading a list of names");
			return EXIT_SYSTEM;
		}
	}
	return EXIT_OK;
fail:
	if (fd != STDIN_FILENO)
		close(fd);
	return EXIT_SYSTEM;
}

void
namelist_free(struct namelist *l)
{
	free(l->v);
	free(l->tag);
	free(l->text);
	memset(l, 0, sizeof *l);
}
