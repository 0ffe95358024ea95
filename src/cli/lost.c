/*
 * lost.c -- members and --salvage (contract in lost.h).
 */
#include "config.h"
#include "lost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "indexed.h"
#include "msg.h"
#include "names.h"

int
lost_init(struct lost *l, struct salvage *sv, const struct ixview *ix,
    int listing)
{
	memset(l, 0, sizeof *l);
	l->sv = sv;
	l->ix = ix;
	l->listing = listing;
	if (ix != NULL && (l->state = calloc(ix->members + 1, 1)) == NULL)
		return -1;
	return 0;
}

void
lost_free(struct lost *l)
{
	size_t i;

	free(l->state);
	for (i = 0; i < LOST_FIRST; i++)
		free(l->first[i]);
	memset(l, 0, sizeof *l);
}

/* The first index entry at or after off, or ix->members. */
static size_t
entry_at(const struct ixview *ix, uint64_t off)
{
	return (size_t)aescrypt_reader_index_find_first(ix->r, off);
}

int
lost_resync(void *ctx, uint64_t off, uint64_t *to)
{
	const struct ixview *ix = ctx;
	size_t i = entry_at(ix, off);

	if (i >= ix->members)
		return 0;
	*to = indexed_first(ix, i);
	return 1;
}

/* Whether member m, which the index led to, is the one it names there. */
static int
as_indexed(const struct lost *l, const struct ae_tar_member *m)
{
	size_t i = entry_at(l->ix, m->first);

	return i < l->ix->members && indexed_first(l->ix, i) == m->first
	    && aescrypt_reader_entry_same(l->ix->r, i, m);
}

int
lost_pass_over(struct lost *l, const struct ae_tar_member *m)
{
	char q[1024];

	if (m->after_gap == 0 || (m->after_gap == 3 && as_indexed(l, m)))
		return 0;
	if (m->after_gap == 2) {
		/* its pax record (its full name, its size) may have been in
		 * the lost chunk before it */
		msg_error("%s: lost: it starts right after a damaged chunk, "
		    "which may have held its extended header (tar stream byte "
		    "%llu); not used", names_quote(m->path, q, sizeof q),
		    (unsigned long long)m->offset);
		lost_done(l, m, LOST_NAMED);
		return 1;
	}
	/* with -x, the writer never lets it replace what exists, a member
	 * made earlier in the run included (writer.h).  One zeroed block
	 * can put hundreds of members here: each is named with -v, else
	 * the summary counts them and names the first few. */
	l->rescanned = 1;
	if (l->searched < LOST_FIRST)
		l->first[l->searched] = strdup(m->path);
	l->searched++;
	if (l->verbose)
		msg_warn("%s: found by searching for headers after a lost "
		    "chunk (tar stream byte %llu): it may be a file inside "
		    "another member, such as a stored .tar", names_quote(
		    m->path, q, sizeof q), (unsigned long long)m->offset);
	return 0;
}

void
lost_done(struct lost *l, const struct ae_tar_member *m,
    enum lost_outcome how)
{
	size_t i;

	if (how == LOST_WHOLE) {
		l->whole++;
		l->found += m->after_gap == 1;
	} else if (how == LOST_NAMED) {
		l->named++;
	} else if (how == LOST_SKIPPED) {
		l->skipped++;
	}
	if (l->ix == NULL || m->after_gap == 1 || m->after_gap == 2)
		return;
	i = entry_at(l->ix, m->first);
	if (i < l->ix->members && indexed_first(l->ix, i) == m->first)
		l->state[i] = (unsigned char)how;
}

void
lost_name(struct lost *l, const struct ae_tar_member *m)
{
	uint64_t seq = 0;
	char q[1024];

	(void)salvage_overlaps(l->sv, m->first, m->end, &seq);
	msg_error("%s: lost: it lies in damaged chunk %llu (tar stream bytes "
	    "%llu to %llu)", names_quote(m->path, q, sizeof q),
	    (unsigned long long)seq, (unsigned long long)m->first,
	    (unsigned long long)m->end - 1);
	lost_done(l, m, LOST_NAMED);
}

/* With the index: name each selected member that was not read whole.
 * *lost and *unreached count them. */
