/*
 * extract.c -- aescrypt -x (contract in opts.h): which members, where
 * their data goes (the disk writer, disk/writer.h, or -O), and what is
 * said about them.
 *
 * The files themselves are made by the disk writer, which holds the
 * rules that keep a hostile archive inside -C; this file reads the
 * stream, selects members, applies --strip-components, and words the
 * writer's reports, --salvage's losses and the summary.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/tar_read.h"
#include "common/wipe.h"
#include "disk/path.h"
#include "disk/writer.h"
#include "exitcode.h"
#include "indexed.h"
#include "lost.h"
#include "members.h"
#include "msg.h"
#include "names.h"
#include "progress.h"
#include "signals.h"
#include "unpack.h"

#define DATA_BUF (256 * 1024)

/* One -x run: the writer, or -O's buffer, and what the run has to
 * report at its end. */
struct xrun {
	const struct opts *o;
	struct ae_dw *dw;           /* NULL with -O */
	uint8_t *buf;               /* -O: DATA_BUF bytes of member data */
	struct salvage *salvage;    /* --salvage: what was lost, or NULL */
	struct lost lost;           /* ... and which members, by name */
	enum lost_outcome cur;      /* --salvage: what became of the member
	                             * being made, as the reports say (0:
	                             * none said) */
	struct ae_xattr_filter xf;  /* --xattrs-include, --xattrs-exclude */
	int partial;                /* some member was skipped (exit 1) */
	int fatal;                  /* exit status that ends the run */
	int noted_incremental;      /* note_incremental said it */
	uint64_t archive_size;      /* the input's, if a regular file; or 0 */
	aescrypt_reader *ix;        /* a full read of a file with an index:
	                             * each member is checked against its
	                             * entry before a byte of it is written
	                             * (the reader holds the index as
	                             * digests); or NULL */
	uint64_t ixn, ix_tar_end;   /* ... its entries, its tar end */
	uint64_t ixk;               /* ... the entry the next member is */
	const char *name;           /* the archive, for messages */
	struct ae_tar_member m, stripped;
};

/* ---- what the writer reports ---- */

/* report's text: why with its arg quoted, then the errno's words. */
static void
reason(const struct ae_dw_report *r, char *out, size_t cap)
{
	char q[1024];
	int k;

	k = snprintf(out, cap, r->why != NULL ? r->why : "%s",
	    r->arg != NULL ? names_quote(r->arg, q, sizeof q) : "");
	if (k < 0 || (size_t)k >= cap || r->err == 0)
		return;
	if (r->err == ELOOP)
		snprintf(out + k, cap - (size_t)k, ": a component of the "
		    "path is a symbolic link");
	else if (r->err == ENOTDIR)
		snprintf(out + k, cap - (size_t)k, ": a component of the "
		    "path is not a directory");
	else
		snprintf(out + k, cap - (size_t)k, ": %s", strerror(r->err));
}

static void
on_report(void *ctx, const struct ae_dw_report *r)
{
	struct xrun *x = ctx;
	char q[1024], why[2048];

	switch (r->event) {
	case AE_DW_MEMBER:
		progress_member(r->name);
		if (x->o->run.verbose) {
			progress_hide();
			names_print(stdout, r->name);
			putchar('\n');
		}
		break;
	case AE_DW_SKIPPED:
		x->cur = LOST_SKIPPED;
		reason(r, why, sizeof why);
		msg_warn("%s: %s; not extracted", names_quote(r->name, q,
		    sizeof q), why);
		break;
	case AE_DW_KEPT:
		/* as asked: not a failure (GNU tar exits 0 too) */
		x->cur = LOST_SKIPPED;
		if (r->why != NULL)
			msg_warn("current %s is %s; not extracted",
			    names_quote(r->name, q, sizeof q), r->why);
		break;
	case AE_DW_WARNING:
		reason(r, why, sizeof why);
		msg_warn("%s: %s", names_quote(r->name, q, sizeof q), why);
		break;
	case AE_DW_ABSOLUTE:
		msg_warn("removing leading '/' from member names");
		break;
	case AE_DW_XATTRS_LEFT:
		if (r->why == NULL)
			msg_note("the archive has extended attributes or ACLs, "
			    "restored only with --xattrs and --acls");
		else
			msg_note("some extended attributes were not restored: "
			    "--xattrs restores user.* alone; name others with "
			    "--xattrs-include=PATTERN (security.capability "
			    "also needs -p)");
		break;
	case AE_DW_LOST:
		/* --salvage: it touched a lost chunk (its headers or its
		 * data, all of which have been read by now, so the decoder
		 * has reported every chunk they came from) */
		x->cur = LOST_NAMED;
		lost_name(&x->lost, r->m);
		break;
	case AE_DW_BROKEN:
		x->cur = LOST_NAMED;
		if (x->salvage != NULL)
			lost_done(&x->lost, r->m, LOST_NAMED);
		/* unpack_end says why the archive failed */
		if (r->err == AE_EINTR && atomic_load(&signals_stop))
			msg_error("%s: not extracted: interrupted",
			    names_quote(r->name, q, sizeof q));
		else
			msg_error("%s: not extracted: the archive ends or "
			    "fails inside it", names_quote(r->name, q,
			    sizeof q));
		break;
	case AE_DW_FAILED:
		x->cur = LOST_SKIPPED;
		msg_error("%s: %s", names_quote(r->name, q, sizeof q),
		    strerror(r->err));
		break;
	}
}

