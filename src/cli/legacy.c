/*
 * legacy.c -- aescrypt -d and --test on AES Crypt files (contract in
 * legacy.h).
 *
 * AES Crypt's MAC covers the whole ciphertext and sits at its end, so
 * unlike aescrypt's own chunks nothing can be released as it is read.
 * Where the output can be taken back (a new file under a temporary name)
 * one pass suffices; where it cannot (standard output), the ciphertext
 * is copied aside while the MAC is checked, and the copy decrypted.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "container/legacy.h"
#include "common/wipe.h"
#include "disk/anon.h"
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
passphrase(const struct key_sources *ks, struct streams *io,
    const struct ae_legacy *lg, struct passphrase *pass)
{
	if (io->early_pass == NULL && ks->pass_src == PASS_NONE
	    && secret_env_source() == PASS_NONE && !ks->want_pass
	    && (ks->keyfile != NULL || ks->nidentity_files > 0)) {
		msg_error("%s is an AES Crypt file (stream format version %d): "
		    "it opens with a passphrase, not a key file or identity",
		    io->in.name, lg->version);
		msg_hint("give the passphrase (from the terminal, "
		    "--passphrase-file, --passphrase-fd or AESCRYPT_PASSPHRASE)");
		return EXIT_KEY;
	}
	return run_passphrase(io, ks, pass);
}

static int
unlock(const struct key_sources *ks, struct streams *io,
    const struct ae_legacy *lg, struct ae_legacy_keys *k)
{
	struct passphrase pass;
	struct ae_diag d = { 0 };
	int st, err;

	memset(&pass, 0, sizeof pass);
	if ((st = passphrase(ks, io, lg, &pass)) != EXIT_OK)
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

/* Versions 0-2 keep the last block's length (byte 4, or the byte
 * before the MAC) outside the MAC: whoever can change the file can cut
 * or extend the plaintext by up to 15 bytes and it still verifies.  The
 * format cannot be fixed; -v says so (issue 34). */
static void
length_note(struct streams *io, const struct ae_legacy *lg)
{
	if (lg->version < 3)
		msg_note("%s: in stream format version %d the last block's "
		    "length is not authenticated: the end of the plaintext "
		    "could have been cut or extended by up to 15 bytes "
		    "undetected", io->in.name, lg->version);
}

int
legacy_test(const struct key_sources *ks,
    const struct run_prefs *p, struct streams *io)
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
	if ((st = unlock(ks, io, &lg, k)) == EXIT_OK) {
		err = ae_legacy_decrypt(&lg, k, &io->reader, &none,
		    AE_LEGACY_VERIFY, NULL, &cipher, &d);
		if (err != AE_OK)
			st = payload_error(io, &lg, err, &d);
		else if (p->verbose) {
			printf("%s: OK, AES Crypt stream format version %d, "
			    "%llu bytes of ciphertext, MAC verified\n",
			    io->in.name, lg.version,
			    (unsigned long long)cipher);
			length_note(io, &lg);
		}
	}
	ae_legacy_keys_wipe(k);
	ae_secret_free(k, sizeof *k);
	return st;
}

/* A reader that keeps a copy of everything it reads, up to max bytes:
 * more is AE_ELIMIT (over); a write that fails is AE_EIO (werr, its
 * errno), so that the words are the copy's, not the input's. */
struct tee {
	struct ae_reader *in;
	struct ae_fdio copy;
	uint64_t n, max;
	int over, werr;
};

static int
tee_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct tee *t = ctx;
	int err = t->in->read(t->in->ctx, buf, n, got);

	if (err != AE_OK || *got == 0)
		return err;
	if (*got > t->max - t->n) {
		t->over = 1;
		return AE_ELIMIT;
	}
	if ((err = ae_fd_write(&t->copy, buf, *got)) != AE_OK) {
		t->werr = errno != 0 ? errno : EIO;
		return err;
	}
	t->n += *got;
	return AE_OK;
}

/*
 * To standard output, a device or a FIFO (nothing that can be taken
 * back), the MAC must be checked before the first byte is written.  The
 * ciphertext is copied to a nameless 0600 file in $TMPDIR while the MAC
 * is checked, and that copy is what is decrypted: reading the input a
 * second time would decrypt whatever it holds by then (a file changed
 * in between, or a network file system that answers differently), not
 * what was verified (issue 34).  Only ciphertext touches the disk.
 */
