/*
 * list.c -- aescrypt -t (contract in list.h): the members of an
 * archive, one per line, as GNU tar's -t prints them (names quoted the
 * same way, so the output equals `aescrypt -d | tar -t`); with -v, tar
 * -tv's ls -l style.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/wipe.h"
#include "exitcode.h"
#include "indexed.h"
#include "lost.h"
#include "list.h"
#include "members.h"
#include "msg.h"
#include "words.h"
#include "names.h"
#include "progress.h"
#include "unpack.h"

/* "drwxr-xr-x", as tar -tv writes it ('h' for a hard link). */
static void
mode_string(const struct ae_tar_member *m, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	switch (m->type) {
	case '1': out[0] = 'h'; break;
	case '2': out[0] = 'l'; break;
	case '3': out[0] = 'c'; break;
	case '4': out[0] = 'b'; break;
	case '5': out[0] = 'd'; break;
	case '6': out[0] = 'p'; break;
	case 'V': out[0] = 'V'; break;
	default:  out[0] = '-'; break;
	}
	for (i = 0; i < 9; i++)
		out[1 + i] = (m->mode & (0400u >> i)) ? rwx[i] : '-';
	if (m->mode & 04000)
		out[3] = (m->mode & 0100) ? 's' : 'S';
	if (m->mode & 02000)
		out[6] = (m->mode & 010) ? 's' : 'S';
	if (m->mode & 01000)
		out[9] = (m->mode & 01) ? 't' : 'T';
	out[10] = '\0';
}

/* The name as tar -t shows it; -tv marks a volume label, as GNU tar
 * and bsdtar do. */
static void
print_name(FILE *fp, const struct ae_tar_member *m, int verbose)
{
	names_print(fp, m->path);
	if (m->type == 'V' && verbose)
		fputs("--Volume Header--", fp);
}

/* -t of several archives (-f A -f B): the archive each line is from,
 * as grep -H names the file of each match. */
static const char *list_archive;

static void
print_archive(FILE *fp)
{
	if (list_archive != NULL) {
		names_print(fp, list_archive);
		fputs(": ", fp);
	}
}

/* One -tv line.  *ugswidth is the width of "user/group size", which
 * grows as tar's does, so columns line up the same way. */
