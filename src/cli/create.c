/*
 * create.c -- aescrypt -c: paths in, an encrypted archive out (contract
 * in opts.h).
 *
 * Two halves joined by a channel (chan.h): a thread walks the paths and
 * writes a tar stream (disk/reader.c); the pipeline reads that stream as its
 * input and seals it into a container whose header says "pax payload".
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

#include "pipeline/chan.h"
#include "pipeline/trailer.h"
#include "common/clock.h"
#include "common/bytes.h"
#include "container/header.h"
#include "container/index.h"
#include "archive/tar_write.h"
#include "disk/reader.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "keys.h"
#include "msg.h"
#include "namelist.h"
#include "names.h"
#include "list.h"
#include "members.h"
#include "checksum.h"
#include "snapfile.h"
#include "totals.h"
#include "progress.h"
#include "run.h"
#include "session.h"
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

/* The walk's thread: the paths, the channel it writes the tar stream
 * into, and what it reports to (the index, -v, progress). */
struct producer {
	const struct opts *o;
	struct ae_dr_params dp;
	struct namelist *paths;
	struct ae_chan chan;
	struct ae_writer w;
	FILE *verbose;              /* -v: names go here, or NULL */
	int long_list;              /* -vv: as tar -tv lists them */
	size_t ugswidth;            /* (-vv's column, as list_entry keeps it) */
	struct ae_tar_member *line; /* -vv: list_entry's, for the run */
	const char *self_name;      /* the archive's name, for a warning */
	struct ae_index_builder *index;     /* or NULL (--no-index) */
	struct ae_xattr_filter xf;  /* --xattrs-include, --xattrs-exclude */
	uint64_t tar_end;
	int err;                    /* the walk's result */
	int partial;                /* it gave warnings */
	uint64_t cpu_ns;            /* the walk thread's CPU time */
	struct totals *totals;      /* --totals -g, or NULL */
};

/* Note e, whose headers start at offset, in the index.  0, or -1 out
 * of memory (reported; the walk stops, as for a failed write). */
static int
index_member(struct producer *pr, const struct ae_tar_entry *e,
    uint64_t offset)
{
	struct ae_index_member m;

	if (pr->index == NULL)
		return 0;
	memset(&m, 0, sizeof m);
	m.first = offset;
	m.type = e->type;
	m.mode = e->mode & 07777;
	m.uid = e->uid;
	m.gid = e->gid;
	m.size = e->map != NULL ? e->real_size : e->size;
	if (e->type == AE_TAR_CHR || e->type == AE_TAR_BLK)
		m.size = (uint64_t)e->devmajor << 32 | e->devminor;
	m.mtime = e->mtime;
	m.mtime_nsec = e->mtime_nsec;
	m.path = e->path;
	m.linkpath = e->linkpath;
	m.uname = e->uname;
	m.gname = e->gname;
	if (ae_index_add_member(pr->index, &m) == AE_OK)
		return 0;
	msg_error("the archive's index: out of memory");
	return -1;
}

