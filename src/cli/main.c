/*
 * main.c -- the aescrypt program: what is set once for the process,
 * then the command line (command.h).
 *
 * Only the CLI prints and exits; everything under src/ but src/cli/
 * returns error codes.
 */
#include "config.h"

#include <locale.h>
#ifdef HAVE_MALLOPT
#include <malloc.h>
#endif
#ifdef HAVE_PRCTL
#include <sys/prctl.h>
#endif
#include <sys/resource.h>

#include "command.h"

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

int
main(int argc, char **argv)
{
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
	return command_main(argc, argv);
}
