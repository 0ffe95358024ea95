#include "config.h"
#include "header.h"

#include <string.h>

#include <zlib.h>

#include "common/bytes.h"
#include "crypto/hkdf.h"
#include "crypto/hmac_sha256.h"
#include "crypto/random.h"
#include "common/wipe.h"
#include "crypto/x25519.h"
#include "recipient_slot.h"

/* Byte offsets of the fixed fields (spec, section 3.1). */
enum {
	OFF_VERSION = 8,
	OFF_LENGTH = 9,
	OFF_PAYLOAD_TYPE = 11,
	OFF_CHUNK_LOG2 = 12,
	OFF_NSTANZAS = 13,
	OFF_SALT = 14,
	/* magic, version and length: enough to know how much to read */
	LEAD_LEN = 11,
	/* the prefix, one empty stanza, the CRC and the MAC */
	HEADER_MIN = AE_PREFIX_LEN + AE_STANZA_HEAD_LEN + AE_CHECK_LEN
	    + AE_MAC_LEN
};

static uint32_t
crc_of(const uint8_t *p, size_t n)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)n);
}

static void
header_mac(const uint8_t *raw, size_t len,
    const uint8_t file_key[AE_FILE_KEY_LEN], uint8_t mac[AE_MAC_LEN])
{
	uint8_t hk[32];

	ae_hkdf_sha256(NULL, 0, file_key, AE_FILE_KEY_LEN,
	    (const uint8_t *)AE_LABEL_HEADER, sizeof AE_LABEL_HEADER - 1,
	    hk, sizeof hk);
	ae_hmac_sha256(hk, sizeof hk, raw, len - AE_MAC_LEN, mac);
	ae_wipe(hk, sizeof hk);
}

int
ae_header_new(struct ae_header *h, int payload_type, int codec,
    unsigned chunk_log2, uint8_t file_key[AE_FILE_KEY_LEN])
{
	int e;

	memset(h, 0, sizeof *h);
	h->payload_type = (uint8_t)payload_type;
	h->copy = 1;
	h->codec = (uint8_t)codec;
	h->chunk_log2 = (uint8_t)chunk_log2;
	if ((e = ae_random(file_key, AE_FILE_KEY_LEN)) != AE_OK
	    || (e = ae_random(h->payload_salt, AE_SALT_LEN)) != AE_OK)
		ae_wipe(file_key, AE_FILE_KEY_LEN);
	return e;
}

int
ae_header_plan(const struct ae_recipient *r, size_t nr, int keyfile,
    int passphrase, size_t *need, size_t *max)
{
	size_t i;

	*need = AE_PREFIX_LEN + AE_CHECK_LEN + AE_MAC_LEN
	    + (keyfile ? AE_STANZA_HEAD_LEN + AE_KEYFILE_BODY_LEN : 0)
	    + (passphrase ? AE_STANZA_HEAD_LEN + AE_ARGON2ID_BODY_LEN : 0);
	for (i = 0; i < nr; i++)
		*need += ae_recipient_slot_len(&r[i]);
	if (nr + (keyfile != 0) + (passphrase != 0) > AE_MAX_STANZAS) {
		*max = AE_MAX_STANZAS;
		return AE_ELIMIT;
	}
	*max = AE_HEADER_MAX;
	return *need > AE_HEADER_MAX ? AE_ETOOBIG : AE_OK;
}

int
ae_header_add_recipient(struct ae_header *h, const struct ae_recipient *r,
    const uint8_t file_key[AE_FILE_KEY_LEN])
{
	struct ae_stanza *s;
	uint8_t S[32];
	int e;

	if (h->nstanzas >= AE_MAX_STANZAS)
		return AE_ELIMIT;
	s = &h->stanza[h->nstanzas];
	if ((e = ae_stanza_secret_recipient(s, r, S)) != AE_OK)
		return e;
	ae_stanza_wrap(s, S, file_key);
	ae_wipe(S, sizeof S);
	h->nstanzas++;
	return AE_OK;
}