/* What the walk reports, in GNU tar's words. */
static int
on_walk(void *ctx, const struct ae_dr_report *r)
{
	struct producer *pr = ctx;
	char q[1024];

	switch (r->event) {
	case AE_DR_MEMBER:
		if (index_member(pr, r->e, r->offset) != 0)
			return -1;
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

static void *
produce(void *arg)
{
	struct producer *pr = arg;

	/* (without memory for it, -vv lists names alone) */
	if (pr->long_list)
		pr->line = malloc(sizeof *pr->line);
	pr->err = ae_dr_walk(&pr->dp, pr->paths->v, pr->paths->n, &pr->w,
	    &pr->tar_end, &pr->partial);
	free(pr->line);
	pr->line = NULL;
	if (pr->err == AE_ENOMEM)
		msg_error("out of memory");
	if (pr->index != NULL)
		pr->index->tar_end = pr->tar_end;
	pr->cpu_ns = ae_thread_ns();
	ae_chan_close_write(&pr->chan, pr->err != AE_OK ? AE_EINTR : AE_OK);
	return NULL;
}

/* The pipeline's output, passed on, with each record's length noted
 * for the index (the pipeline writes one record a call). */
struct record_log {
	struct ae_writer *out;
	struct ae_index_builder *ib;
};

static int
log_record(void *ctx, const uint8_t *buf, size_t n)
{
	struct record_log *l = ctx;
	int r = l->out->write(l->out->ctx, buf, n);

	if (r == AE_OK)
		r = ae_index_add_record(l->ib, (uint32_t)n);
	return r;
}

/* One -c run: what cmd_create's steps share.  On the heap, out of core
 * dumps: it holds the key schedules. */
struct create {
	struct ae_header h;
	struct producer pr;
	struct namelist paths;
	struct cdirs cd;
	int *dirfd;                 /* per path, its -C directory */
	struct run_stats rs;
	struct ae_pipe_params pp;
	struct streams io;
	ae_gcm_ctx gcm, igcm;
	struct ae_index_builder ib;
	int indexed;
	int keys;                   /* gcm (and igcm) hold keys */
	uint64_t w0;
	struct ae_snapshot prev, next;  /* -g: the last level's, this one's */
	int have_prev;
	struct ae_tar_global global;    /* the archive's own description */
	uint8_t lead[2 * AE_TAR_BLOCK]; /* ... as the stream's first bytes */
	size_t lead_len;
	struct checksum sum;            /* --checksum */
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
	pr->index = c->indexed ? &c->ib : NULL;
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
	pr->w.write = ae_chan_write;
	pr->w.ctx = &pr->chan;
}

/* The header, then the walk's thread feeding the pipeline, then the
 * index.  AE_OK, or the error with d.  *started: the thread ran. */
static int
create_stream(struct create *c, int *started, struct ae_diag *d)
{
	struct ae_reader chan_reader = { ae_chan_read, &c->pr.chan, NULL };
	struct record_log rl = { &c->io.writer, &c->ib };
	struct ae_writer logged = { log_record, &rl };
	pthread_t thread;
	int err;

	*started = 0;
	err = c->io.writer.write(c->io.writer.ctx, c->h.raw, c->h.len);
	if (err != AE_OK)
		return ae_fail(d, err, AE_AT_OUTPUT, "writing output", 0, 0);
	if (pthread_create(&thread, NULL, produce, &c->pr) != 0)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, "starting a thread", 0,
		    0);
	*started = 1;
	err = ae_pipe_encode(&c->pp, &chan_reader, c->indexed ? &logged :
	    &c->io.writer, &c->rs.pipe, d);
	/* A failed pipeline stops reading: free the walk. */
	ae_chan_close_read(&c->pr.chan);
	pthread_join(thread, NULL);
	if (err == AE_OK && c->pr.err == AE_OK && c->indexed)
		err = ae_trailer_write_index(&c->pp, &c->ib, &c->h, &c->igcm,
		    &c->io.writer, d);
	if (err == AE_OK && c->pr.err == AE_OK)
		err = ae_trailer_write_copy(&c->io.writer, &c->h, d);
	return err;
}

/* Write the archive, once the output is open and the keys are set:
 * commit it, or remove it.  Returns the exit status. */
static int
create_run(struct create *c, const struct opts *o)
{
	struct ae_diag d = { 0 };
	int st, err, started;

	create_producer(c, o);
	if (ae_chan_init(&c->pr.chan, 0) != AE_OK) {
		msg_error("out of memory");
		ae_outfile_abort(&c->io.out);
		return EXIT_SYSTEM;
	}
	ae_fd_init(&c->io.wr, c->io.out.fd, &signals_stop, NULL);
	checksum_start(&c->sum, o->checksum, &c->io.writer);
	run_pipe_params(&o->run, &c->gcm, &c->h, &c->io, &c->pp);
	/* The total for the progress line: the files' sizes, measured
	 * first (only when the line will be shown; tar headers make the
	 * stream a little longer, which the display allows for). */
	run_progress_start(&o->run, 0, -1, progress_wanted(o->run.progress) ?
	    ae_dr_measure(&c->pr.dp, c->paths.v, c->paths.n) : 0, 0, -1);
	err = create_stream(c, &started, &d);
	progress_stop();
	if (err != AE_OK || (started && c->pr.err != AE_OK)) {
		if (atomic_load(&signals_stop))
			st = msg_interrupted();
		else if (started && c->pr.err != AE_OK
		    && d.where == AE_AT_INPUT)
			st = EXIT_SYSTEM;   /* the walk said why */
		else
			st = run_pipe_error(&c->io, err, &d);
		ae_outfile_abort(&c->io.out);
	} else if ((st = run_out_commit(&c->io.out)) == EXIT_OK
	    && (st = checksum_finish(&c->sum, o->checksum, o->archive != NULL
	    ? o->archive : "-")) == EXIT_OK) {
		c->io.rd.bytes = c->pr.chan.bytes;
		c->rs.archive = 1;
		c->rs.files_ns = c->pr.cpu_ns;
		c->rs.files_bytes = c->pr.chan.bytes;
		run_finish_stats(&o->run, &c->rs, c->w0, &c->gcm, &c->io);
		if (c->pr.totals != NULL)
			totals_level(&c->totals, c->global.level);
		if (c->pr.partial) {
			msg_warn("some files were not archived as they were; "
			    "see the warnings above");
			st = EXIT_PARTIAL;
		}
		/* the next level starts from this one (after warnings too,
		 * as GNU tar) */
		if (o->listed != NULL) {
			int sst = snapfile_save(o->listed, &c->next);

			if (sst != EXIT_OK)
				st = sst;
		}
	}
	ae_chan_free(&c->pr.chan);
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
	struct create *c = ae_secret_alloc(sizeof *c);
	int st;

	if (c == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	c->w0 = ae_wall_ns();
	c->indexed = !o->run.no_index;
	ae_snapshot_init(&c->prev);
	ae_snapshot_init(&c->next);
	if ((st = create_global(c, o)) != EXIT_OK)
		goto out;
	ae_index_builder_init(&c->ib);
	run_streams_init(&c->io);
	if ((st = create_paths(c, o)) != EXIT_OK)
		goto out;
	/* Keys and the output, relative to where we were started. */
	st = session_create(&o->keys, &o->run, o->archive, c->indexed ?
	    AE_PAYLOAD_PAX_INDEXED : AE_PAYLOAD_PAX, &c->h, &c->gcm,
	    c->indexed ? &c->igcm : NULL, &c->io, &c->rs);
	if (st != EXIT_OK)
		goto out;
	c->keys = 1;
	st = create_run(c, o);
out:
	if (c->keys) {
		ae_gcm_wipe(&c->gcm);
		if (c->indexed)
			ae_gcm_wipe(&c->igcm);
	}
	ae_index_builder_free(&c->ib);
	totals_free(&c->totals);
	ae_snapshot_free(&c->prev);
	ae_snapshot_free(&c->next);
	free(c->dirfd);
	cdirs_close(&c->cd);
	namelist_free(&c->paths);
	ae_secret_free(c, sizeof *c);
	return st;
}
