/*
 * test_lib_static.c -- the unstable part of aescrypt.h (below
 * AESCRYPT_STATIC_LINKING_ONLY), which the command runs -e and -c on:
 * a stream written from a source on the caller's thread and read back
 * by the public reader; the failure's place (the output's errno, an
 * interrupt); the states the calls may not be made in; the command's
 * own walk with its report and --exclude, indexed by the writer; a
 * key list for -r, -R and -i; the reader's unlock
 * callback, which sees the slots before a key is tried; -d's calls
 * (the payload to a sink, salvage of a record and of the header, the
 * events); -t's and -x's (the index, the tar stream in runs and at
 * offsets); and what the build, a file's first bytes and a key file
 * say.
 *
 * It may include the core's headers (error.h for struct ae_diag,
 * reader.h for the walk, tar_read.h for members): those are
 * what the unstable part names.
 */
#define AESCRYPT_STATIC_LINKING_ONLY
#include <aescrypt.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "memio.h"
#include "common/error.h"
#include "archive/tar_read.h"
#include "disk/reader.h"
#include "pipeline/pipeline.h"

/* (memory as a source and a sink: memio.h) */

static const uint8_t key[32] = { 7, 1, 2, 3 };

/* A stream writer over sink, with key, DEFLATE through zlib. */
static aescrypt_writer *
stream_writer(struct mem *sink, atomic_int *stop, atomic_int *cancel)
{
	aescrypt_writer *w = aescrypt_writer_new();

	CHECK(w != NULL, "a writer");
	CHECK(aescrypt_writer_add_key(w, key) == AESCRYPT_OK, "a key");
	CHECK(aescrypt_writer_set_engine(w, AESCRYPT_ENGINE_ZLIB)
	    == AESCRYPT_OK, "the zlib engine");
	CHECK(aescrypt_writer_set_engine(w, 99) == AESCRYPT_EINVAL,
	    "an unknown engine refused");
	CHECK(aescrypt_writer_set_signals(w, stop, cancel) == AESCRYPT_OK,
	    "signals");
	CHECK(aescrypt_writer_set_timed(w, 1) == AESCRYPT_OK, "timed");
	CHECK(aescrypt_writer_set_chunk_log2(w, AESCRYPT_CHUNK_LOG2_MIN)
	    == AESCRYPT_OK, "64 KiB records");
	CHECK(aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, sink)
	    == AESCRYPT_OK, "open");
	return w;
}

/* write_from: the bytes come back whole through the public reader, the
 * figures count them, and the calls out of turn are refused. */
static void
test_write_from(void)
{
	struct mem src, out, back;
	struct aescrypt_source s, in;
	const struct ae_pipe_stats *st;
	atomic_int stop = 0, cancel = 0;
	aescrypt_writer *w;
	aescrypt_reader *r;
	uint8_t buf[65536];
	size_t i, got;
	int e;

	mem_init(&src);
	mem_init(&out);
	mem_init(&back);
	s = mem_source(&src, 0);
	src.len = src.cap = 1000003;
	src.p = malloc(src.len);
	for (i = 0; i < src.len; i++)
		src.p[i] = (uint8_t)(i % 251 < 200 ? 'a' + i % 7 : i * 131);
	w = stream_writer(&out, &stop, &cancel);
	CHECK(aescrypt_writer_tier(w) != NULL
	    && strcmp(aescrypt_writer_tier(w), "none") != 0, "a tier");
	CHECK(aescrypt_writer_pipe_stats(w) == NULL, "no figures before "
	    "_close");
	CHECK(aescrypt_writer_write_from(w, &s) == AESCRYPT_OK, "write_from");
	CHECK(aescrypt_writer_write_from(w, &s) == AESCRYPT_ESTATE,
	    "a second write_from refused");
	CHECK(aescrypt_writer_write(w, "x", 1) == AESCRYPT_ESTATE,
	    "a write after write_from refused");
	CHECK(aescrypt_writer_close(w) == AESCRYPT_OK, "close");
	st = aescrypt_writer_pipe_stats(w);
	CHECK(st != NULL && st->plain_bytes == src.len
	    && st->chunks == src.len / 65536 + 1 && st->wire_bytes > 0
	    && st->threads > 0, "the figures count %llu bytes",
	    st != NULL ? (unsigned long long)st->plain_bytes : 0ull);
	CHECK(cancel == 0, "a whole run cancels nothing");
	CHECK(aescrypt_sniff(out.p, out.len) == AESCRYPT_FORMAT_AESCRYPT,
	    "what it wrote is named an aescrypt container");
	aescrypt_writer_free(w);

	in = mem_source(&out, 0);
	r = aescrypt_reader_new();
	CHECK(aescrypt_reader_add_key(r, key) == AESCRYPT_OK
	    && aescrypt_reader_open(r, &in) == AESCRYPT_OK, "read back");
	while ((e = aescrypt_reader_read(r, buf, sizeof buf, &got))
	    == AESCRYPT_OK && got > 0)
		CHECK(mem_write(&back, buf, got) == 0, "kept");
	CHECK(e == AESCRYPT_OK && back.len == src.len
	    && memcmp(back.p, src.p, src.len) == 0, "the same bytes");
	aescrypt_reader_free(r);
	free(src.p);
	free(out.p);
	free(back.p);
}

/* The place of a failure: the output's errno; an interrupt; a
 * setting after _open. */
