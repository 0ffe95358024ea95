/*
 * test_disk_writer.c -- the safe disk writer (disk/writer.h) in
 * process, against the hostile archives that once needed the binary:
 * ".." and absolute names, a symlink and then a member through it, a
 * chain of links, a hard link to outside, a directory replaced by a
 * link, a file over a symlink to outside, a stream cut inside a member;
 * and the flags (--keep-old-files, -p), the salvage hook, and members
 * found by a search for headers (never over what exists).
 *
 * Each case extracts a tar stream made here (tar_write.h) into
 * base/root, with base/outside holding a sentinel file that must never
 * change, and then checks what is on disk and what was reported.  Every
 * case runs twice: with files made nameless (O_TMPFILE) and with named
 * temps (AE_DW_NAMED_TEMPS); no temp may be left either way.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/tar_read.h"
#include "archive/tar_write.h"
#include "check.h"
#include "common/error.h"
#include "common/io.h"
#include "disk/writer.h"

static char base[] = "/tmp/ae-dw-XXXXXX";
static char root_path[64], outside_path[64], secret_path[80];
static const char SECRET[] = "the sentinel outside the root\n";

/* ---- a tar stream in memory ---- */

struct tb {
	uint8_t buf[1 << 20];
	size_t len;
};

static void
tb_add(struct tb *t, char type, const char *path, const char *link,
    const char *data, uint32_t mode)
{
	struct ae_tar_entry e;
	size_t n, dl = data != NULL ? strlen(data) : 0;

	memset(&e, 0, sizeof e);
	e.path = path;
	e.linkpath = link;
	e.type = type;
	e.mode = mode;
	e.mtime = 1700000000;
	e.size = type == AE_TAR_REG ? dl : 0;
	if (ae_tar_header(&e, t->buf + t->len, sizeof t->buf - t->len, &n)
	    != AE_OK) {
		fprintf(stderr, "test bug: cannot encode %s\n", path);
		exit(2);
	}
	t->len += n;
	if (dl > 0) {
		memcpy(t->buf + t->len, data, dl);
		t->len += dl;
		memset(t->buf + t->len, 0, ae_tar_padding(dl));
		t->len += ae_tar_padding(dl);
	}
}

static void
tb_end(struct tb *t)
{
	memset(t->buf + t->len, 0, AE_TAR_END_LEN);
	t->len += AE_TAR_END_LEN;
}

/* ---- a run of the writer ---- */

struct seen {
	int skipped, warnings, absolute, lost, broken, failed, members;
	int partial;            /* ae_dw_partial at the end */
	char last_why[512];
	int last_err;
	int lose;               /* the intact hook says "not whole" */
};

static void
on_report(void *ctx, const struct ae_dw_report *r)
{
	struct seen *s = ctx;

	switch (r->event) {
	case AE_DW_MEMBER: s->members++; break;
	case AE_DW_SKIPPED:
		s->skipped++;
		snprintf(s->last_why, sizeof s->last_why, r->why ? r->why : "",
		    r->arg ? r->arg : "");
		s->last_err = r->err;
		break;
	case AE_DW_WARNING: s->warnings++; break;
	case AE_DW_ABSOLUTE: s->absolute++; break;
	case AE_DW_LOST: s->lost++; break;
	case AE_DW_BROKEN: s->broken++; break;
	case AE_DW_FAILED: s->failed++; break;
	case AE_DW_XATTRS_LEFT: break;
	case AE_DW_KEPT: break;
	}
}

static int
not_whole(void *ctx, const struct ae_tar_member *m)
{
	(void)m;
	return !((struct seen *)ctx)->lose;
}

static unsigned mode_flags;     /* AE_DW_NAMED_TEMPS, or 0 */
static int searched;            /* every member as if found by a search
                                 * for headers (after_gap 1) */

/* Extract t (len bytes of it) into the root with flags; the last
 * ae_dw_member result that was not AE_OK, or AE_OK. */
