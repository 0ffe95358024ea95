/*
 * checksum.c -- --checksum FILE (contract in checksum.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checksum.h"
#include "exitcode.h"
#include "msg.h"
#include "names.h"

static int
hash_write(void *ctx, const uint8_t *buf, size_t n)
{
	struct checksum *c = ctx;
	int r = c->next.write(c->next.ctx, buf, n);

	if (r == 0)
		crypto_hash_sha256_update(&c->h, buf, n);
	return r;
}

void
checksum_start(struct checksum *c, const char *path, struct ae_writer *w)
{
	memset(c, 0, sizeof *c);
	if (path == NULL)
		return;
	c->on = 1;
	c->next = *w;
	crypto_hash_sha256_init(&c->h);
	w->write = hash_write;
	w->ctx = c;
}

int
checksum_finish(struct checksum *c, const char *path, const char *name)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t d[crypto_hash_sha256_BYTES];
	char q[1024], *line, *p;
	size_t i, len = strlen(name), need;
	int fd, esc = strpbrk(name, "\n\\") != NULL, err = 0;

	if (!c->on)
		return EXIT_OK;
	crypto_hash_sha256_final(&c->h, d);
	/* "\HEX  NAME" with \n and \\ when the name needs it (GNU
	 * coreutils' rule); every byte of a name may double */
	need = 1 + 2 * sizeof d + 2 + 2 * len + 2;
	if ((line = malloc(need)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	p = line;
	if (esc)
		*p++ = '\\';
	for (i = 0; i < sizeof d; i++) {
		*p++ = hex[d[i] >> 4];
		*p++ = hex[d[i] & 15];
	}
	*p++ = ' ';
	*p++ = ' ';
	for (i = 0; i < len; i++) {
		if (esc && name[i] == '\n') {
			*p++ = '\\';
			*p++ = 'n';
		} else if (esc && name[i] == '\\') {
			*p++ = '\\';
			*p++ = '\\';
		} else {
			*p++ = name[i];
		}
	}
	*p++ = '\n';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY,
	    0666);
	if (fd < 0) {
		err = errno;
	} else {
		/* one write (O_APPEND keeps lines from two jobs apart),
		 * again only if it was short */
		if (ae_write_full(fd, line, (size_t)(p - line)) != 0)
			err = errno;
		if (close(fd) != 0 && err == 0)
			err = errno;
	}
	free(line);
	if (err != 0) {
		msg_error("%s: %s (the output is complete; its checksum was "
		    "not recorded)", names_quote(path, q, sizeof q),
		    strerror(err));
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}