static void
test_diag(void)
{
	struct mem src, out;
	struct aescrypt_source s;
	const struct ae_diag *d;
	atomic_int stop = 0, cancel = 0;
	aescrypt_writer *w;
	uint8_t data[300000];

	memset(data, 'q', sizeof data);
	mem_init(&src);
	mem_init(&out);
	s = mem_source(&src, 0);
	src.p = data;
	src.len = src.cap = sizeof data;
	w = stream_writer(&out, &stop, &cancel);
	CHECK(aescrypt_writer_diag(w) == NULL, "no failure, no place");
	CHECK(aescrypt_writer_set_engine(w, 0) == AESCRYPT_ESTATE,
	    "settings after _open refused");
	out.fail_after = 0;
	out.fail_errno = ENOSPC;
	CHECK(aescrypt_writer_write_from(w, &s) == AESCRYPT_EIO, "the sink's "
	    "failure");
	d = aescrypt_writer_diag(w);
	CHECK(d != NULL && d->where == AE_AT_OUTPUT && d->sys_errno == ENOSPC,
	    "its place: the output, ENOSPC (errno %d)", d != NULL ?
	    d->sys_errno : -1);
	CHECK(cancel == 1, "the source was told to give up");
	CHECK(strlen(aescrypt_writer_error(w)) > 0, "and words");
	CHECK(aescrypt_writer_close(w) == AESCRYPT_ESTATE, "then done");
	aescrypt_writer_free(w);
	free(out.p);

	mem_init(&out);
	src.pos = 0;
	stop = 1;
	cancel = 0;
	w = stream_writer(&out, &stop, &cancel);
	CHECK(aescrypt_writer_write_from(w, &s) == AESCRYPT_EINTR,
	    "an interrupt stops it");
	aescrypt_writer_free(w);
	free(out.p);
}

/* The command's walk: its report sees every member (the writer indexes
 * them first), its --exclude keeps one out. */
struct walk_seen {
	int members, excluded_asked;
};

static int
walk_report(void *ctx, const struct ae_dr_report *r)
{
	struct walk_seen *s = ctx;

	s->members += r->event == AE_DR_MEMBER;
	return 0;
}

static int
walk_excluded(void *ctx, const char *path)
{
	struct walk_seen *s = ctx;

	s->excluded_asked++;
	return strstr(path, "skip") != NULL;
}

static void
test_walk(void)
{
	char dir[512], path[600];
	const char *tmp = getenv("TMPDIR");
	char *paths[1];
	struct walk_seen seen = { 0, 0 };
	struct ae_dr_params dp;
	struct mem out;
	struct aescrypt_source in;
	struct aescrypt_entry e;
	aescrypt_writer *w;
	aescrypt_reader *r;
	FILE *f;
	int n = 0, skipped = 1, st;

	/* (its own temp directory, where the tests' TMPDIR says) */
	snprintf(dir, sizeof dir, "%s/aescrypt-static.XXXXXX", tmp != NULL
	    ? tmp : "/tmp");
	CHECK(mkdtemp(dir) != NULL, "a temp dir");
	snprintf(path, sizeof path, "%s/keep", dir);
	f = fopen(path, "w");
	CHECK(f != NULL && fputs("kept\n", f) >= 0 && fclose(f) == 0, "keep");
	snprintf(path, sizeof path, "%s/skip", dir);
	f = fopen(path, "w");
	CHECK(f != NULL && fputs("left out\n", f) >= 0 && fclose(f) == 0,
	    "skip");
	mem_init(&out);
	memset(&dp, 0, sizeof dp);
	dp.report = walk_report;
	dp.excluded = walk_excluded;
	dp.ctx = &seen;
	w = aescrypt_writer_new();
	CHECK(aescrypt_writer_add_key(w, key) == AESCRYPT_OK, "a key");
	CHECK(aescrypt_writer_set_walk(w, &dp) == AESCRYPT_OK, "the walk");
	CHECK(aescrypt_writer_open(w, AESCRYPT_ARCHIVE, mem_write, &out)
	    == AESCRYPT_OK, "open");
	paths[0] = dir;
	CHECK(aescrypt_writer_add_paths(w, paths, 1) == AESCRYPT_OK, "walked");
	CHECK(aescrypt_writer_close(w) == AESCRYPT_OK, "close");
	aescrypt_writer_free(w);
	/* the directory and one file */
	CHECK(seen.members == 2 && seen.excluded_asked >= 2, "the report saw "
	    "%d members, --exclude was asked %d times", seen.members,
	    seen.excluded_asked);
	in = mem_source(&out, 1);
	r = aescrypt_reader_new();
	CHECK(aescrypt_reader_add_key(r, key) == AESCRYPT_OK
	    && aescrypt_reader_open(r, &in) == AESCRYPT_OK, "read back");
	while ((st = aescrypt_reader_next(r, &e)) == AESCRYPT_OK) {
		n++;
		skipped &= strstr(e.path, "skip") == NULL;
	}
	CHECK(st == AESCRYPT_END && n == 2 && skipped, "2 members, the "
	    "excluded one not among them");
	aescrypt_reader_free(r);
	snprintf(path, sizeof path, "%s/keep", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/skip", dir);
	unlink(path);
	rmdir(dir);
	free(out.p);
}

/* The key list the command parses -r, -R and -i into: a recipient of
 * low order refused (as a writer refuses it as text), a repeat kept
 * once, a bad character's place, a header's plan, the text back; a new
 * identity opens what was sealed to its recipient through the list. */
static void
test_keys(void)
{
	static const char zero[] = "age1qqqqqqqqqqqqqqqqqqqqqqqqqqq"
	    "qqqqqqqqqqqqqqqqqqqqqqqqq5cu47z";  /* 32 zero bytes */
	char sec[AESCRYPT_IDENTITY_TEXT_MAX], rcp[AESCRYPT_RECIPIENT_TEXT_MAX];
	char bad[AESCRYPT_RECIPIENT_TEXT_MAX], back[AESCRYPT_RECIPIENT_TEXT_MAX];
	struct aescrypt_plan pl;
	struct ae_diag d;
	struct mem out;
	struct aescrypt_source in;
	aescrypt_keys *k = aescrypt_keys_new(), *ids = aescrypt_keys_new();
	aescrypt_writer *w = aescrypt_writer_new();
	aescrypt_reader *r;
	uint8_t buf[16];
	size_t got;

	CHECK(aescrypt_keys_add_recipient(k, zero, &d) == AESCRYPT_EINVAL
	    && strstr(d.what, "low order") != NULL, "a low-order key refused "
	    "in the list");
	CHECK(aescrypt_writer_add_recipient(w, zero) == AESCRYPT_EINVAL
	    && strstr(aescrypt_writer_error(w), "low order") != NULL,
	    "and by a writer, as text: %s", aescrypt_writer_error(w));
	CHECK(aescrypt_identity_new(0, sec, sizeof sec, rcp, sizeof rcp)
	    == AESCRYPT_OK && strncmp(sec, "AGE-SECRET-KEY-1", 16) == 0
	    && strncmp(rcp, "age1", 4) == 0, "a new identity: %s", rcp);
	CHECK(aescrypt_identity_new(0, sec, 10, rcp, sizeof rcp)
	    == AESCRYPT_EINVAL, "its buffer too small");
	CHECK(aescrypt_identity_new(0, sec, sizeof sec, rcp, sizeof rcp)
	    == AESCRYPT_OK, "again");
	CHECK(aescrypt_keys_add_recipient(k, rcp, &d) == AESCRYPT_OK
	    && aescrypt_keys_add_recipient(k, rcp, &d) == AESCRYPT_OK
	    && aescrypt_keys_recipients(k) == 1, "a repeat kept once");
	snprintf(bad, sizeof bad, "%s", rcp);
	bad[10] = 'b';      /* not in bech32's alphabet */
	CHECK(aescrypt_keys_add_recipient(k, bad, &d) == AESCRYPT_EFORMAT
	    && d.offset == 10, "a bad character's place: %llu",
	    (unsigned long long)d.offset);
	CHECK(aescrypt_is_ca_key_text("@cert-authority * ssh-ed25519 AAAA")
	    && !aescrypt_is_ca_key_text(rcp), "a CA's line named");
	CHECK(aescrypt_keys_plan(k, 1, 1, &pl) == AESCRYPT_OK && pl.need > 0
	    && pl.need <= pl.max && pl.npq == 0 && pl.fixed > 0, "it fits a "
	    "header");
	CHECK(aescrypt_keys_recipient_text(k, 0, back, sizeof back) > 0
	    && strcmp(back, rcp) == 0, "its text back");
	CHECK(aescrypt_keys_add_age_identity(ids, sec, &d) == AESCRYPT_OK
	    && aescrypt_keys_identities(ids) == 1, "its identity");
	CHECK(aescrypt_keys_add_age_identity(ids, "AGE-SECRET-KEY-1Q", &d)
	    == AESCRYPT_EFORMAT && d.what != NULL, "a bad identity line");
	CHECK(!aescrypt_ssh_needs_passphrase(AESCRYPT_EFORMAT, &d),
	    "not an ssh key's question");

	mem_init(&out);
	CHECK(aescrypt_writer_add_keys(w, k) == AESCRYPT_OK
	    && aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, &out)
	    == AESCRYPT_OK && aescrypt_writer_write(w, "hello", 5)
	    == AESCRYPT_OK && aescrypt_writer_close(w) == AESCRYPT_OK,
	    "sealed to the list's recipient");
	aescrypt_writer_free(w);
	r = aescrypt_reader_new();
	in = mem_source(&out, 0);
	CHECK(aescrypt_reader_add_keys(r, ids) == AESCRYPT_OK
	    && aescrypt_reader_open(r, &in) == AESCRYPT_OK
	    && aescrypt_reader_read(r, buf, sizeof buf, &got) == AESCRYPT_OK
	    && got == 5 && memcmp(buf, "hello", 5) == 0, "opened with the "
	    "list's identity");
	CHECK(aescrypt_reader_add_keys(r, ids) == AESCRYPT_ESTATE,
	    "no keys once open");
	aescrypt_reader_free(r);
	aescrypt_keys_free(k);
	aescrypt_keys_free(ids);
	free(out.p);
}

