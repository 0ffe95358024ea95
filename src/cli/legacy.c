/*
 * legacy.c -- aescrypt -d and --test on AES Crypt files (contract in
 * legacy.h).
 *
 * AES Crypt's MAC covers the whole ciphertext and sits at its end, so
 * unlike aescrypt's own chunks nothing can be released as it is read.
 * Where the output can be taken back (a new file under a temporary name)
 * one pass suffices; where it cannot (standard output), the MAC is
 * checked in a first pass over the input and only then is it decrypted.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "container/legacy.h"
#include "crypto/wipe.h"
#include "exitcode.h"
#include "legacy.h"
#include "msg.h"
#include "names.h"
#include "secret.h"
#include "signals.h"

/* Version 3's PBKDF2 iterations allowed without question: AES Crypt 4
 * writes 300,000; ten million take some seconds here.  A file asking
 * for more is refused as an absurd KDF cost (exit 5). */
#define MAX_ITERATIONS 10000000u

static int
header(struct streams *io, struct ae_legacy *lg)
{
	struct ae_diag d = { 0 };
	int err = ae_legacy_read_header(&io->reader, lg, &d);

	if (err != AE_OK)
		return msg_core_error(io->in.name, err, &d);
	return EXIT_OK;
}

/* The passphrase: one read early from a descriptor (keys.c), or from
 * the sources given, or the terminal.  A key file or identity alone
 * cannot open an AES Crypt file. */
static int
passphrase(const struct opts *o, struct streams *io,
    const struct ae_legacy *lg, struct passphrase *pass)
{
	enum pass_source src = o->pass_src != PASS_NONE ? o->pass_src
	    : secret_env_source();

	if (io->early_pass != NULL) {
		*pass = *io->early_pass;
		ae_secret_free(io->early_pass, sizeof *io->early_pass);
		io->early_pass = NULL;
		return EXIT_OK;
	}
	if (src == PASS_NONE && !o->want_pass
	    && (o->keyfile != NULL || o->nidentity_files > 0)) {
		msg_error("%s is an AES Crypt file (stream format version %d): "
		    "it opens with a passphrase, not a key file or identity",
		    io->in.name, lg->version);
		msg_hint("give the passphrase (from the terminal, "
		    "--passphrase-file, --passphrase-fd or AESCRYPT_PASSPHRASE)");
		return EXIT_KEY;
	}
	return secret_passphrase(src, o->pass_arg, 0, pass);
}

static int
unlock(const struct opts *o, struct streams *io, const struct ae_legacy *lg,
    struct ae_legacy_keys *k)
{
	struct passphrase pass;
	struct ae_diag d = { 0 };
	int st, err;

	memset(&pass, 0, sizeof pass);
	if ((st = passphrase(o, io, lg, &pass)) != EXIT_OK)
		return st;
	err = ae_legacy_unlock(lg, pass.buf, pass.len, MAX_ITERATIONS, k, &d);
	secret_wipe(&pass);
	if (err == AE_EKEY) {
		msg_error("%s: wrong passphrase (AES Crypt file, stream format "
		    "version %d)", io->in.name, lg->version);
		return EXIT_KEY;
	}
	if (err == AE_ELIMIT) {
		msg_error("%s: the AES Crypt header asks for %llu PBKDF2 "
		    "iterations, over the limit of %u", io->in.name, d.have,
		    MAX_ITERATIONS);
		msg_hint("AES Crypt itself writes 300,000; this file was made "
		    "to be slow to open");
		return EXIT_LIMIT;
	}
	if (err != AE_OK)
		return msg_core_error(io->in.name, err, &d);
	return EXIT_OK;
}

/* A failed payload: version 0 cannot tell a wrong passphrase from
 * damage, and is reported as a wrong key (exit 3), as the message says. */
static int
payload_error(struct streams *io, const struct ae_legacy *lg, int err,
    const struct ae_diag *d)
{
	int st = msg_core_error(io->in.name, err, d);

	if (err == AE_EAUTH && lg->version == 0)
		return EXIT_KEY;
	return st;
}

