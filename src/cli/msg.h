/*
 * msg.h -- every line aescrypt prints to stderr goes through here, so the
 * wording has one shape: "aescrypt: error: ...", "aescrypt: warning: ...",
 * "aescrypt: hint: ...", "aescrypt: note: ...".
 */
#ifndef AE_CLI_MSG_H
#define AE_CLI_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

void msg_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void msg_hint(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void msg_note(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* "aescrypt: error: PATH: the error's text", the path quoted as listings
 * quote names (names.h). */
void msg_file_error(const char *path, int err);

/* Report errno against `what`; returns EXIT_SYSTEM (or, for EPIPE,
 * EXIT_PIPE without a word, as msg_core_error does). */
int msg_sys_error(const char *what);

/* Say that a signal stopped the job; return its exit status (128+n). */
int msg_interrupted(void);


/* The exit status (exitcode.h) for a core error code. */
int exit_for(int err);

/*
 * Report a core failure while processing `name` (a file name, or
 * "standard input"), using what d says about where it happened, and
 * return the exit status.  AE_EKEY is the caller's to word, as only it
 * knows which key sources were tried.  A write that failed with EPIPE
 * (the reader went away, as with `| head`) is not reported at all and
 * gives EXIT_PIPE, as gzip and tar end silently by SIGPIPE.
 */
int msg_core_error(const char *name, int err, const struct ae_diag *d);

/* While on, say nothing: for a look ahead whose failures the run itself
 * meets again and says (chain.c).  Prompts are not messages. */
void msg_mute(int on);

/* The hint msg_core_error gives after a chunk that is cut short (a
 * truncated file): what a run of mode ('d', 'x', 't'; any other has
 * none) could do instead, with --salvage or not (a run with it has
 * none), of a file signed or not (--salvage does not read a signed
 * one, but what its signatures before the cut cover has been given).
 * Set before the run, and again once the file says whether it is
 * signed. */
void msg_on_cut_for(int mode, int salvage, int is_signed);

#endif