static int
run(const struct tb *t, size_t len, unsigned flags, struct seen *s)
{
	struct ae_dw_params p;
	struct ae_tar_reader tr;
	struct ae_tar_member *m = malloc(sizeof *m);
	struct ae_memio mem = { 0 };
	struct ae_reader rd = { ae_mem_read, &mem, NULL };
	struct ae_diag d = { 0 };
	struct ae_dw *w;
	int root = open(root_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int e = AE_OK, next;

	if (m == NULL || root < 0) {
		fprintf(stderr, "test setup: %s\n", strerror(errno));
		exit(2);
	}
	memset(&p, 0, sizeof p);
	p.root = root;
	p.flags = flags | mode_flags;
	p.umask = 022;
	p.report = on_report;
	p.intact = not_whole;
	p.ctx = s;
	mem.src = t->buf;
	mem.len = len;
	CHECK(ae_dw_open(&p, &w) == AE_OK, "ae_dw_open");
	CHECK(ae_tar_reader_init(&tr, &rd) == AE_OK, "reader");
	while ((next = ae_tar_next(&tr, m, &d)) == AE_OK) {
		if (searched)
			m->after_gap = 1;
		if ((e = ae_dw_member(w, &tr, m)) != AE_OK)
			break;
	}
	ae_tar_reader_free(&tr);
	s->partial = ae_dw_partial(w);
	ae_dw_close(w);
	close(root);
	free(m);
	return e;
}

/* ---- the tree ---- */

/* Remove everything under dir (never following a link), and dir if
 * rm_self. */
static void
rm_tree(int parent, const char *name, int rm_self)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	DIR *d;
	struct dirent *de;

	if (fd < 0) {
		if (rm_self)
			unlinkat(parent, name, 0);
		return;
	}
	fchmod(fd, 0700);
	d = fdopendir(fd);
	while (d != NULL && (de = readdir(d)) != NULL) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
		    && S_ISDIR(st.st_mode))
			rm_tree(fd, de->d_name, 1);
		else
			unlinkat(fd, de->d_name, 0);
	}
	if (d != NULL)
		closedir(d);
	if (rm_self)
		unlinkat(parent, name, AT_REMOVEDIR);
}

static void
fresh_root(void)
{
	rm_tree(AT_FDCWD, root_path, 0);
}

static int
lexists(const char *rel)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof p, "%s/%s", root_path, rel);
	return lstat(p, &st) == 0;
}

static mode_t
lmode(const char *rel)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof p, "%s/%s", root_path, rel);
	return lstat(p, &st) == 0 ? st.st_mode : 0;
}

static int
content_is(const char *rel, const char *want)
{
	char p[256], got[256];
	ssize_t n;
	int fd;

	snprintf(p, sizeof p, "%s/%s", root_path, rel);
	if ((fd = open(p, O_RDONLY | O_NOFOLLOW)) < 0)
		return 0;
	n = read(fd, got, sizeof got);
	close(fd);
	return n == (ssize_t)strlen(want) && memcmp(got, want, (size_t)n) == 0;
}

/* The outside directory holds the sentinel alone, unchanged. */
static int
outside_intact(void)
{
	DIR *d = opendir(outside_path);
	struct dirent *de;
	char got[128];
	int n = 0, fd;
	ssize_t k;

	while (d != NULL && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	if (d != NULL)
		closedir(d);
	if (n != 1 || (fd = open(secret_path, O_RDONLY)) < 0)
		return 0;
	k = read(fd, got, sizeof got);
	close(fd);
	return k == (ssize_t)strlen(SECRET) && memcmp(got, SECRET, (size_t)k) == 0;
}

/* No temp name is left anywhere under the root. */
static int
no_temps_in(int dirfd)
{
	DIR *d;
	struct dirent *de;
	int ok = 1, fd = dup(dirfd);

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (strncmp(de->d_name, ".aescrypt-", 10) == 0)
			ok = 0;
		else if (strcmp(de->d_name, ".") != 0
		    && strcmp(de->d_name, "..") != 0
		    && fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
		    && S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, de->d_name, O_RDONLY
			    | O_DIRECTORY | O_NOFOLLOW);

			if (sub >= 0) {
				ok &= no_temps_in(sub);
				close(sub);
			}
		}
	}
	closedir(d);
	return ok;
}