/* The writer's intact callback: a member that touched a lost chunk is
 * not whole. */
static int
is_intact(void *ctx, const struct ae_tar_member *m)
{
	struct xrun *x = ctx;
	uint64_t seq;

	return x->salvage == NULL || !salvage_overlaps(x->salvage, m->first,
	    m->end, &seq);
}

/* As GNU tar: root restores owners and exact modes unless told not to
 * (--no-same-owner, --no-same-permissions); anyone else gets -p only
 * when asking, and owners never.  Unlike GNU tar, root told either of
 * those makes no device node (as --no-devices): they are the recipe
 * for an archive not trusted, and a 0644 node for the system disk
 * would let every local user read it (issue 34).  A file capability, the power of a
 * setuid bit without the bit, still needs -p said and its name
 * (--xattrs-include): root's default does not bring it. */
static unsigned
writer_flags(const struct opts *o)
{
	int root = geteuid() == 0;

	return (o->old_files == OLD_KEEP ? AE_DW_KEEP_OLD : 0)
	    | (o->old_files == OLD_SKIP ? AE_DW_SKIP_OLD : 0)
	    | (o->old_files == OLD_KEEP_NEWER ? AE_DW_KEEP_NEWER : 0)
	    | (o->preserve > 0 || (o->preserve < 0 && root)
	    ? AE_DW_PERMS : 0)
	    | (root && o->same_owner != 0 ? AE_DW_OWNER : 0)
	    | (o->preserve > 0 ? AE_DW_CAPS : 0)
	    | (o->listed != NULL ? AE_DW_INCREMENTAL : 0)
	    | (o->no_overwrite_dir ? AE_DW_NO_OVERWRITE_DIR : 0)
	    | (o->no_devices || (root && (o->same_owner == 0
	    || o->preserve == 0)) ? AE_DW_NO_DEVICES : 0)
	    | (o->xattrs ? AE_DW_XATTRS : 0) | (o->acls ? AE_DW_ACLS : 0)
	    | (o->run.verbose ? AE_DW_NOTE_XATTRS : 0);
}

/* ---- -O ---- */

/*
 * -O writes a sparse member's holes as zeros: a 426-byte archive can
 * state a size of 2^62 bytes.  The most -O writes of one member is
 * --max-size, else 1,000 times the archive (when it is a regular file)
 * and at least 1 GiB.  0, or EXIT_LIMIT (reported).
 */
static int
stdout_limit(struct xrun *x, const struct ae_tar_member *m)
{
	uint64_t limit = x->o->max_size;
	char q[1024];

	if (limit == 0 && m->map == NULL)
		return EXIT_OK;     /* its data is all in the archive */
	if (limit == 0)
		limit = x->archive_size > (1ull << 30) / 1000 ?
		    (x->archive_size > UINT64_MAX / 1000 ? UINT64_MAX :
		    1000 * x->archive_size) : 1ull << 30;
	if (m->size <= limit)
		return EXIT_OK;
	msg_error("%s: %llu bytes (%llu of them in the archive) are over the "
	    "limit of %llu bytes that -O writes of one member",
	    names_quote(m->path, q, sizeof q), (unsigned long long)m->size,
	    (unsigned long long)m->stored, (unsigned long long)limit);
	msg_hint("%s", x->o->max_size != 0 ? "--max-size sets the limit" :
	    "the limit is 1,000 times the archive, at least 1 GiB; "
	    "--max-size sets another");
	return EXIT_LIMIT;
}

