/*
 * mount.c -- aescrypt --mount DIR -f ARCHIVE: the archive opened and
 * unlocked as -x opens it (the passphrase asked for before the mount
 * goes to the background), then served read-only by the mount layer
 * (src/mount/) until it is unmounted (contract in opts.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

#include "common/wipe.h"
#include "exitcode.h"
#include "keys.h"
#include "legacy.h"
#include "mount/mountfs.h"
#include "msg.h"
#include "names.h"
#include "run.h"
#include "secret.h"
#include "signals.h"

/* The plaintext cache's size when --mount-cache is not given. */
#define MOUNT_CACHE_DEFAULT ((uint64_t)64 << 20)

/* "N members left out of the mount, WHY", if N > 0. */
static void
left_out(const char *what, uint64_t n, const char *why)
{
	if (n > 0)
		msg_warn("%s: %llu member%s left out of the mount, as -x leaves "
		    "%s out: %s", what, (unsigned long long)n, n == 1 ? "" : "s",
		    n == 1 ? "it" : "them", why);
}

/* Once the mount is there: what was left out of it, said before the
 * mount goes to the background. */
static void
ready(void *ctx, const struct mountfs_figures *f)
{
	const struct opts *o = ctx;
	const char *what = o->narchives > 1 ? "the chain" : o->archive;

	left_out(what, f->refused_name, "with '..' in its name (or no name)");
	left_out(what, f->refused_through, "under a symlink or a file");
	left_out(what, f->refused_over, "over a directory that is not "
	    "empty");
	left_out(what, f->refused_link, "a hard link to nothing before it");
	if (f->shadowed > 0)
		msg_warn("%s: %llu member%s named '%s' at the top left out: "
		    "--levels shows the levels there", what,
		    (unsigned long long)f->shadowed, f->shadowed == 1 ? "" : "s",
		    f->levels_name);
	if (o->run.verbose) {
		if (f->replaced > 0)
			msg_note("%s: %llu member%s replaced by a later one of "
			    "the same name (as -x replaces them)", what,
			    (unsigned long long)f->replaced,
			    f->replaced == 1 ? "" : "s");
		if (o->narchives > 1)
			msg_note("the chain of %zu levels: %llu directories' "
			    "dumpdirs read, %llu names removed and %llu renamed "
			    "by later levels (as -x -g /dev/null applies them)",
			    o->narchives, (unsigned long long)f->dumpdirs,
			    (unsigned long long)f->removed,
			    (unsigned long long)f->renamed);
		msg_note("%s: mounted on %s, %zu files and directories", what,
		    o->mount_dir, f->nodes);
	}
}

/* Archive `name` opened and unlocked into *r (io open), as -x opens
 * one, and checked to be one the mount can serve.  An exit status. */
