/*
 * run.c -- the plumbing every container command shares (contracts in
 * run.h).
 */
#include "config.h"
#include "run.h"
#include "totals.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "msg.h"
#include "secret.h"
#include "names.h"
#include "progress.h"
#include "signals.h"

/* Reading a container from the keyboard is never meant: tar's refusal,
 * with its hint when an operand looks like the archive. */
static int
refuse_tty_input(struct input *in, const struct run_prefs *p)
{
	struct stat st;

	if (p->mode == 't' || p->mode == 'x') {
		msg_error("refusing to read archive contents from a terminal "
		    "(missing -f option?)");
		if (p->operand != NULL && stat(p->operand, &st) == 0
		    && S_ISREG(st.st_mode))
			msg_hint("to read '%s', give it with -f: aescrypt -%c "
			    "-f %s", p->operand, p->mode, p->operand);
		else
			msg_hint("name the archive with -f FILE, or redirect "
			    "it with '<'");
	} else {
		msg_error("refusing to read encrypted data from a terminal");
		msg_hint("name the file as an operand, or redirect it with "
		    "'<'");
	}
	run_input_close(in);
	return EXIT_USAGE;
}

int
run_input_open(struct input *in, const char *path,
    const struct run_prefs *p)
{
	if (path == NULL || strcmp(path, "-") == 0) {
		in->fd = STDIN_FILENO;
		in->name = "standard input";
		in->path = NULL;
	} else {
		/* every message names it as -t lists names: control and
		 * bidi characters shown, not obeyed */
		in->name = names_quote(path, in->qname, sizeof in->qname);
		in->path = path;
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			int e = errno;

			msg_error("%s: %s", in->name, strerror(e));
			/* A name that does not exist is a mistake on the
			 * command line, in every mode (-c's paths too). */
			return e == ENOENT || e == ENOTDIR ? EXIT_USAGE :
			    EXIT_SYSTEM;
		}
	}
	if (p != NULL && isatty(in->fd))
		return refuse_tty_input(in, p);
	return EXIT_OK;
}

void
run_input_close(struct input *in)
{
	if (in->fd != STDIN_FILENO)
		close(in->fd);
}

void
run_streams_init(struct streams *io)
{
	memset(io, 0, sizeof *io);
	atomic_init(&io->cancel, 0);
	io->in.fd = -1;
	io->out.fd = -1;
	io->reader.read = ae_fd_read;
	io->reader.ctx = &io->rd;
	io->reader.seek = ae_fd_seek;
	io->writer.write = ae_fd_write;
	io->writer.ctx = &io->wr;
}

int
run_pipe_error(struct streams *io, int r, const struct ae_diag *d)
{
	char q[1024];
	const char *name = d->where == AE_AT_OUTPUT ? names_quote(io->out.name,
	    q, sizeof q) : io->in.name;

	return msg_core_error(name, r, d);
}

/* After a successful run: fill in the totals and print --stats. */
void
run_finish_stats(const struct run_prefs *p, struct run_stats *rs, uint64_t w0,
    const char *tier, const struct streams *io)
{
	struct rusage ru;

	/* GNU tar's words: what -c and -e wrote, or what the others read */
	if (p->totals)
		totals_bytes(p->mode == 'c' || p->mode == 'e', p->mode == 'c'
		    || p->mode == 'e' ? io->wr.bytes : io->rd.bytes,
		    ae_wall_ns() - w0);
	if (!p->stats)
		return;
	rs->in_bytes = io->rd.bytes;
	rs->out_bytes = io->wr.bytes;
	rs->mode = p->mode == 'c' ? "create" : p->mode == 't' ? "list" :
	    p->mode == 'x' ? "extract" : p->mode == 'd' ? "decrypt" :
	    "encrypt";
	rs->tier = tier;
	rs->engine = aescrypt_engine_name(p->engine);
	rs->wall_ns = ae_wall_ns() - w0;
	rs->process_cpu_ns = ae_process_ns();
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		rs->peak_rss_kib = (uint64_t)ru.ru_maxrss;
	stats_print(stderr, rs, p->stats == 2);
}

int
run_passphrase(struct streams *io, const struct key_sources *k,
    struct passphrase *p)
{
	enum pass_source src = k->pass_src != PASS_NONE ? k->pass_src :
	    secret_env_source();

	if (io->early_pass != NULL) {
		*p = *io->early_pass;
		ae_secret_free(io->early_pass, sizeof *io->early_pass);
		io->early_pass = NULL;
		return EXIT_OK;
	}
	return secret_passphrase(src, k->pass_arg, 0, p);
}

int
run_refuse_tty(const struct run_prefs *p)
{
	msg_error("refusing to write encrypted data to a terminal");
	msg_hint("redirect the output with '>' or use %s FILE",
	    p->mode == 'c' ? "-f" : "-o");
	return EXIT_USAGE;
}