static void
name_the_rest(struct lost *l, struct members *sel, size_t *lost,
    size_t *unreached)
{
	const struct ixview *ix = l->ix;
	struct aescrypt_index_entry ie;
	char q[1024];
	size_t i;

	for (i = 0; i < ix->members; i++) {
		uint64_t end = indexed_first(ix, i + 1), seq = 0;

		if (l->state[i] != 0 || !indexed_entry(ix, i, &ie)
		    || !members_select(sel, ie.e.path))
			continue;
		if (salvage_overlaps(l->sv, ie.first, end, &seq)) {
			msg_error("%s: lost: it lies in damaged chunk %llu (tar "
			    "stream bytes %llu to %llu; named by the index)",
			    names_quote(ie.e.path, q, sizeof q),
			    (unsigned long long)seq,
			    (unsigned long long)ie.first,
			    (unsigned long long)end - 1);
			++*lost;
		} else {
			msg_error("%s: never reached: the run ended before it "
			    "(tar stream byte %llu)", names_quote(ie.e.path, q,
			    sizeof q), (unsigned long long)ie.first);
			++*unreached;
		}
	}
}

void
lost_summary(struct lost *l, struct members *sel, int end_lost,
    uint64_t stopped_at)
{
	size_t chunks = salvage_count(l->sv), lost = l->named, unreached = 0;
	const char *verb = l->listing ? "listed" : "extracted";
	int stopped = stopped_at != UINT64_MAX;
	int sure = l->ix != NULL && !l->rescanned;
	char head[64], found[64] = "", skipped[96] = "";

	salvage_report(l->sv, "tar stream");
	if (stopped)
		msg_error("%s: the archive cannot be read past tar stream byte "
		    "%llu (the file is cut short there, or a record's frame is "
		    "damaged)", l->sv->name, (unsigned long long)stopped_at);
	if (l->ix != NULL)
		name_the_rest(l, sel, &lost, &unreached);
	else if (chunks > 0 || stopped)
		msg_hint("members %s cannot be named: the archive was read "
		    "without its index (a pipe, --no-index, an archive made "
		    "without one, or one whose end was lost)", chunks == 0 ?
		    "after that" : stopped ? "in the lost chunks and after "
		    "that" : end_lost ? "in the lost chunks and at the end" :
		    "whose headers were in the lost chunks");
	if (l->rescanned && l->verbose)
		msg_hint("members found by searching for headers are named "
		    "above: check them before trusting them");
	else if (l->rescanned) {
		char names[5 * 96] = "", q[1024];
		size_t i, k = 0;

		for (i = 0; i < LOST_FIRST && i < l->searched; i++)
			if (l->first[i] != NULL && k < sizeof names)
				k += (size_t)snprintf(names + k, sizeof names - k,
				    "%s'%.80s'", i > 0 ? ", " : "",
				    names_quote(l->first[i], q, sizeof q));
		if (k >= sizeof names)
			k = sizeof names - 1;
		msg_warn("%zu member%s found by searching for headers after a "
		    "lost chunk, each of which may be a file inside another "
		    "member, such as a stored .tar: %s%s", l->searched,
		    l->searched == 1 ? " was" : "s were", names,
		    l->searched > LOST_FIRST ? ", ..." : "");
		msg_hint("check them before trusting them; -v names each one "
		    "where it was found");
	}
	if (chunks > 0)
		snprintf(head, sizeof head, "%zu chunk%s lost", chunks,
		    chunks == 1 ? "" : "s");
	else
		snprintf(head, sizeof head, "the archive stops early");
	if (l->found > 0)
		snprintf(found, sizeof found, " (%zu found by searching)",
		    l->found);
	if (l->skipped > 0)
		snprintf(skipped, sizeof skipped, ", %zu not %s for another "
		    "reason", l->skipped, verb);
	if (sure)
		msg_hint("%s: %zu member%s %s whole, %zu lost%s, %zu never "
		    "reached (named above)%s", head, l->whole, l->whole == 1 ?
		    "" : "s", verb, lost, skipped, unreached, lost + unreached
		    == 0 ? "; everything else was read whole" : "");
	else
		msg_hint("%s: %zu member%s %s whole%s, %zu lost%s (named "
		    "above), and an unknown number %s", head, l->whole,
		    l->whole == 1 ? "" : "s", verb, found, lost, skipped,
		    stopped && chunks > 0 ? "in the lost chunks and never "
		    "reached" : stopped ? "never reached" : "in the lost "
		    "chunks");
}
