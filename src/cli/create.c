/*
 * create.c -- aescrypt -c: paths in, an encrypted archive out.
 *
 * Two halves joined by a channel (chan.h): a thread walks the paths and
 * writes a tar stream (pack.c); the pipeline reads that stream as its
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
#include <unistd.h>

#include "pipeline/chan.h"
#include "common/clock.h"
#include "common/bytes.h"
#include "container/header.h"
#include "container/index.h"
#include "crypto/wipe.h"
#include "exitcode.h"
#include "keys.h"
#include "msg.h"
#include "namelist.h"
#include "names.h"
#include "pack.h"
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
	struct stat st;
	size_t i;
	int rc = EXIT_OK;

	for (i = 0; i < paths->n && rc == EXIT_OK; i++) {
		if (fstatat(c->fd[paths->tag[i]], paths->v[i], &st, o->follow ?
		    0 : AT_SYMLINK_NOFOLLOW) != 0) {
			char q[1024];

			msg_error("%s: %s", names_quote(paths->v[i], q,
			    sizeof q), strerror(errno));
			rc = errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE :
			    EXIT_SYSTEM;
		}
	}
	return rc;
}

struct producer {
	struct pack_opts po;
	struct namelist *paths;
	struct ae_chan chan;
	struct ae_writer w;
	int result;
	uint64_t cpu_ns;    /* the walk thread's CPU time */
};

