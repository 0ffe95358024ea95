/*
 * session.h -- a container opened and unlocked for the commands that
 * read one (-d, -t, -x, --test, --info with a key); -e and -c make
 * theirs with the library's writer (run.h).  It sits above keys.c (the key
 * sources) and run.c (the streams and their plumbing), which need
 * neither each other nor it.
 */
#ifndef AE_CLI_SESSION_H
#define AE_CLI_SESSION_H

#include "container/header.h"
#include "crypto/gcm.h"
#include "opts.h"
#include "run.h"
#include "stats.h"

/*
 * Open path (NULL or "-": standard input) into io (initialised here) and
 * unlock it with the user's keys: its header in h, the payload cipher in
 * g and, for an archive with an index, the index cipher in index_g.
 * Returns 0 (the caller wipes g and index_g and closes io->in);
 * SESSION_LEGACY when the input is an AES Crypt file, which has no such
 * header (io->in is open at its start and io->early_pass may hold a
 * passphrase already read: the caller takes both); or an exit status,
 * with nothing left open.
 */
#define SESSION_LEGACY (-1)
int session_open(const struct key_sources *k, const struct run_prefs *p,
    const char *path, struct streams *io, struct ae_header *h, ae_gcm_ctx *g,
    ae_gcm_ctx *index_g, struct run_stats *rs);

#endif