/* The next slot of h, cleared, of type with a fresh salt: AE_OK, with
 * *out set (h->nstanzas not yet counting it); AE_ELIMIT; or the random
 * source's error. */
static int
new_salted_slot(struct ae_header *h, uint8_t type, struct ae_stanza **out)
{
	struct ae_stanza *s;

	if (h->nstanzas >= AE_MAX_STANZAS)
		return AE_ELIMIT;
	s = &h->stanza[h->nstanzas];
	memset(s, 0, sizeof *s);
	s->type = type;
	*out = s;
	return ae_random(s->salt, AE_SALT_LEN);
}

int
ae_header_add_keyfile(struct ae_header *h, const uint8_t key[32],
    const uint8_t file_key[AE_FILE_KEY_LEN])
{
	struct ae_stanza *s;
	uint8_t S[32];
	int e;

	if ((e = new_salted_slot(h, AE_STANZA_KEYFILE, &s)) != AE_OK)
		return e;
	ae_stanza_secret_keyfile(s, key, S);
	ae_stanza_wrap(s, S, file_key);
	ae_wipe(S, sizeof S);
	h->nstanzas++;
	return AE_OK;
}

int
ae_header_add_passphrase(struct ae_header *h, const void *pass,
    size_t passlen, const struct ae_kdf_params *kdf,
    const uint8_t file_key[AE_FILE_KEY_LEN])
{
	struct ae_stanza *s;
	uint8_t S[32];
	int e;

	if ((e = new_salted_slot(h, AE_STANZA_ARGON2ID, &s)) != AE_OK)
		return e;
	s->kdf = *kdf;
	if ((e = ae_stanza_secret_passphrase(s, pass, passlen, S)) != AE_OK)
		return e;
	ae_stanza_wrap(s, S, file_key);
	ae_wipe(S, sizeof S);
	h->nstanzas++;
	return AE_OK;
}

int
ae_header_set_signer(struct ae_header *h, const uint8_t pk[32],
    unsigned sig_log2)
{
	if (sig_log2 > AE_SIG_LOG2_MAX || h->is_signed)
		return AE_EINVAL;
	if (h->nstanzas >= AE_MAX_STANZAS)
		return AE_ELIMIT;
	memset(&h->stanza[h->nstanzas], 0, sizeof h->stanza[0]);
	h->stanza[h->nstanzas].type = AE_STANZA_SIGNER;
	h->nstanzas++;
	h->is_signed = 1;
	h->sig_log2 = (uint8_t)sig_log2;
	memcpy(h->signer, pk, 32);
	return AE_OK;
}

/* The signer slot (6.10), laid out at out. */
static void
signer_encode(const struct ae_header *h, uint8_t *out)
{
	out[0] = AE_STANZA_SIGNER;
	out[1] = 0;
	out[2] = AE_SIGNER_BODY_LEN;
	out[3] = AE_SIGNER_ED25519;
	out[4] = h->sig_log2;
	memcpy(out + 5, h->signer, 32);
}

