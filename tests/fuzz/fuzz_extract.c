/*
 * fuzz_extract.c -- the whole -t and -x path on a tar stream: the tar
 * reader, member selection, name quoting and normalisation, the
 * no-symlink walk under the root, and the extractor making files,
 * directories, symlinks and hard links in a real directory.
 *
 * This is what `aescrypt -t` and `-x` run on a payload once it has
 * authenticated (cli/list.c and cli/extract.c, called here exactly as
 * cmd_list and cmd_extract call them), so a bug found here is a bug an
 * archive's creator can reach.  The per-field harness fuzz_tar could not
 * find the GNU long-name overflow of issue 13: the overflow was in
 * extract.c, on a name the reader had already let through.
 *
 * Besides the sanitizers, the harness is an escape oracle: the root is
 * base/a/dest, and after each input base/ and base/a/ must hold only
 * what the harness put there, with the sentinel file's content intact,
 * so a member that lands outside dest (through "..", an absolute path or
 * a symlink) aborts.  dest is emptied after every input.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/tar_read.h"
#include "cli/extract.h"
#include "cli/list.h"
#include "cli/members.h"
#include "cli/opts.h"
#include "common/error.h"
#include "common/io.h"
#include "fuzz.h"

static char base[64], mid[80], dest[96], sentinel[96];
static FILE *devnull;

static const char SENTINEL[] = "outside the root\n";

static void empty_dest(void);

/* At exit, nothing is left of base. */
static void
teardown(void)
{
	empty_dest();
	rmdir(dest);
	rmdir(mid);
	unlink(sentinel);
	rmdir(base);
}

static void
setup(void)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;

	snprintf(base, sizeof base, "%s/aescrypt-fuzz-XXXXXX",
	    tmp != NULL && strlen(tmp) < 32 ? tmp : "/tmp");
	FUZZ_ASSERT(mkdtemp(base) != NULL);
	snprintf(mid, sizeof mid, "%s/a", base);
	snprintf(dest, sizeof dest, "%s/a/dest", base);
	snprintf(sentinel, sizeof sentinel, "%s/sentinel", base);
	FUZZ_ASSERT(mkdir(mid, 0700) == 0);
	FUZZ_ASSERT(mkdir(dest, 0700) == 0);
	FUZZ_ASSERT((f = fopen(sentinel, "w")) != NULL);
	fputs(SENTINEL, f);
	fclose(f);
	FUZZ_ASSERT((devnull = fopen("/dev/null", "w")) != NULL);
	atexit(teardown);
}

/* The names in dir other than "." and "..", which must be exactly
 * `want` (one name) or `want` and `also`. */
static void
only(const char *dir, const char *want, const char *also)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	FUZZ_ASSERT(d != NULL);
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (strcmp(e->d_name, want) != 0 && (also == NULL
		    || strcmp(e->d_name, also) != 0)) {
			fprintf(stderr, "escaped the root: %s/%s\n", dir,
			    e->d_name);
			abort();
		}
	}
	closedir(d);
}

static void
check_outside(void)
{
	char buf[64];
	FILE *f;
	size_t n;

	only(base, "a", "sentinel");
	only(mid, "dest", NULL);
	FUZZ_ASSERT((f = fopen(sentinel, "r")) != NULL);
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	FUZZ_ASSERT(n == sizeof SENTINEL - 1
	    && memcmp(buf, SENTINEL, n) == 0);
}

/*
 * Emptying dest, never following a symlink and with no limit on depth
 * or path length (a member may be 2048 directories deep, past PATH_MAX,
 * where nftw gives up): one directory open at a time, going down into
 * the first subdirectory left, removing everything else, and coming back
 * up through ".." with a stack of the names taken.  Directories are made
 * 0700 on the way down (an archive may make them 0000).
 */
