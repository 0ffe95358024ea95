/*
 * age.c -- aescrypt_age: an age v1 file read (contracts in aescrypt.h,
 * below AESCRYPT_STATIC_LINKING_ONLY): its header without a key, its
 * file key from a key list's identities or a passphrase, and its
 * payload on the chunk pipeline's threads (age's chunks are
 * independent).  The format's rules are container/age*.c's.
 */
#include "config.h"

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "common/wipe.h"
#include "container/agearmor.h"
#include "container/agehdr.h"
#include "container/agekey.h"
#include "container/agestream.h"
#include "container/sniff.h"
#include "crypto/scrypt.h"
#include "ageplugin.h"
#include "keyring.h"
#include "sink.h"
#include "archive/unzip.h"
#include "pipeline/chan.h"
#include "pipeline/pipeline.h"
#include "source.h"
#include "threads.h"

_Static_assert(AESCRYPT_AGE_NONCE_LEN == AE_AGE_NONCE_LEN
    && AESCRYPT_AGE_RECORD == AE_AGE_RECORD
    && AESCRYPT_AGE_WORK_FACTOR_DEFAULT == AE_AGE_SCRYPT_LOG_N_DEFAULT
    && AESCRYPT_AGE_WORK_FACTOR_MAX <= AE_SCRYPT_LOG_N_MAX, "age sizes");

struct aescrypt_age {
	struct source src;
	struct ae_age_armor armor;
	struct ae_reader armored;   /* src through the armor */
	struct ae_age_input in;     /* the binary file, buffered */
	struct ae_age_header h;
	int armored_input, opened, unlocked;
	unsigned threads;
	int timed;
	const _Atomic int *interrupt;
	_Atomic int *cancel;
	uint8_t nonce[AE_AGE_NONCE_LEN];
	uint8_t payload_key[32];
	struct ae_pipe_stats st;
	/* a raw run: the payload on a thread of its own into chan, read
	 * by the caller through unzip */
	struct ae_chan chan;
	struct ae_reader chan_rd;
	struct ae_unzip *unzip;
	struct ae_reader plain;
	pthread_t thread;
	int raw_started, raw_rc, unzip_rc, unzip_kind;
	struct ae_diag raw_d;
	struct aescrypt_age_plugin_ui ui;
	int have_ui;
	char plugin_err[512];
};

aescrypt_age *
aescrypt_age_new(void)
{
	aescrypt_age *a = ae_secret_alloc(sizeof *a);

	if (a != NULL)
		a->threads = ae_lib_default_threads();
	return a;
}

void
aescrypt_age_free(aescrypt_age *a)
{
	if (a == NULL)
		return;
	if (a->raw_started)
		(void)aescrypt_age_raw_end(a, 1, NULL, NULL);
	ae_age_header_free(&a->h);
	ae_secret_free(a, sizeof *a);
}

int
aescrypt_age_set_threads(aescrypt_age *a, unsigned threads)
{
	if (a == NULL || threads < 1 || threads > AE_PIPE_MAX_THREADS)
		return AESCRYPT_EINVAL;
	a->threads = threads;
	return AESCRYPT_OK;
}

int
aescrypt_age_set_timed(aescrypt_age *a, int on)
{
	if (a == NULL)
		return AESCRYPT_EINVAL;
	a->timed = on != 0;
	return AESCRYPT_OK;
}

int
aescrypt_age_set_signals(aescrypt_age *a, const _Atomic int *interrupt,
    _Atomic int *cancel)
{
	if (a == NULL)
		return AESCRYPT_EINVAL;
	a->interrupt = interrupt;
	a->cancel = cancel;
	return AESCRYPT_OK;
}

int
aescrypt_age_set_plugin_ui(aescrypt_age *a,
    const struct aescrypt_age_plugin_ui *ui)
{
	if (a == NULL)
		return AESCRYPT_EINVAL;
	a->have_ui = ui != NULL;
	if (ui != NULL)
		a->ui = *ui;
	return AESCRYPT_OK;
}

const char *
aescrypt_age_plugin_error(const aescrypt_age *a)
{
	return a != NULL ? a->plugin_err : "";
}

/*
 * The file key from k's plugin identities, one plugin at a time (each
 * given all of its own): the first that gives one whose MAC holds.
 * AE_EKEY when none did (a->plugin_err: the last plugin's words).
 */
