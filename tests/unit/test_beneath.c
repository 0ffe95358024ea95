/*
 * test_beneath.c -- the no-symlinks directory opener, through openat2
 * and through the component walk, against a tree with the traps a
 * hostile archive lays: a link to outside, a link inside, a chain, a
 * file where a directory should be, and paths of the wrong shape; and
 * the directory cache over a deep chain.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk/beneath.h"
#include "disk/dircache.h"
#include "check.h"
#include "common/error.h"

static char root_path[] = "/tmp/ae-beneath-XXXXXX";
static char outside_path[] = "/tmp/ae-outside-XXXXXX";

static void
build_tree(int root)
{
	int fd;

	if (mkdirat(root, "a", 0755) != 0 || mkdirat(root, "a/b", 0755) != 0
	    || symlinkat(outside_path, root, "out") != 0
	    || symlinkat("b", root, "a/in") != 0
	    || symlinkat("in", root, "a/chain") != 0
	    || (fd = openat(root, "file", O_CREAT | O_WRONLY, 0644)) < 0) {
		perror("building the test tree");
		exit(1);
	}
	close(fd);
}

/* The errno of ae_beneath_opendir, 0 for success, -1 for EINVAL. */
static int
try_open(int root, const char *dir, int flags)
{
	int fd = -1, r;
	struct stat st;

	errno = 0;
	r = ae_beneath_opendir(root, dir, flags, 0755, &fd);
	if (r == AE_OK) {
		/* It must be a real directory inside root. */
		CHECK(fstat(fd, &st) == 0 && S_ISDIR(st.st_mode),
		    "%s: not a directory", dir);
		close(fd);
		return 0;
	}
	if (r == AE_EINVAL)
		return -1;
	CHECK(r == AE_EIO, "%s: unexpected code %d", dir, r);
	return errno;
}

static int
outside_is_empty(void)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof p, "%s/x", outside_path);
	return lstat(p, &st) != 0;
}

static void
test_beneath(int flags, const char *how)
{
	static const char *bad[] = {
		"..", "../x", "a/../b", "/etc", "a//b", "a/", ".", "./a",
		"a/.", "a/./b"
	};
	unsigned i;
	int root, c = AE_BENEATH_CREATE;
	char newdir[64];
	struct stat st;

	if ((root = open(root_path, O_RDONLY | O_DIRECTORY)) < 0) {
		perror(root_path);
		exit(1);
	}
	CHECK(try_open(root, "", flags) == 0, "%s: root", how);
	CHECK(try_open(root, "a", flags) == 0, "%s: a", how);
	CHECK(try_open(root, "a/b", flags) == 0, "%s: a/b", how);
	CHECK(try_open(root, "out", flags) == ELOOP, "%s: out", how);
	CHECK(try_open(root, "out/x", flags | c) == ELOOP, "%s: out/x", how);
	CHECK(try_open(root, "a/in", flags) == ELOOP, "%s: a/in", how);
	CHECK(try_open(root, "a/in/x", flags | c) == ELOOP, "%s: a/in/x",
	    how);
	CHECK(try_open(root, "a/chain/x", flags | c) == ELOOP,
	    "%s: a/chain/x", how);
	CHECK(try_open(root, "file", flags) == ENOTDIR, "%s: file", how);
	CHECK(try_open(root, "file/x", flags | c) == ENOTDIR, "%s: file/x",
	    how);
	CHECK(try_open(root, "missing", flags) == ENOENT, "%s: missing", how);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(try_open(root, bad[i], flags | c) == -1,
		    "%s: '%s' accepted", how, bad[i]);
	snprintf(newdir, sizeof newdir, "new%d/deep/er", flags);
	CHECK(try_open(root, newdir, flags | c) == 0, "%s: create", how);
	CHECK(fstatat(root, newdir, &st, AT_SYMLINK_NOFOLLOW) == 0
	    && S_ISDIR(st.st_mode), "%s: %s not made", how, newdir);
	CHECK(fstatat(root, "a/b/x", &st, 0) != 0, "%s: made through a link",
	    how);
	CHECK(outside_is_empty(), "%s: wrote outside", how);
	close(root);
}

/*
 * The directory cache over a chain 2,000 levels deep (4,000 bytes of
 * path with the root's, past what one openat2 takes): opened one level
 * further at a time, as extraction does, and then from the bottom up, as
 * the directories' modes are set, each open costs a few components, not
 * the whole depth; a symlink in the way is refused from a cached
 * ancestor as from the root.
 */
static void
test_dircache(int root)
{
	enum { DEPTH = 2000 };
	static char path[2 * DEPTH + 1];
	struct ae_dircache c;
	size_t k, len;
	int fd, ok = 1;

	ae_dircache_init(&c, root);
	for (k = 1, len = 0; k <= DEPTH && ok; k++) {
		memcpy(path + len, k == 1 ? "c" : "/c", k == 1 ? 1 : 2);
		len += k == 1 ? 1 : 2;
		path[len] = '\0';
		ok = ae_dircache_open(&c, path, 1, 0755, &fd) == AE_OK;
	}
	CHECK(ok, "dircache: a chain made level by level");
	CHECK(c.opens <= 2 * DEPTH, "dircache: made with %llu component "
	    "opens for %d levels", (unsigned long long)c.opens, DEPTH);
	ae_dircache_free(&c);

	ae_dircache_init(&c, root);
	for (k = DEPTH; k >= 1 && ok; k--) {
		path[2 * k - 1] = '\0';
		ok = ae_dircache_open(&c, path, 0, 0, &fd) == AE_OK;
	}
	CHECK(ok, "dircache: the chain opened from the bottom up");
	CHECK(c.opens <= 40 * DEPTH, "dircache: bottom up with %llu component "
	    "opens for %d levels (the whole depth each time would be %d)",
	    (unsigned long long)c.opens, DEPTH, DEPTH * (DEPTH + 1) / 2);
	/* a symlink below a cached directory is refused as ever */
	for (k = 1; k < 100; k++)
		path[2 * k - 1] = '/';
	path[2 * 100 - 1] = '\0';
	CHECK(ae_dircache_open(&c, path, 0, 0, &fd) == AE_OK
	    && symlinkat(outside_path, fd, "s") == 0, "dircache: a link in "
	    "the chain");
	memcpy(path + 2 * 100 - 1, "/s/x", 5);
	errno = 0;
	CHECK(ae_dircache_open(&c, path, 1, 0755, &fd) == AE_EIO
	    && errno == ELOOP, "dircache: a path through the link is refused "
	    "(errno %d)", errno);
	ae_dircache_free(&c);
}

int
main(void)
{
	int root;

	if (mkdtemp(root_path) == NULL || mkdtemp(outside_path) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	if ((root = open(root_path, O_RDONLY | O_DIRECTORY)) < 0)
		return 1;
	build_tree(root);
	close(root);
	test_beneath(AE_BENEATH_WALK, "walk");
#ifdef HAVE_OPENAT2
	test_beneath(0, "openat2");
#else
	t_skip("openat2: not available on this system");
#endif
	if ((root = open(root_path, O_RDONLY | O_DIRECTORY)) >= 0) {
		test_dircache(root);
		close(root);
	}
	{
		char cmd[512];

		snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root_path,
		    outside_path);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove the test tree\n");
	}
	return t_finish("test_beneath");
}
