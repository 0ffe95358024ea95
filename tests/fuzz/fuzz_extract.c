/*
 * fuzz_extract.c -- the whole -x path on a tar stream: the tar reader,
 * --strip-components, name normalisation, the no-symlink walk under the
 * root, and the disk writer making files, directories, symlinks and
 * hard links in a real directory.
 *
 * This is what `aescrypt -x` runs on a payload once it has
 * authenticated (disk/writer.h, driven as cli/extract.c drives it), so
 * a bug found here is a bug an archive's creator can reach.  It links
 * the core alone: no command line is faked.  The per-field harness fuzz_tar could not
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
#include "common/error.h"
#include "common/io.h"
#include "disk/path.h"
#include "disk/writer.h"
#include "fuzz.h"

static char base[64], mid[80], dest[96], sentinel[96];

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

/* The writer's reports: every one names a member (or, for a directory
 * fixed at the end, a normalized path), and a skip says why. */
static void
on_report(void *ctx, const struct ae_dw_report *r)
{
	(void)ctx;
	FUZZ_ASSERT(r->name != NULL);
	FUZZ_ASSERT(r->event != AE_DW_SKIPPED || r->why != NULL);
}

/* One -x run over the input with these flags, as cli/extract.c runs
 * it: --strip-components applied to names and hard link targets. */
static void
extract(const uint8_t *data, size_t size, unsigned flags, unsigned strip)
{
	static struct ae_tar_member m;
	struct ae_dw_params p;
	struct ae_tar_reader tr;
	struct ae_memio mem;
	struct ae_reader rd;
	struct ae_diag d;
	struct ae_dw *w;
	int root, r, e = AE_OK;

	FUZZ_ASSERT((root = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
	    >= 0);
	memset(&p, 0, sizeof p);
	p.root = root;
	p.flags = flags;
	p.umask = 022;
	p.report = on_report;
	FUZZ_ASSERT(ae_dw_open(&p, &w) == AE_OK);
	memset(&d, 0, sizeof d);
	reader_on(&tr, &mem, &rd, data, size);
	while ((r = ae_tar_next(&tr, &m, &d)) == AE_OK) {
		if (strip > 0) {
			const char *n = ae_path_strip_components(m.path, strip);
			const char *l = ae_path_strip_components(m.linkpath,
			    strip);

			if (n == NULL || (m.type == '1' && l == NULL))
				continue;
			memmove(m.path, n, strlen(n) + 1);
			if (m.type == '1')
				memmove(m.linkpath, l, strlen(l) + 1);
		}
		/* a write error (a file system limit) or the stream failing
		 * inside a member ends the run, as in the CLI */
		if ((e = ae_dw_member(w, &tr, &m)) != AE_OK) {
			FUZZ_ASSERT(e == AE_EIO || expected(e));
			break;
		}
	}
	FUZZ_ASSERT(r != AE_OK || e != AE_OK);
	FUZZ_ASSERT(expected(r));
	ae_tar_reader_free(&tr);
	ae_dw_close(w);
	close(root);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	unsigned flags;

	if (!ready) {
		setup();
		ready = 1;
	}
	/* -p, --keep-old-files and --strip-components=1 taken from the
	 * input's length so both settings of each are reached; named temps
	 * on every other input, so both ways of making a file run; then
	 * --xattrs with --acls (the ACL text parser), --skip-old-files and
	 * --keep-newer-files. */
	flags = (size & 1 ? AE_DW_PERMS : 0) | ((size >> 1) & 1 ?
	    AE_DW_KEEP_OLD : 0) | ((size >> 3) & 1 ? AE_DW_NAMED_TEMPS : 0)
	    | ((size >> 4) & 1 ? AE_DW_XATTRS | AE_DW_ACLS : 0)
	    | ((size >> 5) & 1 ? AE_DW_SKIP_OLD : 0)
	    | ((size >> 6) & 1 ? AE_DW_KEEP_NEWER : 0);
	extract(data, size, flags, (size >> 2) & 1);
	check_outside();
	empty_dest();
	return 0;
}
