/*
 * test_lib.c -- libaescrypt's public API (include/aescrypt.h), through
 * that header alone: streams and archives both ways, through callbacks,
 * descriptors and paths; every key kind a handle takes; the states a
 * call may not be made in; damage of every byte of a small file and
 * cuts at every length, which must end in an error and never in a clean
 * end; random access checked against the source from 8 threads at once
 * on one handle (also under ThreadSanitizer: make check-tsan); and
 * extraction through the safe writer, refusing ".." and absolute names.
 *
 * The seed is replayable: AE_TEST_SEED=N.
 */
#include <aescrypt.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "memio.h"

/* ---- a replayable generator ---- */

static uint64_t seed = 0x9e3779b97f4a7c15ull;

static uint64_t
rnd(void)
{
	/* splitmix64 */
	uint64_t z = (seed += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void
fill(uint8_t *p, size_t n, int compressible)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = compressible ? (uint8_t)("abcdefgh\n"[(i / 7) % 9])
		    : (uint8_t)rnd();
}

/* ---- memory sinks and sources (memio.h) ---- */

/* A pipe hands data over in odd amounts. */
static size_t
pipe_chop(size_t k)
{
	return 1 + (size_t)(rnd() % k);
}

/* A source over m: seekable (pread) or a pipe (read, in odd amounts). */
static struct aescrypt_source
source_of(struct mem *m, int seekable)
{
	m->chop = seekable ? NULL : pipe_chop;
	return mem_source(m, seekable);
}

static const uint8_t key1[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
static const uint8_t key2[32] = { 9, 9, 9 };

/* ---- streams ---- */

/* A stream of n bytes sealed to out with key (and kdf costs kept low
 * for passphrases). */
static int
seal_stream(struct mem *out, const uint8_t *data, size_t n, int codec,
    size_t step)
{
	aescrypt_writer *w = aescrypt_writer_new();
	size_t at;
	int st;

	memset(out, 0, sizeof *out);
	out->fail_after = -1;
	st = aescrypt_writer_add_key(w, key1);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_set_codec(w, codec);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_set_chunk_log2(w, 16);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, out);
	for (at = 0; st == AESCRYPT_OK && at < n; at += step)
		st = aescrypt_writer_write(w, data + at, n - at < step ? n - at
		    : step);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_close(w);
	if (st != AESCRYPT_OK)
		fprintf(stderr, "seal_stream: %s\n", aescrypt_writer_error(w));
	aescrypt_writer_free(w);
	return st;
}

/* Open src with key and read the stream to its end into got (cap
 * bytes); the status of the first failure, or OK with *n. */
static int
open_stream(struct aescrypt_source *src, const uint8_t *key, uint8_t *got,
    size_t cap, size_t *n)
{
	aescrypt_reader *r = aescrypt_reader_new();
	size_t k;
	int st;

	*n = 0;
	st = aescrypt_reader_add_key(r, key);
	if (st == AESCRYPT_OK)
		st = aescrypt_reader_set_threads(r, 2);
	if (st == AESCRYPT_OK)
		st = aescrypt_reader_open(r, src);
	while (st == AESCRYPT_OK) {
		st = aescrypt_reader_read(r, got + *n, cap - *n < 7777 ?
		    cap - *n : 7777, &k);
		if (st != AESCRYPT_OK || k == 0)
			break;
		*n += k;
		if (*n == cap) {
			/* one more read must see the end (or a failure) */
			uint8_t extra[1];

			st = aescrypt_reader_read(r, extra, 1, &k);
			if (st == AESCRYPT_OK && k != 0)
				st = AESCRYPT_EFORMAT;
			break;
		}
	}
	if (st < 0 && aescrypt_reader_error(r)[0] == '\0')
		st = 99;        /* a failure must say why */
	aescrypt_reader_free(r);
	return st;
}

static void
test_streams(void)
{
	static const size_t sizes[] = { 0, 1, 65535, 65536, 65537, 300001 };
	size_t i, n, cut;
	struct mem m;
	struct aescrypt_source s;
	uint8_t *data = malloc(300001), *back = malloc(300001);

	for (i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		int codec = i % 2 ? AESCRYPT_CODEC_ZSTD : AESCRYPT_CODEC_DEFLATE;

		fill(data, sizes[i], i % 3 == 0);
		if (seal_stream(&m, data, sizes[i], codec, 1 + i * 4099)
		    == AESCRYPT_ENOTSUP) {
			t_skip("no zstd in this build");
			continue;
		}
		s = source_of(&m, i % 2);
		CHECK(open_stream(&s, key1, back, sizes[i], &n) == AESCRYPT_OK
		    && n == sizes[i] && memcmp(back, data, n) == 0,
		    "a stream of %zu bytes round-trips", sizes[i]);
		s = source_of(&m, 0);
		CHECK(open_stream(&s, key2, back, sizes[i], &n) == AESCRYPT_EKEY
		    && n == 0, "another key opens nothing (%zu)", sizes[i]);
		/* every cut ends in an error, never in a clean end */
		if (sizes[i] == 65537)
			for (cut = 0; cut < m.len; cut += 1 + cut / 16) {
				size_t whole = m.len;
				int st;

				m.len = cut;
				s = source_of(&m, cut % 2);
				st = open_stream(&s, key1, back, sizes[i], &n);
				m.len = whole;
				CHECK(st < 0 && st != 99, "a stream cut at %zu of %zu "
				    "fails (%d)", cut, whole, st);
			}
		free(m.p);
	}
	free(data);
	free(back);
}

/* Every byte of a small stream changed in turn: each change is an
 * error with a message, none a success. */
static void
test_stream_damage(void)
{
	uint8_t data[3000], back[3000];
	struct mem m;
	struct aescrypt_source s;
	size_t i, n, bad = 0;
	int st;

	fill(data, sizeof data, 0);
	if (seal_stream(&m, data, sizeof data, AESCRYPT_CODEC_DEFLATE, 999)
	    != AESCRYPT_OK) {
		CHECK(0, "sealing the damage test's stream");
		return;
	}
	for (i = 0; i < m.len; i++) {
		m.p[i] ^= (uint8_t)(1u << (i % 8));
		s = source_of(&m, i % 2);
		st = open_stream(&s, key1, back, sizeof back, &n);
		m.p[i] ^= (uint8_t)(1u << (i % 8));
		if (st >= 0 || st == 99)
			bad++;
	}
	CHECK(bad == 0, "%zu of %zu one-bit changes were taken or unexplained",
	    bad, m.len);
	free(m.p);
}

/* ---- the states and arguments calls may not be made with ---- */

static void
test_states(void)
{
	aescrypt_writer *w = aescrypt_writer_new();
	aescrypt_reader *r = aescrypt_reader_new();
	struct aescrypt_entry e;
	struct mem m = { 0 };
	uint8_t b[4];
	size_t got;
	uint64_t n;

	m.fail_after = -1;
	CHECK(aescrypt_writer_write(w, "x", 1) == AESCRYPT_ESTATE,
	    "write before open");
	CHECK(aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, &m)
	    == AESCRYPT_EINVAL && aescrypt_writer_error(w)[0] != '\0',
	    "open without a key");
	CHECK(aescrypt_writer_add_passphrase(w, "", 0) == AESCRYPT_EINVAL,
	    "an empty passphrase");
	CHECK(aescrypt_writer_set_level(w, 10) == AESCRYPT_EINVAL, "level 10");
	CHECK(aescrypt_writer_set_threads(w, 0) == AESCRYPT_EINVAL, "0 threads");
	CHECK(aescrypt_writer_set_chunk_log2(w, 15) == AESCRYPT_EINVAL,
	    "2^15-byte chunks");
	CHECK(aescrypt_writer_set_kdf(w, 0, 1024, 1) == AESCRYPT_EINVAL,
	    "Argon2id with no passes");
	CHECK(aescrypt_writer_add_recipient(w, "age1qqqq") == AESCRYPT_EFORMAT,
	    "a malformed recipient");
	CHECK(aescrypt_writer_add_recipient(w, "AGE-SECRET-KEY-1QQQQ")
	    == AESCRYPT_EINVAL && strstr(aescrypt_writer_error(w), "QQQQ")
	    == NULL, "a secret key as a recipient, not echoed");
	CHECK(aescrypt_writer_add_key(w, key1) == AESCRYPT_OK, "a key");
	CHECK(aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, &m)
	    == AESCRYPT_OK, "open");
	CHECK(aescrypt_writer_add_key(w, key2) == AESCRYPT_ESTATE,
	    "a key after open");
	e.path = "a";
	e.type = AESCRYPT_FILE;
	e.size = 0;
	CHECK(aescrypt_writer_add_entry(w, &e, NULL, 0) == AESCRYPT_ESTATE,
	    "a member in a stream");
	CHECK(aescrypt_writer_close(w) == AESCRYPT_OK, "close");
	CHECK(aescrypt_writer_write(w, "x", 1) == AESCRYPT_ESTATE,
	    "write after close");
	aescrypt_writer_free(w);

	CHECK(aescrypt_reader_read(r, b, sizeof b, &got) == AESCRYPT_ESTATE,
	    "read before open");
	CHECK(aescrypt_reader_kind(r) == AESCRYPT_ESTATE, "kind before open");
	CHECK(aescrypt_reader_add_key(r, key1) == AESCRYPT_OK, "reader key");
	{
		struct aescrypt_source s = source_of(&m, 1);

		CHECK(aescrypt_reader_open(r, &s) == AESCRYPT_OK
		    && aescrypt_reader_kind(r) == AESCRYPT_STREAM, "open");
	}
	CHECK(aescrypt_reader_next(r, &e) == AESCRYPT_ESTATE, "next on a stream");
	CHECK(aescrypt_reader_count(r, &n) == AESCRYPT_ENOTSUP,
	    "random access to a stream");
	CHECK(aescrypt_reader_read(r, b, sizeof b, &got) == AESCRYPT_OK
	    && got == 0, "an empty stream reads as its end");
	aescrypt_reader_free(r);
	free(m.p);

	/* a sink that fails: close says so */
	w = aescrypt_writer_new();
	memset(&m, 0, sizeof m);
	m.fail_after = 1;           /* the header, then nothing */
	aescrypt_writer_add_key(w, key1);
	CHECK(aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, &m)
	    == AESCRYPT_OK, "open with a sink that will fail");
	CHECK(aescrypt_writer_write(w, key1, sizeof key1) == AESCRYPT_OK,
	    "the bytes are taken");
	CHECK(aescrypt_writer_close(w) == AESCRYPT_EIO
	    && aescrypt_writer_error(w)[0] != '\0', "close reports the sink's "
	    "failure: %s", aescrypt_writer_error(w));
	aescrypt_writer_free(w);
	free(m.p);

	CHECK(strcmp(aescrypt_strerror(AESCRYPT_EAUTH), "authentication "
	    "failed") == 0 && strcmp(aescrypt_strerror(12345), "unknown "
	    "error") == 0, "strerror");
	CHECK(aescrypt_version_number() == AESCRYPT_VERSION_NUMBER
	    && aescrypt_version_string()[0] != '\0', "versions");
	CHECK(aescrypt_entry_size() == sizeof(struct aescrypt_entry)
	    && aescrypt_source_size() == sizeof(struct aescrypt_source)
	    && aescrypt_stats_size() == sizeof(struct aescrypt_stats)
	    && aescrypt_info_size() == sizeof(struct aescrypt_info),
	    "struct sizes");
}



