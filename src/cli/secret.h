/*
 * secret.h -- where passphrases and key files come from.
 *
 * Never argv: a command line is visible to every user through ps and
 * /proc.  The sources are the terminal (/dev/tty, echo off), a file, a
 * file descriptor, and the AESCRYPT_PASSPHRASE environment variable.
 * Every buffer that held a secret is wiped before it is released.
 */
#ifndef AE_CLI_SECRET_H
#define AE_CLI_SECRET_H

#include <stddef.h>
#include <stdint.h>

/* AES Crypt allows 1,024 characters, and a character is up to 4 bytes
 * of UTF-8: its files made with the longest passphrases open here, and
 * this tool's own passphrases have the same bound. */
#define PASS_MAX 4096

enum pass_source {
	PASS_NONE = 0,
	PASS_TTY,       /* prompt on /dev/tty */
	PASS_FILE,      /* first line of a file */
	PASS_FD,        /* first line read from a descriptor */
	PASS_ENV        /* AESCRYPT_PASSPHRASE */
};

struct passphrase {
	uint8_t buf[PASS_MAX];
	size_t len;
};

/* The environment variable, if set, as a source; else PASS_NONE. */
enum pass_source secret_env_source(void);

/*
 * Get a passphrase from src (arg: the file name or the fd number as
 * text).  With `confirm` (encryption) the terminal asks twice and an
 * empty passphrase is refused from every source.  Prints its own errors;
 * returns 0 or an exit status.
 */
int secret_passphrase(enum pass_source src, const char *arg, int confirm,
    struct passphrase *p);

/*
 * Warn (with a chmod hint) if mode (a file's st_mode, read from path) is
 * a regular file's that group or others may access; `what` names it
 * ("key file").
 */
void secret_warn_mode(unsigned mode, const char *path, const char *what);

/*
 * The passphrase of a protected key file called name (quoted): from the
 * source given (src, or AESCRYPT_PASSPHRASE), else asked for on the
 * terminal ("Passphrase for NAME: ", no echo).  0 or an exit status
 * (EXIT_KEY without a terminal).  The caller wipes p.
 */
int secret_key_passphrase(enum pass_source src, const char *arg,
    const char *name, struct passphrase *p);

/*
 * Ask on the terminal with the prompt text (echo off, or on with echo):
 * an age plugin's request for a PIN or a public string.  0 or an exit
 * status (said); -1 when there is no terminal (not said).
 */
int secret_ask(const char *text, int echo, struct passphrase *p);

/*
 * On: a passphrase read from a descriptor or the environment (which can
 * be read once) is kept, in memory kept out of core dumps, and handed
 * to the next secret_passphrase from the same source (--test and --info
 * of several files).  Off: it is wiped.
 */
void secret_keep(int on);

/*
 * Read the file at path ("-": standard input, left open) into buf (its
 * first cap bytes; *len set: cap means it may hold more), warning as
 * secret_warn_mode does if `what` is not NULL (a secret's file).  *mode
 * (mode may be NULL) is the file's st_mode, 0 for standard input, for a
 * caller that warns only once it knows what the file holds.  Prints
 * errors; 0 or an exit status: EXIT_USAGE if path does not exist,
 * EXIT_SYSTEM if it cannot be read.  The caller wipes buf if it held a
 * secret.
 */
int secret_read_file(const char *path, char *buf, size_t cap, size_t *len,
    const char *what, unsigned *mode);

/* Read the key in key file `path` (warning if others may read it).
 * Prints errors; 0 or an exit status: EXIT_KEY if it is not a key
 * file. */
int secret_keyfile_read(const char *path, uint8_t key[32]);

/*
 * Write len bytes of text (a secret) to a new file at path, mode 0600,
 * never over an existing one ("-": standard output), fsynced; on failure
 * nothing is left under the name.  `what` ("a key file") is for the
 * hint when the file exists.  Prints errors; 0 or an exit status.
 */
int secret_write_new(const char *path, const char *text, size_t len,
    const char *what);

/*
 * --gen-key: write a new random key file at path (mode 0600, never over
 * an existing file; "-" is standard output).  0 or an exit status.
 */
int secret_keyfile_generate(const char *path);

/* Wipe a passphrase. */
void secret_wipe(struct passphrase *p);

#endif