static void *
produce(void *arg)
{
	struct producer *pr = arg;

	pr->result = pack_paths(&pr->po, pr->paths->v, pr->paths->n, &pr->w);
	pr->cpu_ns = ae_thread_ns();
	ae_chan_close_write(&pr->chan, pr->result == PACK_STOPPED ?
	    AE_EINTR : AE_OK);
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

/*
 * After the payload's final record: the index, sealed as records under
 * the index key (the payload's own pipeline, so the same framing and
 * compression), then the footer that points back at it (6.8).
 */
static int
write_index(const struct ae_pipe_params *payload,
    const struct ae_index_builder *ib, const struct ae_header *h,
    const ae_gcm_ctx *ig, struct ae_writer *out, struct ae_diag *d)
{
	struct ae_pipe_params pp = *payload;
	struct ae_pipe_stats st;
	struct ae_memio src = { 0 };
	struct ae_reader rd = { ae_mem_read, &src, NULL };
	uint8_t footer[AE_FOOTER_LEN], *buf;
	uint64_t off = h->len;
	size_t len, i;
	int r;

	if ((r = ae_index_build(ib, &buf, &len)) != AE_OK)
		return ae_fail(d, r, AE_AT_NONE, "building the index", 0, 0);
	for (i = 0; i < ib->nrecs; i++)
		off += load_be32(ib->recs + 4 * i);
	memset(&st, 0, sizeof st);
	pp.key = ig;
	pp.progress = NULL;
	src.src = buf;
	src.len = len;
	r = ae_pipe_encode(&pp, &rd, out, &st, d);
	if (r == AE_OK) {
		ae_footer_seal(ig, off, ib->nrecs, footer);
		if ((r = out->write(out->ctx, footer, sizeof footer)) != AE_OK)
			ae_fail(d, r, AE_AT_OUTPUT, "writing output", 0, 0);
	}
	ae_wipe(buf, len);
	free(buf);
	return r;
}

int
cmd_create(const struct opts *o)
{
	static struct ae_header h;
	static struct producer pr;
	struct namelist paths = { 0 };
	struct cdirs cd = { 0 };
	int *dirfd = NULL;
	struct run_stats rs;
	struct ae_pipe_params pp;
	struct ae_diag d = { 0 };
	struct streams io;
	struct ae_reader chan_reader;
	struct stat st;
	uint64_t w0 = ae_wall_ns();
	pthread_t thread;
	ae_gcm_ctx gcm, igcm;
	struct ae_index_builder ib;
	struct record_log rl;
	struct ae_writer logged;
	int indexed = !o->no_index;
	size_t i;
	int rc, r, started = 0;

	memset(&rs, 0, sizeof rs);
	ae_index_builder_init(&ib);
	run_streams_init(&io);
	for (i = 0; i < o->noperands; i++)
		if (namelist_add(&paths, o->operands[i], o->operand_cdir[i])
		    != 0) {
			msg_error("out of memory");
			rc = EXIT_SYSTEM;
			goto out;
		}
	if (o->files_from != NULL
	    && (rc = namelist_read(&paths, o->files_from, o->null_sep,
	    o->files_from_cdir)) != EXIT_OK)
		goto out;
	if (paths.n == 0) {
		msg_error("refusing to create an empty archive");
		msg_hint("name the files and directories to archive, or a "
		    "list of them with -T FILE");
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = cdirs_open(&cd, o)) != EXIT_OK
	    || (rc = check_paths(o, &paths, &cd)) != EXIT_OK)
		goto out;
	if ((dirfd = malloc(paths.n * sizeof *dirfd)) == NULL) {
		msg_error("out of memory");
		rc = EXIT_SYSTEM;
		goto out;
	}
	for (i = 0; i < paths.n; i++)
		dirfd[i] = cd.fd[paths.tag[i]];
	/* Keys and the output, relative to where we were started. */
	rc = run_new_container(o, o->archive, indexed ? AE_PAYLOAD_PAX_INDEXED
	    : AE_PAYLOAD_PAX, &h, &gcm, indexed ? &igcm : NULL, &io, &rs);
	if (rc != EXIT_OK)
		goto out;
	memset(&pr, 0, sizeof pr);
	pr.po.index = indexed ? &ib : NULL;
	if (fstat(io.out.fd, &st) == 0 && S_ISREG(st.st_mode)) {
		pr.po.self[pr.po.nself].dev = st.st_dev;
		pr.po.self[pr.po.nself++].ino = st.st_ino;
		pr.po.self_name = io.out.name;
	}
	if (io.out.dirfd >= 0 && fstatat(io.out.dirfd, io.out.target_base,
	    &st, 0) == 0 && S_ISREG(st.st_mode)) {
		/* The old archive, about to be replaced. */
		pr.po.self[pr.po.nself].dev = st.st_dev;
		pr.po.self[pr.po.nself++].ino = st.st_ino;
	}
	pr.po.dirfd = dirfd;
	pr.po.follow = o->follow;
	pr.po.xattrs = o->xattrs;
	pr.po.acls = o->acls;
	pr.po.exclude = o->exclude;
	pr.po.nexclude = o->nexclude;
	if (o->verbose)
		pr.po.verbose = io.out.in_place && io.out.fd == STDOUT_FILENO ?
		    stderr : stdout;
	pr.paths = &paths;
	if (ae_chan_init(&pr.chan, 0) != AE_OK) {
		msg_error("out of memory");
		outfile_abort(&io.out);
		rc = EXIT_SYSTEM;
		goto wipe;
	}
	pr.w.write = ae_chan_write;
	pr.w.ctx = &pr.chan;
	chan_reader.read = ae_chan_read;
	chan_reader.ctx = &pr.chan;

	ae_fd_init(&io.wr, io.out.fd, &signals_stop, NULL);
	run_pipe_params(o, &gcm, h.chunk_log2, &io, &pp);
	/* The total for the progress line: the files' sizes, measured
	 * first (only when the line will be shown; tar headers make the
	 * stream a little longer, which the display allows for). */
	run_progress_start(o, 0, -1, progress_wanted(o->progress) ?
	    pack_measure(&pr.po, paths.v, paths.n) : 0, 0, -1);
	r = io.writer.write(io.writer.ctx, h.raw, h.len);
	if (r != AE_OK) {
		ae_fail(&d, r, AE_AT_OUTPUT, "writing output", 0, 0);
	} else if (pthread_create(&thread, NULL, produce, &pr) != 0) {
		r = AE_ENOMEM;
		ae_fail(&d, r, AE_AT_NONE, "starting a thread", 0, 0);
	} else {
		started = 1;
		rl.out = &io.writer;
		rl.ib = &ib;
		logged.write = log_record;
		logged.ctx = &rl;
		r = ae_pipe_encode(&pp, &chan_reader, indexed ? &logged :
		    &io.writer, &rs.pipe, &d);
		/* A failed pipeline stops reading: free the walk. */
		ae_chan_close_read(&pr.chan);
		pthread_join(thread, NULL);
		if (r == AE_OK && pr.result != PACK_STOPPED && indexed)
			r = write_index(&pp, &ib, &h, &igcm, &io.writer, &d);
	}
	progress_stop();
	if (r != AE_OK || (started && pr.result == PACK_STOPPED)) {
		if (atomic_load(&signals_stop))
			rc = msg_interrupted();
		else if (started && pr.result == PACK_STOPPED
		    && d.where == AE_AT_INPUT)
			rc = EXIT_SYSTEM;   /* the walk said why */
		else
			rc = run_pipe_error(&io, r, &d);
		outfile_abort(&io.out);
	} else if ((rc = outfile_commit(&io.out)) == EXIT_OK) {
		io.rd.bytes = pr.chan.bytes;
		rs.archive = 1;
		rs.files_ns = pr.cpu_ns;
		rs.files_bytes = pr.chan.bytes;
		run_finish_stats(o, &rs, w0, &gcm, &io);
		if (pr.result == PACK_PARTIAL) {
			msg_warn("some files were not archived as they were; "
			    "see the warnings above");
			rc = EXIT_PARTIAL;
		}
	}
	ae_chan_free(&pr.chan);
wipe:
	ae_gcm_wipe(&gcm);
	if (indexed)
		ae_gcm_wipe(&igcm);
out:
	ae_index_builder_free(&ib);
	free(dirfd);
	cdirs_close(&cd);
	namelist_free(&paths);
	return rc;
}