int
ae_header_encode(struct ae_header *h, const uint8_t file_key[AE_FILE_KEY_LEN])
{
	size_t off = AE_PREFIX_LEN, len;
	unsigned i;

	if (h->nstanzas < 1 || h->nstanzas > AE_MAX_STANZAS
	    || h->chunk_log2 < AE_CHUNK_LOG2_MIN
	    || h->chunk_log2 > AE_CHUNK_LOG2_MAX_FOR(h->codec)
	    || h->payload_type > AE_PAYLOAD_MAX || h->codec > AE_CODEC_MAX)
		return AE_EINVAL;
	len = AE_PREFIX_LEN + AE_CHECK_LEN + AE_MAC_LEN;
	for (i = 0; i < h->nstanzas; i++) {
		if (h->stanza[i].type == AE_STANZA_SIGNER && h->is_signed) {
			len += AE_STANZA_HEAD_LEN + AE_SIGNER_BODY_LEN;
			continue;
		}
		if (!ae_stanza_known(h->stanza[i].type))
			return AE_EINVAL;
		len += ae_stanza_len(&h->stanza[i]);
	}
	if (len > AE_HEADER_MAX)
		return AE_EINVAL;

	memcpy(h->raw, AE_MAGIC, AE_MAGIC_LEN);
	h->raw[OFF_VERSION] = AE_VERSION;
	h->raw[OFF_LENGTH] = (uint8_t)(len >> 8);
	h->raw[OFF_LENGTH + 1] = (uint8_t)len;
	h->raw[OFF_PAYLOAD_TYPE] = (uint8_t)(h->payload_type
	    | (h->is_signed ? AE_PAYLOAD_SIGNED : 0)
	    | h->codec << AE_PAYLOAD_CODEC_SHIFT
	    | (h->copy ? AE_PAYLOAD_COPY : 0));
	h->raw[OFF_CHUNK_LOG2] = h->chunk_log2;
	h->raw[OFF_NSTANZAS] = (uint8_t)h->nstanzas;
	memcpy(h->raw + OFF_SALT, h->payload_salt, AE_SALT_LEN);
	for (i = 0; i < h->nstanzas; i++) {
		h->stanza[i].offset = off;
		if (h->stanza[i].type == AE_STANZA_SIGNER) {
			h->stanza[i].len = AE_STANZA_HEAD_LEN
			    + AE_SIGNER_BODY_LEN;
			signer_encode(h, h->raw + off);
		} else {
			h->stanza[i].len = ae_stanza_len(&h->stanza[i]);
			ae_stanza_encode(&h->stanza[i], h->raw + off);
		}
		off += h->stanza[i].len;
	}
	store_be32(h->raw + off, crc_of(h->raw, off));
	h->len = len;
	header_mac(h->raw, len, file_key, h->raw + len - AE_MAC_LEN);
	return AE_OK;
}

/* What the checks that random damage fails say (ae_header_damaged
 * knows them by their address). */
static const char WHAT_VERSION[] = "unsupported format version";
static const char WHAT_TRUNCATED[] = "header is truncated";
static const char WHAT_LENGTH[] = "header length out of range";
static const char WHAT_LENGTH_DIFFERS[] = "header length does not match";
static const char WHAT_MAGIC[] = "not an aescrypt container (bad magic)";
static const char WHAT_CRC[] = "header checksum mismatch (the header is "
    "corrupt)";

/*
 * Check the first n bytes of a header (n may be short of LEAD_LEN, or
 * even of the magic): on success *total is the header length.  The
 * order is the spec's (section 10): what the bytes present already show
 * is reported before "truncated", so an AES Crypt file is named from its
 * first 4 bytes and an unknown version from the first 9, whatever
 * follows.
 */
static int
parse_lead(const uint8_t *b, size_t n, size_t *total, struct ae_diag *d)
{
	size_t len, m = n < AE_MAGIC_LEN ? n : AE_MAGIC_LEN;

	if (n == 0)
		return ae_fail(d, AE_ETRUNC, AE_AT_HEADER, "input is empty", 0,
		    0);
	/* AES Crypt (the older tool that also writes .aes files) starts
	 * with "AES" and a version byte 0..3. */
	if (n >= 4 && memcmp(b, "AES", 3) == 0 && b[3] <= 3)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    "this is an AES Crypt file, not an aescrypt container", 0,
		    0);
	if (memcmp(b, AE_MAGIC, m) != 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, WHAT_MAGIC, 0, 0);
	if (n > OFF_VERSION && b[OFF_VERSION] != AE_VERSION) {
		if (d != NULL)
			d->have = b[OFF_VERSION];
		return ae_fail(d, AE_ENOTSUP, AE_AT_HEADER,
		    WHAT_VERSION, 0, OFF_VERSION);
	}
	if (n < LEAD_LEN)
		return ae_fail(d, AE_ETRUNC, AE_AT_HEADER,
		    WHAT_TRUNCATED, 0, n);
	len = (size_t)b[OFF_LENGTH] << 8 | b[OFF_LENGTH + 1];
	if (len < HEADER_MIN || len > AE_HEADER_MAX)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    WHAT_LENGTH, 0, OFF_LENGTH);
	*total = len;
	return AE_OK;
}