static void
empty_dest(void)
{
	char **names = NULL;
	size_t depth = 0, cap = 0;
	int fd = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	chmod(dest, 0700);
	FUZZ_ASSERT(fd >= 0);
	for (;;) {
		int dfd = dup(fd);
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		struct dirent *e;
		char *sub = NULL;
		struct stat st;

		FUZZ_ASSERT(d != NULL);
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0
			    || strcmp(e->d_name, "..") == 0)
				continue;
			if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
			    && S_ISDIR(st.st_mode)) {
				if (sub == NULL)
					FUZZ_ASSERT((sub = strdup(e->d_name))
					    != NULL);
			} else {
				unlinkat(fd, e->d_name, 0);
			}
		}
		closedir(d);
		if (sub != NULL) {          /* down */
			int nfd;

			/* (a failure shows as the openat below failing) */
			if (fchmodat(fd, sub, 0700, 0) != 0) {
			}
			nfd = openat(fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW
			    | O_CLOEXEC);
			FUZZ_ASSERT(nfd >= 0);
			close(fd);
			fd = nfd;
			if (depth == cap) {
				cap = cap ? 2 * cap : 64;
				FUZZ_ASSERT((names = realloc(names,
				    cap * sizeof *names)) != NULL);
			}
			names[depth++] = sub;
			continue;
		}
		if (depth == 0)
			break;
		{                           /* empty: up, and remove it */
			int pfd = openat(fd, "..", O_RDONLY | O_DIRECTORY
			    | O_CLOEXEC);

			FUZZ_ASSERT(pfd >= 0);
			close(fd);
			fd = pfd;
			depth--;
			FUZZ_ASSERT(unlinkat(fd, names[depth], AT_REMOVEDIR)
			    == 0);
			free(names[depth]);
		}
	}
	close(fd);
	free(names);
}

/* A tar reader over the input. */
static void
reader_on(struct ae_tar_reader *tr, struct ae_memio *m, struct ae_reader *r,
    const uint8_t *data, size_t size)
{
	memset(m, 0, sizeof *m);
	m->src = data;
	m->len = size;
	r->read = ae_mem_read;
	r->ctx = m;
	FUZZ_ASSERT(ae_tar_reader_init(tr, r) == AE_OK);
}

static int
expected(int r)
{
	return r == 1 || r == 0 || r == AE_ETRUNC || r == AE_EFORMAT
	    || r == AE_ETOOBIG || r == AE_ENOTSUP;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct extractor x;
	static int ready;
	struct ae_tar_reader tr;
	struct ae_memio m;
	struct ae_reader rd;
	struct ae_diag d;
	struct members sel;
	struct opts o;
	int root, r, partial = 0;

	if (!ready) {
		setup();
		ready = 1;
	}
	memset(&o, 0, sizeof o);
	FUZZ_ASSERT(members_init(&sel, &o) == 0);

	/* -tv */
	memset(&d, 0, sizeof d);
	reader_on(&tr, &m, &rd, data, size);
	r = list_members(devnull, 1, &tr, &sel, &d, &partial);
	FUZZ_ASSERT(expected(r));
	ae_tar_reader_free(&tr);

	/* -x, with -p, --keep-old-files and --strip-components=1 taken
	 * from the input's length so both settings of each are reached. */
	o.mode = 'x';
	o.directory = dest;
	o.preserve = size & 1;
	o.keep_old = (size >> 1) & 1;
	o.strip = (size >> 2) & 1;
	FUZZ_ASSERT((root = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
	    >= 0);
	FUZZ_ASSERT(extract_begin(&x, &o, root) == 0);
	memset(&d, 0, sizeof d);
	reader_on(&tr, &m, &rd, data, size);
	r = extract_members(&x, &tr, &sel, &d);
	FUZZ_ASSERT(expected(r));
	ae_tar_reader_free(&tr);
	extract_end(&x);
	close(root);
	members_free(&sel);

	check_outside();
	empty_dest();
	return 0;
}