void
run_progress_start(const struct run_prefs *p, int count_wire, int fd,
    uint64_t total, uint64_t base, int out_fd)
{
	struct stat st;
	int on = progress_wanted(p->progress);

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		total = (uint64_t)st.st_size;
	if (p->progress < 0 && out_fd >= 0 && isatty(out_fd))
		on = 0;
	progress_start(on, count_wire ? PROGRESS_WIRE : PROGRESS_PLAIN, total,
	    base);
}

int
run_out_open(struct ae_outfile *o, const char *path)
{
	struct ae_diag d = { 0 };
	int err = ae_outfile_open(o, path, &d);

	return err == AE_OK ? EXIT_OK : msg_core_error(path, err, &d);
}

int
run_out_retarget(struct ae_outfile *o, const char *suffix)
{
	struct ae_diag d = { 0 };
	int err = ae_outfile_retarget(o, suffix, &d);

	return err == AE_OK ? EXIT_OK : msg_core_error(o->name, err, &d);
}

int
run_out_distinct(const struct ae_outfile *o, int in_fd, const char *checksum,
    const char *sig_file, const char *snapshot)
{
	static const char *const opt[] = { "--checksum", "--sig-file", "-g" };
	static const char *const why[] = { "its line would be appended to it",
	    "the signature would replace it", "the snapshot would replace it" };
	const char *path[] = { checksum, sig_file, snapshot };
	char q[1024];
	size_t i;

	if (ae_outfile_replaces(o, in_fd)) {
		msg_error("%s is the input: the output would replace the file "
		    "being read", names_quote(o->name, q, sizeof q));
		return EXIT_USAGE;
	}
	for (i = 0; i < sizeof path / sizeof *path; i++)
		if (path[i] != NULL && ae_outfile_names(o, path[i])) {
			msg_error("%s %s names the output being written: %s",
			    opt[i], names_quote(path[i], q, sizeof q), why[i]);
			return EXIT_USAGE;
		}
	return EXIT_OK;
}

int
run_out_commit(struct ae_outfile *o)
{
	struct ae_diag d = { 0 };
	const char *name = o->name;
	int err = ae_outfile_commit(o, &d);

	return err == AE_OK ? EXIT_OK : msg_core_error(name, err, &d);
}

/* ---- the library's reader ---- */

const char *
run_index_why(int err, const struct ae_diag *d)
{
	/* the reader's own words say what was wrong with the index (a
	 * footer that does not open, a record that fails authentication,
	 * a rule of 6.8); the input, a signal and memory are ours */
	if (err == AE_EINTR || atomic_load(&signals_stop))
		return "was not read (interrupted)";
	if (err == AE_ETOOBIG)
		return "is too large to hold";
	if (err == AE_ENOMEM)
		return "does not fit in memory";
	if (d != NULL && d->where == AE_AT_INPUT)
		return "cannot be read";
	return d != NULL && d->what != NULL ? d->what : "is damaged";
}

void
run_reader_event(void *ctx, int event, int status, unsigned flags,
    const struct ae_diag *d)
{
	struct reader_words *w = ctx;
	const char *name = w->name;
	int retry = (flags & AESCRYPT_HEADER_RETRY) != 0;

	switch (event) {
	case AESCRYPT_EVENT_HEADER_BAD:
		w->st = msg_core_error(name, status, d);
		if ((flags & AESCRYPT_HEADER_DAMAGED) && !retry)
			msg_hint(flags & AESCRYPT_HEADER_COPY ? "the file ends "
			    "with a copy of its header: --salvage can use it"
			    : "if the file ends with a copy of its header "
			    "(aescrypt 0.3 and later), --salvage can use it");
		break;
	case AESCRYPT_EVENT_HEADER_UNAUTHENTIC:
		if (retry) {
			msg_warn("%s: %s", name, d->what);
			w->st = EXIT_OK;
			break;
		}
		w->st = msg_core_error(name, AE_EAUTH, d);
		if (flags & AESCRYPT_HEADER_COPY)
			msg_hint("the file ends with a copy of its header: "
			    "--salvage tries it with the same key");
		break;
	case AESCRYPT_EVENT_COPY_UNREADABLE:
		msg_hint("a copy of the header may end the file, but a pipe "
		    "cannot be read from its end: save it to a file, and use "
		    "--salvage on that");
		w->st = EXIT_DATA;
		break;
	case AESCRYPT_EVENT_COPY_BAD:
		if (status == AE_EIO) {
			errno = EIO;
			w->st = msg_sys_error(name);
			break;
		}
		msg_error("%s: and no copy of it at the end of the file can be "
		    "used: %s", name, d->what);
		msg_hint("files made before aescrypt 0.3 have no copy");
		w->st = EXIT_DATA;
		break;
	case AESCRYPT_EVENT_COPY_USED:
		msg_warn("%s: using the copy of the header at the end of the "
		    "file", name);
		w->st = EXIT_OK;
		break;
	case AESCRYPT_EVENT_COPY_UNAUTHENTIC:
		w->st = msg_core_error(name, status, d);
		if (status == AE_EAUTH)
			msg_error("%s: the copy of the header fails "
			    "authentication too", name);
		break;
	case AESCRYPT_EVENT_INDEX_UNUSABLE:
		msg_warn("%s: the archive's index %s; reading the whole "
		    "archive", name, run_index_why(status, d));
		break;
	default:
		break;
	}
}

