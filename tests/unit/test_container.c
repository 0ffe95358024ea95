/*
 * test_container.c -- the v1 container's parts on their own: key files,
 * Argon2id plumbing, key slots, the header and chunks.  Whole payloads
 * through the pipeline are test_pipeline.c's.
 *
 * The CLI tests (tests/cli) drive the same code through the binary;
 * these reach the cases the binary cannot make: every truncation
 * length, every bit of a header, a DEFLATE bomb sealed with the right
 * key, a short non-final chunk.
 */
#include "config.h"

#include <zlib.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "common/bytes.h"
#include "check.h"
#include "container/chunk.h"
#include "container/format.h"
#include "crypto/gcm.h"
#include "container/header.h"
#include "container/index.h"
#include "container/kdf.h"
#include "container/keyfile.h"
#include "container/recscan.h"
#include "container/stanza.h"

static uint64_t seed = 0x5eed;

/* ---- key files ---- */

/* After a refused open: out's first 16 bytes hold no plaintext: the
 * first min(n, 16) are all 0xee (untouched) or all 0 (wiped by a tier
 * that decrypts as it hashes), and the rest are untouched. */
static int
no_plain(const uint8_t *out, size_t n)
{
	size_t i, m = n < 16 ? n : 16;
	int ee = 1, zero = 1;

	for (i = 0; i < m; i++) {
		ee &= out[i] == 0xee;
		zero &= out[i] == 0;
	}
	for (i = m; i < 16; i++)
		if (out[i] != 0xee)
			return 0;
	return ee || zero;
}