/*
 * The rules on the slots as a set, checked when the header is parsed, so
 * before any key is tried and any KDF runs (spec 4.1, 4.4): every
 * passphrase slot's Argon2id parameters are valid, and there is at most
 * one passphrase slot (a hostile file with 16 would cost 16 times the
 * work the caps intend, test 16 guesses against one decryption, and
 * show by its timing which slot opened).  Every recipient slot's share
 * is not of low order (4.5): that needs no secret, so whether a header
 * is valid never depends on which keys the reader holds or the order it
 * tries the slots in.  Also: at least one slot of a type this code
 * knows.
 */
static int
check_slots(const struct ae_header *h, struct ae_diag *d)
{
	unsigned i, npass = 0, known = 0;

	for (i = 0; i < h->nstanzas; i++) {
		const struct ae_stanza *s = &h->stanza[i];
		const struct ae_slot_type *t = ae_slot_type_get(s->type);
		const uint8_t *share = ae_stanza_share(s);

		known += t != NULL;
		if (share != NULL && ae_x25519_low_order(share))
			return ae_fail(d, AE_EFORMAT, AE_AT_STANZA,
			    "its ephemeral key is of low order (an all-zero "
			    "shared secret)", i, s->offset);
		if (t == NULL || t->cls != AE_SLOT_PASSPHRASE)
			continue;
		if (ae_kdf_valid(&s->kdf) != AE_OK)
			return ae_fail(d, AE_EFORMAT, AE_AT_STANZA,
			    "invalid Argon2id parameters", i, s->offset);
		if (++npass > 1)
			return ae_fail(d, AE_EFORMAT, AE_AT_STANZA,
			    "a second passphrase slot (a file may have only "
			    "one)", i, s->offset);
	}
	/* Well formed, but nothing here can open it: a file made for a
	 * slot type of a later version, not a wrong key. */
	if (known == 0)
		return ae_fail(d, AE_ENOTSUP, AE_AT_NONE,
		    "no key slot of a type this version knows (made by a "
		    "later aescrypt?)", 0, 0);
	return AE_OK;
}

/*
 * 6.10: a signed header has exactly one signer slot, of the one key
 * type, with an interval in range; an unsigned one has none (a signer
 * slot the payload_type does not announce would be a signature no
 * reader checks).  Its fields into h.
 */
static int
check_signer(struct ae_header *h, struct ae_diag *d)
{
	unsigned i, n = 0;

	for (i = 0; i < h->nstanzas; i++) {
		const struct ae_stanza *s = &h->stanza[i];
		const uint8_t *b = h->raw + s->offset + AE_STANZA_HEAD_LEN;

		if (s->type != AE_STANZA_SIGNER)
			continue;
		if (++n > 1)
			return ae_fail(d, AE_EFORMAT, AE_AT_STANZA,
			    "a second signer slot", i, s->offset);
		if (!h->is_signed)
			return ae_fail(d, AE_EFORMAT, AE_AT_STANZA,
			    "a signer slot in a header that does not say it "
			    "is signed", i, s->offset);
		if (s->len != AE_STANZA_HEAD_LEN + AE_SIGNER_BODY_LEN)
			return ae_fail(d, AE_EFORMAT, AE_AT_STANZA,
			    "a signer slot of the wrong length", i, s->offset);
		if (b[0] != AE_SIGNER_ED25519) {
			if (d != NULL)
				d->have = b[0];
			return ae_fail(d, AE_ENOTSUP, AE_AT_STANZA,
			    "a signing key of a type this version does not "
			    "know", i, s->offset);
		}
		if (b[1] > AE_SIG_LOG2_MAX)
			return ae_fail(d, AE_EFORMAT, AE_AT_STANZA,
			    "a signature interval out of range", i, s->offset);
		h->sig_log2 = b[1];
		memcpy(h->signer, b + 2, 32);
	}
	if (h->is_signed && n == 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "a signed header "
		    "without its signer slot", 0, OFF_PAYLOAD_TYPE);
	return AE_OK;
}

