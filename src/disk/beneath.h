/*
 * beneath.h -- open directories inside an extraction root without ever
 * following a symbolic link, so that no member of a hostile archive can
 * make aescrypt -x write outside the target directory.
 *
 * The attacks this closes are the classic ones: a member "link -> /etc"
 * followed by "link/passwd" (GNU tar CVE-2016-6321 territory, Python's
 * CVE-2007-4559 and the PEP 706 filter bypasses), a directory swapped
 * for a symlink between two members, a chain of links.  Rather than
 * checking where a link points, which is where filters have been
 * bypassed, extraction never resolves one: every component of a
 * member's directory must be a real directory.
 *
 * On Linux 5.6+ this is one openat2(2) call with RESOLVE_BENEATH and
 * RESOLVE_NO_SYMLINKS; otherwise (an old kernel, a seccomp filter, or
 * AE_BENEATH_WALK) it is a walk that opens each component with
 * O_NOFOLLOW | O_DIRECTORY from the one before.  Both give the same
 * answers; the unit test runs each.
 */
#ifndef AE_DISK_BENEATH_H
#define AE_DISK_BENEATH_H

#include <sys/types.h>

/* flags */
#define AE_BENEATH_CREATE 1     /* make missing directories (with mode) */
#define AE_BENEATH_WALK   2     /* do not use openat2 */

/*
 * Open the directory `dir` beneath the directory open at root: a
 * relative, '/'-separated path with no "." or ".." component and no
 * empty one ("" itself means root).  On success *fd is a new
 * O_RDONLY | O_DIRECTORY descriptor and 0 is returned.  Otherwise
 * AE_EINVAL for a path of the wrong shape, or AE_EIO with errno set:
 * ELOOP when a component is a symbolic link, ENOTDIR when it is some
 * other non-directory, ENOENT when it is missing (without
 * AE_BENEATH_CREATE), and the system's errors.
 */
int ae_beneath_opendir(int root, const char *dir, int flags, mode_t mode,
    int *fd);

/* Whether path is shaped as ae_beneath_opendir needs: relative, no
 * "." or ".." or empty components, no trailing '/'.  1 or 0. */
int ae_beneath_path_ok(const char *path);

#endif
