/*
 * main.c -- the aescrypt command: the command line (options.h), then
 * one mode.
 *
 * Only the CLI prints and exits; everything under src/ but src/cli/
 * returns error codes.
 */
#include "config.h"

#include <locale.h>
#include <stdatomic.h>
#ifdef HAVE_MALLOPT
#include <malloc.h>
#endif
#ifdef HAVE_PRCTL
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <stdio.h>
#include <unistd.h>

#include "container/format.h"
#include "benchmark.h"
#include "exitcode.h"
#include "identity.h"
#include "options.h"
#include "secret.h"
#include "signals.h"
#include "usage.h"

/*
 * No core dumps: a crash or a Ctrl-\ must not write the file key, the
 * passphrase or plaintext buffers to disk.  RLIMIT_CORE 0 stops the
 * kernel writing a core file; PR_SET_DUMPABLE 0 also stops core
 * handlers that ignore the limit (a core_pattern pipe such as
 * systemd-coredump) and ptrace attaches by other processes of the same
 * user.  Buffers of plaintext are also marked MADV_DONTDUMP where they
 * are allocated.  Memory is not locked (mlock): the chunk buffers are
 * tens of MiB, over the default RLIMIT_MEMLOCK, and keys live briefly on
 * the stack; encrypted swap is the system's answer to paging.  Where
 * there is no prctl (not Linux), the limit alone is set, and --version
 * says so.
 */
static void
no_core_dumps(void)
{
	struct rlimit rl = { 0, 0 };

	(void)setrlimit(RLIMIT_CORE, &rl);
#ifdef HAVE_PRCTL
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

/* --info and --test on each file named, as gzip -t: every file is
 * looked at, and the exit status is the worst of theirs. */
static int
each_file(const struct opts *o, int (*cmd)(const struct opts *))
{
	struct opts one = *o;
	size_t i;
	int st, s;

	one.operands = NULL;
	one.noperands = 0;
	secret_keep(1);   /* one passphrase line or variable for them all */
	st = cmd(&one);
	for (i = 0; i < o->noperands && !atomic_load(&signals_stop); i++) {
		one.archive = o->operands[i];
		if ((s = cmd(&one)) > st)
			st = s;
	}
	secret_keep(0);
	return st;
}

/* The mode the command line chose; its exit status. */
static int
dispatch(const struct cmdline *c)
{
	const struct opts *o = &c->o;

	if ((o->mode == 'i' || o->test) && o->noperands > 0)
		return each_file(o, o->mode == 'i' ? cmd_info : cmd_list);
	switch (o->mode) {
	case 'b':
		return benchmark_run(c->bench_time, o->threads, o->chunk_log2,
		    o->chunk_set ? o->chunk_log2 : AE_CHUNK_LOG2_ZSTD,
		    c->bench_format, isatty(STDOUT_FILENO));
	case 'g':
		return secret_keyfile_generate(c->genkey);
	case 'G':
		return identity_generate(c->genkey);
	case 'i':
		return cmd_info(o);
	case 'e':
		return cmd_encrypt(o);
	case 'd':
		return cmd_decrypt(o);
	case 'c':
		return cmd_create(o);
	case 't':
		return cmd_list(o);
	case 'x':
		return cmd_extract(o);
	}
	usage_short(stderr);
	return EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	struct cmdline c;
	int st;

	no_core_dumps();
#ifdef HAVE_MALLOPT
	/* One malloc arena for all threads.  glibc gives each new thread
	 * that allocates (zlib's inflate window is allocated on first use,
	 * in a worker) an arena that reserves 64 MiB of address space, so
	 * the peak depended on which thread allocated first, and a run under
	 * ulimit -v failed at random.  The threads allocate almost nothing
	 * after start-up, so one arena costs no speed. */
	mallopt(M_ARENA_MAX, 1);
#endif
	/* Only the character classes: member names are printed as the
	 * locale can show them, as tar does (names.c). */
	setlocale(LC_CTYPE, "");
	if ((st = options_init(&c, argc)) == EXIT_OK
	    && (st = options_parse(&c, argc, argv)) == EXIT_OK) {
		if (c.want_help)
			(c.want_help == 2 ? usage_all : usage_short)(stdout);
		else if (c.want_version)
			usage_version();
		else if ((st = options_check(&c)) == EXIT_OK) {
			signals_init();
			st = dispatch(&c);
		}
	}
	options_free(&c);
	return st;
}