int
run_reader_settings(const struct run_prefs *p, aescrypt_reader *r,
    struct streams *io)
{
	int err;

	if ((err = aescrypt_reader_set_threads(r, p->threads)) == AESCRYPT_OK
	    && (err = aescrypt_reader_set_engine(r, p->engine)) == AESCRYPT_OK
	    && (err = aescrypt_reader_set_signals(r, &signals_stop,
	    &io->cancel)) == AESCRYPT_OK
	    && (err = aescrypt_reader_set_timed(r, p->stats != 0))
	    == AESCRYPT_OK)
		err = aescrypt_reader_set_progress(r, progress_tick, NULL);
	if (err != AESCRYPT_OK) {
		msg_error("%s", aescrypt_reader_error(r));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The input as the reader's source: a regular file that the container
 * starts (its index's offsets count from there) by pread, so that the
 * index and the header's copy can be reached; anything else in order,
 * through io's reader (what foreign_peek read first, then the
 * descriptor, giving up on a signal). */
static int
source_pread(void *ctx, void *buf, size_t n, uint64_t off, size_t *got)
{
	struct streams *io = ctx;
	ssize_t k;

	do
		k = pread(io->in.fd, buf, n, (off_t)off);
	while (k < 0 && errno == EINTR && !atomic_load(&signals_stop));
	if (k < 0)
		return errno == EINTR ? AESCRYPT_EINTR : AESCRYPT_EIO;
	*got = (size_t)k;
	io->rd.bytes += (uint64_t)k;    /* (what --totals counts) */
	return 0;
}

void
run_reader_source(struct streams *io, struct aescrypt_source *src)
{
	struct stat st;

	memset(src, 0, sizeof *src);
	src->ctx = io;
	if (fstat(io->in.fd, &st) == 0 && S_ISREG(st.st_mode)
	    && lseek(io->in.fd, 0, SEEK_CUR) == 0) {
		src->pread = source_pread;
		src->size = (uint64_t)st.st_size;
	} else {
		src->read = run_writer_source;
	}
}

int
run_reader_copy_used(const struct streams *io, int from_copy, int st)
{
	if (!from_copy || (st != EXIT_OK
	    && st != EXIT_PARTIAL))
		return st;
	msg_error("%s: the header at the start of the file is damaged; its "
	    "copy at the end was used", io->in.name);
	return EXIT_DATA;
}

/* ---- the library's writer (-e, -c) ---- */

/* A core I/O result as a callback's status (errno stays as the failed
 * call left it: aescrypt.h keeps it for AESCRYPT_EIO). */
static int
callback_status(int err)
{
	return err == AE_OK ? 0 : err == AE_EINTR ? AESCRYPT_EINTR :
	    AESCRYPT_EIO;
}

int
run_writer_sink(void *ctx, const void *buf, size_t n)
{
	struct streams *io = ctx;

	return callback_status(io->writer.write(io->writer.ctx, buf, n));
}

int
run_writer_source(void *ctx, void *buf, size_t n, size_t *got)
{
	struct streams *io = ctx;

	return callback_status(io->reader.read(io->reader.ctx, buf, n, got));
}

int
run_writer_settings(const struct run_prefs *p, aescrypt_writer *w,
    struct streams *io)
{
	int err;

	if ((err = aescrypt_writer_set_codec(w, p->codec)) == AESCRYPT_OK
	    && (err = aescrypt_writer_set_chunk_log2(w, p->chunk_log2))
	    == AESCRYPT_OK
	    && (err = aescrypt_writer_set_level(w, p->level)) == AESCRYPT_OK
	    && (err = aescrypt_writer_set_threads(w, p->threads))
	    == AESCRYPT_OK
	    && (err = aescrypt_writer_set_engine(w, p->engine)) == AESCRYPT_OK
	    && (err = aescrypt_writer_set_signals(w, &signals_stop,
	    &io->cancel))
	    == AESCRYPT_OK
	    && (err = aescrypt_writer_set_timed(w, p->stats != 0))
	    == AESCRYPT_OK)
		err = aescrypt_writer_set_progress(w, progress_tick, NULL);
	if (err != AESCRYPT_OK) {
		msg_error("%s", aescrypt_writer_error(w));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int
run_writer_failed(struct streams *io, aescrypt_writer *w, int err)
{
	const struct ae_diag *d = aescrypt_writer_diag(w);

	if (d != NULL)
		return run_pipe_error(io, err, d);
	msg_error("%s", aescrypt_writer_error(w));
	return exit_for(err);
}
