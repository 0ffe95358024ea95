/*
 * sigfile.h -- the key of --sign KEY (-c, -e), which signs inside a
 * stream's container (-e: the library's writer does that), and
 * --sig-file FILE: an OpenSSH signature (SSHSIG, namespace "aescrypt")
 * of the whole output, which
 *     ssh-keygen -Y verify -n aescrypt -f allowed_signers -I NAME \
 *         -s FILE < OUTPUT
 * checks without aescrypt.  As --checksum's hash, it is taken of the
 * bytes as they are written (the output may be a pipe), and FILE
 * appears, whole, only once the output is complete and has its name.
 *
 * KEY is an OpenSSH ssh-ed25519 private key (a protected one is opened
 * with a passphrase asked as -i's is), or the public key of one that
 * ssh-agent holds (SSH_AUTH_SOCK), as ssh-keygen -Y sign takes either.
 */
#ifndef AE_CLI_SIGFILE_H
#define AE_CLI_SIGFILE_H

#include <sodium.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "common/io.h"
#include "opts.h"

/* The namespace of --sig-file's signatures. */
#define SIGFILE_NAMESPACE "aescrypt"

struct sigfile {
	struct ae_writer next;      /* where the bytes go on to */
	crypto_hash_sha512_state h;
	aescrypt_signer *s;         /* --sign's key, once open */
};

/* Open the signing key (before any output exists, so that a wrong
 * passphrase or an absent agent leaves nothing behind); nothing without
 * key.  0 or an exit status (reported). */
int sigfile_open(struct sigfile *c, const struct key_sources *k,
    const char *key);

/* With path (--sig-file), hash everything written through *w from now
 * on. */
void sigfile_start(struct sigfile *c, const char *path, struct ae_writer *w);

/* With path (the one given to sigfile_start), sign what was written and
 * write the signature to path,
 * under its name only when whole.  0 or an exit status (reported: the
 * output is complete, its signature is not). */
int sigfile_finish(struct sigfile *c, const char *path);

/* The key wiped and freed. */
void sigfile_free(struct sigfile *c);

#endif
