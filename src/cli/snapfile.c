/*
 * snapfile.c -- -g's snapshot file on disk (contract in snapfile.h).
 */
#include "config.h"
#include "snapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/io.h"
#include "disk/outfile.h"
#include "exitcode.h"
#include "msg.h"
#include "names.h"

/* A snapshot larger than this is refused: a million directories. */
#define SNAP_MAX ((size_t)1 << 30)

int
snapfile_load(const char *path, int level0, struct ae_snapshot *s,
    int *have)
{
	char q[1024];
	struct stat st;
	uint8_t *buf;
	size_t len = 0;
	ssize_t n;
	int fd, err;

	*have = 0;
	if (level0)
		return EXIT_OK;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return EXIT_OK;     /* level 0, as GNU tar */
		msg_error("%s: %s", names_quote(path, q, sizeof q),
		    strerror(errno));
		return EXIT_SYSTEM;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)
	    || (uint64_t)st.st_size > SNAP_MAX) {
		msg_error("%s: not a snapshot file (a regular file of at most "
		    "1 GiB)", names_quote(path, q, sizeof q));
		close(fd);
		return EXIT_USAGE;
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	while (len < (size_t)st.st_size
	    && (n = read(fd, buf + len, (size_t)st.st_size - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			msg_error("%s: %s", names_quote(path, q, sizeof q),
			    strerror(errno));
			free(buf);
			close(fd);
			return EXIT_SYSTEM;
		}
		len += (size_t)n;
	}
	close(fd);
	err = ae_snapshot_parse(buf, len, s);
	free(buf);
	if (err == AE_ENOMEM) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (err != AE_OK) {
		msg_error("%s: not a GNU tar snapshot file of format 2",
		    names_quote(path, q, sizeof q));
		msg_hint("give a new name for a full dump (level 0), or "
		    "--level=0");
		return EXIT_USAGE;
	}
	*have = 1;
	return EXIT_OK;
}

int
snapfile_save(const char *path, const struct ae_snapshot *s)
{
	struct ae_outfile out;
	struct ae_fdio f;
	struct ae_diag d = { 0 };
	uint8_t *buf;
	size_t len;
	int err;

	if (ae_snapshot_encode(s, &buf, &len) != AE_OK) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	/* As -o writes a file (disk/outfile.h): a regular file is replaced
	 * whole or not at all, a symlink's target is replaced, and a
	 * device, FIFO or socket is written in place, as GNU tar writes
	 * it: -g /dev/null stays /dev/null. */
	if ((err = ae_outfile_open(&out, path, &d)) != AE_OK) {
		free(buf);
		return msg_core_error(path, err, &d);
	}
	/* A new snapshot names every directory archived: 0600, not the
	 * umask's mode.  A replaced one keeps its own mode. */
	if (!out.in_place && !out.replaces)
		out.mode = 0600;
	ae_fd_init(&f, out.fd, NULL, NULL);
	if ((err = ae_fd_write(&f, buf, len)) != AE_OK) {
		ae_fail(&d, err, AE_AT_OUTPUT, "cannot write the snapshot",
		    0, 0);
		d.sys_errno = errno;
		ae_outfile_abort(&out);
		free(buf);
		return msg_core_error(path, err, &d);
	}
	free(buf);
	if ((err = ae_outfile_commit(&out, &d)) != AE_OK)
		return msg_core_error(path, err, &d);
	return EXIT_OK;
}