/* The reader's unlock callback: it sees the header's slots before any
 * key is tried, gives what fits, or stops the open; and a reader's
 * failure has a place. */
struct unlock_seen {
	int calls, give, stop, reopen, classes_ok;
	unsigned nslots;
};

static int
on_unlock(void *ctx, aescrypt_reader *r, const struct aescrypt_info *info)
{
	struct unlock_seen *u = ctx;
	unsigned i;

	u->calls++;
	u->nslots = info->nslots;
	u->classes_ok = info->kind == AESCRYPT_STREAM;
	for (i = 0; i < info->nslots; i++)
		u->classes_ok &= aescrypt_slot_class(info->slot[i].type)
		    == AESCRYPT_SLOT_CLASS_PASSPHRASE;
	if (u->reopen)
		return aescrypt_reader_open_fd(r, 0);
	if (u->stop)
		return AESCRYPT_EKEY;
	if (u->give)
		return aescrypt_reader_add_passphrase(r, "pw", 2);
	return AESCRYPT_OK;
}

static int
open_with(struct mem *file, struct unlock_seen *u, aescrypt_reader **out)
{
	struct aescrypt_source in = mem_source(file, 0);
	aescrypt_reader *r = aescrypt_reader_new();
	int e;

	CHECK(aescrypt_reader_set_unlock_callback(r, on_unlock, u)
	    == AESCRYPT_OK, "the callback set");
	e = aescrypt_reader_open(r, &in);
	*out = r;
	return e;
}

