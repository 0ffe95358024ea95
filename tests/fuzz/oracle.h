/*
 * oracle.h -- the escape oracle of the harnesses that extract
 * (fuzz_extract, fuzz_api).  The root they extract beneath is
 * base/a/dest (oracle_dest); after each input, base/ and base/a/ must
 * hold only what the oracle put there, with its sentinel file's content
 * intact, so a member that lands outside the root (through "..", an
 * absolute path or a symlink) aborts.  The root is emptied after every
 * input, never following a symlink, at any depth.
 */
#ifndef AE_FUZZ_ORACLE_H
#define AE_FUZZ_ORACLE_H

/* The root to extract beneath (set by oracle_setup). */
extern char oracle_dest[96];

/* Make base/a/dest and the sentinel, once (later calls do nothing);
 * removed at exit. */
void oracle_setup(void);

/* Abort if anything outside the root changed. */
void oracle_check(void);

/* Empty the root. */
void oracle_empty(void);

#endif
