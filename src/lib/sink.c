/*
 * sink.c -- a writer's output (contract in sink.h).
 */
#include "config.h"
#include "sink.h"
#include "message.h"

#include <string.h>

/* The caller's callback as an ae_writer. */
static int
callback_write(void *ctx, const uint8_t *buf, size_t n)
{
	struct sink *s = ctx;

	return ae_lib_callback_status(s->fn(s->ctx, buf, n));
}

void
ae_lib_sink_callback(struct sink *s, aescrypt_write_fn fn, void *ctx)
{
	memset(s, 0, sizeof *s);
	s->fn = fn;
	s->ctx = ctx;
	s->w.write = callback_write;
	s->w.ctx = s;
}

static void
fd_writer(struct sink *s, int fd)
{
	ae_fd_init(&s->fo, fd, NULL, NULL);
	s->w.write = ae_fd_write;
	s->w.ctx = &s->fo;
}

void
ae_lib_sink_fd(struct sink *s, int fd)
{
	memset(s, 0, sizeof *s);
	fd_writer(s, fd);
}

int
ae_lib_sink_path(struct sink *s, const char *path, struct ae_diag *d)
{
	int e;

	memset(s, 0, sizeof *s);
	if (path == NULL || strcmp(path, "-") == 0)
		return ae_fail(d, AE_EINVAL, AE_AT_OUTPUT, "no path given", 0,
		    0);
	if ((e = ae_outfile_open(&s->of, path, d)) != AE_OK)
		return e;
	s->have_of = 1;
	fd_writer(s, s->of.fd);
	return AE_OK;
}

int
ae_lib_sink_commit(struct sink *s, struct ae_diag *d)
{
	if (!s->have_of)
		return AE_OK;
	s->have_of = 0;
	return ae_outfile_commit(&s->of, d);
}

void
ae_lib_sink_abort(struct sink *s)
{
	if (s->have_of)
		ae_outfile_abort(&s->of);
	s->have_of = 0;
}