static void
test_unlock(void)
{
	struct mem out;
	struct unlock_seen u;
	const struct ae_diag *d;
	aescrypt_reader *r;
	aescrypt_writer *w = aescrypt_writer_new();
	uint8_t buf[64];
	size_t got;

	mem_init(&out);
	CHECK(aescrypt_writer_add_passphrase(w, "pw", 2) == AESCRYPT_OK
	    && aescrypt_writer_set_kdf(w, 1, 8, 1) == AESCRYPT_OK
	    && aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, &out)
	    == AESCRYPT_OK && aescrypt_writer_write(w, "secret", 6)
	    == AESCRYPT_OK && aescrypt_writer_close(w) == AESCRYPT_OK,
	    "a stream under a passphrase");
	aescrypt_writer_free(w);

	memset(&u, 0, sizeof u);
	u.give = 1;
	CHECK(open_with(&out, &u, &r) == AESCRYPT_OK && u.calls == 1
	    && u.nslots == 1 && u.classes_ok, "the callback saw one "
	    "passphrase slot and gave the passphrase");
	CHECK(aescrypt_reader_read(r, buf, sizeof buf, &got) == AESCRYPT_OK
	    && got == 6 && memcmp(buf, "secret", 6) == 0, "and it opened");
	CHECK(aescrypt_reader_add_passphrase(r, "x", 1) == AESCRYPT_ESTATE,
	    "no keys once open");
	aescrypt_reader_free(r);

	memset(&u, 0, sizeof u);
	u.stop = 1;
	CHECK(open_with(&out, &u, &r) == AESCRYPT_EKEY && u.calls == 1,
	    "a callback's status ends the open");
	aescrypt_reader_free(r);

	memset(&u, 0, sizeof u);
	CHECK(open_with(&out, &u, &r) == AESCRYPT_EKEY, "a callback that "
	    "gives nothing: no key opens it");
	aescrypt_reader_free(r);

	memset(&u, 0, sizeof u);
	u.reopen = 1;
	CHECK(open_with(&out, &u, &r) == AESCRYPT_ESTATE, "a callback may "
	    "not open");
	aescrypt_reader_free(r);

	/* a changed header byte: refused before the callback, with a
	 * place */
	out.p[12] ^= 1;
	memset(&u, 0, sizeof u);
	u.give = 1;
	CHECK(open_with(&out, &u, &r) < 0 && u.calls == 0, "a damaged "
	    "header never reaches the callback");
	d = aescrypt_reader_diag(r);
	CHECK(d != NULL && d->where == AE_AT_HEADER, "its place: the header");
	aescrypt_reader_free(r);
	CHECK(aescrypt_slot_class(AESCRYPT_SLOT_X25519)
	    == AESCRYPT_SLOT_CLASS_RECIPIENT && aescrypt_slot_class(
	    AESCRYPT_SLOT_KEYFILE) == AESCRYPT_SLOT_CLASS_KEYFILE
	    && aescrypt_slot_class(0x7f) == -1, "slot classes from the table");
	free(out.p);
}

/* ---- the reader's unstable part: -d's calls ---- */

/* What the events and the salvage callback saw. */
struct seen {
	int events[16], nevents;
	unsigned flags[16];
	uint64_t lost[16];
	int nlost, lost_final;
};

static void
on_event(void *ctx, int event, int status, unsigned flags,
    const struct ae_diag *d)
{
	struct seen *s = ctx;

	(void)status;
	(void)d;
	if (s->nevents < 16) {
		s->flags[s->nevents] = flags;
		s->events[s->nevents++] = event;
	}
}

static int
on_lost(void *ctx, uint64_t record, int final, const struct ae_diag *d)
{
	struct seen *s = ctx;

	(void)d;
	if (s->nlost < 16)
		s->lost[s->nlost++] = record;
	s->lost_final |= final;
	return 0;
}

/* A reader over file (seekable or not), with key, salvage and events
 * as asked; its open's status. */
static int
reader_on(struct mem *file, int seekable, int salvage, struct seen *s,
    aescrypt_reader **out)
{
	struct aescrypt_source in = mem_source(file, seekable);
	aescrypt_reader *r = aescrypt_reader_new();

	memset(s, 0, sizeof *s);
	CHECK(aescrypt_reader_add_key(r, key) == AESCRYPT_OK
	    && aescrypt_reader_set_events(r, on_event, s) == AESCRYPT_OK
	    && aescrypt_reader_set_engine(r, AESCRYPT_ENGINE_ZLIB)
	    == AESCRYPT_OK && aescrypt_reader_set_timed(r, 0) == AESCRYPT_OK
	    && (!salvage || aescrypt_reader_set_salvage(r, on_lost, s)
	    == AESCRYPT_OK), "a reader set up");
	*out = r;
	return aescrypt_reader_open(r, &in);
}

/* decode_to: the whole stream to a sink, its figures, the calls out of
 * turn; salvage of a damaged record (zeros in its place, the rest
 * exact) and of a damaged header (its copy, told as events). */
