/*
 * agefile.h -- age files (the library's aescrypt_age) in the modes that
 * read one: -d decrypts one, --info shows its header without a key.
 * The input is open and its first bytes showed an age file (foreign.h);
 * each function prints and returns an exit status.
 */
#ifndef AE_CLI_AGEFILE_H
#define AE_CLI_AGEFILE_H

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "opts.h"
#include "run.h"

/* What --stats calls an age file's cipher. */
#define AGEFILE_TIER "chacha20-poly1305 (age)"

/*
 * -d: decrypt to output (NULL or "-": standard output) with the
 * identities of k's -i files, or a passphrase (from k's sources, else
 * the terminal) when the header holds an scrypt stanza.  As age: each
 * chunk's plaintext is written once it authenticated, and the first
 * that fails ends the run; a file named by -o is written under a
 * temporary name and appears only when the whole payload did.
 */
int agefile_decrypt(const struct key_sources *k, const struct run_prefs *p,
    const char *output, struct streams *io);

/*
 * The age file on io's input opened and unlocked with k (as -d does;
 * p's threads): 0 with *a (the caller frees it), or an exit status,
 * said.  For -t and -x (unpack.h), which read its payload as a tar
 * stream.
 */
int agefile_open(const struct key_sources *k, const struct run_prefs *p,
    struct streams *io, aescrypt_age **a);

/* --test: every chunk decrypted and authenticated, nothing written; -v
 * says so.  The exit status. */
int agefile_test(const struct key_sources *k, const struct run_prefs *p,
    struct streams *io);

/* A failure of a (err, with d) worded: the armor's, a stanza's, the
 * header's or the payload's.  The exit status. */
int agefile_failed(const char *name, const aescrypt_age *a, int err,
    const struct ae_diag *d);

/* --info: the header's stanzas, whether it is post-quantum or armored,
 * and the sizes of the header and the payload, without a key. */
int agefile_info(const struct opts *o, struct streams *io);

#endif
