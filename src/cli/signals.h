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
#include <stdatomic.h>

/* Non-zero once a handled signal has arrived.  An atomic int (lock-free
 * on every target we build for), so the handler may set it and any
 * thread may read it without a race. */
extern atomic_int signals_stop;

/* Install the handlers (without SA_RESTART, so blocked reads return). */
void signals_init(void);

/* The signal that set signals_stop, or 0. */
int signals_caught(void);

#endif