static void
test_decode_to(void)
{
	struct mem src, file, back;
	struct aescrypt_source s;
	struct aescrypt_info info;
	const struct ae_pipe_stats *st;
	const struct ae_diag *d;
	struct seen seen;
	aescrypt_reader *r;
	aescrypt_writer *w;
	uint64_t cpu, wall, mkib, chunk = (uint64_t)1 << AESCRYPT_CHUNK_LOG2_MIN;
	size_t i, bad, off;
	int ok;

	mem_init(&src);
	mem_init(&file);
	src.len = src.cap = 10 * 65536 + 1234;
	src.p = malloc(src.len);
	for (i = 0; i < src.len; i++)
		src.p[i] = (uint8_t)(i * 2654435761u >> 13);
	s = mem_source(&src, 0);
	w = stream_writer(&file, NULL, NULL);
	CHECK(aescrypt_writer_write_from(w, &s) == AESCRYPT_OK
	    && aescrypt_writer_close(w) == AESCRYPT_OK, "a stream written");
	aescrypt_writer_free(w);

	/* whole */
	mem_init(&back);
	CHECK(reader_on(&file, 1, 0, &seen, &r) == AESCRYPT_OK, "opened");
	CHECK(aescrypt_reader_pipe_stats(r) == NULL, "no figures before");
	CHECK(aescrypt_reader_codec(r) == AESCRYPT_CODEC_DEFLATE
	    && aescrypt_reader_info(r, &info) == AESCRYPT_OK
	    && info.chunk_log2 == AESCRYPT_CHUNK_LOG2_MIN && info.has_copy
	    && !aescrypt_reader_from_copy(r), "what the header says");
	aescrypt_reader_kdf_cost(r, &cpu, &wall, &mkib);
	CHECK(cpu == 0 && wall == 0 && mkib == 0, "no KDF ran for a key");
	CHECK(strcmp(aescrypt_reader_tier(r), "none") != 0, "a tier");
	CHECK(aescrypt_reader_decode_to(r, mem_write, &back) == AESCRYPT_OK
	    && back.len == src.len && memcmp(back.p, src.p, src.len) == 0,
	    "the same bytes");
	st = aescrypt_reader_pipe_stats(r);
	CHECK(st != NULL && st->plain_bytes == src.len && st->chunks == 11,
	    "the figures count them");
	CHECK(aescrypt_reader_decode_to(r, mem_write, &back)
	    == AESCRYPT_ESTATE, "the payload is decoded once");
	CHECK(seen.nevents == 0, "a whole file: no event");
	aescrypt_reader_free(r);
	free(back.p);

	/* a record damaged: lost without salvage, zeros with it */
	bad = file.len / 2;
	file.p[bad] ^= 0x40;
	mem_init(&back);
	CHECK(reader_on(&file, 1, 0, &seen, &r) == AESCRYPT_OK
	    && aescrypt_reader_decode_to(r, mem_write, &back) < 0,
	    "a damaged record fails the run");
	d = aescrypt_reader_diag(r);
	CHECK(d != NULL && d->where != AE_AT_NONE, "with its place");
	aescrypt_reader_free(r);
	free(back.p);
	mem_init(&back);
	CHECK(reader_on(&file, 1, 1, &seen, &r) == AESCRYPT_OK
	    && aescrypt_reader_decode_to(r, mem_write, &back) == AESCRYPT_OK,
	    "salvage reads on");
	CHECK(seen.nlost == 1 && !seen.lost_final && back.len == src.len,
	    "one record lost (%d), the length kept (%zu)", seen.nlost,
	    back.len);
	for (ok = 1, off = 0; off < src.len && seen.nlost == 1; off++) {
		int in_lost = off / chunk == seen.lost[0];

		if (in_lost ? back.p[off] != 0 : back.p[off] != src.p[off])
			ok = 0;
	}
	CHECK(ok, "zeros where record %llu was, the rest exact",
	    (unsigned long long)seen.lost[0]);
	aescrypt_reader_free(r);
	free(back.p);
	file.p[bad] ^= 0x40;

	/* the header damaged: its copy, with salvage and pread only */
	file.p[12] ^= 1;
	CHECK(reader_on(&file, 1, 0, &seen, &r) < 0 && seen.nevents == 1
	    && seen.events[0] == AESCRYPT_EVENT_HEADER_BAD && seen.flags[0]
	    == (AESCRYPT_HEADER_DAMAGED | AESCRYPT_HEADER_COPY),
	    "without salvage: told, with the copy there");
	aescrypt_reader_free(r);
	CHECK(reader_on(&file, 0, 1, &seen, &r) < 0 && seen.nevents == 2
	    && seen.events[1] == AESCRYPT_EVENT_COPY_UNREADABLE,
	    "from a pipe: the copy is out of reach");
	aescrypt_reader_free(r);
	mem_init(&back);
	CHECK(reader_on(&file, 1, 1, &seen, &r) == AESCRYPT_OK
	    && seen.nevents == 2 && seen.flags[0] & AESCRYPT_HEADER_RETRY
	    && seen.events[1] == AESCRYPT_EVENT_COPY_USED
	    && aescrypt_reader_from_copy(r), "with salvage: the copy is used");
	CHECK(aescrypt_reader_decode_to(r, mem_write, &back) == AESCRYPT_OK
	    && back.len == src.len && memcmp(back.p, src.p, src.len) == 0,
	    "and reads the same bytes");
	aescrypt_reader_free(r);
	free(back.p);
	free(file.p);
	free(src.p);
}

/* ---- the reader's unstable part: -t's and -x's calls ---- */

/* An archive of 64 KiB records in file (made fresh): n members named
 * PREFIX0, PREFIX1, ..., member i the size bytes at data + i * size. */
static void
archive_of(struct mem *file, char prefix, size_t n, const uint8_t *data,
    size_t size)
{
	aescrypt_writer *w = aescrypt_writer_new();
	struct aescrypt_entry e;
	char name[8];
	size_t i;

	mem_init(file);
	CHECK(aescrypt_writer_add_key(w, key) == AESCRYPT_OK
	    && aescrypt_writer_set_chunk_log2(w, AESCRYPT_CHUNK_LOG2_MIN)
	    == AESCRYPT_OK && aescrypt_writer_open(w, AESCRYPT_ARCHIVE,
	    mem_write, file) == AESCRYPT_OK, "an archive writer");
	memset(&e, 0, sizeof e);
	e.type = AESCRYPT_FILE;
	e.mode = 0644;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%c%zu", prefix, i);
		e.path = name;
		e.size = size;
		CHECK(aescrypt_writer_add_entry(w, &e, data + i * size, size)
		    == AESCRYPT_OK, "member %zu", i);
	}
	CHECK(aescrypt_writer_close(w) == AESCRYPT_OK, "closed");
	aescrypt_writer_free(w);
}

/* The tar stream of [off, off + n) through _tar_pread, into out. */
static int
tar_at(aescrypt_reader *r, uint64_t off, size_t n, struct mem *out)
{
	uint8_t buf[4096];
	size_t got, k;

	while (n > 0) {
		k = n < sizeof buf ? n : sizeof buf;
		if (aescrypt_reader_tar_pread(r, off, buf, k, &got)
		    != AESCRYPT_OK || got != k || mem_write(out, buf, got) != 0)
			return -1;
		off += k;
		n -= k;
	}
	return 0;
}

/* The rest of a raw run, into out; the run's _end status. */
static int
raw_all(aescrypt_reader *r, struct mem *out, uint64_t *bytes)
{
	uint8_t buf[8192];
	size_t got;

	while (aescrypt_reader_raw_read(r, buf, sizeof buf, &got)
	    == AESCRYPT_OK && got > 0)
		(void)mem_write(out, buf, got);
	return aescrypt_reader_raw_end(r, 0, bytes);
}

/* A raw run and memory as the tar reader's input. */
static int
run_in(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	return aescrypt_reader_raw_read(ctx, buf, n, got);
}

static int
mem_in(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	return mem_read(ctx, buf, n, got);
}

/* What a tar reader over a whole raw run meets, told to the reader
 * (its index check); the members' count, or -1. */