static int
plugins(aescrypt_age *a, const aescrypt_keys *k,
    uint8_t file_key[AE_AGE_FILE_KEY_LEN], struct ae_diag *d)
{
	char *const *ids, name[80], other[80];
	char *mine[AESCRYPT_AGE_PLUGINS_MAX];
	size_t n, i, j, m;
	int r;

	n = ae_lib_keys_plugins(k, &ids);
	for (i = 0; i < n; i++) {
		if (ae_lib_plugin_name(ids[i], name, sizeof name) != 0)
			continue;
		/* (each plugin once: with every identity of its name) */
		for (j = 0; j < i; j++)
			if (ae_lib_plugin_name(ids[j], other, sizeof other) == 0
			    && strcmp(name, other) == 0)
				break;
		if (j < i)
			continue;
		for (m = 0, j = i; j < n; j++)
			if (ae_lib_plugin_name(ids[j], other, sizeof other) == 0
			    && strcmp(name, other) == 0)
				mine[m++] = ids[j];
		r = ae_lib_plugin_unwrap(name, mine, m, &a->h, a->have_ui ?
		    &a->ui : NULL, file_key, a->plugin_err,
		    sizeof a->plugin_err);
		if (r == AE_OK) {
			if (ae_age_header_check_mac(&a->h, file_key) == AE_OK)
				return AE_OK;
			ae_wipe(file_key, AE_AGE_FILE_KEY_LEN);
			snprintf(a->plugin_err, sizeof a->plugin_err,
			    "age-plugin-%s gave a file key that fails the "
			    "header's MAC", name);
			return ae_fail(d, AE_EAUTH, AE_AT_HEADER, "has a MAC "
			    "that the file key a plugin gave does not match: "
			    "the plugin is wrong, or the header was changed", 0,
			    0);
		}
		if (r == AE_ENOMEM)
			return ae_fail(d, r, AE_AT_NONE, "out of memory", 0, 0);
	}
	/* (a plugin that is missing, hung or broke the protocol opened
	 * nothing: its words are in plugin_err) */
	return ae_fail(d, AE_EKEY, AE_AT_HEADER, "has no stanza that the "
	    "plugins given open", 0, 0);
}

const char *
aescrypt_age_armor_error(const aescrypt_age *a)
{
	return a != NULL && a->armored_input && a->armor.err == AE_EFORMAT ?
	    a->armor.why : NULL;
}

/* A failure as the armor saw it, when it was the armor's. */
static int
armor_or(aescrypt_age *a, int r, struct ae_diag *d)
{
	if (aescrypt_age_armor_error(a) != NULL)
		return ae_fail(d, AE_EFORMAT, AE_AT_INPUT, a->armor.why, 0,
		    a->armor.line);
	return r;
}

int
aescrypt_age_open(aescrypt_age *a, const struct aescrypt_source *s,
    struct ae_diag *d)
{
	size_t n = 0;
	int r;

	if (a == NULL || s == NULL || d == NULL || a->opened)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	if (ae_lib_source_callbacks(&a->src, s) != AE_OK)
		return AESCRYPT_EINVAL;
	a->in.src = &a->src.seq;
	/* the first bytes say armored or not (container/sniff.c: also
	 * text meant as armor, so that its failure is the armor's): they
	 * are read into the buffer, so nothing is read twice */
	while (a->in.len < AESCRYPT_SNIFF_LEN && !a->in.eof) {
		if ((r = a->src.seq.read(a->src.seq.ctx, a->in.buf + a->in.len,
		    AESCRYPT_SNIFF_LEN - a->in.len, &n)) != AE_OK)
			return ae_fail(d, r, AE_AT_INPUT, "reading the input",
			    0, a->in.len);
		if (n == 0)
			a->in.eof = 1;
		a->in.len += n;
	}
	if (ae_sniff(a->in.buf, a->in.len) == AE_KIND_AGE_ARMOR) {
		/* armored: the armor reads what was buffered, then the
		 * source; the binary file is buffered from the armor */
		ae_age_armor_init(&a->armor, &a->src.seq);
		memcpy(a->armor.in, a->in.buf, a->in.len);
		a->armor.ilen = a->in.len;
		a->armor.ieof = a->in.eof;
		ae_age_armor_reader(&a->armor, &a->armored);
		memset(&a->in, 0, sizeof a->in);
		a->in.src = &a->armored;
		a->armored_input = 1;
	}
	if ((r = ae_age_header_read(&a->in, &a->h, d)) != AE_OK)
		return armor_or(a, r, d);
	a->opened = 1;
	return AESCRYPT_OK;
}