/* OpenSSH keys as identities and recipients: a plain one, and one under
 * a passphrase (ssh-keygen -N pw -a 2, made for this test). */
static const char ssh_plain[] =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACAtxxWhMtSQhtN1rDowbD30BvWKEK0ighmBT82wxzumcwAAAIh8MxVhfDMV\n"
    "YQAAAAtzc2gtZWQyNTUxOQAAACAtxxWhMtSQhtN1rDowbD30BvWKEK0ighmBT82wxzumcw\n"
    "AAAEAjk01LaVqH5mKwxszzPq5oYJm6VpWc/qtH3JqWp0w8lS3HFaEy1JCG03WsOjBsPfQG\n"
    "9YoQrSKCGYFPzbDHO6ZzAAAABHRlc3QB\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
static const char ssh_plain_pub[] = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC3HF"
    "aEy1JCG03WsOjBsPfQG9YoQrSKCGYFPzbDHO6Zz test";
static const char ssh_prot[] =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABAnfutPoK\n"
    "i+I8dPNRn6Y+lmAAAAAgAAAAEAAAAzAAAAC3NzaC1lZDI1NTE5AAAAIEWwgScg002376y9\n"
    "DlinoSytQCugo8HuTpNrYLDjGGqFAAAAkBXO+eX3V0KYK/U7dSScad9R2LWsFtkQoRJhoI\n"
    "ZbEEijkL8dMA0lI7LX3hRmgwyjKCPlQIL+ehHmSPLSGJSWcFVnG5LaBQdigiChQtmM+kWi\n"
    "6FbwLDjof5bCf3uQb1qWBTEaxTYhkDdgLoKwq5WWnOkc6CWkbh1u2uTGnQDuK7m+FxKU/B\n"
    "qLhH0Uvo3EdBToKA==\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