static int
open_one(const struct opts *o, const char *name, struct streams *io,
    aescrypt_reader **r)
{
	struct run_stats rs;
	struct aescrypt_info info;
	struct aescrypt_source src;
	int st;

	*r = NULL;
	if (strcmp(name, "-") == 0) {
		msg_error("--mount needs its archives in files (-f FILE): a "
		    "pipe cannot be read at random");
		return EXIT_USAGE;
	}
	memset(&rs, 0, sizeof rs);
	run_streams_init(io);
	if ((st = run_input_open(&io->in, name, &o->run)) != EXIT_OK)
		return st;
	ae_fd_init(&io->rd, io->in.fd, &signals_stop, &io->cancel);
	if ((*r = aescrypt_reader_new()) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	st = keys_open(&o->keys, &o->run, io, *r, &rs);
	if (st == KEYS_LEGACY) {
		ae_secret_free(io->early_pass, sizeof *io->early_pass);
		io->early_pass = NULL;
		return legacy_not_archive(io->in.name);
	}
	if (st != EXIT_OK)
		return st;
	run_reader_source(io, &src);
	(void)aescrypt_reader_info(*r, &info);
	if (info.kind != AESCRYPT_ARCHIVE || !info.indexed
	    || src.pread == NULL) {
		msg_error("%s: %s", io->in.name, info.kind != AESCRYPT_ARCHIVE
		    ? "an encrypted stream, not an archive: there is nothing "
		    "to mount" : !info.indexed ? "an archive without an index "
		    "(made with --no-index): the mount is ready from the index "
		    "alone, and this one has none" : "not a regular file that "
		    "starts with the archive");
		if (info.kind == AESCRYPT_ARCHIVE && info.indexed == 0)
			msg_hint("extract it with -x, or make it again without "
			    "--no-index");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int
cmd_mount(const struct opts *o)
{
	const char *one[1];
	const char *const *names = o->narchives > 0 ? o->archives : one;
	size_t n = o->narchives > 0 ? o->narchives : 1, i, opened = 0, bad;
	struct streams *io = NULL;
	aescrypt_reader **r = NULL;
	struct mountfs_params p;
	char err[1024];
	int st = EXIT_OK, rc;
	long cpus;

	one[0] = o->archive;
	if (!mountfs_available()) {
		mountfs_run(NULL, err, sizeof err, &bad);
		msg_error("%s", err);
		msg_hint("build aescrypt with libfuse3-dev installed, or extract "
		    "with -x");
		return EXIT_USAGE;
	}
	if (o->archive == NULL) {
		msg_error("--mount needs an archive in a file (-f FILE)");
		return EXIT_USAGE;
	}
	if ((io = calloc(n, sizeof *io)) == NULL
	    || (r = calloc(n, sizeof *r)) == NULL) {
		free(io);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	/* every level unlocked before the mount (a passphrase asked for
	 * once, and before the mount goes to the background) */
	secret_keep(1);
	for (i = 0; i < n && st == EXIT_OK; i++) {
		opened = i + 1;
		st = open_one(o, names[i], &io[i], &r[i]);
	}
	secret_keep(0);
	if (st != EXIT_OK)
		goto out;
	memset(&p, 0, sizeof p);
	p.readers = r;
	p.nreaders = n;
	p.levels = o->levels;
	p.cache_bytes = o->mount_cache_set ? o->mount_cache
	    : MOUNT_CACHE_DEFAULT;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	p.ahead = p.cache_bytes == 0 ? 0 : cpus < 1 ? 1 : cpus > 8 ? 8
	    : (unsigned)cpus;
	p.xattrs = o->xattrs || o->acls;
	p.dir = o->mount_dir;
	p.name = n > 1 ? "the chain" : io[0].in.name;
	p.foreground = o->foreground;
	p.verbose = o->run.verbose;
	p.allow_other = o->allow_other;
	p.threads = o->threads_set ? o->run.threads : 8;
	p.ready = ready;
	p.ready_ctx = (void *)o;
	{
		struct stat sb;

		if (fstat(io[n - 1].in.fd, &sb) == 0)
			p.implied_mtime = (int64_t)sb.st_mtime;
	}
	rc = mountfs_run(&p, err, sizeof err, &bad);
	if (rc == MOUNTFS_OK)
		st = EXIT_OK;
	else {
		if (rc == MOUNTFS_NO_INDEX)
			msg_error("%s: %s", io[bad].in.name, err);
		else
			msg_error("%s", err);
		if (rc == MOUNTFS_NO_FUSE)
			msg_hint("build aescrypt with libfuse3-dev installed, "
			    "or extract with -x");
		st = rc == MOUNTFS_NO_INDEX ? EXIT_DATA : rc == MOUNTFS_NO_FUSE
		    ? EXIT_USAGE : EXIT_SYSTEM;
	}
out:
	for (i = 0; i < opened; i++) {
		aescrypt_reader_free(r[i]);
		run_input_close(&io[i].in);
	}
	free(r);
	free(io);
	return st;
}