/*
 * -O: a regular member's data to standard output, as tar -xO writes it
 * (other members have no data and are passed over).  The data has
 * authenticated chunk by chunk before it gets here, as -d's has; if the
 * archive fails inside the member, what was written stays written, and
 * the exit status says the run failed.
 */
static void
member_to_stdout(struct xrun *x, struct ae_tar_reader *tr,
    const struct ae_tar_member *m)
{
	size_t got, used = 0;
	int err;

	if (x->o->run.verbose) {
		/* stdout carries the data */
		progress_hide();
		names_print(stderr, m->path);
		putc('\n', stderr);
	}
	if (m->type != '0' && m->type != '7')
		return;
	if ((x->fatal = stdout_limit(x, m)) != EXIT_OK)
		return;
	for (;;) {
		/* holes as zeros: stdout is a stream */
		err = ae_tar_read_data(tr, m, x->buf, DATA_BUF, &got, NULL);
		if (err != AE_OK || got == 0)
			break;
		if (got > used)
			used = got;
		if (atomic_load(&signals_stop)) {
			err = AE_EINTR;
			break;
		}
		if (ae_write_full(STDOUT_FILENO, x->buf, got) != 0) {
			ae_wipe(x->buf, used);
			x->fatal = msg_sys_error("standard output");
			return;
		}
	}
	ae_wipe(x->buf, used);
	if (err != AE_OK)
		x->fatal = exit_for(err);     /* unpack_end says why */
}

/* ---- the member loop ---- */

/* m with --strip-components applied to its name (and to a hard link's
 * target, which names a member too), in out; 0, or to pass it over: 1
 * if nothing is left of the name (silently, as GNU tar does), -1 for a
 * hard link whose target is stripped away (warned about). */
static int
strip_member(struct xrun *x, const struct ae_tar_member *m,
    struct ae_tar_member *out)
{
	const char *p = ae_path_strip_components(m->path, x->o->strip), *l;

	if (p == NULL)
		return 1;
	memcpy(out, m, sizeof *out);
	memmove(out->path, p, strlen(p) + 1);
	if (m->type == AE_TAR_HARDLINK) {
		l = ae_path_strip_components(m->linkpath, x->o->strip);
		if (l == NULL) {
			char q[1024];

			msg_warn("%s: --strip-components removes all of its "
			    "link target; not extracted", names_quote(m->path,
			    q, sizeof q));
			x->partial = 1;
			return -1;
		}
		memmove(out->linkpath, l, strlen(l) + 1);
	}
	return 0;
}

/* --salvage: m's outcome is how; 1. */
static int
passed(struct xrun *x, const struct ae_tar_member *m, enum lost_outcome how)
{
	if (x->salvage != NULL)
		lost_done(&x->lost, m, how);
	return 1;
}

/* Whether the loop passes m over, having said why. */
static int
pass_over(struct xrun *x, const struct ae_tar_member *m)
{
	char q[1024];

	if (m->warning != NULL)
		msg_warn("%s: %s", names_quote(m->path, q, sizeof q),
		    m->warning);
	if (m->unreadable != NULL) {
		msg_warn("%s: %s; not extracted", names_quote(m->path, q,
		    sizeof q), m->unreadable);
		x->partial = 1;
		return passed(x, m, LOST_SKIPPED);
	}
	if (m->type == 'V')         /* a volume label: nothing to make */
		return passed(x, m, LOST_WHOLE);
	if (x->dw != NULL && x->o->max_size != 0 && m->size > x->o->max_size) {
		msg_warn("%s: %llu bytes, over --max-size; not extracted",
		    names_quote(m->path, q, sizeof q),
		    (unsigned long long)m->size);
		x->partial = 1;
		return passed(x, m, LOST_SKIPPED);
	}
	return x->salvage != NULL && lost_pass_over(&x->lost, m);
}

/* Member m, just read from tr, as the options say: passed over, written
 * to standard output, or made on disk.  x->fatal is set when the run
 * must end. */