static const char ssh_prot_pub[] = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEWwg"
    "Scg002376y9DlinoSytQCugo8HuTpNrYLDjGGqF test";

/* A stream to two SSH recipients; each private key opens it. */
static void
test_ssh_keys(void)
{
	aescrypt_writer *w = aescrypt_writer_new();
	aescrypt_reader *r;
	struct aescrypt_source s;
	struct mem m = { 0 };
	char b[8];
	size_t got;
	int which;

	m.fail_after = -1;
	CHECK(aescrypt_writer_add_recipient(w, ssh_plain_pub) == AESCRYPT_OK
	    && aescrypt_writer_add_recipient(w, ssh_prot_pub) == AESCRYPT_OK,
	    "ssh-ed25519 recipients: %s", aescrypt_writer_error(w));
	if (aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, &m)
	    == AESCRYPT_OK && aescrypt_writer_write(w, "ssh", 3) == AESCRYPT_OK)
		aescrypt_writer_close(w);
	aescrypt_writer_free(w);
	for (which = 0; which < 2; which++) {
		const char *k = which ? ssh_prot : ssh_plain;

		r = aescrypt_reader_new();
		if (which) {
			CHECK(aescrypt_reader_add_identity(r, k, strlen(k), NULL, 0)
			    == AESCRYPT_EKEY, "a protected key without its "
			    "passphrase");
			CHECK(aescrypt_reader_add_identity(r, k, strlen(k), "no", 2)
			    == AESCRYPT_EKEY, "a protected key with a wrong one");
			CHECK(aescrypt_reader_add_identity(r, k, strlen(k), "pw", 2)
			    == AESCRYPT_OK, "a protected key with its passphrase: "
			    "%s", aescrypt_reader_error(r));
		} else {
			CHECK(aescrypt_reader_add_identity(r, k, strlen(k), NULL, 0)
			    == AESCRYPT_OK, "a plain OpenSSH key: %s",
			    aescrypt_reader_error(r));
		}
		s = source_of(&m, which);
		got = 0;
		CHECK(aescrypt_reader_open(r, &s) == AESCRYPT_OK
		    && aescrypt_reader_read(r, b, sizeof b, &got) == AESCRYPT_OK
		    && got == 3 && memcmp(b, "ssh", 3) == 0, "opened by ssh key "
		    "%d: %s", which, aescrypt_reader_error(r));
		aescrypt_reader_free(r);
	}
	free(m.p);
}