static void
print_verbose(FILE *fp, const struct ae_tar_member *m, size_t *ugswidth)
{
	char modes[11], user[32], group[32], size[32], when[64];
	const char *u = m->uname, *g = m->gname;
	time_t t = (time_t)m->mtime;
	struct tm tm;
	size_t pad;

	mode_string(m, modes);
	if (*u == '\0') {
		snprintf(user, sizeof user, "%" PRIu64, m->uid);
		u = user;
	}
	if (*g == '\0') {
		snprintf(group, sizeof group, "%" PRIu64, m->gid);
		g = group;
	}
	if (m->type == '3' || m->type == '4')
		/* as tar -tv: a device's numbers where the size goes */
		snprintf(size, sizeof size, "%" PRIu32 ",%" PRIu32,
		    m->devmajor, m->devminor);
	else
		snprintf(size, sizeof size, "%" PRIu64, m->size);
	if (localtime_r(&t, &tm) == NULL
	    || strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(when, sizeof when, "%lld", (long long)m->mtime);
	pad = strlen(u) + 1 + strlen(g) + 1 + strlen(size);
	if (pad > *ugswidth)
		*ugswidth = pad;
	fprintf(fp, "%s %s/%s %*s %s ", modes, u, g,
	    (int)(*ugswidth - pad + strlen(size)), size, when);
	print_name(fp, m, 1);
	if (m->type == '2') {
		fputs(" -> ", fp);
		names_print(fp, m->linkpath);
	} else if (m->type == '1') {
		fputs(" link to ", fp);
		names_print(fp, m->linkpath);
	}
	fputc('\n', fp);
}

/* One member's line, -t's or -tv's.  Plain -t lists no volume label,
 * as bsdtar does not (it names no file); -tv shows it, marked, as both
 * GNU tar and bsdtar do. */
static void
print_member(FILE *fp, const struct ae_tar_member *m, int verbose,
    size_t *ugswidth)
{
	if (!verbose && m->type == 'V')
		return;
	print_archive(fp);
	if (verbose)
		print_verbose(fp, m, ugswidth);
	else {
		print_name(fp, m, 0);
		putc('\n', fp);
	}
}

void
list_entry(FILE *fp, const struct ae_tar_entry *e, size_t *ugswidth,
    struct ae_tar_member *m)
{
	m->path[0] = m->linkpath[0] = '\0';
	memset(&m->type, 0, sizeof *m - offsetof(struct ae_tar_member, type));
	snprintf(m->path, sizeof m->path, "%s", e->path);
	if (e->linkpath != NULL)
		snprintf(m->linkpath, sizeof m->linkpath, "%s", e->linkpath);
	snprintf(m->uname, sizeof m->uname, "%s", e->uname ? e->uname : "");
	snprintf(m->gname, sizeof m->gname, "%s", e->gname ? e->gname : "");
	m->type = e->type;
	m->mode = e->mode;
	m->uid = e->uid;
	m->gid = e->gid;
	m->size = e->map != NULL ? e->real_size :
	    e->type == AE_TAR_REG ? e->size : 0;
	m->mtime = e->mtime;
	m->mtime_nsec = e->mtime_nsec;
	m->devmajor = e->devmajor;
	m->devminor = e->devminor;
	print_verbose(fp, m, ugswidth);
}

/* -tvv -g: a directory's dumpdir, an entry a line ("Y name"), then an
 * empty line, as GNU tar lists it. */
static void
print_dumpdir(FILE *fp, const struct ae_tar_member *m)
{
	size_t i = 0, n = m->dumpdir_len;

	while (i < n && m->dumpdir[i] != 0) {
		const char *e = (const char *)m->dumpdir + i;
		size_t el = strnlen(e, n - i);

		if (el == n - i)
			break;
		fprintf(fp, "%c ", e[0]);
		names_print(fp, e + 1);
		putc('\n', fp);
		i += el + 1;
	}
	putc('\n', fp);
}

int
list_members(FILE *fp, int verbose, struct ae_tar_reader *tr,
    struct members *sel, struct ae_diag *d, int *partial, uint64_t *count)
{
	struct ae_tar_member m;
	size_t ugswidth = 19;
	char q[1024];
	int r;

	while ((r = ae_tar_next(tr, &m, d)) == AE_OK) {
		if (!members_select(sel, m.path))
			continue;
		if (count != NULL)
			(*count)++;
		if (m.warning != NULL)
			msg_warn("%s: %s", names_quote(m.path, q, sizeof q),
			    m.warning);
		if (m.unreadable != NULL) {
			msg_warn("%s: %s; it cannot be extracted",
			    names_quote(m.path, q, sizeof q), m.unreadable);
			*partial = 1;
		}
		if (fp == NULL)
			continue;
		progress_hide();
		print_member(fp, &m, verbose, &ugswidth);
		if (verbose >= 3 && m.dumpdir != NULL)
			print_dumpdir(fp, &m);
		if (ferror(fp))
			break;
	}
	return r;
}

/* -t from the index alone: the payload is not read. */
static int
list_index(FILE *fp, int verbose, const struct ixview *ix,
    struct members *sel)
{
	struct aescrypt_index_entry ie;
	struct ae_tar_member m;
	size_t ugswidth = 19, i;

	for (i = 0; i < ix->members; i++) {
		if (!indexed_entry(ix, i, &ie)
		    || !members_select(sel, ie.e.path))
			continue;
		indexed_member(&ie, &m);
		print_member(fp, &m, verbose, &ugswidth);
		if (ferror(fp))
			break;
	}
	if (fflush(fp) != 0 || ferror(fp))
		return msg_sys_error("standard output");
	return EXIT_OK;
}

/*
 * -t --salvage: the members that survive, each listed once its data has
 * been read through (only then has the decoder said whether a chunk it
 * lay in was lost); the others named, as -x --salvage names them.  fp
 * NULL (--test): nothing listed.  *count counts the members read whole.
 */
static int
list_salvaged(FILE *fp, int verbose, struct ae_tar_reader *tr,
    struct members *sel, struct lost *l, struct ae_diag *d, uint64_t *count)
{
	static const size_t BUF = 65536;
	struct ae_tar_member *m = malloc(sizeof *m);
	uint8_t *buf = malloc(BUF);
	size_t ugswidth = 19, got;
	uint64_t seq;
	int next = AE_ENOMEM, err = AE_OK;

	while (m != NULL && buf != NULL
	    && (next = ae_tar_next(tr, m, d)) == AE_OK) {
		if (!members_select(sel, m->path) || lost_pass_over(l, m))
			continue;
		do
			err = ae_tar_read_data(tr, m, buf, BUF, &got, NULL);
		while (err == AE_OK && got > 0);
		if (err != AE_OK) {
			next = err;
			break;
		}
		if (salvage_overlaps(l->sv, m->first, m->end, &seq)) {
			lost_name(l, m);
			continue;
		}
		lost_done(l, m, LOST_WHOLE);
		(*count)++;
		if (fp == NULL)
			continue;       /* --test --salvage: the summary only */
		progress_hide();
		print_member(fp, m, verbose, &ugswidth);
		if (ferror(fp))
			break;
	}
	if (buf != NULL)
		ae_wipe(buf, BUF);
	free(buf);
	free(m);
	return next;
}

/* -t from the index; the exit status.  u stays open. */
static int
list_indexed(struct unpack *u, const struct opts *o,
    const struct ixview *ix, struct members *sel)
{
	int st = list_index(stdout, o->run.verbose, ix, sel);
	const struct ae_pipe_stats *ps = aescrypt_reader_index_stats(u->r);

	if (st == EXIT_OK) {
		/* what was read: the header and the index */
		if (ps != NULL)
			u->rs.pipe = *ps;
		u->rs.archive = 1;
		u->io.wr.bytes = 0;
		run_finish_stats(&o->run, &u->rs, u->w0,
		    aescrypt_reader_tier(u->r), &u->io);
	}
	return st;
}

/* -t (or --test) reading the whole payload; the exit status. */
static int
list_all(struct unpack *u, const struct opts *o, struct members *sel,
    int *partial, uint64_t *count)
{
	struct ae_tar_reader tr;
	struct ae_diag d = { 0 };
	int st = EXIT_OK, next;

	if ((st = unpack_start(u, NULL)) != EXIT_OK)
		return st;
	if (ae_tar_reader_init(&tr, &u->tar_in) != AE_OK) {
		msg_error("out of memory");
		return unpack_end(u, 1, &d, EXIT_SYSTEM);
	}
	if (o->run.test && u->info.kind != AESCRYPT_ARCHIVE) {
		/* --test of a stream: unpack_end reads and authenticates
		 * the rest. */
		ae_tar_reader_free(&tr);
		return unpack_end(u, 1, &d, EXIT_OK);
	}
	unpack_watch(u, &tr);
	if (o->run.salvage) {
		struct lost l;

		tr.gap = salvage_gap;
		tr.gap_ctx = &u->salvage;
		if (u->salvage_ix != NULL) {
			tr.resync = lost_resync;
			tr.resync_ctx = (void *)u->salvage_ix;
		}
		if (lost_init(&l, &u->salvage, u->salvage_ix, 1) != 0) {
			ae_tar_reader_free(&tr);
			msg_error("out of memory");
			return unpack_end(u, 1, &d, EXIT_SYSTEM);
		}
		l.verbose = o->run.verbose;
		next = list_salvaged(o->run.test ? NULL : stdout,
		    o->run.verbose, &tr, sel, &l, &d, count);
		if (fflush(stdout) != 0 || ferror(stdout))
			st = msg_sys_error("standard output");
		st = unpack_end(u, next, &d, st);
		if (salvage_damaged(&u->salvage) || unpack_cut(u)) {
			lost_summary(&l, sel, tr.lost_end, unpack_cut(u) ?
			    u->rs.pipe.plain_bytes : UINT64_MAX);
			if (st == EXIT_OK || st == EXIT_PARTIAL)
				st = EXIT_DATA;
		}
		st = run_reader_copy_used(&u->io, u->from_copy, st);
		lost_free(&l);
		ae_tar_reader_free(&tr);
		return st;
	}
	/* -tvv -g: the dumpdirs too (verbose 3) */
	next = list_members(o->run.test ? NULL : stdout, o->run.verbose >= 2
	    && o->listed != NULL ? 3 : o->run.verbose, &tr, sel, &d, partial,
	    count);
	if (next == 1 && tr.no_end_marker)
		msg_warn("%s: the tar stream has no end-of-archive blocks (as "
		    "older tars wrote it); the container authenticated its "
		    "end", u->io.in.name);
	if (!o->run.test && (fflush(stdout) != 0 || ferror(stdout)))
		st = msg_sys_error("standard output");
	ae_tar_reader_free(&tr);
	return unpack_end(u, next, &d, st);
}

/* --test -v: one verdict line, as gzip -tv and 7z t give. */
static void
verdict(const struct unpack *u, uint64_t members)
{
	char n[32], size[32], chunks[32];

	bytes_words(u->rs.pipe.plain_bytes, size, sizeof size);
	count_words(u->rs.pipe.records, chunks, sizeof chunks);
	if (u->info.kind == AESCRYPT_ARCHIVE) {
		count_words(members, n, sizeof n);
		printf("%s: OK, %s member%s, %s, %s chunk%s, %s\n",
		    u->io.in.name, n, members == 1 ? "" : "s", size, chunks,
		    u->rs.pipe.records == 1 ? "" : "s",
		    !u->info.indexed ? "no index"
		    : !u->check_index ? "index not compared (--salvage)"
		    : u->index_not_held ? "index not compared (too "
		    "large to hold)" :
		    "index OK (every entry matches the member read)");
	} else {
		printf("%s: OK, a stream of %s, %s chunk%s\n", u->io.in.name,
		    size, chunks, u->rs.pipe.records == 1 ? "" : "s");
	}
}

int
cmd_list(const struct opts *o)
{
	struct unpack *u;
	struct members sel;
	struct ixview ix;
	uint64_t count = 0;
	int st, partial = 0;

	if ((st = members_init(&sel, &o->sel)) != EXIT_OK)
		return st;
	list_archive = o->sel.found != NULL && !o->run.test ? o->archive : NULL;
	if ((u = unpack_new()) == NULL) {
		msg_error("out of memory");
		members_free(&sel);
		return EXIT_SYSTEM;
	}
	if ((st = unpack_open_keys(u, &o->keys, &o->run,
	    o->archive)) != EXIT_OK) {
		if (st == UNPACK_DONE)
			st = EXIT_OK;   /* an AES Crypt file, tested */
		goto out;
	}
	if (o->run.salvage) {
		/* in full; the index, on a regular file, names what is lost
		 * and steps over damaged frames (as for -x) */
		if (indexed_load(u, &ix))
			u->salvage_ix = &ix;
		st = list_all(u, o, &sel, &partial, &count);
		u->salvage_ix = NULL;
	} else if (!(o->run.verbose >= 2 && o->listed != NULL)
	    && indexed_load(u, &ix)) {
		/* (-tvv -g lists dumpdirs, which the index does not hold: the
		 * archive is read in full) */
		/* the index is used once every header it names is checked */
		if ((st = indexed_verify(u, &ix)) == EXIT_OK)
			st = list_indexed(u, o, &ix, &sel);
		if (st == INDEXED_MISMATCH)
			st = list_all(u, o, &sel, &partial, &count);
	} else {
		st = list_all(u, o, &sel, &partial, &count);
	}
	if (st == EXIT_OK && members_report_missing(&sel, &o->sel) > 0)
		st = EXIT_PARTIAL;
	if (st == EXIT_OK && partial)
		st = EXIT_PARTIAL;
	if (st == EXIT_OK && o->run.test && o->run.verbose) {
		verdict(u, count);
		if (fflush(stdout) != 0 || ferror(stdout))
			st = msg_sys_error("standard output");
	}
out:
	if (u != NULL && o->run.salvage)
		salvage_free(&u->salvage);
	unpack_free(u);
	members_free(&sel);
	return st;
}