int
ae_header_parse(const uint8_t *buf, size_t len, struct ae_header *h,
    struct ae_diag *d)
{
	size_t total, off, end;
	unsigned i;
	int r;

	if ((r = parse_lead(buf, len, &total, d)) != AE_OK)
		return r;
	if (len < total)
		return ae_fail(d, AE_ETRUNC, AE_AT_HEADER,
		    WHAT_TRUNCATED, 0, len);
	if (len > total)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    WHAT_LENGTH_DIFFERS, 0, OFF_LENGTH);

	/* The CRC first: random damage anywhere is "corrupt", before any
	 * field is believed. */
	end = total - AE_MAC_LEN - AE_CHECK_LEN;
	if (load_be32(buf + end) != crc_of(buf, end))
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    WHAT_CRC, 0, end);

	memset(h, 0, sizeof *h);
	memcpy(h->raw, buf, total);
	h->len = total;
	h->payload_type = buf[OFF_PAYLOAD_TYPE] & AE_PAYLOAD_TYPE_MASK
	    & ~AE_PAYLOAD_SIGNED;
	h->is_signed = (buf[OFF_PAYLOAD_TYPE] & AE_PAYLOAD_SIGNED) != 0;
	h->codec = (buf[OFF_PAYLOAD_TYPE] & AE_PAYLOAD_CODEC_MASK)
	    >> AE_PAYLOAD_CODEC_SHIFT;
	h->copy = (buf[OFF_PAYLOAD_TYPE] & AE_PAYLOAD_COPY) != 0;
	h->chunk_log2 = buf[OFF_CHUNK_LOG2];
	h->nstanzas = buf[OFF_NSTANZAS];
	memcpy(h->payload_salt, buf + OFF_SALT, AE_SALT_LEN);
	if (h->payload_type > AE_PAYLOAD_MAX) {
		if (d != NULL)
			d->have = h->payload_type;
		return ae_fail(d, AE_ENOTSUP, AE_AT_HEADER,
		    "unknown payload type", 0, OFF_PAYLOAD_TYPE);
	}
	if (h->codec > AE_CODEC_MAX) {
		if (d != NULL)
			d->have = h->codec;
		return ae_fail(d, AE_ENOTSUP, AE_AT_HEADER,
		    "unknown compression codec", 0, OFF_PAYLOAD_TYPE);
	}
	if (h->chunk_log2 < AE_CHUNK_LOG2_MIN
	    || h->chunk_log2 > AE_CHUNK_LOG2_MAX_FOR(h->codec))
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    "chunk size out of range", 0, OFF_CHUNK_LOG2);
	if (h->nstanzas < 1 || h->nstanzas > AE_MAX_STANZAS)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    "key slot count out of range", 0, OFF_NSTANZAS);
	off = AE_PREFIX_LEN;
	for (i = 0; i < h->nstanzas; i++) {
		r = ae_stanza_parse(buf + off, end - off, &h->stanza[i], d);
		if (r != AE_OK) {
			if (d != NULL)
				d->offset = off;
			return r;
		}
		h->stanza[i].offset = off;
		off += h->stanza[i].len;
	}
	if (off != end)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    "key slots do not fill the header", 0, off);
	if ((r = check_signer(h, d)) != AE_OK)
		return r;
	return check_slots(h, d);
}

