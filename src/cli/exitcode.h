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
	EXIT_USAGE = 2,       /* bad command line or option value, or an
	                       * input named on it that does not exist */
	EXIT_KEY = 3,         /* wrong passphrase or key, or no key source */
	EXIT_DATA = 4,        /* input corrupt, truncated, tampered, not an
	                       * aescrypt file, or an unsupported version */
	EXIT_LIMIT = 5,       /* input asks for more than the limits allow
	                       * (KDF cost over --max-kdf-memory etc.) */
	EXIT_SYSTEM = 6,      /* I/O error, disk full, out of memory, no
	                       * terminal for a prompt */
	EXIT_SIGNER = 7,      /* --signer: the file is not signed, or by a
	                       * key the signers file does not allow */
	EXIT_CHAIN = 8,       /* -x/-t of several -g dumps that make no one
	                       * chain (chain.h) */
	EXIT_PIPE = 141,      /* standard output was closed by its reader
	                       * (EPIPE): silent, the status a shell gives a
	                       * tool killed by SIGPIPE (128 + 13) */
	EXIT_SIGNAL = 128     /* + the signal number: interrupted */
};

#endif
