/*
 * create.c -- aescrypt -c: paths in, an encrypted archive out (contract
 * in opts.h).
 *
 * The library's writer (aescrypt.h) makes the container: this thread
 * walks the paths into a tar stream through it (disk/reader.c, with the
 * command's own parameters and reports), and its pipeline, on a thread
 * of its own, seals that stream and writes the index after it.
 * Everything that can fail for the whole job (a missing operand, the
 * key sources, the output) fails before the walk starts; problems with
 * single files are warnings and exit status 1, as in tar.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "common/clock.h"
#include "common/bytes.h"
#include "archive/tar_write.h"
#include "disk/reader.h"
#include "exitcode.h"
#include "keys.h"
#include "msg.h"
#include "namelist.h"
#include "names.h"
#include "list.h"
#include "members.h"
#include "checksum.h"
#include "sigfile.h"
#include "snapfile.h"
#include "totals.h"
#include "progress.h"
#include "run.h"
#include "signals.h"

/*
 * The -C directories, opened in order, each relative to the one before
 * (tar's rule: "-C a -C b" is a/b).  fd[0] is the starting directory;
 * fd[k] is the one in effect after k -C options.  A missing one is a
 * mistake on the command line, found before a passphrase is asked for.
 */
struct cdirs {
	int *fd;
	size_t n;
};