/* ---- progress, stats and inspection ---- */

struct ticks {
	unsigned calls;
	uint64_t last_plain, last_wire;
	int backwards;
};

static void
tick(void *ctx, uint64_t plain, uint64_t wire)
{
	struct ticks *t = ctx;

	if (plain < t->last_plain || wire < t->last_wire)
		t->backwards = 1;
	t->last_plain = plain;
	t->last_wire = wire;
	t->calls++;
}

static void
test_progress_stats_inspect(void)
{
	static uint8_t data[300000], back[300000];
	struct ticks wt = { 0 }, rt = { 0 };
	struct aescrypt_stats st;
	struct aescrypt_info info;
	struct aescrypt_source s;
	aescrypt_writer *w = aescrypt_writer_new();
	aescrypt_reader *r = aescrypt_reader_new();
	struct mem m = { 0 };
	char err[200];
	size_t got, n = 0;
	int e;

	fill(data, sizeof data, 1);
	m.fail_after = -1;
	aescrypt_writer_add_key(w, key1);
	aescrypt_writer_add_passphrase(w, "pw", 2);
	aescrypt_writer_set_kdf(w, 2, 64, 1);
	aescrypt_writer_set_chunk_log2(w, 16);
	CHECK(aescrypt_writer_set_progress(w, tick, &wt) == AESCRYPT_OK,
	    "a progress function");
	aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, &m);
	CHECK(aescrypt_writer_stats(w, &st) == AESCRYPT_ESTATE,
	    "no stats before close");
	aescrypt_writer_write(w, data, sizeof data);
	CHECK(aescrypt_writer_close(w) == AESCRYPT_OK, "close");
	CHECK(aescrypt_writer_stats(w, &st) == AESCRYPT_OK
	    && st.plain_bytes == sizeof data && st.records == 5
	    && st.wire_bytes > 0 && st.wire_bytes < m.len && st.threads >= 1,
	    "the writer's stats: %llu plain, %llu records",
	    (unsigned long long)st.plain_bytes, (unsigned long long)st.records);
	CHECK(wt.calls == 5 && !wt.backwards && wt.last_plain == sizeof data
	    && wt.last_wire == st.wire_bytes, "progress after each record "
	    "(%u calls)", wt.calls);
	aescrypt_writer_free(w);

	s = source_of(&m, 0);
	CHECK(aescrypt_inspect(&s, &info, err, sizeof err) == AESCRYPT_OK
	    && info.kind == AESCRYPT_STREAM && info.codec == AESCRYPT_CODEC_DEFLATE
	    && info.chunk_log2 == 16 && !info.indexed && info.has_copy
	    && info.nslots == 2 && info.slot[0].type == AESCRYPT_SLOT_KEYFILE
	    && info.slot[1].type == AESCRYPT_SLOT_PASSPHRASE
	    && info.slot[1].kdf_t == 2 && info.slot[1].kdf_m_kib == 64
	    && info.slot[1].kdf_p == 1, "inspect: what the header says");
	m.p[0] ^= 1;
	s = source_of(&m, 1);
	CHECK(aescrypt_inspect(&s, &info, err, sizeof err) == AESCRYPT_EFORMAT
	    && err[0] != '\0', "inspect: not a header: %s", err);
	m.p[0] ^= 1;

	s = source_of(&m, 1);
	aescrypt_reader_add_passphrase(r, "pw", 2);
	aescrypt_reader_set_progress(r, tick, &rt);
	CHECK(aescrypt_reader_open(r, &s) == AESCRYPT_OK, "open by passphrase");
	CHECK(aescrypt_reader_stats(r, &st) == AESCRYPT_ESTATE,
	    "no stats before the end");
	/* (to the end: the last read asks for more than is left) */
	while ((e = aescrypt_reader_read(r, back + n, n < sizeof back ?
	    sizeof back - n : 1, &got)) == AESCRYPT_OK && got > 0
	    && n < sizeof back)
		n += got;
	CHECK(e == AESCRYPT_OK && n == sizeof data
	    && memcmp(back, data, n) == 0, "read back");
	CHECK(aescrypt_reader_stats(r, &st) == AESCRYPT_OK
	    && st.plain_bytes == sizeof data && st.records == 5,
	    "the reader's stats at the end");
	CHECK(rt.calls == 5 && !rt.backwards && rt.last_plain == sizeof data,
	    "the reader's progress (%u calls)", rt.calls);
	aescrypt_reader_free(r);
	free(m.p);
}

/* ---- archives ---- */

#define NFILES 40

struct tree {
	char name[NFILES][32];
	uint8_t *data[NFILES];
	size_t len[NFILES];
};

