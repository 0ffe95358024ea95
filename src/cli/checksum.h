/*
 * checksum.h -- --checksum FILE (-c, -e): the finished file's SHA-256,
 * appended to FILE in sha256sum's format, so that a host without the
 * key can find bit rot later with "sha256sum -c FILE".
 *
 * The hash is taken of the bytes as they are written (the output is
 * never read back: it may be a pipe), and the line is appended only
 * once the output is complete and has its name.
 */
#ifndef AE_CLI_CHECKSUM_H
#define AE_CLI_CHECKSUM_H

#include <sodium.h>

#include "common/io.h"

struct checksum {
	struct ae_writer next;      /* where the bytes go on to */
	crypto_hash_sha256_state h; /* libsodium's, which the command links
	                             * anyway: a file's hash is no part of
	                             * the container */
	int on;
};

/* With path (not NULL): hash everything written through *w from now on,
 * by putting c in front of it. */
void checksum_start(struct checksum *c, const char *path,
    struct ae_writer *w);

/*
 * Append "HEX  NAME\n" to path (made if missing, mode 0666 less the
 * umask, as the shell's >> makes it), NAME being the output's name as
 * given ("-" for standard output), escaped as sha256sum escapes a name
 * with a newline or backslash.  Nothing if checksum_start was not
 * called.  0 or an exit status (reported).
 */
int checksum_finish(struct checksum *c, const char *path, const char *name);

#endif