static long
raw_members(aescrypt_reader *r)
{
	struct ae_reader in = { run_in, r, NULL };
	struct ae_tar_reader tr;
	struct ae_tar_member *m = malloc(sizeof *m);
	struct ae_diag d = { 0 };
	long n = 0;
	int next;

	if (m == NULL || ae_tar_reader_init(&tr, &in) != AE_OK) {
		free(m);
		return -1;
	}
	tr.seen = aescrypt_reader_raw_seen;
	tr.seen_ctx = r;
	while ((next = ae_tar_next(&tr, m, &d)) == AE_OK)
		n++;
	ae_tar_reader_free(&tr);
	free(m);
	return next == 1 ? n : -1;
}

/* An archive's index and tar stream: the index loaded once and seen an
 * entry at a time, the tar stream read whole (its members checked
 * against the index after), by a run of records, and at offsets, all
 * the same bytes; the index held small for -x; the calls out of turn
 * refused. */
static void
test_raw(void)
{
	static uint8_t data[3][150000];
	struct mem file, whole, at, run_out;
	struct aescrypt_source in;
	struct aescrypt_run run;
	struct aescrypt_index_figures f;
	struct aescrypt_index_entry ie[3];
	struct aescrypt_index_verdict v;
	struct ae_tar_member *m;
	const struct ae_pipe_stats *st;
	aescrypt_reader *r;
	uint64_t bytes = 0, dn = 0, dend = 0, first;
	const char *path;
	char name[8];
	size_t i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < sizeof data[i]; j++)
			data[i][j] = (uint8_t)(j * 7 + i);
	archive_of(&file, 'm', 3, &data[0][0], sizeof data[0]);

	r = aescrypt_reader_new();
	in = mem_source(&file, 1);
	CHECK(aescrypt_reader_add_key(r, key) == AESCRYPT_OK
	    && aescrypt_reader_open(r, &in) == AESCRYPT_OK, "opened");
	CHECK(aescrypt_reader_raw_read(r, name, 1, &i) == AESCRYPT_ESTATE
	    && aescrypt_reader_raw_end(r, 0, NULL) == AESCRYPT_ESTATE,
	    "no run yet");
	CHECK(aescrypt_reader_index_figures(r, &f) == AESCRYPT_OK
	    && f.members == 3 && f.records > 0, "the index: three members");
	for (i = 0; i < 3; i++)
		CHECK(aescrypt_reader_index_entry(r, i, &ie[i]) == AESCRYPT_OK
		    && ie[i].e.size == sizeof data[i]
		    && ie[i].e.path[1] == (char)('0' + i), "entry %zu", i);
	CHECK(aescrypt_reader_index_entry(r, 3, &ie[0]) == AESCRYPT_EINVAL,
	    "no entry past the last");
	CHECK(ie[0].first == 0 && ie[1].first > ie[0].first && ie[2].first
	    < f.tar_end, "their places in order");
	CHECK(aescrypt_reader_index_find_first(r, ie[1].first) == 1
	    && aescrypt_reader_index_find_first(r, ie[1].first + 1) == 2
	    && aescrypt_reader_index_find_first(r, f.tar_end) == 3,
	    "found by place");
	CHECK(aescrypt_reader_record_offset(r, 0) > 0
	    && aescrypt_reader_record_offset(r, 1)
	    > aescrypt_reader_record_offset(r, 0), "records' offsets");
	CHECK(aescrypt_reader_index_stats(r) != NULL
	    && aescrypt_reader_index_stats(r)->records > 0, "its figures");

	/* member 1's run of records, against the tar stream at offsets */
	mem_init(&at);
	CHECK(tar_at(r, 0, (size_t)f.tar_end, &at) == 0
	    && at.len == f.tar_end, "the tar stream by pread");
	m = malloc(sizeof *m);
	{
		struct ae_reader mr = { mem_in, &at, NULL };
		struct ae_tar_reader tr;
		struct ae_diag d = { 0 };

		at.pos = (size_t)ie[1].first;
		CHECK(m != NULL && ae_tar_reader_init(&tr, &mr) == AE_OK,
		    "a tar reader over it");
		ae_tar_reader_restart(&tr, ie[1].first);
		CHECK(ae_tar_next(&tr, m, &d) == AE_OK
		    && aescrypt_reader_entry_same(r, 1, m)
		    && !aescrypt_reader_entry_same(r, 2, m), "member 1 is "
		    "entry 1, not entry 2");
		ae_tar_reader_free(&tr);
	}
	run.first = ie[1].first >> AESCRYPT_CHUNK_LOG2_MIN;
	run.count = ((ie[2].first - 1) >> AESCRYPT_CHUNK_LOG2_MIN)
	    - run.first + 1;
	run.offset = aescrypt_reader_record_offset(r, run.first);
	mem_init(&run_out);
	CHECK(aescrypt_reader_raw_start(r, &run, 0) == AESCRYPT_OK,
	    "a run of %llu records", (unsigned long long)run.count);
	CHECK(aescrypt_reader_raw_start(r, NULL, 0) == AESCRYPT_ESTATE,
	    "one run at a time");
	CHECK(raw_all(r, &run_out, &bytes) == AESCRYPT_OK
	    && bytes == run_out.len && run_out.len == run.count << 16
	    && memcmp(run_out.p, at.p + (run.first << 16), run_out.len) == 0,
	    "its plaintext is the stream's there");
	CHECK(aescrypt_reader_raw_verdict(r, &v) == AESCRYPT_ESTATE,
	    "no verdict on a run of records");

	/* the whole, its members checked against the index after */
	CHECK(aescrypt_reader_raw_start(r, NULL, AESCRYPT_RAW_CHECK_INDEX)
	    == AESCRYPT_OK, "the whole payload");
	CHECK(raw_members(r) == 3, "three members met");
	mem_init(&whole);
	CHECK(raw_all(r, &whole, NULL) == AESCRYPT_OK
	    && aescrypt_reader_raw_complete(r), "read to a checked end");
	CHECK(aescrypt_reader_raw_verdict(r, &v) == AESCRYPT_OK
	    && v.kind == AESCRYPT_INDEX_AGREES, "the index agrees (%d)",
	    v.kind);
	st = aescrypt_reader_pipe_stats(r);
	CHECK(st != NULL && st->plain_bytes >= f.tar_end, "its figures");
	CHECK(aescrypt_reader_raw_start(r, NULL, 0) == AESCRYPT_ESTATE,
	    "the whole is read once");
	CHECK(aescrypt_reader_decode_to(r, mem_write, &whole)
	    == AESCRYPT_ESTATE, "and not decoded again");

	/* the index held small, from the index loaded */
	CHECK(aescrypt_reader_digest_figures(r, &dn, &dend)
	    == AESCRYPT_ESTATE, "no digests yet");
	CHECK(aescrypt_reader_digests(r) == AESCRYPT_OK
	    && aescrypt_reader_digest_figures(r, &dn, &dend) == AESCRYPT_OK
	    && dn == 3 && dend == f.tar_end, "digests of three entries");
	CHECK(aescrypt_reader_digest_entry(r, 2, &first, &path)
	    == AESCRYPT_OK && first == ie[2].first && strcmp(path, "m2") == 0,
	    "entry 2's place and path");
	CHECK(aescrypt_reader_digest_same(r, 1, m)
	    && !aescrypt_reader_digest_same(r, 0, m), "member 1 is digest 1");

	/* a run stopped early ends cleanly (the stop is the caller's) */
	CHECK(aescrypt_reader_raw_start(r, &run, 0) == AESCRYPT_OK
	    && aescrypt_reader_raw_read(r, name, 4, &i) == AESCRYPT_OK
	    && i == 4, "a run started again");
	j = (size_t)aescrypt_reader_raw_end(r, 1, NULL);
	CHECK((int)j == AESCRYPT_OK || ((int)j == AESCRYPT_EINTR
	    && aescrypt_reader_diag(r) != NULL
	    && aescrypt_reader_diag(r)->where == AE_AT_OUTPUT),
	    "and stopped");
	aescrypt_reader_free(r);

	/* the digests decoded on their own, the index never loaded */
	r = aescrypt_reader_new();
	in = mem_source(&file, 1);
	CHECK(aescrypt_reader_add_key(r, key) == AESCRYPT_OK
	    && aescrypt_reader_open(r, &in) == AESCRYPT_OK
	    && aescrypt_reader_digests(r) == AESCRYPT_OK
	    && aescrypt_reader_index_stats(r) == NULL
	    && aescrypt_reader_digest_figures(r, &dn, &dend) == AESCRYPT_OK
	    && dn == 3 && aescrypt_reader_digest_same(r, 1, m),
	    "digests decoded alone agree");
	aescrypt_reader_free(r);
	free(m);
	free(file.p);
	free(whole.p);
	free(at.p);
	free(run_out.p);
}

