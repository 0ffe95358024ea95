/*
 * signals.h -- SIGINT, SIGTERM, SIGHUP and SIGPIPE for the CLI.
 *
 * The handlers only set a flag; the I/O loops poll it (ae_fdio.stop) and
 * unwind through the normal error path, so temp files are removed and the
 * terminal is restored by the same code that handles any other failure.
 * SIGPIPE is ignored so that a closed pipe is a write error (EPIPE) with
 * a message, not a silent death.
 */
#ifndef AE_CLI_SIGNALS_H
#define AE_CLI_SIGNALS_H

#include <signal.h>

extern volatile sig_atomic_t signals_stop;

/* Install the handlers (without SA_RESTART, so blocked reads return). */
void signals_init(void);

/* The signal that set signals_stop, or 0. */
int signals_caught(void);

#endif
