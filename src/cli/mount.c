/*
 * mount.c -- aescrypt --mount DIR -f ARCHIVE: the archive opened and
 * unlocked as -x opens it (the passphrase asked for before the mount
 * goes to the background), then served read-only by the mount layer
 * (src/mount/) until it is unmounted (contract in opts.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
#include "signals.h"

/* Once the mount is there: what was left out of it, said before the
 * mount goes to the background. */
static void
ready(void *ctx, size_t nodes, uint64_t refused, uint64_t replaced)
{
	const struct opts *o = ctx;

	if (refused > 0)
		msg_warn("%s: %llu member%s left out of the mount: a name with "
		    "'..' in it, or a hard link to nothing before it (as -x "
		    "refuses them)", o->archive, (unsigned long long)refused,
		    refused == 1 ? "" : "s");
	if (replaced > 0 && o->run.verbose)
		msg_note("%s: %llu member%s replaced by a later one of the "
		    "same name (as -x replaces them)", o->archive,
		    (unsigned long long)replaced, replaced == 1 ? "" : "s");
	if (o->run.verbose)
		msg_note("%s: mounted on %s, %zu files and directories",
		    o->archive, o->mount_dir, nodes);
}

int
cmd_mount(const struct opts *o)
{
	struct streams io;
	struct run_stats rs;
	struct aescrypt_info info;
	struct mountfs_params p;
	struct aescrypt_source src;
	aescrypt_reader *r;
	char err[1024];
	int st, rc;

	if (!mountfs_available()) {
		mountfs_run(NULL, err, sizeof err);
		msg_error("%s", err);
		msg_hint("build aescrypt with libfuse3-dev installed, or extract "
		    "with -x");
		return EXIT_USAGE;
	}
	if (o->archive == NULL || strcmp(o->archive, "-") == 0) {
		msg_error("--mount needs an archive in a file (-f FILE): a "
		    "pipe cannot be read at random");
		return EXIT_USAGE;
	}
	memset(&rs, 0, sizeof rs);
	run_streams_init(&io);
	if ((st = run_input_open(&io.in, o->archive, &o->run)) != EXIT_OK)
		return st;
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	if ((r = aescrypt_reader_new()) == NULL) {
		msg_error("out of memory");
		run_input_close(&io.in);
		return EXIT_SYSTEM;
	}
	st = keys_open(&o->keys, &o->run, &io, r, &rs);
	if (st == KEYS_LEGACY) {
		ae_secret_free(io.early_pass, sizeof *io.early_pass);
		st = legacy_not_archive(io.in.name);
		goto out;
	}
	if (st != EXIT_OK)
		goto out;
	run_reader_source(&io, &src);
	(void)aescrypt_reader_info(r, &info);
	if (info.kind != AESCRYPT_ARCHIVE || !info.indexed
	    || src.pread == NULL) {
		msg_error("%s: %s", io.in.name, info.kind != AESCRYPT_ARCHIVE
		    ? "an encrypted stream, not an archive: there is nothing "
		    "to mount" : !info.indexed ? "an archive without an index "
		    "(made with --no-index): the mount is ready from the index "
		    "alone, and this one has none" : "not a regular file that "
		    "starts with the archive");
		if (info.kind == AESCRYPT_ARCHIVE && info.indexed == 0)
			msg_hint("extract it with -x, or make it again without "
			    "--no-index");
		st = EXIT_USAGE;
		goto out;
	}
	memset(&p, 0, sizeof p);
	p.reader = r;
	p.dir = o->mount_dir;
	p.name = io.in.name;
	p.foreground = o->foreground;
	p.threads = o->run.threads;
	p.ready = ready;
	p.ready_ctx = (void *)o;
	{
		struct stat sb;

		if (fstat(io.in.fd, &sb) == 0)
			p.implied_mtime = (int64_t)sb.st_mtime;
	}
	rc = mountfs_run(&p, err, sizeof err);
	if (rc == MOUNTFS_OK)
		st = EXIT_OK;
	else {
		msg_error("%s", rc == MOUNTFS_NO_INDEX ? aescrypt_reader_error(r)
		    : err);
		if (rc == MOUNTFS_NO_FUSE)
			msg_hint("build aescrypt with libfuse3-dev installed, "
			    "or extract with -x");
		st = rc == MOUNTFS_NO_INDEX ? EXIT_DATA : rc == MOUNTFS_NO_FUSE
		    ? EXIT_USAGE : EXIT_SYSTEM;
	}
out:
	aescrypt_reader_free(r);
	run_input_close(&io.in);
	return st;
}