static int
no_temps(void)
{
	int fd = open(root_path, O_RDONLY | O_DIRECTORY), ok;

	ok = fd >= 0 && no_temps_in(fd);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* ---- the cases ---- */

static struct tb t;

static void
case_dotdot_and_absolute(void)
{
	struct seen s = { 0 };

	fresh_root();
	t.len = 0;
	tb_add(&t, AE_TAR_REG, "../escape", NULL, "x", 0644);
	tb_add(&t, AE_TAR_REG, "a/../../escape2", NULL, "x", 0644);
	tb_add(&t, AE_TAR_REG, "/abs/file", NULL, "abs", 0644);
	tb_add(&t, AE_TAR_REG, "//abs2", NULL, "abs2", 0644);
	tb_add(&t, AE_TAR_REG, "ok", NULL, "fine", 0644);
	tb_end(&t);
	CHECK(run(&t, t.len, 0, &s) == AE_OK, "dotdot: run");
	CHECK(s.skipped == 2 && s.partial, "dotdot: two members refused, not "
	    "%d, and the run is partial", s.skipped);
	CHECK(strstr(s.last_why, "'..'") != NULL, "dotdot: why '%s'",
	    s.last_why);
	CHECK(s.absolute == 1, "dotdot: the leading '/' reported once (%d)",
	    s.absolute);
	CHECK(content_is("abs/file", "abs") && content_is("abs2", "abs2"),
	    "dotdot: absolute names land under the root");
	CHECK(content_is("ok", "fine"), "dotdot: the members around them");
	CHECK(access("/tmp/escape", F_OK) != 0 || errno == ENOENT,
	    "dotdot: nothing in /tmp");
	CHECK(outside_intact(), "dotdot: outside untouched");
	CHECK(no_temps(), "dotdot: no temp left");
}

static void
case_symlink_then_member(void)
{
	struct seen s = { 0 };

	fresh_root();
	t.len = 0;
	tb_add(&t, AE_TAR_SYMLINK, "l", outside_path, NULL, 0777);
	tb_add(&t, AE_TAR_REG, "l/pwned", NULL, "pwned", 0644);
	tb_add(&t, AE_TAR_SYMLINK, "c1", "c2", NULL, 0777);
	tb_add(&t, AE_TAR_SYMLINK, "c2", outside_path, NULL, 0777);
	tb_add(&t, AE_TAR_REG, "c1/pwned", NULL, "pwned", 0644);
	tb_add(&t, AE_TAR_DIR, "l/sub/", NULL, NULL, 0755);
	tb_end(&t);
	CHECK(run(&t, t.len, 0, &s) == AE_OK, "symlink: run");
	CHECK(S_ISLNK(lmode("l")) && S_ISLNK(lmode("c1")),
	    "symlink: the links themselves are made");
	CHECK(s.skipped == 3, "symlink: three members through links refused "
	    "(%d)", s.skipped);
	CHECK(s.last_err == ELOOP, "symlink: refused as a symlink in the path "
	    "(errno %d)", s.last_err);
	CHECK(outside_intact(), "symlink: outside untouched");
	CHECK(no_temps(), "symlink: no temp left");
}

static void
case_hardlinks(void)
{
	struct seen s = { 0 };
	char rel_secret[128];

	snprintf(rel_secret, sizeof rel_secret, "../outside/secret");
	fresh_root();
	t.len = 0;
	tb_add(&t, AE_TAR_HARDLINK, "h1", secret_path, NULL, 0644);
	tb_add(&t, AE_TAR_HARDLINK, "h2", "/etc/passwd", NULL, 0644);
	tb_add(&t, AE_TAR_HARDLINK, "h3", rel_secret, NULL, 0644);
	tb_add(&t, AE_TAR_SYMLINK, "s", outside_path, NULL, 0777);
	tb_add(&t, AE_TAR_HARDLINK, "h4", "s", NULL, 0644);
	tb_add(&t, AE_TAR_REG, "f", NULL, "data", 0644);
	tb_add(&t, AE_TAR_HARDLINK, "h5", "f", NULL, 0644);
	tb_end(&t);
	CHECK(run(&t, t.len, 0, &s) == AE_OK, "hardlink: run");
	CHECK(s.skipped == 4, "hardlink: four links to outside or to a "
	    "symlink refused (%d)", s.skipped);
	CHECK(!lexists("h1") && !lexists("h2") && !lexists("h3")
	    && !lexists("h4"), "hardlink: none of them made");
	CHECK(content_is("h5", "data"), "hardlink: a link to a file made "
	    "earlier is made");
	CHECK(outside_intact(), "hardlink: outside untouched");
}

static void
case_dir_replaced_by_link(void)
{
	struct seen s = { 0 };

	fresh_root();
	t.len = 0;
	tb_add(&t, AE_TAR_DIR, "d/", NULL, NULL, 0755);
	tb_add(&t, AE_TAR_REG, "d/f", NULL, "f", 0644);
	tb_add(&t, AE_TAR_SYMLINK, "d", outside_path, NULL, 0777);
	tb_add(&t, AE_TAR_REG, "d/g", NULL, "g", 0644);
	tb_add(&t, AE_TAR_DIR, "e/", NULL, NULL, 0755);
	tb_add(&t, AE_TAR_SYMLINK, "e", outside_path, NULL, 0777);
	tb_add(&t, AE_TAR_REG, "e/pwned", NULL, "pwned", 0644);
	tb_end(&t);
	CHECK(run(&t, t.len, 0, &s) == AE_OK, "dir/link: run");
	CHECK(S_ISDIR(lmode("d")) && content_is("d/f", "f")
	    && content_is("d/g", "g"), "dir/link: a full directory stays, "
	    "and members go into it");
	CHECK(S_ISLNK(lmode("e")), "dir/link: an empty directory is replaced "
	    "by the link");
	CHECK(s.skipped == 2, "dir/link: the link over d and e/pwned are "
	    "refused (%d)", s.skipped);
	CHECK(outside_intact(), "dir/link: outside untouched");
	CHECK(no_temps(), "dir/link: no temp left");
}

static void
case_file_over_symlink(void)
{
	struct seen s = { 0 };
	char p[128];

	fresh_root();
	snprintf(p, sizeof p, "%s/s", root_path);
	CHECK(symlink(secret_path, p) == 0, "over a link: set up");
	t.len = 0;
	tb_add(&t, AE_TAR_REG, "s", NULL, "new", 0644);
	tb_end(&t);
	CHECK(run(&t, t.len, 0, &s) == AE_OK && s.skipped == 0 && !s.partial,
	    "over a link: run");
	CHECK(S_ISREG(lmode("s")) && content_is("s", "new"),
	    "over a link: the link is replaced, not written through");
	CHECK(outside_intact(), "over a link: outside untouched");

	/* --keep-old-files: what is there stays */
	t.len = 0;
	tb_add(&t, AE_TAR_REG, "s", NULL, "newer", 0644);
	tb_end(&t);
	memset(&s, 0, sizeof s);
	CHECK(run(&t, t.len, AE_DW_KEEP_OLD, &s) == AE_OK && s.skipped == 1,
	    "keep-old: the member is skipped");
	CHECK(content_is("s", "new") && no_temps(), "keep-old: the file stays");
}

/* A member found by searching for headers after a lost chunk may be a
 * file inside a stored .tar: it never replaces what exists. */
static void
case_found_by_search(void)
{
	struct seen s = { 0 };

	fresh_root();
	t.len = 0;
	tb_add(&t, AE_TAR_DIR, "d", NULL, NULL, 0755);
	tb_add(&t, AE_TAR_REG, "d/keys", NULL, "owner", 0644);
	tb_add(&t, AE_TAR_REG, "f", NULL, "file", 0644);
	tb_end(&t);
	CHECK(run(&t, t.len, 0, &s) == AE_OK && s.skipped == 0, "search: "
	    "the first run");
	t.len = 0;
	tb_add(&t, AE_TAR_REG, "d/keys", NULL, "intruder", 0600);
	tb_add(&t, AE_TAR_DIR, "f", NULL, NULL, 0755);
	tb_add(&t, AE_TAR_REG, "d/new", NULL, "new", 0644);
	tb_end(&t);
	searched = 1;
	memset(&s, 0, sizeof s);
	CHECK(run(&t, t.len, 0, &s) == AE_OK, "search: the second run");
	searched = 0;
	CHECK(content_is("d/keys", "owner"), "search: a file that exists is "
	    "not replaced");
	CHECK(s.skipped == 2 && strstr(s.last_why, "found by searching")
	    != NULL, "search: two skipped, saying why (%d: %s)", s.skipped,
	    s.last_why);
	CHECK(S_ISREG(lmode("f")) && content_is("f", "file"), "search: nor "
	    "is a file replaced by a directory");
	CHECK(S_ISDIR(lmode("d")) && content_is("d/new", "new"), "search: a "
	    "new name is made");
	CHECK(no_temps(), "search: no temp left");
}

static void
case_cut_inside_member(void)
{
	struct seen s = { 0 };
	static char big[8192];
	size_t cut;

	memset(big, 'b', sizeof big - 1);
	fresh_root();
	t.len = 0;
	tb_add(&t, AE_TAR_REG, "whole", NULL, "w", 0644);
	tb_add(&t, AE_TAR_REG, "cut", NULL, big, 0644);
	cut = t.len - 4096;
	CHECK(run(&t, cut, 0, &s) == AE_ETRUNC, "cut: the stream's error");
	CHECK(s.broken == 1, "cut: reported as broken (%d)", s.broken);
	CHECK(content_is("whole", "w") && !lexists("cut"),
	    "cut: nothing under the cut member's name");
	CHECK(no_temps(), "cut: no temp left");
}

static void
case_modes_and_lost(void)
{
	struct seen s = { 0 };

	fresh_root();
	t.len = 0;
	tb_add(&t, AE_TAR_REG, "suid", NULL, "x", 04755);
	tb_end(&t);
	CHECK(run(&t, t.len, 0, &s) == AE_OK, "modes: run");
	CHECK((lmode("suid") & 07777) == 0755, "modes: setuid dropped, umask "
	    "applied (%o)", lmode("suid") & 07777);
	fresh_root();
	CHECK(run(&t, t.len, AE_DW_PERMS, &s) == AE_OK, "modes: run -p");
	CHECK((lmode("suid") & 07777) == 04755, "modes: -p keeps setuid (%o)",
	    lmode("suid") & 07777);

	fresh_root();
	memset(&s, 0, sizeof s);
	s.lose = 1;
	CHECK(run(&t, t.len, 0, &s) == AE_OK, "lost: run");
	CHECK(s.lost == 1 && !lexists("suid") && no_temps(),
	    "lost: a member the hook calls damaged is not made");
}

/* Which attributes travel (xattr.h), as GNU tar 1.34 decides. */
static void
case_xattr_filter(void)
{
	static char *trusted[] = { "trusted.*" }, *security[] = { "security.*" };
	static char *secret[] = { "user.secret*" };
	static const struct ae_xattr_filter inc_t = { trusted, 1, NULL, 0 };
	static const struct ae_xattr_filter inc_s = { security, 1, NULL, 0 };
	static const struct ae_xattr_filter exc = { NULL, 0, secret, 1 };
	static const struct {
		const struct ae_xattr_filter *f;
		const char *name;
		int restore, perms, want;
	} c[] = {
		{ NULL, "user.a", 1, 0, 1 }, { NULL, "trusted.a", 1, 0, 0 },
		{ NULL, "security.selinux", 1, 1, 0 },
		{ NULL, "security.capability", 1, 1, 0 },
		{ NULL, "trusted.a", 0, 0, 1 }, { NULL, "security.capability", 0, 0, 1 },
		{ NULL, "system.posix_acl_access", 0, 0, 0 },
		{ NULL, "system.nfs4_acl", 1, 1, 0 },
		{ &inc_t, "trusted.a", 1, 0, 1 }, { &inc_t, "user.a", 1, 0, 0 },
		{ &inc_t, "user.a", 0, 0, 0 },
		{ &inc_s, "security.capability", 1, 0, 0 },
		{ &inc_s, "security.capability", 1, 1, 1 },
		{ &inc_s, "security.selinux", 1, 0, 1 },
		{ &exc, "user.secret1", 1, 0, 0 }, { &exc, "user.a", 1, 0, 1 },
		{ &exc, "user.secret1", 0, 0, 0 }, { &exc, "trusted.a", 0, 0, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++)
		CHECK(ae_xattr_wanted(c[i].f, c[i].name, c[i].restore,
		    c[i].perms) == c[i].want, "xattr filter %zu: %s on %s%s: "
		    "want %d", i, c[i].name, c[i].restore ? "-x" : "-c",
		    c[i].perms ? " -p" : "", c[i].want);
}

static void
all_cases(void)
{
	case_dotdot_and_absolute();
	case_symlink_then_member();
	case_hardlinks();
	case_dir_replaced_by_link();
	case_file_over_symlink();
	case_found_by_search();
	case_cut_inside_member();
	case_modes_and_lost();
}

int
main(void)
{
	int fd;

	if (mkdtemp(base) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(root_path, sizeof root_path, "%s/root", base);
	snprintf(outside_path, sizeof outside_path, "%s/outside", base);
	snprintf(secret_path, sizeof secret_path, "%s/secret", outside_path);
	if (mkdir(root_path, 0700) != 0 || mkdir(outside_path, 0700) != 0
	    || (fd = open(secret_path, O_WRONLY | O_CREAT, 0600)) < 0
	    || write(fd, SECRET, strlen(SECRET)) != (ssize_t)strlen(SECRET)) {
		perror("setup");
		return 2;
	}
	close(fd);
	case_xattr_filter();
	mode_flags = 0;
	all_cases();
	mode_flags = AE_DW_NAMED_TEMPS;
	all_cases();
	rm_tree(AT_FDCWD, base, 1);
	return t_finish("test_disk_writer");
}
