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
	char q[1024], *tmp;
	uint8_t *buf;
	size_t len, off = 0;
	int fd, st = EXIT_OK;

	if (ae_snapshot_encode(s, &buf, &len) != AE_OK
	    || (tmp = malloc(strlen(path) + 16)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	sprintf(tmp, "%s.tmp-XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		msg_error("%s: %s", names_quote(path, q, sizeof q),
		    strerror(errno));
		free(buf);
		free(tmp);
		return EXIT_SYSTEM;
	}
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	if (off < len || fsync(fd) != 0 || close(fd) != 0
	    || rename(tmp, path) != 0) {
		msg_error("%s: cannot write the snapshot: %s",
		    names_quote(path, q, sizeof q), strerror(errno));
		if (off < len)
			close(fd);
		unlink(tmp);
		st = EXIT_SYSTEM;
	}
	free(buf);
	free(tmp);
	return st;
}