static void
tree_make(struct tree *t)
{
	size_t i;

	for (i = 0; i < NFILES; i++) {
		/* sizes across chunk boundaries: empty, tiny, several
		 * 64 KiB chunks */
		t->len[i] = i % 5 == 0 ? 0 : (size_t)(rnd() % (i % 3 ? 3000 :
		    200000));
		t->data[i] = malloc(t->len[i] + 1);
		fill(t->data[i], t->len[i], i % 2);
		snprintf(t->name[i], sizeof t->name[i], "d%zu/f%zu", i % 4, i);
	}
}

static void
tree_free(struct tree *t)
{
	size_t i;

	for (i = 0; i < NFILES; i++)
		free(t->data[i]);
}

/* The tree as an archive from memory (directories first, a symlink and
 * a FIFO too), to out; a passphrase slot as well as the key. */
static int
seal_tree(const struct tree *t, struct mem *out, int index)
{
	aescrypt_writer *w = aescrypt_writer_new();
	struct aescrypt_entry e;
	char dir[8];
	size_t i;
	int st;

	memset(out, 0, sizeof *out);
	out->fail_after = -1;
	st = aescrypt_writer_add_key(w, key1);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_add_passphrase(w, "pass word", 9);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_set_kdf(w, 1, 64, 1);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_set_chunk_log2(w, 16);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_set_index(w, index);
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_open(w, AESCRYPT_ARCHIVE, mem_write, out);
	memset(&e, 0, sizeof e);
	e.mode = 0755;
	e.mtime = 1700000000;
	for (i = 0; st == AESCRYPT_OK && i < 4; i++) {
		snprintf(dir, sizeof dir, "d%zu", i);
		e.path = dir;           /* (the writer adds the '/') */
		e.type = AESCRYPT_DIR;
		st = aescrypt_writer_add_entry(w, &e, NULL, 0);
	}
	e.mode = 0644;
	for (i = 0; st == AESCRYPT_OK && i < NFILES; i++) {
		e.path = t->name[i];
		e.type = AESCRYPT_FILE;
		e.size = t->len[i];
		st = aescrypt_writer_add_entry(w, &e, t->data[i], t->len[i]);
	}
	if (st == AESCRYPT_OK) {
		e.path = "d0/link";
		e.type = AESCRYPT_SYMLINK;
		e.linkpath = "f0";
		e.size = 0;
		st = aescrypt_writer_add_entry(w, &e, NULL, 0);
	}
	if (st == AESCRYPT_OK)
		st = aescrypt_writer_close(w);
	if (st != AESCRYPT_OK)
		fprintf(stderr, "seal_tree: %s\n", aescrypt_writer_error(w));
	aescrypt_writer_free(w);
	return st;
}

/* The members read in order match the tree.  The status of the run. */
static int
read_tree(const struct tree *t, struct aescrypt_source *s, int by_pass,
    size_t *files)
{
	aescrypt_reader *r = aescrypt_reader_new();
	struct aescrypt_entry e;
	uint8_t *buf = malloc(200001);
	size_t i, n, k;
	int st;

	*files = 0;
	st = by_pass ? aescrypt_reader_add_passphrase(r, "pass word", 9)
	    : aescrypt_reader_add_key(r, key1);
	if (st == AESCRYPT_OK)
		st = aescrypt_reader_open(r, s);
	while (st == AESCRYPT_OK && (st = aescrypt_reader_next(r, &e))
	    == AESCRYPT_OK) {
		if (e.type != AESCRYPT_FILE)
			continue;
		for (i = 0; i < NFILES && strcmp(t->name[i], e.path) != 0; i++)
			;
		n = 0;
		while ((st = aescrypt_reader_read(r, buf + n, 200001 - n, &k))
		    == AESCRYPT_OK && k > 0)
			n += k;
		if (st != AESCRYPT_OK)
			break;
		if (i < NFILES && n == t->len[i] && e.size == n
		    && memcmp(buf, t->data[i], n) == 0)
			(*files)++;
	}
	if (st < 0 && aescrypt_reader_error(r)[0] == '\0')
		st = 99;
	free(buf);
	aescrypt_reader_free(r);
	return st;
}

/* ---- random access from many threads ---- */

struct racer {
	aescrypt_reader *r;
	const struct tree *t;
	uint64_t seed;
	uint64_t index_of[NFILES];
	unsigned ok, bad;
};

static void *
race(void *arg)
{
	struct racer *x = arg;
	uint8_t buf[70000];
	uint64_t z = x->seed;
	unsigned k;

	for (k = 0; k < 60; k++) {
		size_t f, off, n, got;

		z = z * 6364136223846793005ull + 1442695040888963407ull;
		f = (size_t)(z >> 33) % NFILES;
		off = x->t->len[f] > 0 ? (size_t)((z >> 13) % (x->t->len[f]
		    + 10)) : 0;
		n = (size_t)((z >> 40) % sizeof buf);
		if (aescrypt_reader_pread(x->r, x->index_of[f], buf, n, off,
		    &got) != AESCRYPT_OK) {
			x->bad++;
			continue;
		}
		{
			size_t want = off >= x->t->len[f] ? 0 : x->t->len[f] - off
			    < n ? x->t->len[f] - off : n;

			if (got == want && (want == 0 || memcmp(buf,
			    x->t->data[f] + off, want) == 0))
				x->ok++;
			else
				x->bad++;
		}
	}
	return NULL;
}