static void
extract_one(struct xrun *x, struct ae_tar_reader *tr, struct members *sel)
{
	const struct ae_tar_member *e = &x->m;
	int err;

	if (!members_select(sel, x->m.path) || pass_over(x, &x->m))
		return;
	if (x->o->strip > 0) {
		if ((err = strip_member(x, &x->m, &x->stripped)) != 0) {
			passed(x, &x->m, err > 0 ? LOST_LEFT : LOST_SKIPPED);
			return;
		}
		e = &x->stripped;
	}
	if (x->dw == NULL) {
		member_to_stdout(x, tr, e);
		return;
	}
	x->cur = 0;
	if ((err = ae_dw_member(x->dw, tr, e)) != AE_OK)
		x->fatal = exit_for(err);
	else if (x->cur != LOST_NAMED)
		passed(x, &x->m, x->cur != 0 ? x->cur : LOST_WHOLE);
}

/*
 * A full read of a file whose index -t lists from: member m must be
 * the index's next entry, header for header, ending where the next
 * entry starts, before a byte of it is written, so that -x (and -O)
 * never write a member that -t did not list (format 6.8).  1 if so;
 * else 0, reported as damage, and the run ends.
 */
static int
listed(struct xrun *x, const struct ae_tar_member *m)
{
	char q[1024];
	uint64_t k = x->ixk++, first = 0;
	const char *path = NULL;

	if (x->ix == NULL)
		return 1;
	if (k < x->ixn && aescrypt_reader_digest_same(x->ix, k, m))
		return 1;
	if (k < x->ixn) {
		(void)aescrypt_reader_digest_entry(x->ix, k, &first, &path);
		msg_error("%s: the archive's index does not match its payload: "
		    "entry %llu says '%s' at tar stream byte %llu, where the "
		    "payload has %s; nothing of it is written", x->name,
		    (unsigned long long)k,
		    names_quote(path != NULL ? path : "?", q, sizeof q),
		    (unsigned long long)first,
		    m->first == first ? "another member, or one "
		    "that ends elsewhere" : "a member the index does not list");
	} else {
		msg_error("%s: the archive's index does not match its payload: "
		    "the payload holds a member after the index's last entry "
		    "('%s', at tar stream byte %llu), which -t does not list; "
		    "nothing of it is written", x->name, names_quote(m->path,
		    q, sizeof q), (unsigned long long)m->first);
	}
	msg_hint("the archive was made so or altered by someone with its key; "
	    "what -t lists is not what it holds (--no-index lists what it "
	    "holds)");
	x->fatal = EXIT_DATA;
	return 0;
}

/*
 * An incremental archive (-c -g) read without -g: its dumpdirs say what
 * was deleted since the last level, and without -g nothing is removed,
 * as GNU tar does.  Said once, at the first dumpdir, unless the archive
 * says it is level 0 (a full dump: nothing was deleted since).
 */
static void
note_incremental(struct xrun *x, const struct ae_tar_reader *tr)
{
	/* -x -g of one dump above level 0: what changed at this level
	 * alone (GNU tar restores a chain one level a run, so this may be
	 * one of a series; then it is right, and the warning says so) */
	if (!x->noted_incremental && x->o->listed != NULL
	    && x->o->narchives <= 1 && tr->global.present
	    && tr->global.level > 0) {
		x->noted_incremental = 1;
		msg_warn("%s is level %d of a chain: alone it holds what "
		    "changed since level %d; restore levels 0 to %d first "
		    "(or all in one run: -f L0 -f L1 ...)", x->name,
		    tr->global.level, tr->global.level - 1,
		    tr->global.level - 1);
		return;
	}
	if (x->noted_incremental || x->m.dumpdir == NULL
	    || x->o->listed != NULL || x->o->to_stdout
	    || (tr->global.present && tr->global.level == 0))
		return;
	x->noted_incremental = 1;
	if (tr->global.present && tr->global.level > 0)
		msg_note("%s is a level %d incremental archive: files deleted "
		    "since the level before it are kept without -g; extract "
		    "with -g /dev/null to remove them", x->name,
		    tr->global.level);
	else
		msg_note("%s is an incremental archive: files deleted since "
		    "the level before it are kept without -g; extract with "
		    "-g /dev/null to remove them", x->name);
}

/*
 * Extract the members of tr that sel selects, until the end of the
 * archive, a tar error, or a fatal error (x->fatal, already reported).
 * Returns the last ae_tar_next result (1 at the end marker, or its error
 * with d).
 */
static int
extract_members(struct xrun *x, struct ae_tar_reader *tr,
    struct members *sel, struct ae_diag *d)
{
	int next = 1;

