/*
 * anon.h -- files made with no name (O_TMPFILE) and named once complete.
 *
 * A file that is still being written has no name at all, so nothing can
 * open it under its final name half-written, and a crash or a SIGKILL
 * leaves nothing behind, where a temp name would stay.  Naming it takes
 * linkat: with AT_EMPTY_PATH (any caller since Linux 6.10, only with
 * CAP_DAC_READ_SEARCH before) or through /proc/self/fd.  Which works is
 * learnt on the first file and kept in struct ae_anon; where neither
 * does, or the file system has no O_TMPFILE, the caller uses temp names.
 */
#ifndef AE_DISK_ANON_H
#define AE_DISK_ANON_H

enum { AE_ANON_UNKNOWN, AE_ANON_EMPTY_PATH, AE_ANON_PROC, AE_ANON_NONE };

struct ae_anon {
	int how;            /* AE_ANON_*: how a file gets its name */
};

void ae_anon_init(struct ae_anon *a);

/* A new, empty, write-only file with no name in the directory dirfd,
 * with the permission bits mode (0600 unless the caller knows better;
 * the umask applies; nothing can open it by a name until it has one, so
 * a file may start with its final bits and save a chmod).  The
 * descriptor, or -1 with errno (EOPNOTSUPP, EISDIR or EINVAL where the
 * file system or kernel has no O_TMPFILE). */
int ae_anon_create(int dirfd, unsigned mode);

/*
 * A scratch file for this process alone, in the directory dir: read and
 * write, mode 0600, with no name (O_TMPFILE), or where that cannot be
 * made, made under a random name and unlinked at once.  Either way it
 * is gone when the descriptor is closed, or the process killed.  The
 * descriptor, or -1 with errno.
 */
int ae_anon_scratch(const char *dir);

/*
 * Give the nameless file fd the name `name` in dirfd; it must not
 * exist (linkat never replaces).  0, or -1 with errno: EEXIST if the
 * name is taken; ENOENT, EPERM or EACCES if this system cannot name
 * such a file (then a->how becomes AE_ANON_NONE).
 */
int ae_anon_link(struct ae_anon *a, int fd, int dirfd, const char *name);

#endif
