/*
 * identity.h -- public-key recipients from the user's side: -r and -R
 * for new files, -i for opening them, and --gen-identity.
 */
#ifndef AE_CLI_IDENTITY_H
#define AE_CLI_IDENTITY_H

#include <stddef.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "opts.h"

/*
 * The recipients of k's -r strings and -R files (one a line, '#'
 * comments and blank lines skipped), each kept once, into out (the
 * library's list, aescrypt.h).  Prints errors, naming the string or
 * the file and line and the position of a bad character; returns 0 or
 * an exit status (EXIT_USAGE for a malformed recipient, one of low
 * order, or a missing file).
 */
int identity_recipients(const struct key_sources *k, aescrypt_keys *out);

/*
 * The identities in k's -i files: age identity files (several keys, '#'
 * comments) and OpenSSH private keys (a protected one's passphrase
 * asked for), each file warned about if others may read it.  Into out
 * (the library's list, which wipes them when freed).  Prints errors; 0
 * or an exit status: EXIT_KEY for a file that holds no usable identity,
 * EXIT_USAGE if missing.
 */
int identity_read(const struct key_sources *k, aescrypt_keys *out);

/*
 * --gen-identity: write a new identity to path in age's format (created
 * time, public key comment, AGE-SECRET-KEY-1 line): X25519, or with pq
 * an ML-KEM-768 + X25519 one (AGE-SECRET-KEY-PQ-1, as age-keygen -pq
 * writes it); mode 0600, never over an existing file ("-": standard
 * output), and print its recipient (age1... or age1pq1...) on standard
 * output.  0 or an exit status.
 */
int identity_generate(const char *path, int pq);

#endif
