/*
 * nofuse.c -- mountfs_run in a build without libfuse3 (./configure
 * --without-fuse, or no libfuse3-dev): it says so (contract in
 * mountfs.h).
 */
#include "config.h"
#include "mountfs.h"

#include <stdio.h>

int
mountfs_available(void)
{
	return 0;
}

int
mountfs_run(const struct mountfs_params *p, char *err, size_t errlen,
    size_t *bad)
{
	(void)p, (void)bad;
	snprintf(err, errlen, "this build of aescrypt has no FUSE "
	    "(configured without libfuse3-dev, or --without-fuse)");
	return MOUNTFS_NO_FUSE;
}