	while (x->fatal == 0 && (next = ae_tar_next(tr, &x->m, d)) == AE_OK)
		if (listed(x, &x->m)) {
			note_incremental(x, tr);
			extract_one(x, tr, sel);
		}
	/* the index listed more than the payload holds */
	if (next == 1 && x->fatal == 0 && x->ix != NULL
	    && x->ixk != x->ixn) {
		msg_error("%s: the archive's index does not match its payload: "
		    "it lists %llu members, the payload holds %llu", x->name,
		    (unsigned long long)x->ixn, (unsigned long long)x->ixk);
		x->fatal = EXIT_DATA;
	} else if (next == 1 && x->fatal == 0 && x->ix != NULL
	    && !tr->no_end_marker && tr->end_at != x->ix_tar_end) {
		msg_error("%s: the archive's index does not match its payload: "
		    "the tar stream ends at byte %llu, not %llu", x->name,
		    (unsigned long long)tr->end_at,
		    (unsigned long long)x->ix_tar_end);
		x->fatal = EXIT_DATA;
	}
	return next;
}

/*
 * The members of one range found through the index, each checked first
 * against the entry that named it (indexed_check): a member the index
 * made up inside another's data, or that hides one after it, is not
 * extracted.  Returns 1 when all went so; INDEXED_MISMATCH (warned);
 * or the tar reader's error with d.
 */
static int
extract_range(struct xrun *x, struct ae_tar_reader *tr,
    const struct ixview *ix, const struct unpack_range *r,
    struct members *sel, const char *name, struct ae_diag *d)
{
	size_t k;
	int next;

	for (k = r->m0; k < r->m1 && x->fatal == 0; k++) {
		if ((next = ae_tar_next(tr, &x->m, d)) < 0)
			return next;
		if (next != AE_OK || !indexed_check(ix, k, &x->m)) {
			indexed_refuse(name, ix, k, next != AE_OK ? "the "
			    "archive ends" : "another member, or one that does "
			    "not end where the next one starts,");
			return INDEXED_MISMATCH;
		}
		extract_one(x, tr, sel);
	}
	return 1;
}

/* Set up a run into the directory open as root.  0, or EXIT_SYSTEM
 * (reported). */
static int
xrun_open(struct xrun *x, const struct opts *o, int root)
{
	struct ae_dw_params p;
	mode_t um = umask(0);

	umask(um);
	memset(&p, 0, sizeof p);
	p.root = root;
	p.flags = writer_flags(o);
	p.umask = um;
	x->xf.include = o->xattrs_include;
	x->xf.ninclude = o->nxattrs_include;
	x->xf.exclude = o->xattrs_exclude;
	x->xf.nexclude = o->nxattrs_exclude;
	p.xattrs = &x->xf;
	p.stop = &signals_stop;
	p.report = on_report;
	p.intact = is_intact;
	p.ctx = x;
	p.chain = o->dw_chain;
	x->o = o;
	if (o->to_stdout) {
		if ((x->buf = malloc(DATA_BUF)) != NULL) {
			ae_nodump(x->buf, DATA_BUF);    /* plaintext */
			return EXIT_OK;
		}
	} else if (ae_dw_open(&p, &x->dw) == AE_OK) {
		return EXIT_OK;
	}
	msg_error("out of memory");
	return EXIT_SYSTEM;
}

/* Directory modes and times (which may warn), and free what the run
 * holds.  Once is enough; a second call does nothing. */
static void
xrun_close(struct xrun *x)
{
	if (x->dw != NULL) {
		x->partial |= ae_dw_partial(x->dw);
		ae_dw_close(x->dw);
		x->dw = NULL;
	}
	free(x->buf);
	x->buf = NULL;
}

/* The header of the member before each range, checked against the
 * index: it must end where the range's first member starts, or the
 * index could make a member up inside another one's data.  0,
 * INDEXED_MISMATCH (warned), or an exit status (reported). */
