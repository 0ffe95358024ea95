/*
 * session.h -- a container opened for the commands, either way: made
 * new for writing (-e, -c), or opened and unlocked for reading (-d, -t,
 * -x, --test, --info with a key).  It sits above keys.c (the key
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
 * Begin a new container (-e, -c): refuse a terminal as the output (path
 * NULL or "-" is standard output; checked before any passphrase is asked
 * for, and again once the output is open, for -o /dev/tty), make the
 * header with the user's key slots for payload_type (keys.h), set up the
 * payload cipher in g (and the index cipher in index_g, unless NULL), and
 * open io->out.  Returns 0, and the caller must ae_gcm_wipe(g) (and
 * index_g) and commit or abort io->out; or an exit status, with nothing
 * left to clean up.
 */
int session_create(const struct key_sources *k, const struct run_prefs *p,
    const char *path, int payload_type, struct ae_header *h, ae_gcm_ctx *g,
    ae_gcm_ctx *index_g, struct streams *io, struct run_stats *rs);

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
