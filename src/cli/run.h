/*
 * run.h -- the plumbing that every container command (-e, -d, -c, -t,
 * -x) shares: the input, the streams and the pipeline's parameters, and
 * how a pipeline failure and --stats are reported.
 */
#ifndef AE_CLI_RUN_H
#define AE_CLI_RUN_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/error.h"
#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "common/io.h"
#include "opts.h"
#include "disk/outfile.h"
#include "stats.h"

/* The input as a descriptor, its path, and a name for messages. */
struct input {
	int fd;
	const char *name;       /* for messages: "standard input", or the
	                         * path quoted as listings quote names */
	const char *path;       /* as given (NULL: standard input), for
	                         * JSON, which escapes by its own rules */
	char qname[1024];
};

/*
 * Open path (NULL or "-": standard input).  Prints; returns 0 or an exit
 * status: EXIT_USAGE if path does not exist (in every mode, as for -c's
 * operands), EXIT_SYSTEM if it cannot be opened.  With p (the modes that
 * read a container), a terminal is refused (EXIT_USAGE) with tar's
 * "missing -f option?" hint; -e passes NULL, as gzip reads a terminal.
 */
int run_input_open(struct input *in, const char *path,
    const struct run_prefs *p);
void run_input_close(struct input *in);

/* Bytes read ahead to name the input's format (foreign.h), handed back
 * before the rest: used only where the input cannot be read again at
 * its offset (a pipe). */
struct peek {
	uint8_t buf[512];
	size_t len, pos;
};

struct passphrase;

/* The streams of one run: input, output, and their I/O objects. */
struct streams {
	struct input in;
	struct ae_outfile out;
	struct ae_fdio rd, wr;
	struct ae_reader reader;    /* reads in.fd through rd */
	struct ae_writer writer;    /* writes out.fd through wr */
	atomic_int cancel;
	struct peek peek;
	/* a passphrase line read from a descriptor before the data was
	 * found to be an AES Crypt or age file (keys.c); run_passphrase
	 * takes it */
	struct passphrase *early_pass;
};

/* The passphrase of a file keys_open handed on (KEYS_LEGACY, KEYS_AGE):
 * the line read early from a descriptor, else from k's source (or
 * AESCRYPT_PASSPHRASE), else the terminal.  0 or an exit status
 * (said).  The caller wipes p. */
int run_passphrase(struct streams *io, const struct key_sources *k,
    struct passphrase *p);

/* The output's calls (disk/outfile.h) as the commands use them: they
 * print their own errors and return an exit status. */
int run_out_open(struct ae_outfile *o, const char *path);
int run_out_retarget(struct ae_outfile *o, const char *suffix);
int run_out_commit(struct ae_outfile *o);

/* The open archive output o against the run's other outputs: the
 * files --checksum, --sig-file and -g name (each NULL if not given)
 * must not be it, nor may it replace the input open as in_fd (-1: no
 * input file).  EXIT_OK, or EXIT_USAGE after saying which one (the
 * caller aborts o: nothing was written). */
int run_out_distinct(const struct ae_outfile *o, int in_fd,
    const char *checksum, const char *sig_file, const char *snapshot);

/* Zero io and wire reader and writer to rd and wr; fds are -1. */
void run_streams_init(struct streams *io);

/* Report a pipeline failure r (naming the input or the output, as d
 * says) and return the exit status. */
int run_pipe_error(struct streams *io, int r, const struct ae_diag *d);

/* After a successful run: fill in the totals and print --stats (if
 * asked for).  w0 is the wall clock at the start. */
void run_finish_stats(const struct run_prefs *p, struct run_stats *rs,
    uint64_t w0, const char *tier, const struct streams *io);

/* Start the progress line (progress.h) if p asks for it or stderr is a
 * terminal: counting the plaintext (-e, -c) or the container (-d, -t,
 * -x); the total is fd's size if it is a regular file, else total.
 * Unless forced, it stays off when out_fd (or -1) is a terminal too:
 * plaintext going to the screen would be mixed with it. */
void run_progress_start(const struct run_prefs *p, int count_wire, int fd,
    uint64_t total, uint64_t base, int out_fd);

/* Refuse to write a container to a terminal, with a hint that names
 * the option of p's mode (-f for -c, -o for -e); returns EXIT_USAGE. */
int run_refuse_tty(const struct run_prefs *p);

/*
 * The library's writer (aescrypt.h) as -e and -c drive it.  _sink: a
 * write callback over io's writer (the output, behind --checksum);
 * _source: a source over io's reader (-e's input).  _settings: p's
 * codec, chunk size, level, threads, engine, signals (io's reader gives
 * up when the pipeline stops early), timing and the progress line;
 * 0 or EXIT_USAGE (reported).  _failed: report w's failure err,
 * naming the input or the output as every mode names a pipeline's;
 * the exit status.
 */
int run_writer_sink(void *ctx, const void *buf, size_t n);
int run_writer_source(void *ctx, void *buf, size_t n, size_t *got);
int run_writer_settings(const struct run_prefs *p, aescrypt_writer *w,
    struct streams *io);
int run_writer_failed(struct streams *io, aescrypt_writer *w, int err);

/*
 * The library's reader as the reading modes drive it.  _settings: p's
 * threads, engine, signals, timing and the progress line; 0 or
 * EXIT_USAGE (reported).  _source: io's input as the reader's source.
 * _event: the reader's events (aescrypt_reader_set_events) worded as
 * the command words them, ctx a struct reader_words: st is the exit
 * status of the last failure said (0 once the header's copy is used).
 */
struct reader_words {
	const char *name;           /* the input, for messages */
	int st;
};
int run_reader_settings(const struct run_prefs *p, aescrypt_reader *r,
    struct streams *io);
void run_reader_source(struct streams *io, struct aescrypt_source *src);
void run_reader_event(void *ctx, int event, int status, unsigned flags,
    const struct ae_diag *d);

/* Why the archive's index is not used, in words to follow "the
 * archive's index": from the reader's failure err and its place d. */
const char *run_index_why(int err, const struct ae_diag *d);

/* At the end of a run whose header came from its copy (from_copy:
 * aescrypt_reader_from_copy) and that would exit with st: say so, and
 * make it EXIT_DATA. */
int run_reader_copy_used(const struct streams *io, int from_copy, int st);

#endif