int
ae_header_read(struct ae_reader *r, struct ae_header *h, struct ae_diag *d)
{
	uint8_t buf[AE_HEADER_MAX];
	size_t total, got;
	int e;

	if ((e = r->read(r->ctx, buf, LEAD_LEN, &got)) != AE_OK)
		return ae_fail(d, e, AE_AT_INPUT, "reading the header", 0, 0);
	if ((e = parse_lead(buf, got, &total, d)) != AE_OK)
		return e;
	e = r->read(r->ctx, buf + LEAD_LEN, total - LEAD_LEN, &got);
	if (e != AE_OK)
		return ae_fail(d, e, AE_AT_INPUT, "reading the header", 0,
		    LEAD_LEN);
	return ae_header_parse(buf, LEAD_LEN + got, h, d);
}

int
ae_header_damaged(const struct ae_diag *d)
{
	return d->where == AE_AT_HEADER && (d->what == WHAT_VERSION
	    || d->what == WHAT_TRUNCATED || d->what == WHAT_LENGTH
	    || d->what == WHAT_LENGTH_DIFFERS || d->what == WHAT_CRC);
}

int
ae_header_bad_magic(const struct ae_diag *d)
{
	return d->where == AE_AT_HEADER && d->what == WHAT_MAGIC;
}

size_t
ae_header_tail_len(const struct ae_header *h)
{
	return h->copy ? h->len + AE_COPY_LEN_LEN : 0;
}

void
ae_header_tail(const struct ae_header *h, uint8_t *out)
{
	memcpy(out, h->raw, h->len);
	out[h->len] = (uint8_t)(h->len >> 8);
	out[h->len + 1] = (uint8_t)h->len;
}

int
ae_header_check_tail(const struct ae_header *h, const uint8_t *b, size_t n,
    uint64_t at, struct ae_diag *d)
{
	uint8_t want[AE_HEADER_MAX + AE_COPY_LEN_LEN];
	size_t len = ae_header_tail_len(h), i;
	uint8_t diff = 0;

	if (n < len)
		return ae_fail(d, AE_ETRUNC, AE_AT_HEADER, "the copy of the "
		    "header at the end of the file is missing or cut short "
		    "(the file is truncated)", 0, at + n);
	ae_header_tail(h, want);
	for (i = 0; i < len; i++)
		diff |= (uint8_t)(want[i] ^ b[i]);
	if (diff != 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "the copy of the "
		    "header at the end of the file differs from the header "
		    "(the file is damaged there)", 0, at);
	if (n > len)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "data after the "
		    "copy of the header at the end of the file", 0, at + len);
	return AE_OK;
}

int
ae_header_parse_copy(const uint8_t *end, size_t n, struct ae_header *h,
    struct ae_diag *d)
{
	size_t len;
	int r;

	if (n < AE_COPY_LEN_LEN)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "the file is too "
		    "short to end with a copy of its header", 0, 0);
	len = (size_t)end[n - 2] << 8 | end[n - 1];
	if (len < HEADER_MIN || len > AE_HEADER_MAX
	    || len > n - AE_COPY_LEN_LEN)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "no copy of the "
		    "header at the end of the file", 0, 0);
	r = ae_header_parse(end + n - AE_COPY_LEN_LEN - len, len, h, d);
	if (r == AE_OK && !h->copy)
		r = ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "no copy of the "
		    "header at the end of the file", 0, 0);
	if (r != AE_OK)
		return r;
	h->from_copy = 1;
	return AE_OK;
}

unsigned
ae_header_count(const struct ae_header *h, int cls)
{
	unsigned i, n = 0;

	for (i = 0; i < h->nstanzas; i++) {
		const struct ae_slot_type *t = ae_slot_type_get(h->stanza[i].type);

		n += t != NULL && (int)t->cls == cls;
	}
	return n;
}

static int
verify_mac(const struct ae_header *h, const uint8_t fk[AE_FILE_KEY_LEN],
    struct ae_diag *d)
{
	uint8_t mac[AE_MAC_LEN];
	int ok;