static void
test_random_access(const struct tree *t, struct mem *m)
{
	struct aescrypt_source s = source_of(m, 1);
	aescrypt_reader *r = aescrypt_reader_new();
	struct racer x[8];
	pthread_t th[8];
	struct aescrypt_entry e;
	uint64_t n, i;
	unsigned k, ok = 0, bad = 0;
	int st;

	aescrypt_reader_add_key(r, key1);
	CHECK((st = aescrypt_reader_open(r, &s)) == AESCRYPT_OK, "open: %s",
	    aescrypt_reader_error(r));
	CHECK(aescrypt_reader_count(r, &n) == AESCRYPT_OK && n == 4 + NFILES
	    + 1, "the index counts every member (%llu)", (unsigned long long)n);
	CHECK(aescrypt_reader_find(r, "d1/", &i) == AESCRYPT_OK
	    && aescrypt_reader_entry(r, i, &e) == AESCRYPT_OK
	    && e.type == AESCRYPT_DIR && strcmp(e.path, "d1/") == 0,
	    "a directory found with its '/'");
	CHECK(aescrypt_reader_find(r, "d0/link", &i) == AESCRYPT_OK
	    && aescrypt_reader_entry(r, i, &e) == AESCRYPT_OK
	    && e.type == AESCRYPT_SYMLINK && strcmp(e.linkpath, "f0") == 0,
	    "a symlink and its target");
	CHECK(aescrypt_reader_find(r, "nothing", &i) == AESCRYPT_END,
	    "a name not there");
	memset(x, 0, sizeof x);
	for (k = 0; k < NFILES; k++)
		if (aescrypt_reader_find(r, t->name[k], &x[0].index_of[k])
		    != AESCRYPT_OK)
			CHECK(0, "%s is in the index", t->name[k]);
	for (k = 0; k < 8; k++) {
		memcpy(x[k].index_of, x[0].index_of, sizeof x[0].index_of);
		x[k].r = r;
		x[k].t = t;
		x[k].seed = rnd();
		if (pthread_create(&th[k], NULL, race, &x[k]) != 0)
			x[k].r = NULL;
	}
	for (k = 0; k < 8; k++) {
		if (x[k].r != NULL)
			pthread_join(th[k], NULL);
		ok += x[k].ok;
		bad += x[k].bad;
	}
	CHECK(bad == 0 && ok == 8 * 60, "8 threads, one handle: %u ranges "
	    "right, %u wrong", ok, bad);
	/* reading in order on the same handle, while the index is there */
	{
		size_t files;

		s = source_of(m, 1);
		CHECK(read_tree(t, &s, 0, &files) == AESCRYPT_END
		    && files == NFILES, "read in order too (%zu files)", files);
	}
	aescrypt_reader_free(r);
}

/* An archive without an index, or from a pipe: no random access, and
 * says why; reading in order works either way. */
static void
test_no_index(const struct tree *t)
{
	struct mem m;
	struct aescrypt_source s;
	aescrypt_reader *r;
	uint64_t n;
	size_t files;

	if (seal_tree(t, &m, 0) != AESCRYPT_OK) {
		CHECK(0, "sealing without an index");
		return;
	}
	s = source_of(&m, 1);
	r = aescrypt_reader_new();
	aescrypt_reader_add_key(r, key1);
	CHECK(aescrypt_reader_open(r, &s) == AESCRYPT_OK
	    && aescrypt_reader_count(r, &n) == AESCRYPT_ENOTSUP
	    && strstr(aescrypt_reader_error(r), "index") != NULL,
	    "no index: random access says why (%s)", aescrypt_reader_error(r));
	aescrypt_reader_free(r);
	s = source_of(&m, 0);
	CHECK(read_tree(t, &s, 1, &files) == AESCRYPT_END && files == NFILES,
	    "without an index, from a pipe, by passphrase: %zu files", files);
	free(m.p);
}

/* Cuts and changed bytes of an archive: never a clean end, never a
 * crash; random access on a damaged file fails where it touches the
 * damage. */
static void
test_archive_damage(const struct tree *t, struct mem *m)
{
	struct aescrypt_source s;
	size_t files, at, whole = m->len, taken = 0, tries = 0;
	int st;

	for (at = 0; at < whole; at += 1 + (size_t)(rnd() % (whole / 64))) {
		m->len = at;
		s = source_of(m, at % 2);
		st = read_tree(t, &s, 0, &files);
		tries++;
		if (st == AESCRYPT_END || st == 99)
			taken++;
	}
	m->len = whole;
	for (at = 0; at < whole; at += 1 + (size_t)(rnd() % (whole / 64))) {
		m->p[at] ^= 0x20;
		s = source_of(m, at % 2);
		st = read_tree(t, &s, 0, &files);
		m->p[at] ^= 0x20;
		tries++;
		if (st == AESCRYPT_END || st == 99)
			taken++;
	}
	CHECK(taken == 0, "%zu of %zu cut or changed archives read to a clean "
	    "end or failed without a message", taken, tries);
}

/* ---- files on disk ---- */

static char tmp[256];

