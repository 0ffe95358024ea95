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
 * Besides the sanitizers, the harness is an escape oracle (oracle.h): a
 * member that lands outside the root, through "..", an absolute path or
 * a symlink, aborts.
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
#include "oracle.h"

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

/* The work an input may ask for, so that the fuzzer spends its time on
 * inputs, not on a few deep ones (issue 50: three seeds of 2,047- and
 * 4,095-level chains took 10 to 18 s each under ASan, and the harness
 * ran 287 inputs in 180 s).  Deeper names and longer archives are the
 * CLI tests' (090-hostile: 3,000 and 5,000 levels). */
#define FUZZ_MEMBERS_MAX 256
#define FUZZ_DEPTH_MAX 64

static int
too_deep(const char *path)
{
	int n = 0;

	for (; *path != '\0'; path++)
		if (*path == '/' && ++n > FUZZ_DEPTH_MAX)
			return 1;
	return 0;
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
	int root, r, e = AE_OK, members = 0;

	FUZZ_ASSERT((root = open(oracle_dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
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
		if (++members > FUZZ_MEMBERS_MAX) {
			r = 1;      /* (as if the stream ended here) */
			break;
		}
		if (too_deep(m.path) || (m.type == '1' && too_deep(m.linkpath)))
			continue;
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
	unsigned flags;

	oracle_setup();
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
	oracle_check();
	oracle_empty();
	return 0;
}
