/*
 * chain.c -- several dumps checked as one chain (contract in chain.h).
 */
#include "config.h"
#include "chain.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/wipe.h"
#include "exitcode.h"
#include "indexed.h"
#include "msg.h"
#include "names.h"
#include "unpack.h"
#include "words.h"

/* What one archive's global header says (level -1: no dump; known 0:
 * nothing could be read of it). */
struct link {
	int known;
	struct ae_tar_global g;
};

/*
 * The global header of archive path: from its first record, through the
 * index if it has one, else from the start of a run stopped after the
 * first member.  Silent: 1 with l set (known or not), or 0 if the
 * archive could not be opened (a wrong key, damage, not a container),
 * which the run meets again and says.
 */
static int
read_link(const struct opts *o, const char *path, struct link *l)
{
	struct run_prefs p = o->run;
	struct unpack *u = unpack_new();
	struct ae_tar_member *m = NULL;
	struct ae_tar_reader tr;
	struct ae_diag d = { 0 };
	struct ixview ix;
	int next, opened;

	memset(l, 0, sizeof *l);
	if (u == NULL)
		return 0;
	/* a look at the first record: no progress line, no stats */
	p.stats = 0;
	p.progress = 0;
	p.totals = 0;
	p.verbose = 0;
	p.test = 0;
	msg_mute(1);
	opened = unpack_open_keys(u, &o->keys, &p, path) == EXIT_OK;
	if (!opened || u->info.kind != AESCRYPT_ARCHIVE)
		goto out;
	if (indexed_load(u, &ix)) {
		l->known = indexed_global(u, &ix, &l->g) == EXIT_OK;
		goto out;
	}
	if (unpack_start(u, NULL) != EXIT_OK) {
		opened = 0;
		goto out;
	}
	if ((m = malloc(sizeof *m)) == NULL
	    || ae_tar_reader_init(&tr, &u->tar_in) != AE_OK) {
		free(m);
		(void)unpack_end(u, AE_OK, &d, EXIT_SYSTEM);
		goto out;
	}
	/* the global header is read on the way to the first member */
	next = ae_tar_next(&tr, m, &d);
	if (next == AE_OK || next == 1) {
		l->g = tr.global;
		l->known = 1;
	}
	ae_tar_reader_free(&tr);
	ae_wipe(m, sizeof *m);
	free(m);
	/* stopped here on purpose (EXIT_PARTIAL says so) */
	(void)unpack_end(u, next, &d, EXIT_PARTIAL);
out:
	msg_mute(0);
	unpack_free(u);
	return opened;
}

static int
same_time(int64_t a, uint32_t an, int64_t b, uint32_t bn)
{
	return a == b && an == bn;
}

/* The archive, of those given, begun when l continues from; n if none. */
static size_t
continued(const struct link *links, size_t n, const struct link *l)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (same_time(links[k].g.created, links[k].g.created_nsec,
		    l->g.cont, l->g.cont_nsec))
			return k;
	return n;
}

/* Whether archive i breaks the chain after dump p (SIZE_MAX: none
 * before it); said if so. */
static int
broken(const struct opts *o, const struct link *links, size_t i, size_t p)
{
	const struct link *l = &links[i];
	char qa[1024], qb[1024], qk[1024], when[64];
	size_t k;

	names_quote(o->archives[i], qa, sizeof qa);
	if (p == SIZE_MAX) {
		if (l->g.level == 0)
			return 0;
		time_words(l->g.cont, when, sizeof when);
		msg_error("%s is level %d, made after a dump begun %s, and "
		    "no full dump (level 0) comes before it: a chain starts "
		    "with its level 0", qa, l->g.level, when);
		return 1;
	}
	names_quote(o->archives[p], qb, sizeof qb);
	if (l->g.level == 0) {
		msg_error("%s is a full dump (level 0) after %s: two chains "
		    "are mixed", qa, qb);
		return 1;
	}
	if (same_time(l->g.cont, l->g.cont_nsec, links[p].g.created,
	    links[p].g.created_nsec) && l->g.level == links[p].g.level + 1)
		return 0;
	time_words(l->g.cont, when, sizeof when);
	k = continued(links, o->narchives, l);
	if (k != o->narchives && k > i)
		msg_error("%s (level %d) continues %s, which is given after "
		    "it: the archives are out of order", qa, l->g.level,
		    names_quote(o->archives[k], qk, sizeof qk));
	else if (k != o->narchives && k != p)
		msg_error("%s (level %d) continues %s, not %s given just "
		    "before it: both were made from the same level", qa,
		    l->g.level, names_quote(o->archives[k], qk, sizeof qk), qb);
	else if (k == p)
		msg_error("%s is level %d, after %s's level %d", qa,
		    l->g.level, qb, links[p].g.level);
	else
		msg_error("%s (level %d) was made after a dump begun %s that "
		    "none of the archives given is: a level is missing, or "
		    "it is of another chain", qa, l->g.level, when);
	return 1;
}