	header_mac(h->raw, h->len, fk, mac);
	ok = ae_ct_equal(mac, h->raw + h->len - AE_MAC_LEN, AE_MAC_LEN);
	AE_DECLASSIFY(&ok, sizeof ok);
	if (!ok)
		return ae_fail(d, AE_EAUTH, AE_AT_HEADER,
		    "header failed authentication (it was modified)", 0,
		    h->len - AE_MAC_LEN);
	return AE_OK;
}

int
ae_header_unlock(const struct ae_header *h, const struct ae_unlock *u,
    uint8_t file_key[AE_FILE_KEY_LEN], struct ae_diag *d)
{
	uint8_t S[32], fk[AE_FILE_KEY_LEN];
	int r = AE_EKEY, skipped = 0, pass;
	struct ae_diag lim = { 0 };
	unsigned i;

	/* Two passes: key files and identities (cheap) first, then
	 * passphrases. */
	for (pass = 0; pass < 2 && r != AE_OK; pass++) {
		for (i = 0; i < h->nstanzas && r != AE_OK; i++) {
			const struct ae_stanza *s = &h->stanza[i];
			const struct ae_slot_type *t =
			    ae_slot_type_get(s->type);
			int cls = t != NULL ? (int)t->cls : -1;

			if (pass == 0 && cls == AE_SLOT_RECIPIENT) {
				size_t k;

				for (k = 0; k < u->nids && r != AE_OK; k++) {
					int e = ae_stanza_secret_identity(s,
					    &u->ids[k], S);

					if (e == AE_EFORMAT) {
						r = ae_fail(d, e, AE_AT_STANZA,
						    "its ephemeral key is of low "
						    "order (an all-zero shared "
						    "secret)", i, s->offset);
						goto out;
					}
					if (e != AE_OK)
						continue;
					r = ae_stanza_unwrap(s, S, fk);
				}
				continue;
			}
			if (pass == 0 && cls == AE_SLOT_KEYFILE
			    && u->key != NULL) {
				ae_stanza_secret_keyfile(s, u->key, S);
			} else if (pass == 1 && cls == AE_SLOT_PASSPHRASE
			    && u->pass != NULL) {
				/* (Valid parameters and a single passphrase
				 * slot were checked by ae_header_parse.) */
				if (ae_kdf_within(&s->kdf, &u->limits,
				    &lim) != AE_OK) {
					lim.index = i;
					lim.offset = s->offset;
					skipped = 1;
					continue;
				}
				r = ae_stanza_secret_passphrase(s, u->pass,
				    u->passlen, S);
				if (r != AE_OK) {
					r = ae_fail(d, r, AE_AT_STANZA,
					    "running Argon2id", i, s->offset);
					goto out;
				}
			} else {
				continue;
			}
			r = ae_stanza_unwrap(s, S, fk);
		}
	}
	if (r != AE_OK) {
		if (skipped) {
			if (d != NULL)
				*d = lim;
			r = AE_ELIMIT;
		} else {
			ae_fail(d, AE_EKEY, AE_AT_HEADER,
			    "no key slot opened", 0, 0);
		}
		goto out;
	}
	if ((r = verify_mac(h, fk, d)) == AE_OK)
		memcpy(file_key, fk, AE_FILE_KEY_LEN);
out:
	ae_wipe(S, sizeof S);
	ae_wipe(fk, sizeof fk);
	return r;
}

void
ae_header_payload_key(const struct ae_header *h,
    const uint8_t file_key[AE_FILE_KEY_LEN], uint8_t key[32])
{
	ae_hkdf_sha256(h->payload_salt, AE_SALT_LEN, file_key, AE_FILE_KEY_LEN,
	    (const uint8_t *)AE_LABEL_PAYLOAD, sizeof AE_LABEL_PAYLOAD - 1,
	    key, 32);
}

void
ae_header_payload_cipher(const struct ae_header *h,
    const uint8_t file_key[AE_FILE_KEY_LEN], ae_gcm_ctx *g)
{
	uint8_t key[32];

	ae_header_payload_key(h, file_key, key);
	ae_gcm_init(g, key);
	ae_wipe(key, sizeof key);
}