int
legacy_test(const struct opts *o, struct streams *io)
{
	struct ae_memio sink = { .discard = 1 };
	struct ae_writer none = { ae_mem_write, &sink };
	struct ae_legacy lg;
	struct ae_legacy_keys *k;
	struct ae_diag d = { 0 };
	uint64_t cipher = 0;
	int st, err;

	if ((st = header(io, &lg)) != EXIT_OK)
		return st;
	if ((k = ae_secret_alloc(sizeof *k)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if ((st = unlock(o, io, &lg, k)) == EXIT_OK) {
		err = ae_legacy_decrypt(&lg, k, &io->reader, &none,
		    AE_LEGACY_VERIFY, NULL, &cipher, &d);
		if (err != AE_OK)
			st = payload_error(io, &lg, err, &d);
		else if (o->verbose)
			printf("%s: OK, AES Crypt stream format version %d, "
			    "%llu bytes of ciphertext, MAC verified\n",
			    io->in.name, lg.version,
			    (unsigned long long)cipher);
	}
	ae_legacy_keys_wipe(k);
	ae_secret_free(k, sizeof *k);
	return st;
}

/* The input read again from where the ciphertext starts: only a regular
 * file can be. */
static int
rewindable(struct streams *io, off_t *start)
{
	struct stat sb;

	if (fstat(io->in.fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	*start = lseek(io->in.fd, 0, SEEK_CUR);
	return *start >= 0 && io->peek.len == 0;
}

static int
decrypt_to(const struct opts *o, struct streams *io, struct ae_legacy *lg,
    struct ae_legacy_keys *k)
{
	struct ae_memio sink = { .discard = 1 };
	struct ae_writer none = { ae_mem_write, &sink };
	struct ae_diag d = { 0 };
	uint64_t plain = 0;
	off_t start = 0;
	int st, err;

	if ((st = run_out_open(&io->out, o->output)) != EXIT_OK)
		return st;
	if (io->out.in_place) {
		if (!rewindable(io, &start)) {
			char q[1024];

			ae_outfile_abort(&io->out);
			msg_error("%s: an AES Crypt file is verified only at its "
			    "end, so it is not decrypted from a pipe to %s",
			    io->in.name, names_quote(io->out.name, q,
			    sizeof q));
			msg_hint("give the file by name, or write to a file "
			    "with -o FILE (kept only if it verifies)");
			return EXIT_USAGE;
		}
		err = ae_legacy_decrypt(lg, k, &io->reader, &none,
		    AE_LEGACY_VERIFY, NULL, NULL, &d);
		if (err == AE_OK && lseek(io->in.fd, start, SEEK_SET) != start)
			err = ae_fail(&d, AE_EIO, AE_AT_INPUT, "reading input",
			    0, 0);
		if (err != AE_OK) {
			ae_outfile_abort(&io->out);
			return payload_error(io, lg, err, &d);
		}
	}
	ae_fd_init(&io->wr, io->out.fd, &signals_stop, NULL);
	err = ae_legacy_decrypt(lg, k, &io->reader, &io->writer, 0, &plain,
	    NULL, &d);
	if (err != AE_OK) {
		st = payload_error(io, lg, err, &d);
		if (io->out.in_place && plain > 0)
			msg_error("the output is incomplete: the file changed "
			    "between the check and the decryption");
		ae_outfile_abort(&io->out);
		return st;
	}
	return run_out_commit(&io->out);
}

int
legacy_decrypt(const struct opts *o, struct streams *io)
{
	struct ae_legacy lg;
	struct ae_legacy_keys *k;
	int st;

	if ((st = header(io, &lg)) != EXIT_OK)
		return st;
	if ((k = ae_secret_alloc(sizeof *k)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if ((st = unlock(o, io, &lg, k)) == EXIT_OK)
		st = decrypt_to(o, io, &lg, k);
	ae_legacy_keys_wipe(k);
	ae_secret_free(k, sizeof *k);
	if (st == EXIT_OK && o->verbose)
		msg_note("%s: AES Crypt stream format version %d, decrypted and "
		    "verified", io->in.name, lg.version);
	return st;
}

int
legacy_not_archive(const char *name)
{
	msg_error("%s is an AES Crypt file: it holds one file's bytes, not an "
	    "aescrypt archive", name);
	msg_hint("decrypt it with: aescrypt -d %s -o FILE",
	    strcmp(name, "standard input") == 0 ? "-" : name);
	return EXIT_DATA;
}