int
chain_check(const struct opts *o)
{
	struct link *links;
	struct stat sb;
	size_t i, p = SIZE_MAX, dumps = 0, plain = SIZE_MAX;
	int bad = 0;
	char q[1024];

	/* -t without -g searches: which nights hold a file, across weeks */
	if (o->narchives < 2 || o->no_chain_check
	    || (o->run.mode == 't' && o->listed == NULL))
		return EXIT_OK;
	for (i = 0; i < o->narchives; i++)
		if (strcmp(o->archives[i], "-") == 0
		    || stat(o->archives[i], &sb) != 0 || !S_ISREG(sb.st_mode))
			return EXIT_OK;     /* a pipe, or what the run reports */
	if ((links = calloc(o->narchives, sizeof *links)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	/* Every archive must say what it is, or nothing can be said of
	 * the chain: one that cannot be opened (the run stops there and
	 * says why), or one that records no level (made before 0.3, a
	 * stream, an age file), could be the level another continues. */
	for (i = 0; i < o->narchives; i++) {
		if (!read_link(o, o->archives[i], &links[i]) || !links[i].known
		    || !links[i].g.present) {
			free(links);
			return EXIT_OK;
		}
		if (links[i].g.level >= 0)
			dumps++;
		else if (plain == SIZE_MAX)
			plain = i;
	}
	if (dumps == 0) {
		free(links);
		return EXIT_OK;
	}
	if (plain != SIZE_MAX) {
		msg_error("%s is not a listed-incremental dump (made without "
		    "-g), beside %zu that are: it is no level of their chain",
		    names_quote(o->archives[plain], q, sizeof q), dumps);
		bad = 1;
	}
	for (i = 0; i < o->narchives && !bad; i++) {
		bad = broken(o, links, i, p);
		p = i;
	}
	free(links);
	if (!bad)
		return EXIT_OK;
	msg_hint("give the levels of one chain in the order they were made, "
	    "from its full dump on (--info -k KEY FILE... shows each one's "
	    "level and dates); --no-chain-check reads them as given");
	return EXIT_CHAIN;
}

/* ---- --info of several archives: the chains they make ---- */

struct row {
	char *name;
	struct ae_tar_global g;
	uint64_t members, size;
	size_t root;                /* the row of its level 0; SIZE_MAX: none
	                             * given (an orphan) */
};

static struct row *rows;
static size_t nrows, caprows;

void
chain_note(const char *name, const struct ae_tar_global *g, uint64_t members,
    uint64_t size)
{
	struct row *t;

	if (!g->present || g->level < 0)
		return;
	if (nrows == caprows) {
		size_t cap = caprows ? 2 * caprows : 16;

		if ((t = realloc(rows, cap * sizeof *t)) == NULL)
			return;     /* (the report is then of fewer) */
		rows = t;
		caprows = cap;
	}
	if ((rows[nrows].name = strdup(name)) == NULL)
		return;
	rows[nrows].g = *g;
	rows[nrows].members = members;
	rows[nrows].size = size;
	nrows++;
}

/* The row begun when row r's dump continues from; nrows if none. */
static size_t
parent(size_t r)
{
	size_t k;

	for (k = 0; k < nrows; k++)
		if (k != r && same_time(rows[k].g.created, rows[k].g.created_nsec,
		    rows[r].g.cont, rows[r].g.cont_nsec))
			return k;
	return nrows;
}

/* Order: by when each was begun, then by name. */
static int
by_created(const void *a, const void *b)
{
	const struct row *x = *(struct row *const *)a;
	const struct row *y = *(struct row *const *)b;

	if (x->g.created != y->g.created)
		return x->g.created < y->g.created ? -1 : 1;
	if (x->g.created_nsec != y->g.created_nsec)
		return x->g.created_nsec < y->g.created_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
row_line(FILE *fp, const struct row *r)
{
	char q[1024], when[64], num[32], size[32];

	time_words(r->g.created, when, sizeof when);
	count_words(r->members, num, sizeof num);
	bytes_words(r->size, size, sizeof size);
	fprintf(fp, "  %s: level %d, begun %s, %s members, %s\n",
	    names_quote(r->name, q, sizeof q), r->g.level, when, num, size);
}

int
chain_report(FILE *fp, int json)
{
	struct row **order;
	size_t i, k, steps, nchains = 0, norphans = 0, c;
	char q[1024], when[64];

	if (nrows == 0)
		return EXIT_OK;
	if ((order = malloc(nrows * sizeof *order)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	/* each dump's level 0, up the links of `continues` */
	for (i = 0; i < nrows; i++) {
		k = i;
		for (steps = 0; steps <= nrows && k < nrows
		    && rows[k].g.level > 0; steps++)
			k = parent(k);
		rows[i].root = k < nrows && rows[k].g.level == 0 ? k : SIZE_MAX;
		order[i] = &rows[i];
	}
	qsort(order, nrows, sizeof *order, by_created);
	for (i = 0; i < nrows; i++) {
		nchains += order[i]->g.level == 0 && order[i]->root
		    == (size_t)(order[i] - rows);
		norphans += order[i]->root == SIZE_MAX;
	}
	if (json)
		fputs("{\"chains\":[", fp);
	else
		fprintf(fp, "chains:      %zu, oldest first%s\n", nchains,
		    norphans ? "; and archives in none of them below" : "");
	/* the chains, in the order their level 0s were begun */
	for (c = 0, i = 0; i < nrows; i++) {
		size_t root = (size_t)(order[i] - rows);

		if (order[i]->g.level != 0 || order[i]->root != root)
			continue;
		if (json) {
			fprintf(fp, "%s{\"begun\":%lld,\"archives\":[",
			    c++ ? "," : "", (long long)order[i]->g.created);
		} else {
			time_words(order[i]->g.created, when, sizeof when);
			fprintf(fp, "chain %zu:     full dump begun %s\n", ++c,
			    when);
		}
		for (k = 0, steps = 0; k < nrows; k++)
			if (order[k]->root == root) {
				if (json) {
					fputs(steps++ ? ",\"" : "\"", fp);
					names_json(fp, order[k]->name);
					putc('"', fp);
				} else
					row_line(fp, order[k]);
			}
		if (json)
			fputs("]}", fp);
	}
	/* orphans: each with the dump it continues, which is missing */
	if (json)
		fputs("],\"orphans\":[", fp);
	else if (norphans)
		fprintf(fp, "in no chain given (the dump each continues is "
		    "not among them):\n");
	for (i = 0, steps = 0; i < nrows; i++) {
		if (order[i]->root != SIZE_MAX)
			continue;
		if (json) {
			fputs(steps++ ? ",\"" : "\"", fp);
			names_json(fp, order[i]->name);
			putc('"', fp);
			continue;
		}
		row_line(fp, order[i]);
		time_words(order[i]->g.cont, when, sizeof when);
		fprintf(fp, "    (%s continues a dump begun %s)\n",
		    names_quote(order[i]->name, q, sizeof q), when);
	}
	if (json)
		fputs("]}\n", fp);
	free(order);
	chain_forget();
	return EXIT_OK;
}

void
chain_forget(void)
{
	size_t i;

	for (i = 0; i < nrows; i++)
		free(rows[i].name);
	free(rows);
	rows = NULL;
	nrows = caprows = 0;
}