static int
same_file(const char *path, const uint8_t *data, size_t n)
{
	uint8_t *buf = malloc(n + 1);
	int fd = open(path, O_RDONLY), same = 0;
	ssize_t got;

	if (fd >= 0 && buf != NULL) {
		got = read(fd, buf, n + 1);
		same = got == (ssize_t)n && memcmp(buf, data, n) == 0;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return same;
}

static void
test_disk(const struct tree *t, struct mem *m)
{
	char path[1400], out[300];
	aescrypt_writer *w;
	aescrypt_reader *r;
	struct aescrypt_entry e;
	struct aescrypt_source s;
	struct stat st;
	size_t i, good = 0;
	int fd;

	/* extract the memory-made archive */
	snprintf(out, sizeof out, "%s/x", tmp);
	mkdir(out, 0700);
	s = source_of(m, 0);
	r = aescrypt_reader_new();
	aescrypt_reader_add_key(r, key1);
	CHECK(aescrypt_reader_open(r, &s) == AESCRYPT_OK
	    && aescrypt_reader_extract(r, out, 0) == AESCRYPT_OK
	    && !aescrypt_reader_partial(r), "extract: %s",
	    aescrypt_reader_error(r));
	aescrypt_reader_free(r);
	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof path, "%s/%s", out, t->name[i]);
		good += same_file(path, t->data[i], t->len[i]);
	}
	CHECK(good == NFILES, "%zu of %d files extracted right", good, NFILES);
	snprintf(path, sizeof path, "%s/d0/link", out);
	CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "the symlink");

	/* a changed byte in the middle of the payload: the run ends with the
	 * record's failure, said, and every file that got its name is whole
	 * (the ones in and after the damaged record never do) */
	{
		char bad[300];
		size_t whole = 0, named = 0;
		int st2;

		snprintf(bad, sizeof bad, "%s/bad", tmp);
		mkdir(bad, 0700);
		m->p[m->len / 2] ^= 0x10;
		s = source_of(m, 0);
		r = aescrypt_reader_new();
		aescrypt_reader_add_key(r, key1);
		st2 = aescrypt_reader_open(r, &s);
		if (st2 == AESCRYPT_OK)
			st2 = aescrypt_reader_extract(r, bad, 0);
		CHECK(st2 == AESCRYPT_EAUTH && strstr(aescrypt_reader_error(r),
		    "failed authentication") != NULL, "extracting a damaged "
		    "archive fails, and says where: %d %s", st2,
		    aescrypt_reader_error(r));
		aescrypt_reader_free(r);
		m->p[m->len / 2] ^= 0x10;
		for (i = 0; i < NFILES; i++) {
			snprintf(path, sizeof path, "%s/%s", bad, t->name[i]);
			if (lstat(path, &st) != 0)
				continue;
			named++;
			whole += same_file(path, t->data[i], t->len[i]);
		}
		CHECK(named == whole && named < NFILES, "%zu files named, %zu "
		    "whole, of %d", named, whole, NFILES);
	}

	/* the extracted tree archived again by path, to a path */
	snprintf(path, sizeof path, "%s/again.aes", tmp);
	w = aescrypt_writer_new();
	aescrypt_writer_add_key(w, key1);
	CHECK(aescrypt_writer_open_path(w, AESCRYPT_ARCHIVE, path)
	    == AESCRYPT_OK, "open a path");
	CHECK(stat(path, &st) != 0, "nothing at the name before close");
	CHECK(aescrypt_writer_add_path(w, out) == AESCRYPT_OK, "add a tree: %s",
	    aescrypt_writer_error(w));
	snprintf(out, sizeof out, "%s/missing", tmp);
	CHECK(aescrypt_writer_add_path(w, out) == AESCRYPT_EIO
	    && strstr(aescrypt_writer_error(w), "missing") != NULL,
	    "a missing path is the caller's error: %s",
	    aescrypt_writer_error(w));
	CHECK(aescrypt_writer_close(w) == AESCRYPT_OK && stat(path, &st) == 0
	    && S_ISREG(st.st_mode), "close moves it into place");
	aescrypt_writer_free(w);
	r = aescrypt_reader_new();
	aescrypt_reader_add_key(r, key1);
	good = 0;
	if (aescrypt_reader_open_path(r, path) == AESCRYPT_OK)
		while (aescrypt_reader_next(r, &e) == AESCRYPT_OK)
			good += e.type == AESCRYPT_FILE;
	CHECK(good == NFILES, "the tree by path holds %zu files", good);
	aescrypt_reader_free(r);

	/* a writer freed before close leaves nothing at the name */
	snprintf(path, sizeof path, "%s/dropped.aes", tmp);
	w = aescrypt_writer_new();
	aescrypt_writer_add_key(w, key1);
	aescrypt_writer_open_path(w, AESCRYPT_STREAM, path);
	aescrypt_writer_write(w, "abc", 3);
	aescrypt_writer_free(w);
	CHECK(stat(path, &st) != 0, "a writer freed open leaves no file");

	/* a member may not leave the archive's root */
	w = aescrypt_writer_new();
	aescrypt_writer_add_key(w, key1);
	snprintf(path, sizeof path, "%s/bad.aes", tmp);
	aescrypt_writer_open_path(w, AESCRYPT_ARCHIVE, path);
	memset(&e, 0, sizeof e);
	e.type = AESCRYPT_FILE;
	e.path = "../escape";
	CHECK(aescrypt_writer_add_entry(w, &e, NULL, 0) == AESCRYPT_EINVAL,
	    "a '..' member name is refused");
	e.path = "/etc/escape";
	CHECK(aescrypt_writer_add_entry(w, &e, NULL, 0) == AESCRYPT_EINVAL,
	    "an absolute member name is refused");
	aescrypt_writer_free(w);

	/* the descriptor forms */
	snprintf(path, sizeof path, "%s/fd.aes", tmp);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	w = aescrypt_writer_new();
	aescrypt_writer_add_key(w, key2);
	CHECK(aescrypt_writer_open_fd(w, AESCRYPT_STREAM, fd) == AESCRYPT_OK
	    && aescrypt_writer_write(w, "hello", 5) == AESCRYPT_OK
	    && aescrypt_writer_close(w) == AESCRYPT_OK, "a stream to a "
	    "descriptor");
	aescrypt_writer_free(w);
	lseek(fd, 0, SEEK_SET);
	r = aescrypt_reader_new();
	aescrypt_reader_add_key(r, key2);
	{
		char b[8];
		size_t got = 0;

		CHECK(aescrypt_reader_open_fd(r, fd) == AESCRYPT_OK
		    && aescrypt_reader_read(r, b, sizeof b, &got) == AESCRYPT_OK
		    && got == 5 && memcmp(b, "hello", 5) == 0, "and back");
	}
	aescrypt_reader_free(r);
	close(fd);
}