int
aescrypt_age_info(const aescrypt_age *a, struct aescrypt_age_info *i)
{
	size_t k;

	if (a == NULL || i == NULL || !a->opened)
		return AESCRYPT_EINVAL;
	memset(i, 0, sizeof *i);
	i->armored = a->armored_input;
	i->stanzas = a->h.n;
	i->header_len = a->h.rawlen;
	i->passphrase = ae_age_has_scrypt(&a->h);
	i->postquantum = a->h.n > 0;
	for (k = 0; k < a->h.n; k++)
		if (strcmp(a->h.st[k].arg[0], "mlkem768x25519") != 0)
			i->postquantum = 0;
	return AESCRYPT_OK;
}

const char *
aescrypt_age_stanza(const aescrypt_age *a, size_t i, size_t *nargs,
    size_t *bodylen)
{
	if (a == NULL || !a->opened || i >= a->h.n)
		return NULL;
	if (nargs != NULL)
		*nargs = a->h.st[i].nargs - 1;
	if (bodylen != NULL)
		*bodylen = a->h.st[i].bodylen;
	return a->h.st[i].arg[0];
}

int
aescrypt_age_count_payload(aescrypt_age *a, uint64_t *bytes,
    struct ae_diag *d)
{
	struct ae_reader rd;
	uint8_t buf[16384];
	size_t got;
	int r;

	if (a == NULL || bytes == NULL || d == NULL || !a->opened
	    || a->unlocked)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	*bytes = 0;
	ae_age_input_reader(&a->in, &rd);
	do {
		if ((r = rd.read(rd.ctx, buf, sizeof buf, &got)) != AE_OK)
			return armor_or(a, ae_fail(d, r, AE_AT_INPUT,
			    "reading the input", 0, a->in.consumed), d);
		*bytes += got;
	} while (got > 0);
	return AESCRYPT_OK;
}

int
aescrypt_age_unlock(aescrypt_age *a, const aescrypt_keys *k,
    const void *pass, size_t passlen, unsigned max_work_factor,
    struct ae_diag *d)
{
	const struct keyring *ring = k != NULL ? ae_lib_keys_ring(k) : NULL;
	char *const *pids;
	struct ae_age_keys ak = { 0 };
	uint8_t file_key[AE_AGE_FILE_KEY_LEN];
	int r;

	if (a == NULL || d == NULL || !a->opened || a->unlocked
	    || max_work_factor > AESCRYPT_AGE_WORK_FACTOR_MAX)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	if (ring != NULL) {
		ak.ids = ring->ids;
		ak.nids = ring->nids;
	}
	ak.pass = pass;
	ak.passlen = passlen;
	ak.max_log_n = max_work_factor;
	r = ae_age_unwrap(&a->h, &ak, file_key, d);
	if (r == AE_EKEY && ae_lib_keys_plugins(k, &pids) > 0)
		r = plugins(a, k, file_key, d);
	if (r != AE_OK)
		return r;
	if ((r = ae_age_read_nonce(&a->in, a->nonce, d)) != AE_OK) {
		ae_wipe(file_key, sizeof file_key);
		return armor_or(a, r, d);
	}
	ae_age_payload_key(a->payload_key, file_key, a->nonce);
	ae_wipe(file_key, sizeof file_key);
	a->unlocked = 1;
	return AESCRYPT_OK;
}

/* The payload, decrypted to out: the one run a handle makes. */
static int
decrypt(aescrypt_age *a, struct ae_writer *out, struct ae_diag *d)
{
	struct ae_pipe_params p = { 0 };
	struct ae_reader rd;
	int r;

	ae_age_input_reader(&a->in, &rd);
	p.age_key = a->payload_key;
	p.chunk_log2 = AE_CHUNK_LOG2_MIN;
	p.codec = 0;
	p.threads = a->threads;
	p.offset = a->in.consumed;
	p.interrupt = a->interrupt;
	p.cancel = a->cancel;
	p.timed = a->timed; /* (off by default: the clock reads cost 5%
	                     * of -d here) */
	r = ae_pipe_decode(&p, &rd, out, &a->st, d);
	a->unlocked = 0;        /* (read once) */
	return r == AE_OK ? AE_OK : armor_or(a, r, d);
}

int
aescrypt_age_decrypt_to(aescrypt_age *a, aescrypt_write_fn fn, void *ctx,
    struct ae_diag *d)
{
	struct sink out;

	if (a == NULL || fn == NULL || d == NULL || !a->unlocked
	    || a->raw_started)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	ae_lib_sink_callback(&out, fn, ctx);
	return decrypt(a, &out.w, d);
}

