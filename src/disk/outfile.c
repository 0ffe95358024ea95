/*
 * outfile.c -- outputs that appear under their name only when complete
 * (contract in outfile.h).
 */
#include "config.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "crypto/random.h"

/* A fresh temp name for base in o's directory, into o->tmp (which has
 * room): ".BASE.aescrypt-" and 12 random hex digits.  0 or -1. */
static int
temp_name(struct ae_outfile *o, const char *base, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t rnd[6];
	char suffix[13];
	int i;

	if (ae_random(rnd, sizeof rnd) != AE_OK)
		return -1;
	for (i = 0; i < 6; i++) {
		suffix[2 * i] = hex[rnd[i] >> 4];
		suffix[2 * i + 1] = hex[rnd[i] & 15];
	}
	suffix[12] = '\0';
	snprintf(o->tmp, cap, ".%s.aescrypt-%s", base, suffix);
	return 0;
}

/*
 * A file with no name in o's directory, if this system can make one and
 * name it later.  How it will be named is learnt at once, on a second
 * nameless file linked under a temp name and removed again (a nameless
 * file cannot be linked a second time once its first name is gone), so
 * the commit cannot find the data unnameable.  The descriptor, or -1:
 * then a named temp it is.
 */
static int
open_anon(struct ae_outfile *o, const char *base, size_t cap)
{
	int fd = ae_anon_create(o->dirfd, 0600), probe;

	ae_anon_init(&o->anon_how);
	if (fd < 0)
		return -1;
	if ((probe = ae_anon_create(o->dirfd, 0600)) >= 0
	    && temp_name(o, base, cap) == 0
	    && ae_anon_link(&o->anon_how, probe, o->dirfd, o->tmp) == 0) {
		unlinkat(o->dirfd, o->tmp, 0);
		close(probe);
		return fd;
	}
	if (probe >= 0)
		close(probe);
	close(fd);
	return -1;
}

/* A failed system call on the output: errno into d, as what. */
static int
sys_fail(struct ae_diag *d, const char *what)
{
	int e = errno;

	ae_fail(d, AE_EIO, AE_AT_OUTPUT, what, 0, 0);
	if (d != NULL)
		d->sys_errno = e;
	return AE_EIO;
}

int
ae_outfile_open(struct ae_outfile *o, const char *path, struct ae_diag *d)
{
	char *copy1 = NULL, *copy2 = NULL, *resolved = NULL, *dir, *base;
	struct stat st;
	mode_t mask;
	size_t n;
	int err;

	memset(o, 0, sizeof *o);
	o->fd = -1;
	o->dirfd = -1;
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fd = STDOUT_FILENO;
		o->in_place = 1;
		o->name = "standard output";
		return AE_OK;
	}
	o->name = path;
	/* Devices, FIFOs and the like (-o /dev/null, -o /dev/tape) are
	 * written in place: there is nothing to rename over them, so they
	 * are as irrevocable as standard output. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0)
			return sys_fail(d, "cannot open it");
		o->in_place = 1;
		return AE_OK;
	}
	/* A symlink to a file: replace the file it points to, not the
	 * link, as writing through the link would. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if ((resolved = realpath(path, NULL)) == NULL)
			return sys_fail(d, "cannot follow the link");
		path = resolved;
	}
	copy1 = strdup(path);
	copy2 = strdup(path);
	n = strlen(path) + 32;
	if (copy1 == NULL || copy2 == NULL || (o->tmp = malloc(n)) == NULL) {
		err = ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
		goto fail;
	}
	dir = dirname(copy1);
	base = basename(copy2);
	/* The directory is held open and the names kept relative to it, so
	 * the rename still lands there after -C changes the working
	 * directory. */
	o->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* No name at all while it fills, where the system allows (a
	 * SIGKILL then leaves nothing); else a dot name, so ls and globs
	 * pass over it while it is incomplete. */
	if (o->dirfd >= 0 && (o->fd = open_anon(o, base, n)) >= 0) {
		o->anon = 1;
	} else if (o->dirfd >= 0) {
		snprintf(o->tmp, n, "%s/.%s.aescrypt-XXXXXX", dir, base);
		if ((o->fd = mkostemp(o->tmp, O_CLOEXEC)) >= 0)
			o->tmp_base = strrchr(o->tmp, '/') + 1;
	}
	if (o->fd < 0) {
		err = sys_fail(d, "cannot create a file in its directory");
		goto fail;
	}
	if ((o->target_base = strdup(base)) == NULL) {
		err = ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
		goto fail;
	}
	free(copy1);
	free(copy2);
	free(resolved);
	/* It is 0600, and so it stays until the commit: the partial output
	 * may be plaintext.  What it becomes then: */
	if (stat(o->name, &st) == 0 && S_ISREG(st.st_mode)) {
		o->replaces = 1;
		o->mode = st.st_mode & 07777;
		o->uid = st.st_uid;
		o->gid = st.st_gid;
	} else {
		mask = umask(0);
		umask(mask);
		o->mode = 0666 & ~mask;
	}
	return AE_OK;
fail:
	free(copy1);
	free(copy2);
	free(resolved);
	ae_outfile_abort(o);
	return err;
}

static void
release(struct ae_outfile *o)
{
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->dirfd = -1;
	free(o->tmp);
	o->tmp = NULL;
	o->tmp_base = NULL;
	free(o->target_base);
	o->target_base = NULL;
}

int
ae_outfile_retarget(struct ae_outfile *o, const char *suffix,
    struct ae_diag *d)
{
	size_t n;
	char *t;