static int
cdirs_open(struct cdirs *c, const struct opts *o)
{
	size_t k;

	c->n = 0;
	if ((c->fd = calloc(o->ncdirs + 1, sizeof *c->fd)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if ((c->fd[0] = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return msg_sys_error("the current directory");
	for (c->n = 1; c->n <= o->ncdirs; c->n++) {
		k = c->n;
		c->fd[k] = openat(c->fd[k - 1], o->cdirs[k - 1], O_RDONLY
		    | O_DIRECTORY | O_CLOEXEC);
		if (c->fd[k] < 0) {
			int e = errno;

			msg_error("%s: %s", o->cdirs[k - 1], strerror(e));
			msg_hint("-C names the directory the paths after it "
			    "are relative to");
			return e == ENOENT || e == ENOTDIR ? EXIT_USAGE :
			    EXIT_SYSTEM;
		}
	}
	return EXIT_OK;
}

static void
cdirs_close(struct cdirs *c)
{
	size_t k;

	for (k = 0; k < c->n; k++)
		close(c->fd[k]);
	free(c->fd);
}

/* Every operand must exist (relative to its -C): a missing one is
 * fatal, and is found before a passphrase is asked for or a byte
 * written. */
static int
check_paths(const struct opts *o, const struct namelist *paths,
    const struct cdirs *c)
{
	struct stat sb;
	size_t i;
	int st = EXIT_OK;

	for (i = 0; i < paths->n && st == EXIT_OK; i++) {
		if (fstatat(c->fd[paths->tag[i]], paths->v[i], &sb, o->follow ?
		    0 : AT_SYMLINK_NOFOLLOW) != 0) {
			char q[1024];

			msg_error("%s: %s", names_quote(paths->v[i], q,
			    sizeof q), strerror(errno));
			st = errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE :
			    EXIT_SYSTEM;
		}
	}
	return st;
}

/* The walk (the library's writer runs it, on this thread): its
 * parameters and what its reports go to (-v, progress, --totals). */
struct producer {
	const struct opts *o;
	struct ae_dr_params dp;
	struct namelist *paths;
	FILE *verbose;              /* -v: names go here, or NULL */
	int long_list;              /* -vv: as tar -tv lists them */
	size_t ugswidth;            /* (-vv's column, as list_entry keeps it) */
	struct ae_tar_member *line; /* -vv: list_entry's, for the run */
	const char *self_name;      /* the archive's name, for a warning */
	struct ae_xattr_filter xf;  /* --xattrs-include, --xattrs-exclude */
	struct totals *totals;      /* --totals -g, or NULL */
};

/* What the walk reports, in GNU tar's words. */
static int
on_walk(void *ctx, const struct ae_dr_report *r)
{
	struct producer *pr = ctx;
	char q[1024];

	switch (r->event) {
	case AE_DR_MEMBER:
		if (pr->totals != NULL)
			totals_member(pr->totals, r->name, r->e->type);
		progress_member(r->e->path);
		if (pr->verbose != NULL && pr->long_list && pr->line != NULL) {
			list_entry(pr->verbose, r->e, &pr->ugswidth, pr->line);
		} else if (pr->verbose != NULL) {
			names_print(pr->verbose, r->e->path);
			fputc('\n', pr->verbose);
		}
		break;
	case AE_DR_WARNING:
		if (r->err != 0)
			msg_warn("%s: %s: %s", names_quote(r->name, q, sizeof q),
			    r->why, strerror(r->err));
		else
			msg_warn("%s: %s", names_quote(r->name, q, sizeof q),
			    r->why);
		break;
	case AE_DR_STRIPPED:
		if (pr->o->run.quiet)
			break;  /* what is stored is said by -t */
		msg_warn("removing leading '%s' from member names",
		    names_quote(r->name, q, sizeof q));
		break;
	case AE_DR_SELF:
		/* GNU tar's words; not a failure, as it is not data.  The
		 * name is the archive's, not its temp file's. */
		msg_warn("%s: file is the archive; not dumped", names_quote(
		    r->self == 0 ? pr->self_name : r->name, q, sizeof q));
		break;
	case AE_DR_IGNORED:
		msg_warn("%s: %s ignored", names_quote(r->name, q, sizeof q),
		    r->why);
		break;
	case AE_DR_TAGGED: {
		/* GNU tar's words (the same for any tag), and as there not
		 * a failure: the user asked for it.  GNU tar says it only with
		 * -v; here without -q, so a cron job can keep it out of mail */
		size_t n = strlen(r->name);

		if (pr->o->run.quiet)
			break;
		msg_warn("%s%s: contains a cache directory tag %s; %s",
		    names_quote(r->name, q, sizeof q), n > 0 && r->name[n - 1]
		    == '/' ? "" : "/", r->why, r->tag == AE_DR_TAG_ALL ?
		    "directory not dumped" : "contents not dumped");
		break;
	}
	case AE_DR_KEPT:
		if (pr->totals != NULL)
			totals_unchanged(pr->totals);
		break;
	case AE_DR_UNCHANGED:
		/* GNU tar's words, with -v only */
		if (pr->verbose != NULL)
			msg_warn("%s: file is unchanged; not dumped",
			    names_quote(r->name, q, sizeof q));
		break;
	case AE_DR_OTHER_FS:
		/* GNU tar says this with -v only */
		if (pr->verbose != NULL) {
			size_t n = strlen(r->name);

			msg_warn("%s%s: file is on a different filesystem; not "
			    "dumped", names_quote(r->name, q, sizeof q),
			    n > 0 && r->name[n - 1] == '/' ? "" : "/");
		}
		break;
	case AE_DR_XATTRS_LEFT:
		msg_note("some files have extended attributes or ACLs, which "
		    "are archived only with --xattrs and --acls");
		break;
	case AE_DR_FAILED:
		msg_error("%s: %s", r->why, strerror(r->err));
		break;
	}
	return 0;
}

/* --exclude, for the walk. */
static int
is_excluded(void *ctx, const char *path)
{
	const struct opts *o = ((struct producer *)ctx)->o;

	return members_excluded(o->sel.exclude, o->sel.nexclude, path);
}

/* One -c run: what cmd_create's steps share. */
struct create {
	aescrypt_writer *w;         /* the library's: keys, the container */
	struct producer pr;
	struct namelist paths;
	struct cdirs cd;
	int *dirfd;                 /* per path, its -C directory */
	struct run_stats rs;
	struct streams io;
	int pass_slot;              /* a passphrase's KDF runs at the open */
	uint64_t w0;
	struct ae_snapshot prev, next;  /* -g: the last level's, this one's */
	int have_prev;
	struct ae_tar_global global;    /* the archive's own description */
	uint8_t lead[2 * AE_TAR_BLOCK]; /* ... as the stream's first bytes */
	size_t lead_len;
	struct checksum sum;            /* --checksum */
	struct sigfile sig;             /* --sign, --sig-file */
	struct totals totals;           /* --totals -g: this level's counts */
};

/* The operands and -T's list, each with its -C directory, all checked
 * to exist.  0 or an exit status (reported). */
static int
create_paths(struct create *c, const struct opts *o)
{
	size_t i;
	int st;

	for (i = 0; i < o->sel.noperands; i++)
		if (namelist_add(&c->paths, o->sel.operands[i],
		    o->operand_cdir[i]) != 0) {
			msg_error("out of memory");
			return EXIT_SYSTEM;
		}
	if (o->sel.files_from != NULL
	    && (st = namelist_read(&c->paths, o->sel.files_from,
	    o->sel.null_sep, o->files_from_cdir)) != EXIT_OK)
		return st;
	if (c->paths.n == 0) {
		msg_error("refusing to create an empty archive");
		msg_hint("name the files and directories to archive, or a "
		    "list of them with -T FILE");
		return EXIT_USAGE;
	}
	if ((st = cdirs_open(&c->cd, o)) != EXIT_OK
	    || (st = check_paths(o, &c->paths, &c->cd)) != EXIT_OK)
		return st;
	if ((c->dirfd = malloc(c->paths.n * sizeof *c->dirfd)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	for (i = 0; i < c->paths.n; i++)
		c->dirfd[i] = c->cd.fd[c->paths.tag[i]];
	return EXIT_OK;
}

/* The walk's parameters, once the output is open: the files it must
 * not archive are the output and the old archive it replaces. */
static void
create_producer(struct create *c, const struct opts *o)
{
	struct producer *pr = &c->pr;
	struct ae_dr_params *dp = &pr->dp;
	struct stat st;

	pr->o = o;
	pr->paths = &c->paths;
	pr->self_name = c->io.out.name;
	if (o->run.verbose)
		pr->verbose = c->io.out.in_place
		    && c->io.out.fd == STDOUT_FILENO ? stderr : stdout;
	pr->long_list = o->run.verbose >= 2;
	pr->ugswidth = 19;
	if (fstat(c->io.out.fd, &st) == 0 && S_ISREG(st.st_mode)) {
		dp->self[dp->nself].dev = st.st_dev;
		dp->self[dp->nself++].ino = st.st_ino;
	}
	if (c->io.out.dirfd >= 0 && fstatat(c->io.out.dirfd,
	    c->io.out.target_base, &st, 0) == 0 && S_ISREG(st.st_mode)) {
		/* The old archive, about to be replaced. */
		dp->self[dp->nself].dev = st.st_dev;
		dp->self[dp->nself++].ino = st.st_ino;
	}
	dp->dirfd = c->dirfd;
	dp->flags = (o->follow ? AE_DR_FOLLOW : 0)
	    | (o->xattrs ? AE_DR_XATTRS : 0) | (o->acls ? AE_DR_ACLS : 0)
	    | (o->run.verbose ? AE_DR_NOTE_XATTRS : 0)
	    | (o->one_fs ? AE_DR_ONE_FS : 0);
	dp->tags = o->tags;
	dp->ntags = o->ntags;
	dp->lead = c->lead;
	dp->lead_len = c->lead_len;
	pr->totals = o->run.totals && o->listed != NULL ? &c->totals : NULL;
	if (o->listed != NULL) {
		dp->flags |= AE_DR_INCREMENTAL;
		dp->prev = c->have_prev ? &c->prev : NULL;
		dp->next = &c->next;
	}
	dp->newer_set = o->newer_set;
	dp->newer_mtime_only = o->newer_mtime_only;
	dp->newer = o->newer;
	dp->stop = &signals_stop;
	pr->xf.include = o->xattrs_include;
	pr->xf.ninclude = o->nxattrs_include;
	pr->xf.exclude = o->xattrs_exclude;
	pr->xf.nexclude = o->nxattrs_exclude;
	dp->xattrs = &pr->xf;
	dp->excluded = is_excluded;
	dp->report = on_walk;
	dp->ctx = pr;
}

/* The writer's run: the header (and a passphrase's KDF), the walk on
 * this thread into the pipeline on the writer's, then the index and
 * the copy of the header.  AESCRYPT_OK or the writer's error; *walked
 * says whether it was the walk's own (reported by on_walk). */
static int
create_stream(struct create *c, int *walked)
{
	uint64_t p0, k0, t0;
	int err;

	*walked = 0;
	p0 = ae_process_ns();
	k0 = ae_wall_ns();
	err = aescrypt_writer_open(c->w, AESCRYPT_ARCHIVE, run_writer_sink,
	    &c->io);
	if (c->pass_slot) {
		c->rs.kdf_cpu_ns = ae_process_ns() - p0;
		c->rs.kdf_wall_ns = ae_wall_ns() - k0;
		c->rs.kdf_m_kib = c->pr.o->keys.kdf.m_kib;
	}
	if (err != AESCRYPT_OK)
		return err;
	/* (without memory for it, -vv lists names alone) */
	if (c->pr.long_list)
		c->pr.line = malloc(sizeof *c->pr.line);
	t0 = ae_thread_ns();
	err = aescrypt_writer_add_paths(c->w, c->paths.v, c->paths.n);
	c->rs.files_ns = ae_thread_ns() - t0;
	free(c->pr.line);
	c->pr.line = NULL;
	if (err != AESCRYPT_OK) {
		*walked = aescrypt_writer_diag(c->w) == NULL;
		return err;
	}
	return aescrypt_writer_close(c->w);
}

/* The writer failed with err: the walk or the pipeline said why, or
 * its words now.  The exit status. */
static int
create_failed(struct create *c, int err, int walked)
{
	if (atomic_load(&signals_stop))
		return msg_interrupted();
	if (!walked)
		return run_writer_failed(&c->io, c->w, err);
	if (err == AESCRYPT_ENOMEM) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	return EXIT_SYSTEM;     /* on_walk said why */
}

/* After the archive is whole and has its name: --stats, --totals, the
 * warning for what was not archived as it was, and -g's snapshot.
 * The exit status. */
static int
create_done(struct create *c, const struct opts *o)
{
	int st = EXIT_OK;

	c->rs.pipe = *aescrypt_writer_pipe_stats(c->w);
	c->io.rd.bytes = c->rs.pipe.plain_bytes;
	c->rs.archive = 1;
	c->rs.files_bytes = c->rs.pipe.plain_bytes;
	run_finish_stats(&o->run, &c->rs, c->w0, aescrypt_writer_tier(c->w),
	    &c->io);
	if (c->pr.totals != NULL)
		totals_level(&c->totals, c->global.level);
	if (aescrypt_writer_partial(c->w)) {
		msg_warn("some files were not archived as they were; "
		    "see the warnings above");
		st = EXIT_PARTIAL;
	}
	/* the next level starts from this one (after warnings too, as GNU
	 * tar) */
	if (o->listed != NULL) {
		int sst = snapfile_save(o->listed, &c->next);

		if (sst != EXIT_OK)
			st = sst;
	}
	return st;
}

/* Write the archive, once the output is open and the keys are given:
 * commit it, or remove it.  Returns the exit status. */
static int
create_run(struct create *c, const struct opts *o)
{
	int st, err, walked;

	create_producer(c, o);
	ae_fd_init(&c->io.wr, c->io.out.fd, &signals_stop, NULL);
	checksum_start(&c->sum, o->checksum, &c->io.writer);
	sigfile_start(&c->sig, o->sig_file, &c->io.writer);
	if ((err = aescrypt_writer_set_index(c->w, !o->run.no_index))
	    != AESCRYPT_OK
	    || (err = aescrypt_writer_set_walk(c->w, &c->pr.dp))
	    != AESCRYPT_OK) {
		msg_error("%s", aescrypt_writer_error(c->w));
		ae_outfile_abort(&c->io.out);
		return EXIT_SYSTEM;
	}
	/* The total for the progress line: the files' sizes, measured
	 * first (only when the line will be shown; tar headers make the
	 * stream a little longer, which the display allows for). */
	run_progress_start(&o->run, 0, -1, progress_wanted(o->run.progress) ?
	    ae_dr_measure(&c->pr.dp, c->paths.v, c->paths.n) : 0, 0, -1);
	err = create_stream(c, &walked);
	progress_stop();
	if (err != AESCRYPT_OK) {
		st = create_failed(c, err, walked);
		ae_outfile_abort(&c->io.out);
		return st;
	}
	if ((st = run_out_commit(&c->io.out)) == EXIT_OK
	    && (st = checksum_finish(&c->sum, o->checksum, o->archive != NULL
	    ? o->archive : "-")) == EXIT_OK
	    && (st = sigfile_finish(&c->sig, o->sig_file)) == EXIT_OK)
		st = create_done(c, o);
	return st;
}

/*
 * When this dump began and, with -g, its level and the dump it
 * continues (format 6.7), for the archive's global header; the snapshot
 * loaded.  The next level starts from this time: what changes after it
 * goes in the next one.  The level counts from the last full dump: a
 * snapshot GNU tar wrote does not say its level, and is taken as a full
 * dump's.  0 or an exit status (reported).
 */
static int
create_global(struct create *c, const struct opts *o)
{
	struct ae_tar_global *g = &c->global;
	struct timespec now;
	int st;

	clock_gettime(CLOCK_REALTIME, &now);
	memset(g, 0, sizeof *g);
	g->created = now.tv_sec;
	g->created_nsec = (uint32_t)now.tv_nsec;
	g->level = -1;
	if (o->listed != NULL) {
		c->next.time = now.tv_sec;
		c->next.time_nsec = (uint32_t)now.tv_nsec;
		if ((st = snapfile_load(o->listed, o->level0, &c->prev,
		    &c->have_prev)) != EXIT_OK)
			return st;
		g->level = !c->have_prev ? 0 : c->prev.level >= 0
		    && c->prev.level < 9999 ? c->prev.level + 1 : 1;
		g->continues = c->have_prev;
		g->cont = c->prev.time;
		g->cont_nsec = c->prev.time_nsec;
		c->next.level = g->level;
		if (o->run.totals && totals_init(&c->totals, c->have_prev ?
		    &c->prev : NULL) != 0) {
			msg_error("out of memory");
			return EXIT_SYSTEM;
		}
	}
	if (ae_tar_global_header(g, c->lead, sizeof c->lead, &c->lead_len)
	    != AE_OK) {
		msg_error("the archive's global header does not fit");
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

int
cmd_create(const struct opts *o)
{
	struct create *c = calloc(1, sizeof *c);
	int st;

	if (c == NULL || (c->w = aescrypt_writer_new()) == NULL) {
		free(c);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	c->w0 = ae_wall_ns();
	c->rs.codec = o->run.codec;
	ae_snapshot_init(&c->prev);
	ae_snapshot_init(&c->next);
	if ((st = create_global(c, o)) != EXIT_OK)
		goto out;
	run_streams_init(&c->io);
	if ((st = create_paths(c, o)) != EXIT_OK)
		goto out;
	/* Keys and the output, relative to where we were started; a
	 * terminal is refused before any passphrase is asked for. */
	if ((o->archive == NULL || strcmp(o->archive, "-") == 0)
	    && isatty(STDOUT_FILENO)) {
		st = run_refuse_tty(&o->run);
		goto out;
	}
	if ((st = keys_to_writer(&o->keys, c->w, &c->pass_slot)) != EXIT_OK
	    || (st = run_writer_settings(&o->run, c->w, &c->io)) != EXIT_OK
	    || (st = sigfile_open(&c->sig, &o->keys, o->sign)) != EXIT_OK)
		goto out;
	if (c->sig.s != NULL && aescrypt_writer_set_signer(c->w, c->sig.s)
	    != AESCRYPT_OK) {
		msg_error("%s", aescrypt_writer_error(c->w));
		st = EXIT_SYSTEM;
		goto out;
	}
	if ((st = run_out_open(&c->io.out, o->archive)) != EXIT_OK)
		goto out;
	if ((st = run_out_distinct(&c->io.out, -1, o->checksum, o->sig_file,
	    o->listed)) != EXIT_OK) {
		ae_outfile_abort(&c->io.out);
		goto out;
	}
	if (isatty(c->io.out.fd)) {
		ae_outfile_abort(&c->io.out);
		st = run_refuse_tty(&o->run);
		goto out;
	}
	st = create_run(c, o);
out:
	sigfile_free(&c->sig);
	aescrypt_writer_free(c->w);
	totals_free(&c->totals);
	ae_snapshot_free(&c->prev);
	ae_snapshot_free(&c->next);
	free(c->dirfd);
	cdirs_close(&c->cd);
	namelist_free(&c->paths);
	free(c);
	return st;
}