static void *
raw_thread(void *arg)
{
	aescrypt_age *a = arg;
	struct ae_writer out = { ae_chan_write, &a->chan };

	a->raw_rc = decrypt(a, &out, &a->raw_d);
	ae_chan_close_write(&a->chan, a->raw_rc);
	return NULL;
}

int
aescrypt_age_raw_start(aescrypt_age *a, struct ae_diag *d)
{
	int r;

	if (a == NULL || d == NULL || !a->unlocked || a->raw_started)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	if (ae_chan_init(&a->chan, 0) != AE_OK)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, "out of memory", 0, 0);
	a->chan_rd.read = ae_chan_read;
	a->chan_rd.ctx = &a->chan;
	a->chan_rd.seek = NULL;
	a->raw_rc = a->unzip_rc = AE_OK;
	memset(&a->raw_d, 0, sizeof a->raw_d);
	if (pthread_create(&a->thread, NULL, raw_thread, a) != 0) {
		ae_chan_free(&a->chan);
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, "cannot start a thread",
		    0, 0);
	}
	a->raw_started = 1;
	/* what the plaintext is: plain tar, or compressed (its first
	 * bytes, through the channel) */
	r = ae_unzip_open(&a->unzip, &a->chan_rd, &a->unzip_kind);
	if (r == AE_OK) {
		ae_unzip_reader(a->unzip, &a->plain);
		return AE_OK;
	}
	if (r == AE_ENOTSUP)
		(void)ae_fail(d, r, AE_AT_NONE, a->unzip_kind == AE_UNZIP_ZSTD ?
		    "its plaintext is zstd-compressed, and this build has no "
		    "libzstd" : a->unzip_kind == AE_UNZIP_XZ ? "its plaintext "
		    "is xz-compressed, which aescrypt does not read (gzip and "
		    "zstd it does)" : "its plaintext is bzip2-compressed, "
		    "which aescrypt does not read (gzip and zstd it does)",
		    0, 0);
	else if (r == AE_ENOMEM)
		(void)ae_fail(d, r, AE_AT_NONE, "out of memory", 0, 0);
	/* (else the run's own failure, which _raw_end gives) */
	a->unzip_rc = r;
	return r;
}

int
aescrypt_age_raw_read(aescrypt_age *a, void *buf, size_t n, size_t *got)
{
	int r;

	*got = 0;
	if (a == NULL || !a->raw_started || a->unzip == NULL)
		return AESCRYPT_EINVAL;
	r = a->plain.read(a->plain.ctx, buf, n, got);
	if (r != AE_OK && a->unzip_rc == AE_OK)
		a->unzip_rc = r;
	return r;
}

int
aescrypt_age_raw_end(aescrypt_age *a, int stop, uint64_t *bytes,
    struct ae_diag *d)
{
	uint8_t buf[4096];
	size_t got;
	int e = AE_OK;

	if (a == NULL || !a->raw_started)
		return AESCRYPT_EINVAL;
	if (!stop && a->unzip != NULL && a->unzip_rc == AE_OK)
		/* the rest (tar's padding), so the final chunk is seen */
		do
			e = aescrypt_age_raw_read(a, buf, sizeof buf, &got);
		while (e == AE_OK && got > 0);
	ae_chan_close_read(&a->chan);
	pthread_join(a->thread, NULL);
	a->raw_started = 0;
	if (bytes != NULL)
		*bytes = a->chan.bytes;
	ae_chan_free(&a->chan);
	/* the payload's failure first (a cut or forged chunk also breaks
	 * the compressed data), then the decompressor's */
	if (a->raw_rc != AE_OK && !(stop && a->raw_rc == AE_EINTR)) {
		if (d != NULL)
			*d = a->raw_d;
		e = a->raw_rc;
	} else if (a->unzip_rc != AE_OK && a->unzip_rc != AE_EINTR
	    && ae_unzip_what(a->unzip) != NULL) {
		e = ae_fail(d, a->unzip_rc, AE_AT_NONE, ae_unzip_what(a->unzip),
		    0, 0);
	} else
		e = AE_OK;
	ae_unzip_free(a->unzip);
	a->unzip = NULL;
	return e;
}

const char *
aescrypt_age_compression(const aescrypt_age *a)
{
	return a != NULL ? ae_unzip_name(a->unzip_kind) : NULL;
}

const struct ae_pipe_stats *
aescrypt_age_pipe_stats(const aescrypt_age *a)
{
	return a != NULL ? &a->st : NULL;
}