/* What the build, a file's first bytes and a key file say. */
static void
test_build(void)
{
	static const uint8_t gz[] = { 0x1f, 0x8b, 8, 0 };
	struct aescrypt_codec_info ci;
	char text[256], cpu[256];
	uint8_t k[32], z[32] = { 0 };
	size_t len;
	int t, any = 0;

	CHECK(aescrypt_codec_info(AESCRYPT_CODEC_DEFLATE, 0, &ci) == AESCRYPT_OK
	    && ci.available && ci.engines && strcmp(ci.name, "deflate") == 0
	    && ci.chunk_log2_default == AESCRYPT_CHUNK_LOG2_DEFAULT
	    && ci.chunk_log2_max == AESCRYPT_CHUNK_LOG2_MAX, "DEFLATE's row");
	CHECK(aescrypt_codec_info(AESCRYPT_CODEC_ZSTD, 0, &ci) == AESCRYPT_OK
	    && !ci.engines && ci.chunk_log2_max == AESCRYPT_CHUNK_LOG2_MAX_ZSTD,
	    "zstd's row");
	CHECK(aescrypt_codec_info(77, 0, &ci) == AESCRYPT_EINVAL,
	    "no row for an unknown codec");
	CHECK(aescrypt_engine_available(AESCRYPT_ENGINE_DEFAULT)
	    && aescrypt_engine_available(AESCRYPT_ENGINE_ZLIB)
	    && strcmp(aescrypt_engine_name(AESCRYPT_ENGINE_ZLIB), "zlib") == 0,
	    "zlib is always there");
	for (t = 0; t < aescrypt_tier_count(); t++)
		any |= aescrypt_tier_available(t);
	CHECK(any && aescrypt_tier_available(aescrypt_tier_default())
	    && strcmp(aescrypt_tier_name(-1), "unknown") == 0, "tiers");
	aescrypt_cpu_describe(cpu, sizeof cpu);
	CHECK(aescrypt_sodium_version() != NULL && aescrypt_format_version()
	    == 1, "versions");
	CHECK(aescrypt_sniff(gz, sizeof gz) == AESCRYPT_FORMAT_GZIP
	    && strcmp(aescrypt_format_name(AESCRYPT_FORMAT_GZIP), "gzip") == 0,
	    "a gzip file named");
	CHECK(aescrypt_sniff(NULL, 0) == AESCRYPT_FORMAT_UNKNOWN
	    && strcmp(aescrypt_format_name(1000), "unknown") == 0, "nothing");
	len = aescrypt_keyfile_new(text, sizeof text);
	CHECK(len > 0 && aescrypt_keyfile_parse(text, len, k) == AESCRYPT_OK
	    && memcmp(k, z, 32) != 0, "a new key file parses: %s", text);
	CHECK(aescrypt_keyfile_new(text, 10) == 0, "a buffer too small");
	CHECK(aescrypt_keyfile_parse("AESCRYPT-KEY-V1-00", 18, k)
	    == AESCRYPT_EFORMAT, "a short key line refused");
	CHECK(aescrypt_is_secret_key_text("AGE-SECRET-KEY-1QQQ")
	    && !aescrypt_is_secret_key_text("age1qqq"), "secret keys named");
}

/* ---- the shared cache of random access ---- */

#define CM 3
#define CSZ 400000
static uint8_t cdata[CM][CSZ];

struct cread {
	aescrypt_reader *r;
	unsigned seed;
	int bad;
};

