/*
 * exitcode.h -- the exit statuses of the aescrypt command.
 *
 * This is the one table; the man page's EXIT STATUS section and the
 * README mirror it.  Scripts can tell "wrong key" from "damaged file"
 * from "the disk is full" without parsing messages.
 */
#ifndef AE_CLI_EXITCODE_H
#define AE_CLI_EXITCODE_H

enum ae_exit {
	EXIT_OK = 0,
	EXIT_PARTIAL = 1,     /* archives: some files differ or were skipped
	                       * (tar's meaning of 1); not used by -e / -d */
	EXIT_USAGE = 2,       /* bad command line or option value */
	EXIT_KEY = 3,         /* wrong passphrase or key, or no key source */
	EXIT_DATA = 4,        /* input corrupt, truncated, tampered, not an
	                       * aescrypt file, or an unsupported version */
	EXIT_LIMIT = 5,       /* input asks for more than the limits allow
	                       * (KDF cost over --max-kdf-memory etc.) */
	EXIT_SYSTEM = 6,      /* I/O error, disk full, broken pipe, out of
	                       * memory, no terminal for a prompt */
	EXIT_SIGNAL = 128     /* + the signal number: interrupted */
};

#endif
