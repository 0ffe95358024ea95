/*
 * exitcode.h -- the exit statuses of the aescrypt command.
 *
 * This is the one table; the man page's EXIT STATUS section mirrors it.
 */
#ifndef AE_CLI_EXITCODE_H
#define AE_CLI_EXITCODE_H

enum ae_exit {
	EXIT_OK = 0,
	EXIT_FAILURE_GENERIC = 1,  /* an operation failed */
	EXIT_USAGE = 2             /* bad command line */
};

#endif