static int
decrypt_in_place(struct streams *io, struct ae_legacy *lg,
    struct ae_legacy_keys *k, uint64_t max, uint64_t *plain,
    struct ae_diag *d, int *said)
{
	struct ae_memio sink = { .discard = 1 };
	struct ae_writer none = { ae_mem_write, &sink };
	struct tee t = { &io->reader, { 0 }, 0, max, 0, 0 };
	struct ae_reader teed = { tee_read, &t, NULL }, copy;
	struct ae_fdio cf;
	const char *dir = getenv("TMPDIR");
	char q[1024];
	int fd, err;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if ((fd = ae_anon_scratch(dir)) < 0) {
		err = ae_fail(d, AE_EIO, AE_AT_OUTPUT, "cannot make a scratch "
		    "file to hold the ciphertext while its MAC is checked",
		    0, 0);
		d->sys_errno = errno;
		return err;
	}
	ae_fd_init(&t.copy, fd, &signals_stop, NULL);
	err = ae_legacy_decrypt(lg, k, &teed, &none, AE_LEGACY_VERIFY, NULL,
	    NULL, d);
	if (t.over || t.werr != 0) {
		/* the copy's words, not the input's (nothing was written) */
		char lim[32];

		names_quote(dir, q, sizeof q);
		snprintf(lim, sizeof lim, "%llu", (unsigned long long)max);
		if (t.over)
			msg_error("%s: an AES Crypt file is copied to %s while "
			    "its MAC is checked, before standard output gets a "
			    "byte, and this one is over the copy's limit of %s "
			    "bytes", io->in.name, q, lim);
		else
			msg_error("%s: writing the scratch copy of the "
			    "ciphertext in %s: %s", io->in.name, q,
			    strerror(t.werr));
		msg_hint("-o FILE needs no copy%s", t.over ? "; or raise the "
		    "limit with --max-size" : "; or set TMPDIR to a "
		    "directory with room");
		*said = t.over ? EXIT_LIMIT : EXIT_SYSTEM;
		close(fd);
		return t.over ? AE_ELIMIT : AE_EIO;
	}
	if (err == AE_OK && lseek(fd, 0, SEEK_SET) != 0)
		err = ae_fail(d, AE_EIO, AE_AT_OUTPUT, "cannot read back the "
		    "ciphertext's copy", 0, 0);
	if (err == AE_OK) {
		ae_fd_init(&cf, fd, &signals_stop, NULL);
		copy = (struct ae_reader){ ae_fd_read, &cf, NULL };
		err = ae_legacy_decrypt(lg, k, &copy, &io->writer, 0, plain,
		    NULL, d);
	}
	close(fd);
	return err;
}

static int
decrypt_to(const char *output, struct streams *io, struct ae_legacy *lg,
    struct ae_legacy_keys *k, uint64_t max)
{
	struct ae_diag d = { 0 };
	uint64_t plain = 0;
	int st, err, said = EXIT_OK;

	if ((st = run_out_open(&io->out, output)) != EXIT_OK)
		return st;
	if ((st = run_out_distinct(&io->out, io->in.fd, NULL, NULL, NULL))
	    != EXIT_OK) {
		ae_outfile_abort(&io->out);
		return st;
	}
	ae_fd_init(&io->wr, io->out.fd, &signals_stop, NULL);
	if (io->out.in_place)
		err = decrypt_in_place(io, lg, k, max, &plain, &d, &said);
	else
		err = ae_legacy_decrypt(lg, k, &io->reader, &io->writer, 0,
		    &plain, NULL, &d);
	if (err != AE_OK) {
		st = said != EXIT_OK ? said : payload_error(io, lg, err, &d);
		if (io->out.in_place && plain > 0)
			msg_error("the output is incomplete: only the first "
			    "%llu bytes were written, and they must not be "
			    "used as a whole", (unsigned long long)plain);
		ae_outfile_abort(&io->out);
		return st;
	}
	return run_out_commit(&io->out);
}

int
legacy_decrypt(const struct key_sources *ks,
    const struct run_prefs *p, const char *output, uint64_t max,
    struct streams *io)
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
	if ((st = unlock(ks, io, &lg, k)) == EXIT_OK)
		st = decrypt_to(output, io, &lg, k, max > 0 ? max :
		    LEGACY_SCRATCH_MAX);
	ae_legacy_keys_wipe(k);
	ae_secret_free(k, sizeof *k);
	if (st == EXIT_OK && p->verbose) {
		msg_note("%s: AES Crypt stream format version %d, decrypted and "
		    "verified", io->in.name, lg.version);
		length_note(io, &lg);
	}
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
