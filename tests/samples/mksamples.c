/*
 * mksamples.c -- write the sample containers of tests/samples/.
 *
 * Usage: mksamples DIR
 *
 * Every byte is determined: the "random" file keys and salts come from
 * SHA-256 of fixed labels, so the output is the same on every run and
 * `make check` compares it with the committed files.  That makes the
 * good samples known-answer tests of the encoder, and the bad ones
 * exact, named breakages of one rule each.  MANIFEST (hand-written)
 * says what each file must do.
 *
 * It builds files from the core's parts (header, stanzas, chunk seals)
 * rather than through the CLI, because the bad files need things the
 * CLI never does: two final chunks, swapped records, a KDF cost of 4 GiB.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "common/bytes.h"
#include "container/chunk.h"
#include "container/format.h"
#include "crypto/gcm.h"
#include "container/header.h"
#include "container/index.h"
#include "archive/tar_read.h"
#include "archive/tar_write.h"
#include "crypto/hkdf.h"
#include "crypto/hmac_sha256.h"
#include "container/keyfile.h"
#include "crypto/sha256.h"
#include "container/recipient.h"
#include "container/recipient_slot.h"
#include "container/sigchain.h"
#include "crypto/ed25519.h"
#include "crypto/rsa.h"
#include "container/stanza.h"
#include "crypto/x25519.h"
#include "test_keys.h"

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#define PASSPHRASE "correct horse battery staple"
#define WRONG_PASSPHRASE "Tr0ub4dor&3"

static const char *outdir;
/* The codec of the records seal() makes: DEFLATE (zlib, so the bytes
 * are the same on every build) but for the zstd samples. */
static int codec = AE_CODEC_DEFLATE;