static int
check_before(struct unpack *u, const struct ixview *ix,
    const struct unpack_range *v, size_t n)
{
	unsigned char *which = calloc(ix->members + 1, 1);
	size_t i;
	int st, any = 0;

	if (which == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	for (i = 0; i < n; i++)
		if (v[i].m0 > 0)
			which[v[i].m0 - 1] = any = 1;
	st = any ? indexed_verify_members(u, ix, which) : EXIT_OK;
	free(which);
	return st;
}

/*
 * -x of selected members through the index: each run of records that
 * holds selected members is decoded on its own (the pipeline's threads
 * work within a run), its members read and checked against the index,
 * after the header of the member before each run was checked too.
 * Returns the exit status, or INDEXED_MISMATCH (warned: u is left open
 * for a full read).
 */
static int
extract_indexed(struct xrun *x, struct unpack *u,
    const struct ixview *ix, struct members *sel)
{
	struct unpack_range *v;
	struct ae_tar_reader tr;
	struct ae_diag d = { 0 };
	size_t n, i;
	int st = EXIT_OK, next;

	if (indexed_ranges(ix, sel, u->info.chunk_log2, &v, &n) != 0) {
		msg_error("out of memory");
		unpack_close(u);
		return EXIT_SYSTEM;
	}
	/* the member before each range must end where the range starts */
	if ((st = check_before(u, ix, v, n)) != EXIT_OK) {
		free(v);
		if (st != INDEXED_MISMATCH)
			unpack_close(u);
		return st;
	}
	for (i = 0; i < n && st == EXIT_OK && !x->fatal; i++) {
		if ((st = unpack_start(u, &v[i])) != EXIT_OK)
			break;      /* (it closed u) */
		if (ae_tar_reader_init(&tr, &u->tar_in) != AE_OK) {
			msg_error("out of memory");
			st = unpack_end(u, 1, &d, EXIT_SYSTEM);
			break;
		}
		/* offsets in the whole tar stream, as the index gives them */
		tr.offset = (v[i].first << u->info.chunk_log2) + v[i].skip;
		next = extract_range(x, &tr, ix, &v[i], sel, u->io.in.name, &d);
		ae_tar_reader_free(&tr);
		if (next == INDEXED_MISMATCH) {
			/* (the range is drained, u stays open) */
			(void)unpack_end_run(u, 1, &d, EXIT_OK, 0);
			free(v);
			return INDEXED_MISMATCH;
		}
		st = unpack_end_run(u, next, &d, x->fatal, i + 1 == n);
		if (i + 1 < n && st != EXIT_OK)
			unpack_close(u);
	}
	if (n == 0)
		unpack_close(u);
	free(v);
	return st;
}

/* The whole archive in order, into x.  Returns the exit status; u is
 * closed. */
static int
extract_all(struct xrun *x, struct unpack *u, const struct opts *o,
    struct members *sel)
{
	struct ae_tar_reader tr;
	struct ae_diag d = { 0 };
	int st, next;

	if ((st = unpack_start(u, NULL)) != EXIT_OK)
		return st;
	if (o->run.salvage) {
		x->salvage = &u->salvage;
		if (lost_init(&x->lost, &u->salvage, u->salvage_ix, 0) != 0) {
			msg_error("out of memory");
			return unpack_end(u, 1, &d, EXIT_SYSTEM);
		}
		x->lost.verbose = o->run.verbose;
	}
	if (ae_tar_reader_init(&tr, &u->tar_in) != AE_OK) {
		msg_error("out of memory");
		return unpack_end(u, 1, &d, EXIT_SYSTEM);
	}
	if (o->run.salvage) {
		tr.gap = salvage_gap;
		tr.gap_ctx = &u->salvage;
		if (u->salvage_ix != NULL) {
			/* a lost chunk is stepped over to the next member the
			 * index names: no header is ever looked for */
			tr.resync = lost_resync;
			tr.resync_ctx = (void *)u->salvage_ix;
		}
	}
	unpack_watch(u, &tr);
	next = extract_members(x, &tr, sel, &d);
	if (next == 1 && tr.no_end_marker)
		msg_warn("%s: the tar stream has no end-of-archive blocks (as "
		    "older tars wrote it); the container authenticated its "
		    "end", u->io.in.name);
	st = unpack_end(u, next, &d, x->fatal);
	xrun_close(x);          /* directory modes and times may warn */
	if (fflush(stdout) != 0 && st == EXIT_OK)
		st = msg_sys_error("standard output");
	if (o->run.salvage && (salvage_damaged(&u->salvage)
	    || unpack_cut(u))) {
		lost_summary(&x->lost, sel, tr.lost_end, unpack_cut(u) ?
		    u->rs.pipe.plain_bytes : UINT64_MAX);
		if (st == EXIT_OK || st == EXIT_PARTIAL)
			st = EXIT_DATA;
	}
	st = run_reader_copy_used(&u->io, u->from_copy, st);

	ae_tar_reader_free(&tr);
	return st;
}

/* The -C directory, open.  The descriptor, or -1 with *st set. */
static int
open_root(const struct opts *o, int *st)
{
	const char *dir = o->directory != NULL ? o->directory : ".";
	int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;

	if (root >= 0)
		return root;
	e = errno;
	msg_error("%s: %s", dir, strerror(e));
	if (o->directory != NULL)
		msg_hint("-C needs an existing directory");
	*st = e == ENOENT || e == ENOTDIR ? EXIT_USAGE : EXIT_SYSTEM;
	return -1;
}

/* -x's work once the archive is open and unlocked: through the index
 * for some members of a file that has one, else in full. */
static int
extract_open(struct xrun *x, struct unpack *u, const struct opts *o,
    struct members *sel)
{
	struct ixview ix;
	int st, have_dx = 0;

	/* Some members only, from a file with an index: only their
	 * records are read.  (All of them: reading in order is faster.) */
	if (!o->run.salvage && sel->pats.n > 0 && indexed_load(u, &ix)) {
		st = extract_indexed(x, u, &ix, sel);
		if (st != INDEXED_MISMATCH)
			return st;
		/* (from the index the reader holds) */
		have_dx = aescrypt_reader_digests(u->r) == AESCRYPT_OK;
	} else if (!o->run.salvage) {
		/* all of it: the index is held as digests, not whole */
		have_dx = indexed_load_digests(u);
	}
	/* A full read of a file whose index -t lists from writes only what
	 * it lists, each member checked against its entry first (after a
	 * mismatch above too: the first difference ends the run). */
	if (have_dx && aescrypt_reader_digest_figures(u->r, &x->ixn,
	    &x->ix_tar_end) == AESCRYPT_OK) {
		x->ix = u->r;
		x->ixk = 0;
		/* (so unpack need not keep a second copy to compare after) */
		u->caller_checks_index = 1;
	}
	/* --salvage: the index's record offsets step over damaged frames */
	if (o->run.salvage && indexed_load(u, &ix))
		u->salvage_ix = &ix;
	x->name = u->io.in.name;
	st = extract_all(x, u, o, sel);
	u->salvage_ix = NULL;
	x->ix = NULL;
	return st;
}

int
extract_chain_new(struct ae_dw_chain **c)
{
	if (ae_dw_chain_new(c) == AE_OK)
		return EXIT_OK;
	msg_error("out of memory");
	return EXIT_SYSTEM;
}

void
extract_chain_free(struct ae_dw_chain *c)
{
	ae_dw_chain_free(c);
}

int
cmd_extract(const struct opts *o)
{
	struct unpack *u = NULL;
	struct xrun *x = NULL;
	struct members sel;
	int st = EXIT_OK, root;

	if (o->same_owner > 0 && geteuid() != 0)
		msg_warn("--same-owner needs root; owners are not restored");
	if ((root = open_root(o, &st)) < 0)
		return st;
	if ((st = members_init(&sel, &o->sel)) != EXIT_OK) {
		close(root);
		return st;
	}
	if ((x = calloc(1, sizeof *x)) == NULL
	    || (u = unpack_new()) == NULL) {
		msg_error("out of memory");
		st = EXIT_SYSTEM;
		goto out;
	}
	if ((st = xrun_open(x, o, root)) != EXIT_OK)
		goto out;
	if ((st = unpack_open_keys(u, &o->keys, &o->run,
	    o->archive)) != EXIT_OK)
		goto out;
	{
		struct stat sb;

		if (fstat(u->io.in.fd, &sb) == 0 && S_ISREG(sb.st_mode))
			x->archive_size = (uint64_t)sb.st_size;
	}
	st = extract_open(x, u, o, &sel);
	xrun_close(x);
	/* Only a whole archive can say a member is not in it. */
	if (st == EXIT_OK && members_report_missing(&sel, &o->sel) > 0)
		st = EXIT_PARTIAL;
	if (st == EXIT_OK && x->partial) {
		msg_warn("some members were not extracted as they were; see "
		    "the warnings above");
		st = EXIT_PARTIAL;
	}
out:
	if (x != NULL) {
		xrun_close(x);
		lost_free(&x->lost);
	}
	if (u != NULL && o->run.salvage)
		salvage_free(&u->salvage);
	unpack_free(u);
	free(x);
	members_free(&sel);
	close(root);
	return st;
}