/* Random ranges of the three members, each compared with its source. */
static void *
cache_reader(void *arg)
{
	struct cread *c = arg;
	static __thread uint8_t buf[70000];
	int k;

	for (k = 0; k < 300; k++) {
		unsigned m = (c->seed = c->seed * 1103515245u + 12345u) >> 16;
		size_t off, n, got;

		m %= CM;
		c->seed = c->seed * 1103515245u + 12345u;
		off = (c->seed >> 4) % CSZ;
		n = 1 + (c->seed >> 8) % sizeof buf;
		if (aescrypt_reader_pread(c->r, m, buf, n, off, &got)
		    != AESCRYPT_OK || got != (CSZ - off < n ? CSZ - off : n)
		    || memcmp(buf, cdata[m] + off, got) != 0)
			c->bad++;
	}
	return NULL;
}

/* The cache: set only before random access; 8 threads at random ranges
 * through a cache of four records with read-ahead get the members'
 * bytes; a member read in order is read ahead; a record that fails is
 * never cached (it fails again for every read, the others still read),
 * and the extras of a member made without any are empty. */
static void
test_cache(void)
{
	struct mem file;
	struct aescrypt_source in;
	struct aescrypt_extras x;
	struct cread cr[8];
	pthread_t th[8];
	aescrypt_reader *r;
	uint64_t hits, misses, ahead, off;
	static uint8_t buf[CSZ];
	size_t i, j, got;
	int bad = 0;

	for (i = 0; i < CM; i++) {
		uint32_t v = 0x9e3779b9u * (uint32_t)(i + 1);

		for (j = 0; j < CSZ; j++) {
			v ^= v << 13, v ^= v >> 17, v ^= v << 5;
			/* half of it compressible */
			cdata[i][j] = (uint8_t)(j % 4096 < 2048 ? j / 64 : v);
		}
	}
	archive_of(&file, 'c', CM, &cdata[0][0], CSZ);

	r = aescrypt_reader_new();
	in = mem_source(&file, 1);
	CHECK(aescrypt_reader_add_key(r, key) == AESCRYPT_OK
	    && aescrypt_reader_open(r, &in) == AESCRYPT_OK, "opened");
	CHECK(aescrypt_reader_cache_figures(r, &hits, &misses, &ahead)
	    == AESCRYPT_ENOTSUP, "no cache before one is set");
	CHECK(aescrypt_reader_set_cache(r, 4 << 16, 2) == AESCRYPT_OK,
	    "a cache of four records, two threads reading ahead");
	for (i = 0; i < 8; i++) {
		cr[i].r = r;
		cr[i].seed = (unsigned)i * 7919u + 1;
		cr[i].bad = 0;
		CHECK(pthread_create(&th[i], NULL, cache_reader, &cr[i]) == 0,
		    "reader %zu", i);
	}
	for (i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		bad += cr[i].bad;
	}
	CHECK(bad == 0, "8 threads through the cache: %d reads wrong", bad);
	CHECK(aescrypt_reader_set_cache(r, 1 << 20, 0) == AESCRYPT_ESTATE,
	    "the cache is set before random access, not after");
	/* member 1 in order, 10 000 bytes at a time */
	for (off = 0; off < CSZ; off += got)
		CHECK(aescrypt_reader_pread(r, 1, buf + off, 10000, off, &got)
		    == AESCRYPT_OK && got > 0, "in order at %llu",
		    (unsigned long long)off);
	CHECK(memcmp(buf, cdata[1], CSZ) == 0, "member 1 in order");
	CHECK(aescrypt_reader_cache_figures(r, &hits, &misses, &ahead)
	    == AESCRYPT_OK && hits > 0 && misses > 0 && ahead > 0,
	    "hits %llu, misses %llu, read ahead %llu",
	    (unsigned long long)hits, (unsigned long long)misses,
	    (unsigned long long)ahead);
	CHECK(aescrypt_reader_extras(r, 0, &x) == AESCRYPT_OK
	    && x.nxattrs == 0 && x.dumpdir == NULL, "no extras");
	aescrypt_extras_free(&x);
	CHECK(aescrypt_reader_extras(r, CM, &x) == AESCRYPT_EINVAL,
	    "no extras past the last member");
	aescrypt_reader_free(r);

	/* a byte of a record in member 2's middle flipped */
	{
		struct aescrypt_index_entry ie;
		uint64_t rec, at;

		r = aescrypt_reader_new();
		in = mem_source(&file, 1);
		CHECK(aescrypt_reader_add_key(r, key) == AESCRYPT_OK
		    && aescrypt_reader_open(r, &in) == AESCRYPT_OK
		    && aescrypt_reader_index_entry(r, 2, &ie) == AESCRYPT_OK,
		    "opened again");
		rec = (ie.first + CSZ / 2) >> AESCRYPT_CHUNK_LOG2_MIN;
		at = aescrypt_reader_record_offset(r, rec) + 100;
		aescrypt_reader_free(r);
		file.p[at] ^= 1;
		r = aescrypt_reader_new();
		in = mem_source(&file, 1);
		CHECK(aescrypt_reader_add_key(r, key) == AESCRYPT_OK
		    && aescrypt_reader_set_cache(r, 4 << 16, 2) == AESCRYPT_OK
		    && aescrypt_reader_open(r, &in) == AESCRYPT_OK, "opened "
		    "with the damage");
		off = (rec << AESCRYPT_CHUNK_LOG2_MIN) - ie.first;
		for (i = 0; i < 2; i++)
			CHECK(aescrypt_reader_pread(r, 2, buf, 1000, off + 600,
			    &got) == AESCRYPT_EAUTH && got == 0,
			    "the damaged record fails, read %zu", i + 1);
		CHECK(aescrypt_reader_pread(r, 0, buf, CSZ, 0, &got)
		    == AESCRYPT_OK && got == CSZ && memcmp(buf, cdata[0], CSZ)
		    == 0, "member 0 still reads");
		aescrypt_reader_free(r);
	}
	free(file.p);
}

int
main(void)
{
	test_write_from();
	test_diag();
	test_walk();
	test_keys();
	test_unlock();
	test_decode_to();
	test_raw();
	test_build();
	test_cache();
	return t_finish("test_lib_static");
}