/* Deterministic stand-in for ae_random(): SHA-256(label || counter). */
static void
fixed_bytes(const char *label, uint8_t *out, size_t n)
{
	uint8_t blk[AE_SHA256_LEN];
	uint32_t ctr = 0;
	struct ae_sha256 s;

	while (n > 0) {
		uint8_t c[4];
		size_t k = n < sizeof blk ? n : sizeof blk;

		store_be32(c, ctr++);
		ae_sha256_init(&s);
		ae_sha256_update(&s, label, strlen(label));
		ae_sha256_update(&s, c, 4);
		ae_sha256_final(&s, blk);
		memcpy(out, blk, k);
		out += k;
		n -= k;
	}
}

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (b->p == NULL) {
			perror("realloc");
			exit(1);
		}
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void
save(const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", outdir, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* The key slots a sample gets. */
enum {
	SLOT_KEY = 1, SLOT_PASS = 2, SLOT_WRONG = 4, SLOT_HUGE_KDF = 8,
	SLOT_X25519 = 16,           /* to sample-identity.txt */
	SLOT_SSH = 32,              /* to sample-ssh-ed25519 */
	SLOT_OTHER_X25519 = 64,     /* to an identity that is not given */
	SLOT_LOW_ORDER = 128,       /* an X25519 slot whose share is 0 */
	SLOT_LOW_ORDER_LAST = 256,  /* one whose share is p (u = 0 encoded
	                             * past p), after the others */
	SLOT_RSA = 512,             /* to sample-ssh-rsa (the OAEP seed
	                             * fixed too: 4.7) */
	SLOT_PQ = 1024,             /* to sample-pq-identity.txt (4.8;
	                             * the encapsulation seed fixed too) */
	SLOT_PQ_CHANGED = 2048,     /* the same, one ciphertext byte
	                             * changed after the wrap was made */
	SLOT_PQ_LOW_ORDER = 4096    /* one whose X25519 half is 0 */
};

/* The sample identities: an X25519 one from a fixed scalar, and an
 * OpenSSH ed25519 key made by ssh-keygen (as in test_recipient.c). */
static struct ae_identity sample_id, other_id, sample_ssh, sample_rsa, sample_pq;

static void
fixed_identity(const char *label, struct ae_identity *id)
{
	memset(id, 0, sizeof *id);
	fixed_bytes(label, id->secret, 32);
	id->type = id->r.type = AE_STANZA_X25519;
	if (ae_x25519_base(id->r.pub, id->secret) != AE_OK) {
		fprintf(stderr, "x25519 failed\n");
		exit(1);
	}
}

/* A recipient slot to r, its ephemeral key from a fixed label. */
static void
recipient_slot(struct ae_header *h, const char *name, const char *what,
    const struct ae_recipient *r, const uint8_t fk[32])
{
	struct ae_stanza *s = &h->stanza[h->nstanzas++];
	char label[256];
	uint8_t e[32], S[32];

	snprintf(label, sizeof label, "%s %s ephemeral", name, what);
	fixed_bytes(label, e, 32);
	if (ae_stanza_secret_recipient_with(s, r, e, S) != AE_OK) {
		fprintf(stderr, "%s: recipient slot failed\n", name);
		exit(1);
	}
	ae_stanza_wrap(s, S, fk);
}

static uint8_t sample_key[32];

/* A header for `name` with the given slots, chunk size and type (with
 * AE_PAYLOAD_COPY: a file that ends with a copy of its header, 6.9). */
static void
make_header(const char *name, int slots, unsigned log2, int type,
    struct ae_header *h, uint8_t fk[32])
{
	char label[256];
	uint8_t S[32];
	struct ae_stanza *s;

	memset(h, 0, sizeof *h);
	h->payload_type = (uint8_t)(type & ~AE_PAYLOAD_COPY);
	h->copy = (type & AE_PAYLOAD_COPY) != 0;
	h->codec = (uint8_t)codec;
	h->chunk_log2 = (uint8_t)log2;
	snprintf(label, sizeof label, "%s file key", name);
	fixed_bytes(label, fk, 32);
	snprintf(label, sizeof label, "%s payload salt", name);
	fixed_bytes(label, h->payload_salt, AE_SALT_LEN);
	if (slots & SLOT_LOW_ORDER) {
		/* share 0: X25519 gives all zeros whatever the identity; the
		 * wrap is never reached, so it is filled with bytes */
		s = &h->stanza[h->nstanzas++];
		s->type = AE_STANZA_X25519;
		fixed_bytes("low order wrap", s->wrap, AE_WRAP_LEN);
	}
	if (slots & SLOT_X25519)
		recipient_slot(h, name, "x25519", &sample_id.r, fk);
	if (slots & SLOT_OTHER_X25519)
		recipient_slot(h, name, "other x25519", &other_id.r, fk);
	if (slots & SLOT_SSH)
		recipient_slot(h, name, "ssh-ed25519", &sample_ssh.r, fk);
	if (slots & SLOT_RSA)
		recipient_slot(h, name, "ssh-rsa", &sample_rsa.r, fk);
	if (slots & (SLOT_PQ | SLOT_PQ_CHANGED | SLOT_PQ_LOW_ORDER)) {
		recipient_slot(h, name, "mlkem768x25519", &sample_pq.r, fk);
		s = &h->stanza[h->nstanzas - 1];
		/* ML-KEM's part: it decapsulates to an unrelated secret */
		if (slots & SLOT_PQ_CHANGED)
			s->ct[500] ^= 0x01;
		/* X25519's part: refused before any key is tried */
		if (slots & SLOT_PQ_LOW_ORDER)
			memset(s->ct + AE_PQ_CT_LEN - 32, 0, 32);
	}
	if (slots & SLOT_KEY) {
		s = &h->stanza[h->nstanzas++];
		s->type = AE_STANZA_KEYFILE;
		snprintf(label, sizeof label, "%s key-file salt", name);
		fixed_bytes(label, s->salt, AE_SALT_LEN);
		ae_stanza_secret_keyfile(s, sample_key, S);
		ae_stanza_wrap(s, S, fk);
	}
	if (slots & (SLOT_PASS | SLOT_WRONG | SLOT_HUGE_KDF)) {
		const char *pw = slots & SLOT_WRONG ? WRONG_PASSPHRASE :
		    PASSPHRASE;
		s = &h->stanza[h->nstanzas++];
		s->type = AE_STANZA_ARGON2ID;
		s->kdf.m_kib = 1024;
		s->kdf.t = 1;
		s->kdf.p = 1;
		snprintf(label, sizeof label, "%s argon2id salt", name);
		fixed_bytes(label, s->salt, AE_SALT_LEN);
		if (slots & SLOT_HUGE_KDF) {
			/* 4 GiB: a decoder must refuse before running it, so
			 * the wrap is never checked; fill it with bytes. */
			s->kdf.m_kib = 4u * 1024 * 1024;
			fixed_bytes("huge kdf wrap", s->wrap, AE_WRAP_LEN);
		} else {
			if (ae_stanza_secret_passphrase(s, pw, strlen(pw), S)
			    != AE_OK) {
				fprintf(stderr, "argon2id failed\n");
				exit(1);
			}
			ae_stanza_wrap(s, S, fk);
		}
	}
	if (slots & SLOT_LOW_ORDER_LAST) {
		s = &h->stanza[h->nstanzas++];
		s->type = AE_STANZA_X25519;
		memset(s->share, 0xff, AE_SHARE_LEN);
		s->share[0] = 0xed;
		s->share[AE_SHARE_LEN - 1] = 0x7f;
		fixed_bytes("low order wrap", s->wrap, AE_WRAP_LEN);
	}
	if (ae_header_encode(h, fk) != AE_OK) {
		fprintf(stderr, "%s: header encode failed\n", name);
		exit(1);
	}
}

/* Seal one chunk record onto b. */
static void
seal(struct buf *b, const ae_gcm_ctx *k, unsigned log2, int level,
    uint64_t index, int final, const uint8_t *p, size_t n)
{
	struct ae_chunk_coder c;
	size_t cs = (size_t)1 << log2, rlen;
	uint8_t *rec = malloc(AE_RECORD_MAX(cs));

	if (rec == NULL || ae_chunk_coder_init_seal(&c, cs, codec,
	    AE_DEFLATE_ZLIB, level) != AE_OK
	    || ae_chunk_seal(&c, k, index, final, p, n, rec, &rlen)
	    != AE_OK) {
		fprintf(stderr, "seal failed\n");
		exit(1);
	}
	put(b, rec, rlen);
	ae_chunk_coder_free(&c);
	free(rec);
}

/* Seal all of data as a normal payload.  Records each record's start
 * in starts[] (up to max) and returns the count. */
static size_t
seal_all(struct buf *b, const ae_gcm_ctx *k, unsigned log2, int level,
    const uint8_t *data, size_t n, size_t *starts, size_t max)
{
	size_t cs = (size_t)1 << log2, off = 0, i = 0;

	do {
		size_t take = n - off < cs ? n - off : cs;
		int final = off + take == n;

		if (i < max)
			starts[i] = b->len;
		seal(b, k, log2, level, i, final, data + off, take);
		off += take;
		i++;
	} while (off < n);
	return i;
}

/* The digest of the record sealing p[0, n) would make (what the signer
 * signed, before a forger changed it). */
static void
seal_digest_of_original(const ae_gcm_ctx *k, uint64_t i, int final,
    const uint8_t *p, size_t n, uint8_t d[AE_SIG_DIGEST_LEN])
{
	struct buf t = { 0 };

	seal(&t, k, 16, 6, i, final, p, n);
	ae_sigchain_digest(t.p, t.len, d);
	free(t.p);
}

/* The copy of h that ends the file (6.9), if it has one. */
static void
put_tail(struct buf *b, const struct ae_header *h)
{
	uint8_t tail[AE_HEADER_MAX + AE_COPY_LEN_LEN];

	ae_header_tail(h, tail);
	put(b, tail, ae_header_tail_len(h));
}

/* A stream that ends with a copy of its header (6.9): header, payload,
 * copy. */
static void
build_copy(struct buf *b, const char *name, const uint8_t *data, size_t n)
{
	static struct ae_header h;
	size_t starts[16];
	uint8_t fk[32];
	ae_gcm_ctx k;

	make_header(name, SLOT_KEY, 16, AE_PAYLOAD_STREAM | AE_PAYLOAD_COPY,
	    &h, fk);
	put(b, h.raw, h.len);
	ae_header_payload_cipher(&h, fk, &k);
	seal_all(b, &k, 16, 6, data, n, starts, 16);
	put_tail(b, &h);
	ae_gcm_wipe(&k);
}

/*
 * A signed stream (6.10) that ends with a copy of its header: the
 * sample ssh-ed25519 key signs (Ed25519 is deterministic, so the file
 * is the same every time), a signature after every 2 records of 64 KiB
 * (k = 1) and after the last.  damage 1: record 2 sealed again over a
 * changed plaintext (its tag holds; the signature after record 3 does
 * not); 2: the file ends before its last signature; 3: the header says
 * it is signed but has no signer slot (its CRC and MAC made again); 4:
 * every signature made by another key than the slot names; 5: a
 * signature record after record 0 too, where none belongs (made as
 * the signer would, over the chain so far); 6: the signature after
 * record 1 flagged and made as the file's last (05), as if the file
 * ended there.
 */
static void
build_signed(struct buf *b, const char *name, const uint8_t *data, size_t n,
    int damage)
{
	/* (damage 4's key: any seed but the sample's) */
	static const uint8_t other_seed[32] = {
		0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
		0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
		0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
		0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a
	};
	static struct ae_header h;
	struct ae_sigchain ch;
	uint8_t fk[32], d[AE_SIG_DIGEST_LEN], tbs[AE_SSHSIG_TBS_MAX], sig[64];
	uint8_t rec[AE_SIG_RECORD_LEN];
	size_t cs = 65536, off = 0, at;
	uint64_t i = 0;
	ae_gcm_ctx k;

	make_header(name, SLOT_KEY, 16, AE_PAYLOAD_STREAM | AE_PAYLOAD_COPY,
	    &h, fk);
	if (damage == 3)
		h.is_signed = 1;
	else if (ae_header_set_signer(&h, sample_ssh.r.ed, 1) != AE_OK) {
		fprintf(stderr, "signer slot failed\n");
		exit(1);
	}
	if (ae_header_encode(&h, fk) != AE_OK) {
		fprintf(stderr, "signed header failed\n");
		exit(1);
	}
	put(b, h.raw, h.len);
	ae_header_payload_cipher(&h, fk, &k);
	ae_sigchain_init(&ch, h.raw, h.len);
	do {
		size_t take = n - off < cs ? n - off : cs;
		int final = off + take == n;

		at = b->len;
		if (damage == 1 && i == 2) {
			uint8_t *c = malloc(take);

			memcpy(c, data + off, take);
			c[take / 2] ^= 0x01;
			seal(b, &k, 16, 6, i, final, c, take);
			free(c);
		} else
			seal(b, &k, 16, 6, i, final, data + off, take);
		/* (the chain is of the file as it is: a forger re-signs
		 * nothing) */
		if (damage == 1 && i == 2)
			seal_digest_of_original(&k, i, final, data + off, take,
			    d);
		else
			ae_sigchain_digest(b->p + at, b->len - at, d);
		ae_sigchain_add(&ch, d);
		if (final || AE_SIG_AFTER(i, 2) || (damage == 5 && i == 0)) {
			int last = final || (damage == 6 && i == 1);
			size_t tn = ae_sigchain_tbs(&ch, last, tbs);

			if (ae_ed25519_sign(sig, tbs, tn, damage == 4 ?
			    other_seed : sample_ssh.edseed) != AE_OK) {
				fprintf(stderr, "sign failed\n");
				exit(1);
			}
			ae_sigchain_done(&ch);
			ae_sigchain_record(sig, last, rec);
			if (!(damage == 2 && final))
				put(b, rec, sizeof rec);
		}
		off += take;
		i++;
	} while (off < n);
	if (damage != 2)
		put_tail(b, &h);
	ae_gcm_wipe(&k);
}

/* A whole good file: header then payload. */
static size_t
build(struct buf *b, const char *name, int slots, unsigned log2, int level,
    const uint8_t *data, size_t n, size_t *starts, size_t max)
{
	static struct ae_header h;
	uint8_t fk[32];
	ae_gcm_ctx k;
	size_t cnt;

	make_header(name, slots, log2, AE_PAYLOAD_STREAM, &h, fk);
	put(b, h.raw, h.len);
	ae_header_payload_cipher(&h, fk, &k);
	cnt = seal_all(b, &k, log2, level, data, n, starts, max);
	ae_gcm_wipe(&k);
	return cnt;
}

static uint8_t *
text_data(size_t n)
{
	uint8_t *p = malloc(n + 64);
	size_t off = 0;
	unsigned line = 0;

	while (off < n)
		off += (size_t)sprintf((char *)p + off,
		    "line %06u: the quick brown fox jumps over the lazy dog\n",
		    line++);
	return p;
}

static void
fix_crc(struct buf *b, size_t hlen)
{
	size_t end = hlen - AE_MAC_LEN - AE_CHECK_LEN;
	uLong crc = crc32(crc32(0L, Z_NULL, 0), b->p, (uInt)end);

	store_be32(b->p + end, (uint32_t)crc);
}

/* A small tar stream for the index samples: a directory, a text file of
 * 100,000 bytes (it spans two 64 KiB chunks), a short one and a
 * symbolic link; each member noted in ib with where it starts. */
static void
index_tar(struct buf *t, struct ae_index_builder *ib, const uint8_t *text)
{
	static const struct { const char *path, *link; char type; size_t n; }
	    m[] = {
		{ "dir/", NULL, '5', 0 },
		{ "dir/a.txt", NULL, '0', 100000 },
		{ "dir/b.txt", NULL, '0', 12 },
		{ "dir/link", "a.txt", '2', 0 },
	};
	uint8_t hdr[AE_TAR_HEADER_MAX], zero[AE_TAR_BLOCK] = { 0 };
	size_t i, len;

	for (i = 0; i < sizeof m / sizeof m[0]; i++) {
		struct ae_tar_entry e;
		struct ae_index_member x;

		memset(&e, 0, sizeof e);
		e.path = m[i].path;
		e.linkpath = m[i].link;
		e.type = m[i].type;
		e.mode = m[i].type == '5' ? 0755 : 0644;
		e.size = m[i].n;
		e.mtime = 1764547200;       /* 2025-12-01 00:00:00 UTC */
		e.uname = "user";
		e.gname = "users";
		e.uid = e.gid = 1000;
		if (ae_tar_header(&e, hdr, sizeof hdr, &len) != AE_OK) {
			fprintf(stderr, "tar header failed\n");
			exit(1);
		}
		memset(&x, 0, sizeof x);
		x.first = t->len;
		x.type = e.type;
		x.mode = e.mode;
		x.uid = e.uid;
		x.gid = e.gid;
		x.size = e.size;
		x.mtime = e.mtime;
		x.path = e.path;
		x.linkpath = e.linkpath;
		x.uname = e.uname;
		x.gname = e.gname;
		if (ae_index_add_member(ib, &x) != AE_OK) {
			fprintf(stderr, "index member failed\n");
			exit(1);
		}
		put(t, hdr, len);
		put(t, i == 2 ? (const uint8_t *)"short text\n\n" : text,
		    m[i].n);
		put(t, zero, ae_tar_padding(m[i].n));
	}
	ib->tar_end = t->len;
	put(t, zero, sizeof zero);
	put(t, zero, sizeof zero);
}

/* An archive with an index (6.8), named `name`: its header, the payload
 * (records noted in ib), the index records and the footer.  Returns
 * where the index starts; *foot_at is where the footer starts.  lie 1:
 * the footer says the index starts at offset 10 (in the header); lie 2:
 * the index and the footer count a record that does not exist. */
static size_t
index_archive(struct buf *b, const char *name, const uint8_t *text,
    size_t *foot_at, int lie, int copy)
{
	static struct ae_header h;
	struct ae_index_builder ib;
	struct buf t = { 0 };
	uint8_t fk[32], *ix, foot[AE_FOOTER_LEN];
	size_t starts[8], n, i, ixlen, at;
	ae_gcm_ctx k, ik;

	ae_index_builder_init(&ib);
	index_tar(&t, &ib, text);
	make_header(name, SLOT_KEY, 16, AE_PAYLOAD_PAX_INDEXED
	    | (copy ? AE_PAYLOAD_COPY : 0), &h, fk);
	put(b, h.raw, h.len);
	ae_header_payload_cipher(&h, fk, &k);
	ae_index_cipher(&h, fk, &ik);
	n = seal_all(b, &k, 16, 6, t.p, t.len, starts, 8);
	for (i = 0; i < n; i++)
		ae_index_add_record(&ib, (uint32_t)((i + 1 < n ? starts[i + 1]
		    : b->len) - starts[i]));
	at = b->len;
	if (lie == 2) {
		ae_index_add_record(&ib, 100);
		n++;
	}
	if (ae_index_build(&ib, &ix, &ixlen) != AE_OK) {
		fprintf(stderr, "index build failed\n");
		exit(1);
	}
	seal_all(b, &ik, 16, 6, ix, ixlen, starts, 0);
	*foot_at = b->len;
	ae_footer_seal(&ik, lie == 1 ? 10 : at, n, foot);
	put(b, foot, sizeof foot);
	put_tail(b, &h);
	free(ix);
	free(t.p);
	ae_index_builder_free(&ib);
	ae_gcm_wipe(&k);
	ae_gcm_wipe(&ik);
	return at;
}

#ifdef HAVE_ZSTD
/* Final chunk 0 of a zstd stream holding body (n bytes, zstd data)
 * with the compressed flag set: a record only a key holder could seal,
 * breaking one rule of 6.4. */
static void
zstd_breakage(const char *name, const uint8_t *body, size_t n)
{
	static struct ae_header h;
	struct buf b = { 0 };
	uint8_t fk[32], frame[5], *ct = malloc(n + 16);
	char file[128];
	ae_gcm_ctx k;

	make_header(name, SLOT_KEY, 16, AE_PAYLOAD_STREAM | AE_PAYLOAD_COPY,
	    &h, fk);
	put(&b, h.raw, h.len);
	ae_header_payload_cipher(&h, fk, &k);
	frame[0] = AE_FLAG_FINAL | AE_FLAG_COMPRESSED;
	store_be32(frame + 1, (uint32_t)n);
	{
		uint8_t nonce[AE_NONCE_LEN];

		ae_chunk_nonce(0, 1, nonce);
		ae_gcm_seal(&k, nonce, sizeof nonce, frame, 5, body, n, ct,
		    ct + n);
	}
	put(&b, frame, 5);
	put(&b, ct, n + 16);
	put_tail(&b, &h);
	snprintf(file, sizeof file, "%s.aes", name);
	save(file, b.p, b.len);
	ae_gcm_wipe(&k);
	free(ct);
	free(b.p);
}

/* The zstd codec (6.4): a stream and an archive with an index, good;
 * a bomb, two frames, a window over the chunk size, bad. */
static void
zstd_samples(const uint8_t *text)
{
	struct buf b = { 0 };
	uint8_t *zeros = calloc(1, 2 << 16), *f = malloc(4 << 16);
	size_t foot, n, m;
	ZSTD_CCtx *cc = ZSTD_createCCtx();

	codec = AE_CODEC_ZSTD;
	build_copy(&b, "good-zstd", text, 300000);
	save("good-zstd.aes", b.p, b.len);
	b.len = 0;
	index_archive(&b, "good-zstd-index", text, &foot, 0, 1);
	save("good-zstd-index.aes", b.p, b.len);
	b.len = 0;
	n = ZSTD_compress(f, 4 << 16, zeros, 2 << 16, 19);
	zstd_breakage("bad-zstd-bomb", f, n);
	n = ZSTD_compress(f, 4 << 16, text, 1000, 3);
	m = ZSTD_compress(f + n, (4 << 16) - n, text, 1000, 3);
	zstd_breakage("bad-zstd-two-frames", f, n + m);
	/* no content size: the frame has a window descriptor (after the
	 * magic and the descriptor byte), set to 2^20 */
	ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
	n = ZSTD_compress2(cc, f, 4 << 16, text, 1000);
	f[5] = (20 - 10) << 3;
	zstd_breakage("bad-zstd-window", f, n);
	codec = AE_CODEC_DEFLATE;
	ZSTD_freeCCtx(cc);
	free(zeros);
	free(f);
	free(b.p);
}
#endif

int
main(int argc, char **argv)
{
	static struct ae_header h;
	struct buf b = { 0 };
	size_t starts[16], n, hlen, foot_copy;
	uint8_t fk[32], *text, *rnd;
	char keytext[256];
	ae_gcm_ctx k;

	if (argc != 2) {
		fprintf(stderr, "usage: mksamples DIR\n");
		return 2;
	}
	outdir = argv[1];
	fixed_bytes("sample key", sample_key, 32);
	n = ae_keyfile_format(sample_key, keytext, sizeof keytext);
	save("sample.key", keytext, n);
	save("sample.pass", PASSPHRASE "\n", strlen(PASSPHRASE) + 1);
	fixed_identity("sample identity", &sample_id);
	fixed_identity("other identity", &other_id);
	if (ae_identity_parse_ssh(test_ssh_private, sizeof test_ssh_private - 1,
	    NULL, 0, &sample_ssh, NULL) != AE_OK) {
		fprintf(stderr, "the sample ssh key does not parse\n");
		return 1;
	}
	{
		char rt[AE_RECIPIENT_TEXT_MAX], it[AE_IDENTITY_TEXT_MAX];
		char file[512];

		ae_recipient_format(&sample_id.r, rt, sizeof rt);
		ae_identity_format(&sample_id, it, sizeof it);
		n = (size_t)snprintf(file, sizeof file, "# created: "
		    "2026-12-01T00:00:00Z\n# public key: %s\n%s\n", rt, it);
		save("sample-identity.txt", file, n);
		n = (size_t)snprintf(file, sizeof file, "%s\n", rt);
		save("sample-identity.pub", file, n);
	}
	{
		/* the PQ identity: a fixed seed, written as its text and read
		 * back as any identity file is */
		char it[AE_IDENTITY_TEXT_MAX], rt[AE_RECIPIENT_TEXT_MAX];
		char file[AE_RECIPIENT_TEXT_MAX + 256];
		struct ae_identity seed;

		memset(&seed, 0, sizeof seed);
		seed.type = AE_STANZA_MLKEM768X25519;
		fixed_bytes("sample pq identity", seed.secret, 32);
		if (ae_identity_format(&seed, it, sizeof it) == 0
		    || ae_identity_parse_age(it, &sample_pq, NULL) != AE_OK
		    || ae_recipient_format(&sample_pq.r, rt, sizeof rt) == 0) {
			fprintf(stderr, "the sample pq identity failed\n");
			return 1;
		}
		n = (size_t)snprintf(file, sizeof file, "# created: "
		    "2026-12-03T00:00:00Z\n# public key: %s\n%s\n", rt, it);
		save("sample-pq-identity.txt", file, n);
		n = (size_t)snprintf(file, sizeof file, "%s\n", rt);
		save("sample-pq-identity.pub", file, n);
	}
	save("sample-ssh-ed25519", test_ssh_private, sizeof test_ssh_private - 1);
	/* RSA needs libcrypto: a build without it makes the other samples
	 * (check-samples compares what was made) */
	if (ae_rsa_available()) {
		char pub[1024];

		if (ae_identity_parse_ssh(test_rsa_private,
		    sizeof test_rsa_private - 1, NULL, 0, &sample_rsa, NULL)
		    != AE_OK) {
			fprintf(stderr, "the sample rsa key does not parse\n");
			return 1;
		}
		save("sample-ssh-rsa", test_rsa_private,
		    sizeof test_rsa_private - 1);
		n = (size_t)snprintf(pub, sizeof pub, "%s\n", test_rsa_public);
		save("sample-ssh-rsa.pub", pub, n);
	} else
		fprintf(stderr, "mksamples: no libcrypto in this build: the "
		    "ssh-rsa samples are not made\n");
	{
		char pub[256];

		n = (size_t)snprintf(pub, sizeof pub, "%s\n", test_ssh_public);
		save("sample-ssh-ed25519.pub", pub, n);
	}

	text = text_data(400000);
	rnd = malloc(200000);
	fixed_bytes("random payload", rnd, 200000);

	/* ---- good ---- */
	build(&b, "good-empty", SLOT_PASS, 16, 6, NULL, 0, starts, 16);
	save("good-empty.aes", b.p, b.len);
	b.len = 0;
	build(&b, "good-one-chunk", SLOT_KEY, 16, 6,
	    (const uint8_t *)"hello, world\n", 13, starts, 16);
	save("good-one-chunk.aes", b.p, b.len);
	b.len = 0;
	build(&b, "good-full-final", SLOT_KEY, 16, 6, text, 65536, starts, 16);
	save("good-full-final.aes", b.p, b.len);
	b.len = 0;
	build(&b, "good-many-chunks", SLOT_KEY | SLOT_PASS, 16, 6, text,
	    6 * 65536 - 4321, starts, 16);
	save("good-many-chunks.aes", b.p, b.len);
	b.len = 0;
	build(&b, "good-stored", SLOT_KEY, 16, 6, rnd, 200000, starts, 16);
	save("good-stored.aes", b.p, b.len);
	b.len = 0;

	/* An unknown slot type (0x7f, 5 body bytes) before a key-file slot:
	 * a decoder must skip it.  Laid out by hand: the key-file slot is
	 * built, then the unknown one is inserted and CRC and MAC redone. */
	make_header("good-unknown-slot", SLOT_KEY, 16, AE_PAYLOAD_STREAM, &h,
	    fk);
	{
		static const uint8_t unk[8] = { 0x7f, 0x00, 0x05, 1, 2, 3, 4,
		    5 };
		uint8_t raw[AE_HEADER_MAX];
		size_t len = h.len + sizeof unk;
		struct ae_header h2;
		uint8_t hk[32];

		memcpy(raw, h.raw, AE_PREFIX_LEN);
		raw[13] = 2;
		raw[9] = (uint8_t)(len >> 8);
		raw[10] = (uint8_t)len;
		memcpy(raw + AE_PREFIX_LEN, unk, sizeof unk);
		memcpy(raw + AE_PREFIX_LEN + sizeof unk, h.raw + AE_PREFIX_LEN,
		    h.len - AE_PREFIX_LEN);
		put(&b, raw, len);
		fix_crc(&b, len);
		/* The MAC, as section 4 of the spec computes it. */
		ae_hkdf_sha256(NULL, 0, fk, 32, (const uint8_t *)AE_LABEL_HEADER,
		    sizeof AE_LABEL_HEADER - 1, hk, 32);
		ae_hmac_sha256(hk, 32, b.p, len - AE_MAC_LEN,
		    b.p + len - AE_MAC_LEN);
		if (ae_header_parse(b.p, len, &h2, NULL) != AE_OK) {
			fprintf(stderr, "unknown-slot sample does not parse\n");
			return 1;
		}
		ae_header_payload_cipher(&h, fk, &k);
		seal_all(&b, &k, 16, 6, (const uint8_t *)"skip what you do "
		    "not know\n", 26, starts, 16);
		ae_gcm_wipe(&k);
		save("good-unknown-slot.aes", b.p, b.len);
		b.len = 0;
	}

	/* Public-key recipients (spec 4.5, 4.6). */
	build(&b, "good-x25519", SLOT_X25519, 16, 6,
	    (const uint8_t *)"hello, recipient\n", 17, starts, 16);
	save("good-x25519.aes", b.p, b.len);
	b.len = 0;
	build(&b, "good-ssh-ed25519", SLOT_SSH, 16, 6,
	    (const uint8_t *)"hello, ssh key\n", 15, starts, 16);
	save("good-ssh-ed25519.aes", b.p, b.len);
	b.len = 0;
	build(&b, "good-recipients-pass", SLOT_X25519 | SLOT_SSH | SLOT_PASS,
	    16, 6, text, 100000, starts, 16);
	save("good-recipients-pass.aes", b.p, b.len);
	b.len = 0;
	if (ae_rsa_available()) {
		/* spec 4.7 */
		build(&b, "good-ssh-rsa", SLOT_RSA, 16, 6,
		    (const uint8_t *)"hello, rsa key\n", 15, starts, 16);
		save("good-ssh-rsa.aes", b.p, b.len);
		b.len = 0;
		build(&b, "good-recipients-rsa", SLOT_X25519 | SLOT_SSH
		    | SLOT_RSA, 16, 6, text, 100000, starts, 16);
		save("good-recipients-rsa.aes", b.p, b.len);
		b.len = 0;
	}

	/* Post-quantum recipients (spec 4.8), alone and beside the others
	 * (no passphrase: 4.4) */
	build(&b, "good-pq", SLOT_PQ, 16, 6,
	    (const uint8_t *)"hello, post-quantum recipient\n", 30, starts, 16);
	save("good-pq.aes", b.p, b.len);
	b.len = 0;
	build(&b, "good-recipients-pq", SLOT_PQ | SLOT_X25519 | SLOT_SSH, 16,
	    6, text, 100000, starts, 16);
	save("good-recipients-pq.aes", b.p, b.len);
	b.len = 0;

	/* ---- bad: each breaks one rule ---- */
	build(&b, "bad-pq-changed", SLOT_PQ_CHANGED, 16, 6,
	    (const uint8_t *)"changed\n", 8, starts, 16);
	save("bad-pq-changed.aes", b.p, b.len);
	b.len = 0;
	build(&b, "bad-pq-low-order", SLOT_PQ_LOW_ORDER | SLOT_KEY, 16, 6,
	    (const uint8_t *)"low order\n", 10, starts, 16);
	save("bad-pq-low-order.aes", b.p, b.len);
	b.len = 0;
	build(&b, "bad-x25519-other", SLOT_OTHER_X25519, 16, 6,
	    (const uint8_t *)"not for you\n", 12, starts, 16);
	save("bad-x25519-other.aes", b.p, b.len);
	b.len = 0;
	build(&b, "bad-x25519-low-order", SLOT_LOW_ORDER | SLOT_X25519, 16, 6,
	    (const uint8_t *)"low order\n", 10, starts, 16);
	save("bad-x25519-low-order.aes", b.p, b.len);
	b.len = 0;
	/* the low-order slot last, after a key-file slot that opens and a
	 * good MAC: refused all the same, whichever key is given (4.5) */
	build(&b, "bad-x25519-low-order-last", SLOT_KEY | SLOT_LOW_ORDER_LAST,
	    16, 6, (const uint8_t *)"low order\n", 10, starts, 16);
	save("bad-x25519-low-order-last.aes", b.p, b.len);
	b.len = 0;
	/* The many-chunk file is the base of the chunk-level breakages:
	 * 6 chunks, records at starts[0..5]. */
	build(&b, "bad-base", SLOT_KEY, 16, 6, text, 6 * 65536 - 4321,
	    starts, 16);
	starts[6] = b.len;
	{
		struct buf c = { 0 };

		/* the final chunk dropped */
		save("bad-no-final.aes", b.p, starts[5]);
		/* a middle chunk dropped */
		put(&c, b.p, starts[2]);
		put(&c, b.p + starts[3], b.len - starts[3]);
		save("bad-dropped-chunk.aes", c.p, c.len);
		c.len = 0;
		/* chunks 1 and 2 swapped */
		put(&c, b.p, starts[1]);
		put(&c, b.p + starts[2], starts[3] - starts[2]);
		put(&c, b.p + starts[1], starts[2] - starts[1]);
		put(&c, b.p + starts[3], b.len - starts[3]);
		save("bad-swapped-chunks.aes", c.p, c.len);
		c.len = 0;
		/* chunk 1 duplicated */
		put(&c, b.p, starts[2]);
		put(&c, b.p + starts[1], b.len - starts[1]);
		save("bad-duplicated-chunk.aes", c.p, c.len);
		c.len = 0;
		/* a bit of chunk 1's tag flipped */
		put(&c, b.p, b.len);
		c.p[starts[2] - 1] ^= 0x01;
		save("bad-tag-chunk1.aes", c.p, c.len);
		c.len = 0;
		/* trailing garbage */
		put(&c, b.p, b.len);
		put(&c, "garbage\n", 8);
		save("bad-trailing-garbage.aes", c.p, c.len);
		c.len = 0;
		/* cut in the middle of chunk 3 */
		save("bad-truncated-chunk.aes", b.p, starts[3] + 1000);
		/* chunk 2's frame claims more than the chunk size */
		put(&c, b.p, b.len);
		store_be32(c.p + starts[2] + 1, 65537);
		save("bad-chunk-length.aes", c.p, c.len);
		c.len = 0;
		/* chunk 0's frame with an unknown flag bit */
		put(&c, b.p, b.len);
		c.p[starts[0]] |= 0x80;
		save("bad-chunk-flags.aes", c.p, c.len);
		free(c.p);
		/* the header alone, cut */
		save("bad-truncated-header.aes", b.p, 50);
		b.len = 0;
	}

	/* Two final chunks, both properly sealed: chunk 0 and chunk 1. */
	make_header("bad-two-final", SLOT_KEY, 16, AE_PAYLOAD_STREAM, &h, fk);
	put(&b, h.raw, h.len);
	ae_header_payload_cipher(&h, fk, &k);
	seal(&b, &k, 16, 6, 0, 1, (const uint8_t *)"first final\n", 12);
	seal(&b, &k, 16, 6, 1, 1, (const uint8_t *)"second final\n", 13);
	ae_gcm_wipe(&k);
	save("bad-two-final.aes", b.p, b.len);
	b.len = 0;

	/* Header breakages. */
	build(&b, "bad-kdf-params", SLOT_PASS, 16, 6,
	    (const uint8_t *)"x\n", 2, starts, 16);
	b.p[AE_PREFIX_LEN + 3 + 3] ^= 0x04;   /* m_kib low byte: 1024 -> 1028 */
	save("bad-kdf-params.aes", b.p, b.len);
	b.len = 0;

	/* The payload salt changed and the CRC recomputed: the slot still
	 * opens, so only the header MAC can catch it. */
	build(&b, "bad-header-mac", SLOT_KEY, 16, 6,
	    (const uint8_t *)"x\n", 2, starts, 16);
	hlen = starts[0];
	b.p[14] ^= 0x01;
	fix_crc(&b, hlen);
	save("bad-header-mac.aes", b.p, b.len);
	b.len = 0;

	/* codec 2, which does not exist, and DEFLATE with zstd's 8 MiB
	 * chunks (CRC fixed: the field is the fault) */
	build(&b, "bad-codec", SLOT_KEY, 16, 6, (const uint8_t *)"x\n", 2,
	    starts, 16);
	hlen = starts[0];
	b.p[11] = 0x20;
	fix_crc(&b, hlen);
	save("bad-codec.aes", b.p, b.len);
	b.p[11] = 0;
	b.p[12] = 23;
	fix_crc(&b, hlen);
	save("bad-deflate-8m-chunks.aes", b.p, b.len);
	b.len = 0;

	build(&b, "bad-wrong-passphrase", SLOT_WRONG, 16, 6,
	    (const uint8_t *)"x\n", 2, starts, 16);
	save("bad-wrong-passphrase.aes", b.p, b.len);
	b.len = 0;

	build(&b, "bad-kdf-cost", SLOT_HUGE_KDF, 16, 6,
	    (const uint8_t *)"x\n", 2, starts, 16);
	save("bad-kdf-cost.aes", b.p, b.len);
	b.len = 0;

	build(&b, "bad-magic", SLOT_KEY, 16, 6, (const uint8_t *)"x\n", 2,
	    starts, 16);
	b.p[1] = 'A';
	save("bad-magic.aes", b.p, b.len);
	b.p[1] = 'a';
	b.p[8] = 2;
	save("bad-version.aes", b.p, b.len);
	b.len = 0;

	/* Archives with an index (6.8), and the ways an index can be
	 * wrong that a sequential reader must catch. */
	{
		struct buf o = { 0 };
		size_t at, foot, oat, ofoot;

		at = index_archive(&b, "good-index", text, &foot, 0, 0);
		save("good-index.aes", b.p, b.len);
		save("bad-index-truncated.aes", b.p, foot - 7);
		save("bad-index-missing.aes", b.p, at);
		/* the same archive's index and footer from another file
		 * (another file key) */
		oat = index_archive(&o, "other-index", text, &ofoot, 0, 0);
		{
			struct buf c = { 0 };

			put(&c, b.p, at);
			put(&c, o.p + oat, o.len - oat);
			save("bad-index-other-file.aes", c.p, c.len);
			free(c.p);
		}
		{
			struct buf c = { 0 };

			put(&c, b.p, b.len);
			put(&c, "x", 1);
			save("bad-index-trailing.aes", c.p, c.len);
			free(c.p);
		}
		free(o.p);
		b.len = 0;
		index_archive(&b, "bad-footer-outside", text, &foot, 1, 0);
		save("bad-footer-outside.aes", b.p, b.len);
		b.len = 0;
		index_archive(&b, "bad-index-no-such-chunk", text, &foot, 2, 0);
		save("bad-index-no-such-chunk.aes", b.p, b.len);
		b.len = 0;
	}

	/* Files that end with a copy of their header (6.9): a stream and
	 * an archive with an index, good; the copy damaged, cut, followed
	 * by a byte; and the header damaged, which --salvage reads from the
	 * copy. */
	{
		struct buf c = { 0 };
		size_t L;

		build_copy(&b, "good-copy", text, 100000);
		save("good-copy.aes", b.p, b.len);
		L = (size_t)b.p[9] << 8 | b.p[10];
		put(&c, b.p, b.len);
		c.p[c.len - 2 - L + 20] ^= 0x01;
		save("bad-copy-differs.aes", c.p, c.len);
		save("bad-copy-truncated.aes", b.p, b.len - 1);
		c.len = 0;
		put(&c, b.p, b.len);
		put(&c, "x", 1);
		save("bad-copy-trailing.aes", c.p, c.len);
		c.len = 0;
		put(&c, b.p, b.len);
		c.p[20] ^= 0x01;
		save("bad-header-copy-salvage.aes", c.p, c.len);
		free(c.p);
		b.len = 0;
		index_archive(&b, "good-copy-index", text, &foot_copy, 0, 1);
		save("good-copy-index.aes", b.p, b.len);
		b.len = 0;
	}

	/* Signed streams (6.10), each build_signed's damage in turn: good;
	 * a record forged with the file key; cut before the last
	 * signature; signed with no signer slot; signed by another key; a
	 * signature where none belongs; an interval's signature made as
	 * the last. */
	{
		static const char *const signed_names[] = {
			"good-signed", "bad-signed-forged", "bad-signed-cut",
			"bad-signed-no-slot", "bad-signed-other-key",
			"bad-signed-extra", "bad-signed-last-early"
		};
		char fn[64];
		int i;

		for (i = 0; i < (int)(sizeof signed_names
		    / sizeof signed_names[0]); i++) {
			build_signed(&b, signed_names[i], text, 300000, i);
			snprintf(fn, sizeof fn, "%s.aes", signed_names[i]);
			save(fn, b.p, b.len);
			b.len = 0;
		}
	}

#ifdef HAVE_ZSTD
	zstd_samples(text);
#endif

	/* AES Crypt files are read now (-d); their samples are in
	 * aes-crypt/, made by a separate implementation. */

	free(b.p);
	free(text);
	free(rnd);
	return 0;
}
