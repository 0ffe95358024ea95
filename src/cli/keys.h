/*
 * keys.h -- a container's key slots, from the user's side.  Both calls
 * gather secrets from the sources k names (secret.h), wipe them
 * before returning, print their own errors and return an exit status.
 */
#ifndef AE_CLI_KEYS_H
#define AE_CLI_KEYS_H

#include <stdint.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "common/io.h"
#include "opts.h"
#include "run.h"
#include "stats.h"

/*
 * The key slots of a new file from the sources k names, given to w
 * (aescrypt.h): the recipients (-r, -R; checked against what one
 * header holds before anything is asked for), the key file's key (-k),
 * a passphrase (asked for and confirmed; with -k or recipients only
 * when one was asked for) and the Argon2id costs.  The slots are made
 * when w opens; *pass_slot says whether one is a passphrase's, whose
 * KDF runs then.  0 or an exit status (reported).
 */
int keys_to_writer(const struct key_sources *k, aescrypt_writer *w,
    int *pass_slot);

/* keys_open's answer for an AES Crypt file (legacy.h): nothing was
 * unlocked; a passphrase already read from a descriptor is in
 * io->early_pass. */
#define KEYS_LEGACY (-1)
/* ... and for an age file, in -d, -t, -x and --test (agefile.h): the
 * same. */
#define KEYS_AGE (-2)

/*
 * The reading modes on the library's reader: open io's input (its
 * run_input_open done) with r, set for p (run_reader_settings; the
 * caller sets salvage, with its own callback, before)
 * and unlocked with the user's key sources, which are asked for only
 * as the file's slots need them.  Every failure is worded as
 * keys_unlock words it; rs gets the codec and the KDF's cost.  0;
 * KEYS_LEGACY for an AES Crypt file (r untouched); or an exit status.
 */
/*
 * --signer FILE: the file read (at most 1 MiB) and given to use, which
 * parses it (an allowed_signers file or one public key line; 0, or an
 * error with d->index the bad line).  0, or an exit status, said: a
 * file that cannot be read, is too large or has a bad line.
 */
int keys_signers(const char *path, int (*use)(void *ctx, const char *text,
    size_t len, struct ae_diag *d), void *ctx);

int keys_open(const struct key_sources *k, const struct run_prefs *p,
    struct streams *io, aescrypt_reader *r, struct run_stats *rs);

#endif