static void
test_keyfile(void)
{
	uint8_t key[32], back[32];
	char text[256], bad[512];
	size_t n;

	t_fill(&seed, key, 32);
	n = ae_keyfile_format(key, text, sizeof text);
	CHECK(n > 0 && strlen(text) == n, "format length");
	CHECK(ae_keyfile_parse(text, n, back) == AE_OK, "parse own output");
	CHECK_MEM(key, back, 32, "key file round trip");
	CHECK(ae_keyfile_format(key, text, 40) == 0, "small buffer refused");

	/* Upper-case hex, CRLF, no final newline, comments and blanks. */
	snprintf(bad, sizeof bad, "# c\r\n\r\nAESCRYPT-KEY-V1-%s\r\n",
	    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F");
	CHECK(ae_keyfile_parse(bad, strlen(bad), back) == AE_OK
	    && back[10] == 0x0a && back[31] == 0x1f, "upper case and CRLF");
	snprintf(bad, sizeof bad, "AESCRYPT-KEY-V1-%064d", 0);
	CHECK(ae_keyfile_parse(bad, strlen(bad), back) == AE_OK,
	    "no final newline");

	/* Refusals. */
	const char *refuse[] = {
		"",
		"# only a comment\n",
		"AESCRYPT-KEY-V1-00\n",
		"AESCRYPT-KEY-V2-0000000000000000000000000000000000000000000000000000000000000000\n",
		"AESCRYPT-KEY-V1-000000000000000000000000000000000000000000000000000000000000000g\n",
		"AESCRYPT-KEY-V1-0000000000000000000000000000000000000000000000000000000000000000 \n",
		"AESCRYPT-KEY-V1-0000000000000000000000000000000000000000000000000000000000000000\n"
		"AESCRYPT-KEY-V1-0000000000000000000000000000000000000000000000000000000000000000\n",
		" AESCRYPT-KEY-V1-0000000000000000000000000000000000000000000000000000000000000000\n",
	};
	for (size_t i = 0; i < sizeof refuse / sizeof *refuse; i++) {
		memset(back, 0xaa, 32);
		CHECK(ae_keyfile_parse(refuse[i], strlen(refuse[i]), back)
		    == AE_EFORMAT, "refuse case %zu", i);
		CHECK(back[0] == 0xaa && back[31] == 0xaa,
		    "refused parse wrote the key (case %zu)", i);
	}
	/* A file over 4096 bytes is not a key file, even with a good line. */
	{
		static char big[AE_KEYFILE_MAX + 200];
		size_t bl;

		memset(big, '#', sizeof big);
		big[0] = '\n';
		bl = (size_t)snprintf(big + AE_KEYFILE_MAX, 200,
		    "\nAESCRYPT-KEY-V1-%064d\n", 0) + AE_KEYFILE_MAX;
		big[AE_KEYFILE_MAX - 1] = '\n';
		CHECK(ae_keyfile_parse(big, bl, back) == AE_EFORMAT,
		    "a %zu-byte file refused", bl);
		CHECK(ae_keyfile_parse(big + AE_KEYFILE_MAX - 100, bl -
		    AE_KEYFILE_MAX + 100, back) == AE_OK, "control: the tail "
		    "alone parses");
	}
		/* Every byte that is not a hex digit is refused in a digit spot. */
	for (int c = 0; c < 256; c++) {
		int hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')
		    || (c >= 'A' && c <= 'F');
		snprintf(bad, sizeof bad, "AESCRYPT-KEY-V1-%064d", 0);
		bad[16 + 37] = (char)c;
		if (c == 0 || c == '\n')
			continue;
		CHECK((ae_keyfile_parse(bad, strlen(bad), back) == AE_OK) == hex,
		    "digit 0x%02x accepted=%d", c, !hex);
	}
}

/* ---- Argon2id ---- */

static void
test_kdf(void)
{
	/* The reference implementation's own argon2id vector (its test.c:
	 * "password", "somesalt", t=2, m=2^16, p=1). */
	static const char want1[] =
	    "09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7";
	/* Checks the order of t, m, p: t=3, m=256, p=4. */
	static const char want2[] =
	    "51211ec791a404f8bc89576f7326f09ac81c0651ff478db0bd7ce51ddfb7201d";
	struct ae_kdf_params p1 = { 65536, 2, 1 }, p2 = { 256, 3, 4 };
	struct ae_kdf_limits lim = { 1024, 10, 16 };
	struct ae_diag d = { 0 };
	uint8_t out[32], *w;
	size_t n;

	CHECK(ae_kdf_argon2id("password", 8, (const uint8_t *)"somesalt", 8,
	    &p1, out) == AE_OK, "argon2id runs");
	w = t_unhex(want1, 64, &n);
	CHECK_MEM(out, w, 32, "argon2id reference vector");
	free(w);
	CHECK(ae_kdf_argon2id("correct horse", 13,
	    (const uint8_t *)"0123456789abcdef", 16, &p2, out) == AE_OK,
	    "argon2id p=4 runs");
	w = t_unhex(want2, 64, &n);
	CHECK_MEM(out, w, 32, "argon2id with t=3 m=256 p=4");
	free(w);

	CHECK(ae_kdf_within(&p2, &lim, &d) == AE_OK, "within limits");
	CHECK(ae_kdf_within(&p1, &lim, &d) == AE_ELIMIT && d.have == 65536
	    && d.limit == 1024, "memory over the cap");
	p2.t = 11;
	CHECK(ae_kdf_within(&p2, &lim, &d) == AE_ELIMIT && d.have == 11,
	    "passes over the cap");
	p2.t = 3;
	p2.p = 17;
	p2.m_kib = 17 * 8;
	CHECK(ae_kdf_within(&p2, &lim, &d) == AE_ELIMIT && d.have == 17,
	    "lanes over the cap");
	{
		struct ae_kdf_params bad[] = { { 8, 0, 1 }, { 8, 1, 0 },
		    { 31, 1, 4 } };
		for (size_t i = 0; i < 3; i++)
			CHECK(ae_kdf_valid(&bad[i]) == AE_EFORMAT,
			    "invalid params %zu", i);
	}
	ae_kdf_default_limits(&lim);
	CHECK(lim.max_m_kib <= AE_KDF_CAP_M_KIB && lim.max_m_kib > 0
	    && lim.max_t == 10 && lim.max_p == 16, "default limits");
}

/* ---- key slots ---- */

static void
test_stanza(void)
{
	struct ae_stanza s, p;
	uint8_t fk[32], S[32], S2[32], out[32], enc[128];
	size_t len;

	memset(&s, 0, sizeof s);
	s.type = AE_STANZA_KEYFILE;
	t_fill(&seed, s.salt, sizeof s.salt);
	t_fill(&seed, fk, 32);
	t_fill(&seed, S, 32);
	memcpy(S2, S, 32);
	S2[31] ^= 0x80;
	ae_stanza_wrap(&s, S, fk);
	CHECK(ae_stanza_unwrap(&s, S, out) == AE_OK, "unwrap");
	CHECK_MEM(out, fk, 32, "unwrap gives the file key");
	memset(out, 0x55, 32);
	CHECK(ae_stanza_unwrap(&s, S2, out) == AE_EKEY, "wrong S refused");
	CHECK(out[0] == 0x55 && out[31] == 0x55, "refused unwrap wrote");
	for (int i = 0; i < AE_WRAP_LEN * 8; i++) {
		struct ae_stanza t = s;
		t.wrap[i / 8] ^= (uint8_t)(1 << (i % 8));
		CHECK(ae_stanza_unwrap(&t, S, out) == AE_EKEY,
		    "wrap bit %d flip accepted", i);
	}
	for (int i = 0; i < AE_SALT_LEN; i++) {
		struct ae_stanza t = s;
		t.salt[i] ^= 1;     /* the MAC covers the salt */
		CHECK(ae_stanza_unwrap(&t, S, out) == AE_EKEY,
		    "salt byte %d flip accepted", i);
	}
	/* Encode and parse back. */
	len = ae_stanza_len(&s);
	CHECK(len == 83, "key-file slot is 83 bytes");
	ae_stanza_encode(&s, enc);
	CHECK(ae_stanza_parse(enc, len, &p, NULL) == AE_OK && p.len == len
	    && memcmp(p.wrap, s.wrap, AE_WRAP_LEN) == 0, "parse back");
	CHECK(ae_stanza_parse(enc, len - 1, &p, NULL) == AE_EFORMAT,
	    "slot longer than the room");
	enc[2]--;
	CHECK(ae_stanza_parse(enc, len, &p, NULL) == AE_EFORMAT,
	    "known type with the wrong body length");
	enc[0] = 0x7e;
	CHECK(ae_stanza_parse(enc, len, &p, NULL) == AE_OK
	    && p.len == len - 1, "unknown type: length only");
	{
		struct ae_stanza a = { .type = AE_STANZA_ARGON2ID };

		CHECK(ae_stanza_len(&a) == 95, "passphrase slot is 95");
	}
}

/* ---- header ---- */

static void
make_header(struct ae_header *h, uint8_t fk[32], const uint8_t key[32])
{
	uint8_t S[32];
	struct ae_stanza *s;

	memset(h, 0, sizeof *h);
	h->payload_type = AE_PAYLOAD_STREAM;
	h->chunk_log2 = 16;
	t_fill(&seed, h->payload_salt, AE_SALT_LEN);
	t_fill(&seed, fk, 32);
	s = &h->stanza[h->nstanzas++];
	s->type = AE_STANZA_KEYFILE;
	t_fill(&seed, s->salt, AE_SALT_LEN);
	ae_stanza_secret_keyfile(s, key, S);
	ae_stanza_wrap(s, S, fk);
	s = &h->stanza[h->nstanzas++];
	s->type = AE_STANZA_ARGON2ID;
	s->kdf.m_kib = 64;
	s->kdf.t = 1;
	s->kdf.p = 1;
	t_fill(&seed, s->salt, AE_SALT_LEN);
	ae_stanza_secret_passphrase(s, "pw", 2, S);
	ae_stanza_wrap(s, S, fk);
}

/* Recompute the CRC of a raw header after an edit. */
static void
fix_crc(uint8_t *raw, size_t len)
{
	size_t end = len - AE_MAC_LEN - AE_CHECK_LEN;

	store_be32(raw + end, (uint32_t)crc32(crc32(0, Z_NULL, 0), raw,
	    (uInt)end));
}

static void
test_header(void)
{
	static struct ae_header h, p;
	uint8_t fk[32], key[32], got[32], pk1[32], pk2[32];
	struct ae_unlock u;
	struct ae_diag d;
	uint8_t raw[AE_HEADER_MAX];
	size_t len;
	int r;

	t_fill(&seed, key, 32);
	make_header(&h, fk, key);
	CHECK(ae_header_encode(&h, fk) == AE_OK, "encode");
	CHECK(h.len == 30 + 83 + 95 + 36, "header length %zu", h.len);
	CHECK(memcmp(h.raw, "\x89" "aesc\r\n\x1a\x01", 9) == 0, "magic");
	CHECK(ae_header_parse(h.raw, h.len, &p, NULL) == AE_OK, "parse");
	CHECK(p.nstanzas == 2 && p.chunk_log2 == 16 && p.stanza[1].kdf.m_kib
	    == 64 && memcmp(p.payload_salt, h.payload_salt, 16) == 0,
	    "fields round trip");

	memset(&u, 0, sizeof u);
	ae_kdf_default_limits(&u.limits);
	u.key = key;
	CHECK(ae_header_unlock(&p, &u, got, NULL) == AE_OK
	    && memcmp(got, fk, 32) == 0, "unlock with the key file");
	u.key = NULL;
	u.pass = (const uint8_t *)"pw";
	u.passlen = 2;
	CHECK(ae_header_unlock(&p, &u, got, NULL) == AE_OK
	    && memcmp(got, fk, 32) == 0, "unlock with the passphrase");
	u.pass = (const uint8_t *)"pW";
	memset(got, 0x77, 32);
	CHECK(ae_header_unlock(&p, &u, got, NULL) == AE_EKEY,
	    "wrong passphrase is AE_EKEY");
	CHECK(got[0] == 0x77, "failed unlock wrote the key");
	u.pass = (const uint8_t *)"pw";
	u.limits.max_m_kib = 32;
	memset(&d, 0, sizeof d);
	CHECK(ae_header_unlock(&p, &u, got, &d) == AE_ELIMIT && d.have == 64
	    && d.limit == 32 && d.index == 1, "cost over the cap: AE_ELIMIT");

	/* The payload key depends on the salt. */
	ae_header_payload_key(&h, fk, pk1);
	h.payload_salt[0] ^= 1;
	ae_header_payload_key(&h, fk, pk2);
	h.payload_salt[0] ^= 1;
	CHECK(memcmp(pk1, pk2, 32) != 0, "payload key uses the salt");

	/* Every truncation is refused. */
	for (len = 0; len < h.len; len++) {
		r = ae_header_parse(h.raw, len, &p, NULL);
		CHECK(r == AE_ETRUNC || r == AE_EFORMAT,
		    "truncated to %zu: %d", len, r);
	}
	/* Every bit flip is refused by parse or by unlock, never accepted. */
	ae_kdf_default_limits(&u.limits);
	u.key = key;
	u.pass = NULL;
	for (size_t i = 0; i < h.len * 8; i++) {
		memcpy(raw, h.raw, h.len);
		raw[i / 8] ^= (uint8_t)(1 << (i % 8));
		r = ae_header_parse(raw, h.len, &p, NULL);
		if (r == AE_OK)
			r = ae_header_unlock(&p, &u, got, NULL);
		CHECK(r != AE_OK, "bit %zu flip accepted", i);
	}
	/* A field changed with the CRC fixed: the MAC catches it. */
	memcpy(raw, h.raw, h.len);
	raw[14] ^= 1;               /* payload salt */
	fix_crc(raw, h.len);
	CHECK(ae_header_parse(raw, h.len, &p, NULL) == AE_OK, "salt edit parses");
	memset(&d, 0, sizeof d);
	CHECK(ae_header_unlock(&p, &u, got, &d) == AE_EAUTH
	    && d.where == AE_AT_HEADER, "salt edit: header MAC fails");

	/* Fields out of range, with the CRC fixed so the field is the fault. */
	struct { size_t off; uint8_t val; int want; } cases[] = {
		{ 8, 2, AE_ENOTSUP },            /* version */
		{ 11, 3, AE_ENOTSUP },           /* payload type */
		{ 11, 0x20, AE_ENOTSUP },        /* codec 2 */
		{ 11, 0x70, AE_ENOTSUP },        /* codec 7 */
		{ 12, 15, AE_EFORMAT },          /* chunk size 32 KiB */
		{ 12, 23, AE_EFORMAT },          /* chunk size 8 MiB */
		{ 13, 0, AE_EFORMAT },           /* no slots */
		{ 13, 17, AE_EFORMAT },          /* too many slots */
		{ 13, 1, AE_EFORMAT },           /* slots do not fill */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		memcpy(raw, h.raw, h.len);
		raw[cases[i].off] = cases[i].val;
		fix_crc(raw, h.len);
		r = ae_header_parse(raw, h.len, &p, NULL);
		CHECK(r == cases[i].want, "field case %zu: %d", i, r);
	}
	/* zstd (codec 1) allows 8 MiB chunks; 16 MiB is still too big. */
	memcpy(raw, h.raw, h.len);
	raw[11] = 0x10;
	raw[12] = 23;
	fix_crc(raw, h.len);
	CHECK(ae_header_parse(raw, h.len, &p, NULL) == AE_OK
	    && p.codec == AE_CODEC_ZSTD && p.chunk_log2 == 23
	    && p.payload_type == AE_PAYLOAD_STREAM, "zstd, 8 MiB chunks");
	raw[12] = 24;
	fix_crc(raw, h.len);
	CHECK(ae_header_parse(raw, h.len, &p, NULL) == AE_EFORMAT,
	    "zstd, 16 MiB chunks");
	/* Length field: below the minimum, above the cap, or not the
	 * actual length. */
	memcpy(raw, h.raw, h.len);
	raw[9] = 0x10;              /* 4097 */
	raw[10] = 0x01;
	CHECK(ae_header_parse(raw, h.len, &p, NULL) == AE_EFORMAT,
	    "length over 4096");
	memcpy(raw, h.raw, h.len);
	raw[9] = 0;
	raw[10] = 68;
	CHECK(ae_header_parse(raw, h.len, &p, NULL) == AE_EFORMAT,
	    "length under the minimum");
	/* An AES Crypt file is named as such. */
	memcpy(raw, "AES\x02\x00", 5);
	memset(&d, 0, sizeof d);
	CHECK(ae_header_parse(raw, h.len, &p, &d) == AE_EFORMAT
	    && strstr(d.what, "AES Crypt") != NULL, "AES Crypt detected");
	/* Encode refuses what it must not write. */
	h.nstanzas = 0;
	CHECK(ae_header_encode(&h, fk) == AE_EINVAL, "no slots");
	h.nstanzas = 2;
	h.chunk_log2 = 23;
	CHECK(ae_header_encode(&h, fk) == AE_EINVAL, "chunk size 8 MiB");
}

/* ---- chunks ---- */

/* 6.9: the copy of the header that ends a file, and salvage from it. */
static void
test_header_copy(void)
{
	static struct ae_header h, p;
	uint8_t fk[32], key[32], got[32], file[3 * AE_HEADER_MAX];
	uint8_t tail[AE_HEADER_MAX + AE_COPY_LEN_LEN];
	struct ae_unlock u = { 0 };
	struct ae_diag d = { 0 };
	size_t n, i;

	t_fill(&seed, key, 32);
	make_header(&h, fk, key);
	h.payload_type = AE_PAYLOAD_PAX_INDEXED;
	h.copy = 1;
	CHECK(ae_header_encode(&h, fk) == AE_OK, "copy: encode");
	CHECK(h.raw[11] == (AE_PAYLOAD_COPY | AE_PAYLOAD_PAX_INDEXED),
	    "copy: the bit is set in the payload type byte (%02x)", h.raw[11]);
	CHECK(ae_header_parse(h.raw, h.len, &p, NULL) == AE_OK && p.copy
	    && p.payload_type == AE_PAYLOAD_PAX_INDEXED && !p.from_copy,
	    "copy: parsed back as type 2 with a copy");
	n = ae_header_tail_len(&h);
	CHECK(n == h.len + 2, "copy: the tail is the header and 2 bytes");
	ae_header_tail(&h, tail);
	CHECK(memcmp(tail, h.raw, h.len) == 0 && tail[h.len] == h.len >> 8
	    && tail[h.len + 1] == (h.len & 0xff), "copy: the tail's bytes");
	CHECK(ae_header_check_tail(&h, tail, n, 1000, NULL) == AE_OK,
	    "copy: the tail checks");
	memset(&d, 0, sizeof d);
	CHECK(ae_header_check_tail(&h, tail, n - 1, 1000, &d) == AE_ETRUNC
	    && d.offset == 1000 + n - 1, "copy: a cut tail is a truncation");
	tail[5] ^= 1;
	CHECK(ae_header_check_tail(&h, tail, n, 1000, NULL) == AE_EFORMAT,
	    "copy: a damaged copy is refused");
	tail[5] ^= 1;
	memcpy(file, tail, n);
	file[n] = 0;
	CHECK(ae_header_check_tail(&h, file, n + 1, 1000, NULL) == AE_EFORMAT,
	    "copy: data after it is refused");

	/* a file: the header (damaged), records, then the tail */
	memcpy(file, h.raw, h.len);
	file[20] ^= 0x10;
	t_fill(&seed, file + h.len, 500);
	memcpy(file + h.len + 500, tail, n);
	CHECK(ae_header_parse(file, h.len, &p, NULL) == AE_EFORMAT,
	    "copy: the damaged header fails its CRC");
	CHECK(ae_header_parse_copy(file, h.len + 500 + n, &p, NULL) == AE_OK
	    && p.from_copy && p.len == h.len
	    && memcmp(p.raw, h.raw, h.len) == 0, "copy: salvaged from the end");
	u.key = key;
	CHECK(ae_header_unlock(&p, &u, got, NULL) == AE_OK
	    && memcmp(got, fk, 32) == 0, "copy: it opens, its MAC holds");
	/* a damaged copy: refused by its CRC, or (its MAC, which the CRC
	 * does not cover) when it is opened */
	for (i = 0; i < 8 * n; i += 37) {
		int r;

		file[h.len + 500 + i / 8] ^= (uint8_t)(1 << (i % 8));
		r = ae_header_parse_copy(file, h.len + 500 + n, &p, NULL);
		if (r == AE_OK)
			r = ae_header_unlock(&p, &u, got, NULL);
		CHECK(r != AE_OK, "copy: bit %zu of the copy flipped is "
		    "refused", i);
		file[h.len + 500 + i / 8] ^= (uint8_t)(1 << (i % 8));
	}
	CHECK(ae_header_parse_copy(file, h.len + 500, &p, NULL) != AE_OK,
	    "copy: records are not a copy");
	CHECK(ae_header_parse_copy(file, 1, &p, NULL) != AE_OK,
	    "copy: one byte is not a copy");
	/* a copy of a header without the bit is not one */
	h.copy = 0;
	CHECK(ae_header_encode(&h, fk) == AE_OK, "no copy: encode");
	CHECK(ae_header_tail_len(&h) == 0, "no copy: no tail");
	memcpy(file, h.raw, h.len);
	file[h.len] = (uint8_t)(h.len >> 8);
	file[h.len + 1] = (uint8_t)h.len;
	CHECK(ae_header_parse_copy(file, h.len + 2, &p, NULL) == AE_EFORMAT,
	    "no copy: a header without the bit is not taken as a copy");
	/* kinds past 2 stay unknown, with the bit or without */
	memcpy(file, h.raw, h.len);
	file[11] = AE_PAYLOAD_COPY | 3;
	fix_crc(file, h.len);
	CHECK(ae_header_parse(file, h.len, &p, NULL) == AE_ENOTSUP,
	    "payload type 0x83 is unknown");
}

/* The coders a chunk test runs over: each DEFLATE engine, and zstd. */
struct kind {
	int codec, engine;
	const char *name;
};
static const struct kind kinds[] = {
	{ AE_CODEC_DEFLATE, AE_DEFLATE_ZLIB, "zlib" },
	{ AE_CODEC_DEFLATE, AE_DEFLATE_LIBDEFLATE, "libdeflate" },
	{ AE_CODEC_ZSTD, 0, "zstd" },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static int
kind_available(const struct kind *k)
{
	return k->codec == AE_CODEC_ZSTD ? ae_zstd_available() :
	    ae_deflate_available(k->engine);
}

static int
kind_max_level(const struct kind *k)
{
	return k->codec == AE_CODEC_ZSTD ? 9 : ae_deflate_max_level(k->engine);
}

static void
test_chunk(void)
{
	const size_t cs = 65536;
	struct ae_chunk_coder sc, oc;
	uint8_t key[32], *in, *rec, *out, *scratch;
	size_t rlen, olen;
	ae_gcm_ctx g;
	int r;

	t_fill(&seed, key, 32);
	ae_gcm_init(&g, key);
	in = malloc(cs);
	rec = malloc(AE_RECORD_MAX(cs));
	out = malloc(cs);
	scratch = malloc(cs);
	for (size_t i = 0; i < cs; i++)
		in[i] = (uint8_t)("abcabcabd"[i % 9]);
	/* Every engine built in seals, and every engine of the same codec
	 * opens what every other sealed: the format is the engine's
	 * contract.  zstd has one engine. */
	for (size_t si = 0; si < NKINDS; si++)
	for (size_t oi = 0; oi < NKINDS; oi++)
	for (int level = 0; level <= kind_max_level(&kinds[si]); level += 3) {
		const struct kind *sk = &kinds[si], *ok = &kinds[oi];

		if (sk->codec != ok->codec)
			continue;
		if (!kind_available(sk) || !kind_available(ok)) {
			t_skipped++;
			continue;
		}
		CHECK(ae_chunk_coder_init_open(&oc, cs, ok->codec, ok->engine)
		    == AE_OK, "open coder");
		CHECK(ae_chunk_coder_init_seal(&sc, cs, sk->codec, sk->engine,
		    level) == AE_OK, "seal coder %s %d", sk->name, level);
		size_t sizes[] = { 1, 2, 100, cs - 1, cs };
		for (size_t k = 0; k < 5; k++) {
			size_t n = sizes[k];
			CHECK(ae_chunk_seal(&sc, &g, 3, 1, in, n, rec, &rlen)
			    == AE_OK, "seal n=%zu", n);
			CHECK(((rec[0] & AE_FLAG_COMPRESSED) != 0) ==
			    (level > 0 && rlen - 21 < n), "deflate flag");
			CHECK(rlen <= AE_RECORD_MAX(cs), "record bound");
			r = ae_chunk_open(&oc, &g, 3, rec, rec + 5, rlen - 21,
			    scratch, out, &olen, NULL);
			CHECK(r == AE_OK && olen == n && memcmp(out, in, n) == 0,
			    "open level %d n=%zu", level, n);
			/* Wrong position or final flag: no plaintext left
			 * (out untouched, or wiped by a one-pass tier). */
			memset(out, 0xee, 16);
			r = ae_chunk_open(&oc, &g, 4, rec, rec + 5, rlen - 21,
			    scratch, out, &olen, NULL);
			CHECK(r == AE_EAUTH && no_plain(out, n), "wrong index");
			rec[0] ^= AE_FLAG_FINAL;
			r = ae_chunk_open(&oc, &g, 3, rec, rec + 5, rlen - 21,
			    scratch, out, &olen, NULL);
			CHECK(r == AE_EAUTH && no_plain(out, n), "wrong final");
			rec[0] ^= AE_FLAG_FINAL ^ AE_FLAG_COMPRESSED;
			r = ae_chunk_open(&oc, &g, 3, rec, rec + 5, rlen - 21,
			    scratch, out, &olen, NULL);
			CHECK(r == AE_EAUTH && no_plain(out, n),
			    "deflate flag is authenticated");
		}
		/* The length rules of seal. */
		CHECK(ae_chunk_seal(&sc, &g, 0, 0, in, cs - 1, rec, &rlen)
		    == AE_EINVAL, "short non-final refused");
		CHECK(ae_chunk_seal(&sc, &g, 1, 1, in, 0, rec, &rlen)
		    == AE_EINVAL, "empty final after chunk 0 refused");
		CHECK(ae_chunk_seal(&sc, &g, 0, 1, in, 0, rec, &rlen) == AE_OK
		    && rlen == 21, "empty final chunk 0");
		ae_chunk_coder_free(&sc);
		ae_chunk_coder_free(&oc);
	}
	CHECK(ae_chunk_coder_init_seal(&sc, cs, AE_CODEC_DEFLATE,
	    AE_DEFLATE_ZLIB, 10) == AE_EINVAL, "zlib has no level 10");
	CHECK(ae_chunk_coder_init_seal(&sc, cs, AE_CODEC_ZSTD, 0, 10)
	    == AE_EINVAL, "zstd has no level 10");
	CHECK(ae_chunk_coder_init_seal(&sc, cs, AE_CODEC_DEFLATE,
	    AE_DEFLATE_DEFAULT, -1) == AE_EINVAL, "level -1 refused");
	CHECK(ae_chunk_coder_init_seal(&sc, cs, 2, 0, 6) == AE_EINVAL,
	    "codec 2 refused");
	CHECK(ae_chunk_coder_init_open(&oc, cs, AE_CODEC_DEFLATE,
	    AE_DEFLATE_DEFAULT) == AE_OK, "open coder");

	/* The incompressible-data probe: random data is stored without a
	 * full compression; random data with text spread through it (a
	 * compressible slice among the probes) is compressed. */
	for (size_t ki = 0; ki < NKINDS; ki++) {
		const struct kind *k = &kinds[ki];
		uint8_t *mix = malloc(cs);
		int e = k->engine;

		if (!kind_available(k) || mix == NULL) {
			free(mix);
			continue;
		}
		ae_chunk_coder_free(&oc);
		CHECK(ae_chunk_coder_init_open(&oc, cs, k->codec, e) == AE_OK,
		    "open coder");
		CHECK(ae_chunk_coder_init_seal(&sc, cs, k->codec, e, 6)
		    == AE_OK, "probe coder");
		t_fill(&seed, mix, cs);
		CHECK(ae_chunk_seal(&sc, &g, 0, 1, mix, cs, rec, &rlen) == AE_OK
		    && !(rec[0] & AE_FLAG_COMPRESSED) && sc.probe_stored == 1,
		    "%s: random stored on the probe's word", k->name);
		for (size_t i = cs / 2; i < cs / 2 + cs / 8; i++)
			mix[i] = (uint8_t)("the quick brown fox "[i % 20]);
		CHECK(ae_chunk_seal(&sc, &g, 0, 1, mix, cs, rec, &rlen) == AE_OK
		    && (rec[0] & AE_FLAG_COMPRESSED) && sc.probe_stored == 1
		    && rlen - 21 < cs - cs / 8 + cs / 32,
		    "%s: random with an eighth of text is compressed",
		    k->name);
		r = ae_chunk_open(&oc, &g, 0, rec, rec + 5, rlen - 21, scratch,
		    out, &olen, NULL);
		CHECK(r == AE_OK && olen == cs && memcmp(out, mix, cs) == 0,
		    "%s: the mixed chunk opens", k->name);
		ae_chunk_coder_free(&sc);
		free(mix);
	}

	/* Frames the parser refuses before anything is read. */
	{
		uint8_t fr[5] = { 0x04, 0, 0, 0, 1 };
		int fin, def;
		size_t cl;
		CHECK(ae_chunk_frame(fr, cs, &fin, &def, &cl, NULL)
		    == AE_EFORMAT, "unknown flag bit");
		fr[0] = 1;
		store_be32(fr + 1, (uint32_t)cs + 1);
		CHECK(ae_chunk_frame(fr, cs, &fin, &def, &cl, NULL)
		    == AE_EFORMAT, "length over chunk size");
		store_be32(fr + 1, (uint32_t)cs);
		CHECK(ae_chunk_frame(fr, cs, &fin, &def, &cl, NULL) == AE_OK
		    && fin && !def && cl == cs, "length = chunk size is fine");
	}

	ae_chunk_coder_free(&oc);
	CHECK(ae_chunk_coder_init_open(&oc, cs, AE_CODEC_DEFLATE,
	    AE_DEFLATE_DEFAULT) == AE_OK, "open coder");
	/* Authenticated but breaking a rule: a key holder's DEFLATE bomb
	 * (2 chunks of zeros in one chunk), a short non-final chunk, and an
	 * empty final chunk after chunk 0. */
	{
		uint8_t nonce[12], *z = calloc(1, 2 * cs), *def = malloc(cs);
		z_stream zs;
		size_t dl;

		memset(&zs, 0, sizeof zs);
		deflateInit2(&zs, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
		zs.next_in = z;
		zs.avail_in = (uInt)(2 * cs);
		zs.next_out = def;
		zs.avail_out = (uInt)cs;
		CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END, "bomb deflates");
		dl = cs - zs.avail_out;
		deflateEnd(&zs);
		rec[0] = AE_FLAG_FINAL | AE_FLAG_COMPRESSED;
		store_be32(rec + 1, (uint32_t)dl);
		ae_chunk_nonce(0, 1, nonce);
		ae_gcm_seal(&g, nonce, 12, rec, 5, def, dl, rec + 5, rec + 5 + dl);
		memset(&sc, 0, sizeof sc);
		struct ae_diag d = { 0 };
		r = ae_chunk_open(&oc, &g, 0, rec, rec + 5, dl, scratch, out,
		    &olen, &d);
		CHECK(r == AE_EFORMAT && strstr(d.what, "DEFLATE") != NULL,
		    "a chunk that inflates past the chunk size is refused");

		/* short non-final, stored */
		rec[0] = 0;
		store_be32(rec + 1, 10);
		ae_chunk_nonce(0, 0, nonce);
		ae_gcm_seal(&g, nonce, 12, rec, 5, in, 10, rec + 5, rec + 15);
		r = ae_chunk_open(&oc, &g, 0, rec, rec + 5, 10, scratch, out,
		    &olen, &d);
		CHECK(r == AE_EFORMAT && strstr(d.what, "short") != NULL,
		    "short non-final chunk refused");

		/* empty final chunk 1 */
		rec[0] = AE_FLAG_FINAL;
		store_be32(rec + 1, 0);
		ae_chunk_nonce(1, 1, nonce);
		ae_gcm_seal(&g, nonce, 12, rec, 5, in, 0, rec + 5, rec + 5);
		r = ae_chunk_open(&oc, &g, 1, rec, rec + 5, 0, scratch, out,
		    &olen, &d);
		CHECK(r == AE_EFORMAT && strstr(d.what, "empty") != NULL,
		    "empty final chunk after chunk 0 refused");
		free(z);
		free(def);
	}
	ae_chunk_coder_free(&oc);
	ae_gcm_wipe(&g);
	free(in);
	free(rec);
	free(out);
	free(scratch);
}

/* ---- the index (6.8) ---- */

/* An index of three members over records of 1000, 2000 and 500 bytes,
 * at chunk size 64 KiB, after a header of 100 bytes. */
static int
build_index(uint8_t **buf, size_t *len, uint64_t tar_end)
{
	struct ae_index_builder b;
	struct ae_index_member m = { 0 };
	int r;

	ae_index_builder_init(&b);
	ae_index_add_record(&b, 1000);
	ae_index_add_record(&b, 2000);
	ae_index_add_record(&b, 500);
	m.type = '5';
	m.mode = 0755;
	m.path = "d/";
	m.linkpath = "";
	m.uname = "root";
	m.gname = "";
	ae_index_add_member(&b, &m);
	m.first = 512;
	m.type = '0';
	m.mode = 0644;
	m.size = 70000;
	m.mtime = -5;
	m.mtime_nsec = 999999999;
	m.path = "d/f";
	ae_index_add_member(&b, &m);
	m.first = 512 + 512 + 70144;
	m.type = '2';
	m.size = 0;
	m.path = "d/l";
	m.linkpath = "f";
	CHECK(ae_index_add_member(&b, &m) == AE_OK, "add");
	/* out of order, too close, bad names: refused */
	m.first += 100;
	CHECK(ae_index_add_member(&b, &m) == AE_EINVAL, "too close");
	b.tar_end = tar_end;
	r = ae_index_build(&b, buf, len);
	if (r == AE_OK) {
		/* the source gives the same bytes, in pieces of any size */
		struct ae_index_source src;
		uint8_t *got = malloc(*len + 1);
		size_t at = 0, g, step = 1;

		CHECK(got != NULL && ae_index_source_init(&src, &b) == AE_OK
		    && src.len == *len, "index source: its length");
		while (got != NULL && at <= *len && ae_index_source_read(&src,
		    got + at, step, &g) == AE_OK && g > 0) {
			at += g;
			step = step % 97 + 13;
			if (at + step > *len + 1)
				step = *len + 1 - at;
		}
		CHECK(got != NULL && at == *len && memcmp(got, *buf, *len) == 0,
		    "index source: the bytes ae_index_build gives");
		ae_index_source_free(&src);
		free(got);
	}
	ae_index_builder_free(&b);
	return r;
}

#ifdef HAVE_ZSTD
/* Seal body (n bytes, already zstd data) as final chunk 0 with the
 * DEFLATE (compressed) flag, and open it with a zstd coder for 64 KiB
 * chunks: the result of ae_chunk_open. */
static int
open_zstd_record(const ae_gcm_ctx *g, const uint8_t *body, size_t n,
    struct ae_diag *d)
{
	const size_t cs = 65536;
	struct ae_chunk_coder oc;
	uint8_t nonce[12], *rec = malloc(n + 21), *out = malloc(cs);
	uint8_t *scratch = malloc(n + 1);
	size_t olen;
	int r;

	rec[0] = AE_FLAG_FINAL | AE_FLAG_COMPRESSED;
	store_be32(rec + 1, (uint32_t)n);
	ae_chunk_nonce(0, 1, nonce);
	ae_gcm_seal(g, nonce, 12, rec, 5, body, n, rec + 5, rec + 5 + n);
	CHECK(ae_chunk_coder_init_open(&oc, cs, AE_CODEC_ZSTD, 0) == AE_OK,
	    "zstd open coder");
	r = ae_chunk_open(&oc, g, 0, rec, rec + 5, n, scratch, out, &olen, d);
	ae_chunk_coder_free(&oc);
	free(rec);
	free(out);
	free(scratch);
	return r;
}

/* What a zstd record may hold (6.4): one frame, nothing else, whose
 * content fits a chunk and whose window is no larger than one; each
 * rule broken by a key holder's record is refused. */
static void
test_zstd_rules(void)
{
	const size_t cs = 65536;
	uint8_t key[32], *z = calloc(1, 4 * cs), *f = malloc(8 * cs);
	struct ae_diag d;
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t n, m;
	ae_gcm_ctx g;

	t_fill(&seed, key, 32);
	ae_gcm_init(&g, key);
	/* a good frame: 1000 bytes of text */
	memcpy(z, "zstd", 4);
	n = ZSTD_compress(f, 8 * cs, z, 1000, 3);
	memset(&d, 0, sizeof d);
	CHECK(open_zstd_record(&g, f, n, &d) == AE_OK, "a good zstd frame");
	/* a bomb: two chunks of zeros in one frame */
	n = ZSTD_compress(f, 8 * cs, z, 2 * cs, 19);
	memset(&d, 0, sizeof d);
	CHECK(open_zstd_record(&g, f, n, &d) == AE_EFORMAT
	    && strstr(d.what, "zstd") != NULL, "a zstd bomb is refused");
	/* two frames, each small */
	n = ZSTD_compress(f, 8 * cs, z, 1000, 3);
	m = ZSTD_compress(f + n, 8 * cs - n, z, 1000, 3);
	CHECK(open_zstd_record(&g, f, n + m, NULL) == AE_EFORMAT,
	    "two frames are refused");
	/* a frame and a byte after it */
	f[n] = 0;
	CHECK(open_zstd_record(&g, f, n + 1, NULL) == AE_EFORMAT,
	    "a byte after the frame is refused");
	/* a skippable frame alone */
	memcpy(f, "\x50\x2a\x4d\x18\x04\0\0\0abcd", 12);
	CHECK(open_zstd_record(&g, f, 12, NULL) == AE_EFORMAT,
	    "a skippable frame is refused");
	/* a window larger than the chunk, declared in the frame: a frame
	 * without its content size has a window descriptor (after the
	 * magic and the frame header descriptor), set here to 2^20 */
	ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
	n = ZSTD_compress2(cc, f, 8 * cs, z, 1000);
	CHECK(!ZSTD_isError(n) && (f[4] & 0x20) == 0, "a frame with a window "
	    "descriptor");
	memset(&d, 0, sizeof d);
	CHECK(open_zstd_record(&g, f, n, &d) == AE_OK, "its window fits");
	f[5] = (20 - 10) << 3;
	CHECK(open_zstd_record(&g, f, n, NULL) == AE_EFORMAT,
	    "a window over the chunk size is refused");
	/* DEFLATE data in a zstd file */
	CHECK(open_zstd_record(&g, (const uint8_t *)"\x03\0", 2, NULL)
	    == AE_EFORMAT, "DEFLATE data is not zstd");
	ZSTD_freeCCtx(cc);
	free(z);
	free(f);
}
#endif

static void
test_index(void)
{
	const size_t C = 65536;
	uint64_t io = 100 + 3500;
	struct ae_index ix;
	struct ae_diag d;
	uint8_t *buf, *bad;
	size_t len, i;
	uint8_t key[32] = { 7 }, f[AE_FOOTER_LEN];
	uint64_t o, n;
	ae_gcm_ctx g;

	CHECK(build_index(&buf, &len, 512 + 512 + 70144 + 512) == AE_OK,
	    "build");
	CHECK(ae_index_parse(buf, len, 100, C, io, 3, &ix, &d) == AE_OK,
	    "parse: %s", d.what ? d.what : "");
	CHECK(ix.members == 3 && ix.records == 3 && ix.rec_off[0] == 100
	    && ix.rec_off[1] == 1100 && ix.rec_off[2] == 3100
	    && ix.rec_off[3] == io, "record offsets");
	CHECK(strcmp(ix.m[1].path, "d/f") == 0 && ix.m[1].size == 70000
	    && ix.m[1].mtime == -5 && ix.m[1].mtime_nsec == 999999999
	    && strcmp(ix.m[2].linkpath, "f") == 0 && ix.m[2].type == '2'
	    && strcmp(ix.m[0].uname, "root") == 0 && ix.m[0].gname[0] == 0,
	    "members read back");
	ae_index_free(&ix);
	/* what the footer says must agree */
	CHECK(ae_index_parse(buf, len, 100, C, io + 1, 3, &ix, &d)
	    == AE_EFORMAT, "records that do not end at the index");
	CHECK(ae_index_parse(buf, len, 100, C, io, 4, &ix, &d) == AE_EFORMAT,
	    "another record count");
	/* every cut is refused */
	for (i = 0; i < len; i++)
		CHECK(ae_index_parse(buf, i, 100, C, io, 3, &ix, &d)
		    == AE_EFORMAT, "cut at %zu accepted", i);
	/* every byte changed is refused or still in range (never read out
	 * of bounds: ASan watches) */
	bad = malloc(len + 1);
	for (i = 0; i < len; i++) {
		int k;

		for (k = 0; k < 8; k++) {
			memcpy(bad, buf, len);
			bad[i] ^= (uint8_t)(1u << k);
			if (ae_index_parse(bad, len, 100, C, io, 3, &ix, &d)
			    == AE_OK) {
				size_t j;

				for (j = 0; j + 1 < ix.members; j++)
					CHECK(ix.m[j + 1].first >= ix.m[j].first
					    + 512, "order after a flip");
				CHECK(ix.rec_off[3] == io, "offsets");
				ae_index_free(&ix);
			}
		}
	}
	/* a trailing byte, a NUL in a name, tar_end past the payload */
	memcpy(bad, buf, len);
	bad[len] = 0;
	CHECK(ae_index_parse(bad, len + 1, 100, C, io, 3, &ix, &d)
	    == AE_EFORMAT, "trailing byte");
	free(bad);
	free(buf);
	CHECK(build_index(&buf, &len, 3 * C + 1) == AE_OK, "build");
	CHECK(ae_index_parse(buf, len, 100, C, io, 3, &ix, &d) == AE_EFORMAT,
	    "tar end past the payload");
	free(buf);
	CHECK(build_index(&buf, &len, 512 + 512 + 70144) == AE_EINVAL,
	    "an encoder's last member at the tar end");
	CHECK(build_index(&buf, &len, 512 + 512 + 70144 + 512) == AE_OK,
	    "build");
	store_be64(buf + 9, 512 + 512 + 70144);
	CHECK(ae_index_parse(buf, len, 100, C, io, 3, &ix, &d) == AE_EFORMAT,
	    "a decoder's last member at the tar end");
	free(buf);

	/* the footer: its tag covers both numbers */
	ae_gcm_init(&g, key);
	ae_footer_seal(&g, 12345, 67, f);
	CHECK(ae_footer_open(&g, f, &o, &n) == AE_OK && o == 12345 && n == 67,
	    "footer round trip");
	for (i = 0; i < AE_FOOTER_LEN; i++) {
		f[i] ^= 0x10;
		CHECK(ae_footer_open(&g, f, &o, &n) == AE_EAUTH,
		    "footer byte %zu flipped accepted", i);
		f[i] ^= 0x10;
	}
	ae_gcm_wipe(&g);
}

/* Every row of the slot-type table: the layout it names encodes and
 * parses back field for field, a body one byte off its length is
 * refused, a ciphertext's bounds hold, and its words are there. */
static void
test_slot_rows(void)
{
	static const uint8_t ids[] = { AE_STANZA_ARGON2ID, AE_STANZA_KEYFILE,
	    AE_STANZA_X25519, AE_STANZA_SSH_ED25519, AE_STANZA_SSH_RSA,
	    AE_STANZA_MLKEM768X25519 };
	uint8_t enc[AE_STANZA_MAX_LEN + 8];
	char words[AE_SLOT_WORDS_MAX];
	size_t i, k;

	for (i = 0; i < sizeof ids; i++) {
		const struct ae_slot_type *t = ae_slot_type_get(ids[i]);
		struct ae_stanza s, p;
		size_t len;

		CHECK(t != NULL && t->id == ids[i], "row for type %u", ids[i]);
		if (t == NULL)
			continue;
		memset(&s, 0, sizeof s);
		s.type = ids[i];
		s.kdf.m_kib = 65536;
		s.kdf.t = 3;
		s.kdf.p = 4;
		s.ct_len = t->ct_max;
		for (k = 0; k < sizeof s.salt; k++)
			s.salt[k] = (uint8_t)(k + 1);
		for (k = 0; k < sizeof s.tag; k++)
			s.tag[k] = (uint8_t)(0xa0 + k);
		for (k = 0; k < sizeof s.share; k++)
			s.share[k] = (uint8_t)(0x40 + k);
		for (k = 0; k < s.ct_len; k++)
			s.ct[k] = (uint8_t)(k * 7);
		for (k = 0; k < sizeof s.wrap; k++)
			s.wrap[k] = (uint8_t)(0x80 ^ k);
		len = ae_stanza_len(&s);
		ae_stanza_encode(&s, enc);
		CHECK(ae_stanza_parse(enc, len, &p, NULL) == AE_OK
		    && p.len == len && p.ct_len == (t->fields & AE_SF_CT ?
		    s.ct_len : 0), "type %u parses back", ids[i]);
		CHECK(!(t->fields & AE_SF_KDF) || (p.kdf.m_kib == 65536
		    && p.kdf.t == 3 && p.kdf.p == 4), "type %u: kdf", ids[i]);
		CHECK(!(t->fields & AE_SF_SALT) || memcmp(p.salt, s.salt,
		    sizeof s.salt) == 0, "type %u: salt", ids[i]);
		CHECK(!(t->fields & AE_SF_TAG) || memcmp(p.tag, s.tag,
		    sizeof s.tag) == 0, "type %u: tag", ids[i]);
		CHECK(!(t->fields & AE_SF_SHARE) || memcmp(p.share, s.share,
		    sizeof s.share) == 0, "type %u: share", ids[i]);
		CHECK(!(t->fields & AE_SF_CT) || memcmp(p.ct, s.ct,
		    s.ct_len) == 0, "type %u: ciphertext", ids[i]);
		CHECK(memcmp(p.wrap, s.wrap, sizeof s.wrap) == 0,
		    "type %u: wrap", ids[i]);
		/* one byte more in the body than the layout holds */
		memset(enc + len, 0, 8);
		enc[2] = (uint8_t)(enc[2] + 1);
		if (enc[2] == 0)
			enc[1]++;
		CHECK(ae_stanza_parse(enc, len + 1, &p, NULL) == AE_EFORMAT,
		    "type %u: a longer body refused", ids[i]);
		/* one byte less */
		ae_stanza_encode(&s, enc);
		enc[2] = (uint8_t)(enc[2] - 1);
		if (enc[2] == 0xff)
			enc[1]--;
		if (t->ct_min == t->ct_max)
			CHECK(ae_stanza_parse(enc, len - 1, &p, NULL)
			    == AE_EFORMAT, "type %u: a shorter body refused",
			    ids[i]);
		t->describe(&s, 0, words, sizeof words);
		CHECK(strlen(words) > 0, "type %u has words", ids[i]);
		t->describe(&s, 1, words, sizeof words);
		CHECK(words[0] == '\0' || words[0] == ',', "type %u: JSON "
		    "members", ids[i]);
	}
	/* a variable ciphertext below its least is refused */
	{
		const struct ae_slot_type *t = ae_slot_type_get(AE_STANZA_SSH_RSA);
		struct ae_stanza s, p;

		memset(&s, 0, sizeof s);
		s.type = AE_STANZA_SSH_RSA;
		s.ct_len = t->ct_min - 1;
		ae_stanza_encode(&s, enc);
		CHECK(ae_stanza_parse(enc, ae_stanza_len(&s), &p, NULL)
		    == AE_EFORMAT, "an RSA ciphertext under 256 bytes refused");
	}
	CHECK(ae_slot_type_get(0) == NULL && ae_slot_type_get(0x7f) == NULL,
	    "unknown types have no row");
}

/* Tier t's GCM context and decryption schedule for key (the software
 * schedule where t has none); 0, counted as skipped, where t cannot run
 * here. */
static int
tier_keys(int t, const uint8_t key[32], ae_gcm_ctx *g, struct ae_cbc_key *dk)
{
	if (ae_gcm_init_tier(g, key, (enum ae_gcm_tier)t) != AE_OK) {
		t_skipped++;
		return 0;
	}
	if (ae_cbc_init_tier(dk, key, (enum ae_gcm_tier)t) != 0)
		ae_cbc_init_tier(dk, key, AE_GCM_TIER_SOFT);
	return 1;
}

/* --salvage's lookup of a record's number (ae_chunk_number): on every
 * tier, the number a record was sealed under, whatever the range's
 * width, and the same answer as opening it under each number;
 * nothing outside the range, nothing for a changed byte. */
static void
test_chunk_number(void)
{
	const size_t cs = 4096;
	static const uint64_t nums[] = { 0, 7, 1000, (uint64_t)1 << 40 };
	struct ae_chunk_coder sc, oc;
	struct ae_cbc_key dk;
	uint8_t key[32], in[4096], *rec, *scratch, *out;
	uint64_t found, m;
	size_t rlen, olen;
	ae_gcm_ctx g;

	t_fill(&seed, key, 32);
	t_fill(&seed, in, sizeof in);
	rec = malloc(AE_RECORD_MAX(cs));
	scratch = malloc(AE_RECORD_MAX(cs));
	out = malloc(cs);
	CHECK(ae_chunk_coder_init_seal(&sc, cs, AE_CODEC_DEFLATE, 0, 0)
	    == AE_OK, "seal coder");
	CHECK(ae_chunk_coder_init_open(&oc, cs, AE_CODEC_DEFLATE, 0) == AE_OK,
	    "open coder");
	for (int t = 0; t <= AE_GCM_TIER_VAES512; t++) {
		if (!tier_keys(t, key, &g, &dk))
			continue;
		for (size_t k = 0; k < 4; k++)
		for (int fin = 0; fin < 2; fin++) {
			uint64_t n = nums[k], lo = n > 3 ? n - 3 : 0;
			size_t ct;

			/* (a record but the final one holds a whole chunk) */
			CHECK(ae_chunk_seal(&sc, &g, n, fin, in, fin ? 50 : cs, rec,
			    &rlen) == AE_OK, "seal");
			ct = rlen - 21;
			found = 99;
			CHECK(ae_chunk_number(&g, &dk, rec, rec + 5, ct, lo,
			    UINT64_MAX - 1, &found) == AE_OK
			    && found == n, "tier %d: %llu found in a wide range",
			    t, (unsigned long long)n);
			CHECK(ae_chunk_number(&g, &dk, rec, rec + 5, ct, n, n,
			    &found) == AE_OK && found == n,
			    "tier %d: in a range of one", t);
			for (m = lo; m <= n + 3; m++)
				CHECK((ae_chunk_open(&oc, &g, m, rec, rec + 5, ct,
				    scratch, out, &olen, NULL) == AE_OK) == (m == n),
				    "tier %d: opening under %llu agrees", t,
				    (unsigned long long)m);
			CHECK(ae_chunk_number(&g, &dk, rec, rec + 5, ct, n + 1,
			    n + 1000, &found) == AE_EAUTH,
			    "tier %d: a range past it", t);
			if (n > 0)
				CHECK(ae_chunk_number(&g, &dk, rec, rec + 5, ct, 0,
				    n - 1, &found) == AE_EAUTH,
				    "tier %d: a range before it", t);
			rec[5 + ct / 2] ^= 1;
			CHECK(ae_chunk_number(&g, &dk, rec, rec + 5, ct, 0,
			    UINT64_MAX - 1, &found) == AE_EAUTH,
			    "tier %d: a flipped body bit", t);
			rec[5 + ct / 2] ^= 1;
			rec[0] ^= AE_FLAG_FINAL;
			CHECK(ae_chunk_number(&g, &dk, rec, rec + 5, ct, 0,
			    UINT64_MAX - 1, &found) == AE_EAUTH,
			    "tier %d: the other final bit", t);
			rec[0] ^= AE_FLAG_FINAL;
		}
		ae_cbc_wipe(&dk);
		ae_gcm_wipe(&g);
	}
	ae_chunk_coder_free(&sc);
	ae_chunk_coder_free(&oc);
	free(rec);
	free(scratch);
	free(out);
}

/* The search's running sums (recscan.c) against the direct lookup:
 * every offset of a buffer of junk and real records, each with a length
 * of its own (full blocks, a partial one, none), the window's start
 * moving on as a search's does, on every tier; the real records found
 * under their numbers, and the same answer everywhere else. */
static void
test_recscan(void)
{
	const size_t cs = 4096, len = 60000;
	static const uint64_t nums[] = { 3, 4, 9 };
	static const size_t where[] = { 1000, 17777, 40001 };
	struct ae_chunk_coder sc;
	struct ae_cbc_key dk;
	struct ae_recscan rs;
	uint8_t key[32], in[4096], *buf, *wbuf, rec[AE_RECORD_MAX(4096)];
	uint64_t f1, f2, rnd = 0x1234, base, last;
	size_t rlen, at, ct, hits, agree, calls, reclen[3];
	ae_gcm_ctx g;
	int r1, r2;

	t_fill(&seed, key, 32);
	t_fill(&seed, in, sizeof in);
	buf = malloc(len);
	wbuf = malloc(len + 4096);
	CHECK(ae_chunk_coder_init_seal(&sc, cs, AE_CODEC_DEFLATE, 0, 0)
	    == AE_OK, "seal coder");
	for (int t = 0; t <= AE_GCM_TIER_VAES512; t++) {
		if (!tier_keys(t, key, &g, &dk))
			continue;
		t_fill(&seed, buf, len);
		for (size_t i = 0; i < 3; i++) {
			CHECK(ae_chunk_seal(&sc, &g, nums[i], i == 2, in,
			    i == 2 ? 777 : cs, rec, &rlen) == AE_OK, "seal");
			memcpy(buf + where[i], rec, rlen);
			reclen[i] = rlen;
		}
		CHECK(ae_recscan_init(&rs, &g, &dk, cs) == AE_OK, "init");
		hits = agree = calls = 0;
		base = last = 0;
		memcpy(wbuf + 4096, buf, len);
		for (at = 0; at + AE_FRAME_LEN + AE_TAG_LEN < len; at++) {
			size_t i, room = len - at - AE_FRAME_LEN - AE_TAG_LEN;

			/* a real record's own length where one starts;
			 * elsewhere any length, 0 and whole blocks often */
			ct = (size_t)-1;
			for (i = 0; i < 3; i++)
				if (at == where[i])
					ct = reclen[i] - AE_FRAME_LEN - AE_TAG_LEN;
			/* stretches longer than a record with no candidate
			 * (frames a search passes by), after which the
			 * window has moved on past what the sums know */
			if ((at / 9000) % 3 == 1 && ct == (size_t)-1)
				continue;
			if (ct == (size_t)-1) {
				rnd = rnd * 6364136223846793005u + 1442695040888963407u;
				ct = (size_t)(rnd >> 33) % (cs + 1);
				if ((rnd >> 20) % 4 == 0)
					ct &= ~(size_t)15;
				if ((rnd >> 24) % 16 == 0)
					ct = 0;
				if (ct > room)
					ct = room;
			}
			/* the window's start moves on by leaps, as a search's
			 * does when it slides */
			if ((at - base > 3 * cs && (rnd >> 40) % 8 == 0)
			    || at > last + cs + 64) {
				/* (a new copy, with junk before it: bytes read
				 * from before the window would be wrong) */
				base = at - (rnd >> 44) % 64;
				t_fill(&seed, wbuf, 4096);
				memcpy(wbuf + 4096, buf + base, len - base);
			}
			if ((rnd >> 50) % 512 == 0)
				ae_recscan_reset(&rs);
			f1 = f2 = 77;
			r1 = ae_recscan_number(&rs, wbuf + 4096, base, at, ct, 0,
			    1000, &f1);
			r2 = ae_chunk_number(&g, &dk, buf + at, buf + at + 5, ct, 0,
			    1000, &f2);
			agree += r1 == r2 && f1 == f2;
			calls++;
			last = at;
			hits += r1 == AE_OK;
		}
		CHECK(agree == calls, "tier %d: running sums and the direct "
		    "lookup agree at %zu of %zu offsets", t, agree, calls);
		CHECK(hits == 3, "tier %d: the three records found (%zu)", t,
		    hits);
		/* each record under its own number */
		for (size_t i = 0; i < 3; i++) {
			ae_recscan_reset(&rs);
			f1 = 0;
			CHECK(ae_recscan_number(&rs, buf, 0, where[i], reclen[i]
			    - AE_FRAME_LEN - AE_TAG_LEN, 0, 1000, &f1) == AE_OK
			    && f1 == nums[i], "tier %d: record %zu's number", t, i);
		}
		ae_recscan_free(&rs);
		ae_cbc_wipe(&dk);
		ae_gcm_wipe(&g);
	}
	ae_chunk_coder_free(&sc);
	free(buf);
	free(wbuf);
}

int
main(void)
{
	test_keyfile();
	test_kdf();
	test_stanza();
	test_slot_rows();
	test_header();
	test_header_copy();
	test_chunk();
	test_chunk_number();
	test_recscan();
#ifdef HAVE_ZSTD
	test_zstd_rules();
#endif
	test_index();
	return t_finish("test_container");
}