	if (o->in_place)
		return AE_OK;
	n = strlen(o->target_base) + strlen(suffix) + 1;
	if (strlen(o->name) + strlen(suffix) >= sizeof o->alt_name) {
		errno = ENAMETOOLONG;
		return sys_fail(d, "cannot add a suffix to its name");
	}
	if ((t = malloc(n)) == NULL)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
	snprintf(t, n, "%s%s", o->target_base, suffix);
	snprintf(o->alt_name, sizeof o->alt_name, "%s%s", o->name, suffix);
	free(o->target_base);
	o->target_base = t;
	o->name = o->alt_name;
	/* The user named NAME, not NAME.damaged: whatever else sits at the
	 * new name (a symlink, a device, a FIFO) is theirs, and a rename
	 * would replace it.  Only a regular file, a result of an earlier
	 * --salvage, is replaced. */
	{
		struct stat sb;

		if (fstatat(o->dirfd, t, &sb, AT_SYMLINK_NOFOLLOW) == 0
		    && !S_ISREG(sb.st_mode)) {
			errno = EEXIST;
			return sys_fail(d, "is there and is not a regular file "
			    "(not replaced)");
		}
	}
	/* a new name: nothing there to take the mode or owner of */
	o->replaces = 0;
	return AE_OK;
}

/* Name the nameless file o->fd as o->target_base: a link where the name
 * is free, else a link under a temp name renamed over it (the rename
 * replaces atomically; linkat never does).  0, or -1 with errno. */
static int
name_anon(struct ae_outfile *o)
{
	size_t n = strlen(o->target_base) + 32;

	if (ae_anon_link(&o->anon_how, o->fd, o->dirfd, o->target_base) == 0)
		return 0;
	if (errno != EEXIST || temp_name(o, o->target_base, n) != 0
	    || ae_anon_link(&o->anon_how, o->fd, o->dirfd, o->tmp) != 0)
		return -1;
	if (renameat(o->dirfd, o->tmp, o->dirfd, o->target_base) == 0)
		return 0;
	{
		int e = errno;

		unlinkat(o->dirfd, o->tmp, 0);
		errno = e;
	}
	return -1;
}

int
ae_outfile_commit(struct ae_outfile *o, struct ae_diag *d)
{
	int err;

	if (o->in_place) {
		if (o->fd != STDOUT_FILENO && close(o->fd) != 0)
			return sys_fail(d, "cannot close it");
		return AE_OK;
	}
	/* The owner first (a chown may clear set-id bits), then the mode.
	 * Only root may give a file away; a group change may be refused
	 * too.  Either way the file stays ours with the old mode, which is
	 * no wider than the old file's. */
	if (o->replaces && fchown(o->fd, o->uid, o->gid) != 0
	    && fchown(o->fd, (uid_t)-1, o->gid) != 0) {
		/* not permitted: ours, as any file we create */
	}
	if (fchmod(o->fd, o->mode) != 0) {
		/* keep 0600: safe, and not worth failing the job over */
	}
	if (fsync(o->fd) != 0) {
		err = sys_fail(d, "cannot write it to disk");
		ae_outfile_abort(o);
		return err;
	}
	if (o->anon && name_anon(o) != 0) {
		err = sys_fail(d, "cannot give it its name");
		ae_outfile_abort(o);
		return err;
	}
	if (close(o->fd) != 0) {
		/* (after fsync, a late error of a network file system) */
		o->fd = -1;
		err = sys_fail(d, "cannot close it");
		if (o->anon && !o->replaces)
			unlinkat(o->dirfd, o->target_base, 0);
		ae_outfile_abort(o);
		return err;
	}
	o->fd = -1;
	if (!o->anon && renameat(o->dirfd, o->tmp_base, o->dirfd,
	    o->target_base) != 0) {
		err = sys_fail(d, "cannot give it its name");
		ae_outfile_abort(o);
		return err;
	}
	/* so the name is durable */
	(void)fsync(o->dirfd);
	release(o);
	return AE_OK;
}

void
ae_outfile_abort(struct ae_outfile *o)
{
	if (o->in_place) {
		if (o->fd != STDOUT_FILENO)
			close(o->fd);
		return;
	}
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp_base != NULL)
		unlinkat(o->dirfd, o->tmp_base, 0);
	release(o);
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int
ae_outfile_names(const struct ae_outfile *o, const char *path)
{
	struct stat a, b;
	const char *slash, *base;
	char *dir;
	size_t dl;
	int r;

	if (path == NULL || strcmp(path, "-") == 0)
		return 0;
	if (stat(path, &a) == 0) {
		/* (written in place: a file standard output was sent to) */
		if (o->in_place && fstat(o->fd, &b) == 0 && S_ISREG(b.st_mode)
		    && same_file(&a, &b))
			return 1;
		if (!o->in_place && fstatat(o->dirfd, o->target_base, &b, 0)
		    == 0 && same_file(&a, &b))
			return 1;
	}
	if (o->in_place)
		return 0;
	/* Neither there yet: the same name in the same directory. */
	slash = strrchr(path, '/');
	base = slash != NULL ? slash + 1 : path;
	if (strcmp(base, o->target_base) != 0)
		return 0;
	dl = slash == NULL ? 0 : slash == path ? 1 : (size_t)(slash - path);
	if ((dir = malloc(dl + 2)) == NULL)
		return 0;
	if (dl == 0)
		strcpy(dir, ".");
	else {
		memcpy(dir, path, dl);
		dir[dl] = '\0';
	}
	r = stat(dir, &a) == 0 && fstat(o->dirfd, &b) == 0 && same_file(&a, &b);
	free(dir);
	return r;
}

int
ae_outfile_replaces(const struct ae_outfile *o, int fd)
{
	struct stat a, b;

	if (o->in_place || fd < 0 || fstat(fd, &a) != 0 || !S_ISREG(a.st_mode))
		return 0;
	return fstatat(o->dirfd, o->target_base, &b, 0) == 0
	    && same_file(&a, &b);
}