/* An age identity file's text as a reader's key, and its recipient as a
 * writer's. */
static void
test_identities(void)
{
	/* (a pair age-keygen made for this test: no secret of anyone's) */
	static const char id[] = "# a comment\n\nAGE-SECRET-KEY-1P5NC9ETY62999"
	    "JHQ4RR3AWA0N0E2EF9Z6XENKDSN99F7TJN37ARQ365JF7\r\n";
	static const char rcp[] = "age193ge2plludxuu9k5k8f9hsk54k768f5l4w6kr069"
	    "8g2awyl7t3mshkm7cp";
	aescrypt_writer *w = aescrypt_writer_new();
	aescrypt_reader *r = aescrypt_reader_new();
	struct mem m = { 0 };
	struct aescrypt_source s;
	char b[8];
	size_t got = 0;
	int st;

	m.fail_after = -1;
	st = aescrypt_writer_add_recipient(w, rcp);
	CHECK(st == AESCRYPT_OK, "an age recipient: %s",
	    aescrypt_writer_error(w));
	if (st == AESCRYPT_OK
	    && aescrypt_writer_open(w, AESCRYPT_STREAM, mem_write, &m)
	    == AESCRYPT_OK && aescrypt_writer_write(w, "age", 3) == AESCRYPT_OK)
		aescrypt_writer_close(w);
	aescrypt_writer_free(w);
	CHECK(aescrypt_reader_add_identity(r, "# nothing\n", 10, NULL, 0)
	    == AESCRYPT_EFORMAT, "text with no identity");
	CHECK(aescrypt_reader_add_identity(r, id, sizeof id - 1, NULL, 0)
	    == AESCRYPT_OK, "an identity file: %s", aescrypt_reader_error(r));
	s = source_of(&m, 0);
	CHECK(aescrypt_reader_open(r, &s) == AESCRYPT_OK
	    && aescrypt_reader_read(r, b, sizeof b, &got) == AESCRYPT_OK
	    && got == 3 && memcmp(b, "age", 3) == 0, "opened by the identity: "
	    "%s", aescrypt_reader_error(r));
	aescrypt_reader_free(r);
	free(m.p);
}

int
main(int argc, char **argv)
{
	struct tree t;
	struct mem m;
	const char *env = getenv("AE_TEST_SEED");

	(void)argc;
	(void)argv;
	if (env != NULL)
		seed = strtoull(env, NULL, 10);
	printf("test_lib: seed %llu (AE_TEST_SEED)\n", (unsigned long long)seed);
	snprintf(tmp, sizeof tmp, "%s/aescrypt-lib.XXXXXX", getenv("TMPDIR")
	    != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_states();
	test_identities();
	test_ssh_keys();
	test_streams();
	test_stream_damage();
	test_progress_stats_inspect();
	tree_make(&t);
	if (seal_tree(&t, &m, 1) == AESCRYPT_OK) {
		size_t files;
		struct aescrypt_source s = source_of(&m, 0);

		CHECK(read_tree(&t, &s, 0, &files) == AESCRYPT_END
		    && files == NFILES, "an archive from memory, from a pipe: "
		    "%zu files", files);
		test_random_access(&t, &m);
		test_disk(&t, &m);
		test_archive_damage(&t, &m);
		free(m.p);
	} else {
		CHECK(0, "sealing the tree");
	}
	test_no_index(&t);
	tree_free(&t);
	{
		char cmd[300];

		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
		if (system(cmd) != 0)
			fprintf(stderr, "test_lib: could not remove %s\n", tmp);
	}
	return t_finish("test_lib");
}
