/*
 * legacy.h -- files of AES Crypt (container/legacy.h) in the modes
 * that read one.  The input is open and its first bytes showed the
 * format (foreign.h); each function reads the header itself, prints,
 * and returns an exit status.
 */
#ifndef AE_CLI_LEGACY_H
#define AE_CLI_LEGACY_H

#include "opts.h"
#include "run.h"

/*
 * -d: decrypt to output (NULL or "-": standard output), with keys from
 * k; -v (p) says what was checked.  Nothing unverified reaches its final
 * place: a file is written under a temporary name and committed after
 * the MAC; standard output (or a device) gets the plaintext only after
 * the MAC has verified, from a nameless copy of the input made while it
 * was checked (the input is read once, so a pipe works), of at most max
 * bytes (0: LEGACY_SCRATCH_MAX): more is EXIT_LIMIT, said.
 */
int legacy_decrypt(const struct key_sources *k, const struct run_prefs *p,
    const char *output, uint64_t max, struct streams *io);

/* The nameless copy standard output needs may grow to max bytes (-d
 * --max-size), by default this many: a sender cannot fill $TMPDIR. */
#define LEGACY_SCRATCH_MAX ((uint64_t)4 << 30)

/* --test: check the passphrase and the MAC; -v prints a verdict line. */
int legacy_test(const struct key_sources *k, const struct run_prefs *p,
    struct streams *io);

/* -t and -x: an AES Crypt file holds one file's bytes, not an archive:
 * say so, and what to run instead.  Returns EXIT_DATA. */
int legacy_not_archive(const char *name);

#endif
