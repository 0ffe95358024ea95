#include "config.h"
#include "sha256.h"
#include "cpu.h"
#include "common/bytes.h"
#include "common/wipe.h"

#include <string.h>

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static inline uint32_t
ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void
compress1(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = load_be32(p + 4 * i);
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25))
		    + ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22))
		    + ((a & b) ^ (a & c) ^ (b & c));
		hh = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
	ae_wipe(w, sizeof w);
}

#ifdef HAVE_TARGET_SHANI
#include <immintrin.h>

/*
 * n blocks with the SHA-256 instructions: four rounds a step, each
 * step's message words made from the four before them (msg1 adds
 * sigma0, the alignr the W[t-7] terms, msg2 sigma1).  The state is
 * kept as the instructions want it, ABEF and CDGH.  Public-data speed
 * matters here (a signed file hashes every record, format 6.10); the
 * instructions take the same time whatever the data.
 */
__attribute__((target("sha,ssse3,sse4.1")))
static void
compress_ni(uint32_t h[8], const uint8_t *p, size_t n)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
	    0x0405060700010203LL);
	__m128i s0, s1, t, save0, save1, msg, w[4];
	int g;

	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xb1);
	s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1b);
	s0 = _mm_alignr_epi8(t, s1, 8);         /* ABEF */
	s1 = _mm_blend_epi16(s1, t, 0xf0);      /* CDGH */
	for (; n > 0; n--, p += AE_SHA256_BLOCK) {
		save0 = s0;
		save1 = s1;
		for (g = 0; g < 16; g++) {
			if (g < 4) {
				w[g] = _mm_shuffle_epi8(_mm_loadu_si128(
				    (const __m128i *)(p + 16 * g)), swap);
			} else {
				t = _mm_sha256msg1_epu32(w[(g - 4) & 3],
				    w[(g - 3) & 3]);
				t = _mm_add_epi32(t, _mm_alignr_epi8(
				    w[(g - 1) & 3], w[(g - 2) & 3], 4));
				w[g & 3] = _mm_sha256msg2_epu32(t, w[(g - 1) & 3]);
			}
			msg = _mm_add_epi32(w[g & 3],
			    _mm_loadu_si128((const __m128i *)&K[4 * g]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, msg);
			s0 = _mm_sha256rnds2_epu32(s0, s1,
			    _mm_shuffle_epi32(msg, 0x0e));
		}
		s0 = _mm_add_epi32(s0, save0);
		s1 = _mm_add_epi32(s1, save1);
	}
	t = _mm_shuffle_epi32(s0, 0x1b);        /* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xb1);       /* DCHG */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(t, s1, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(s1, t, 8));
}
#endif

/* Written only by ae_sha256_force_portable, before threads start. */
static int ae_sha256_portable;

void
ae_sha256_force_portable(int on)
{
	ae_sha256_portable = on;
}

int
ae_sha256_accelerated(void)
{
#ifdef HAVE_TARGET_SHANI
	return ae_cpu_features()->sha && !ae_sha256_portable;
#else
	return 0;
#endif
}

/* n whole blocks at p, with the instructions where the CPU has them. */
static void
compress(uint32_t h[8], const uint8_t *p, size_t n)
{
#ifdef HAVE_TARGET_SHANI
	if (ae_cpu_features()->sha && !ae_sha256_portable) {
		compress_ni(h, p, n);
		return;
	}
#endif
	for (; n > 0; n--, p += AE_SHA256_BLOCK)
		compress1(h, p);
}

void
ae_sha256_init(struct ae_sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
	};

	memcpy(s->h, iv, sizeof iv);
	s->len = 0;
	s->fill = 0;
}

void
ae_sha256_update(struct ae_sha256 *s, const void *data, size_t n)
{
	const uint8_t *p = data;

	if (n == 0)
		return;
	s->len += n;
	if (s->fill > 0) {
		size_t take = AE_SHA256_BLOCK - s->fill;

		if (take > n)
			take = n;
		memcpy(s->buf + s->fill, p, take);
		s->fill += take;
		p += take;
		n -= take;
		if (s->fill < AE_SHA256_BLOCK)
			return;
		compress(s->h, s->buf, 1);
		s->fill = 0;
	}
	if (n >= AE_SHA256_BLOCK) {
		compress(s->h, p, n / AE_SHA256_BLOCK);
		p += n / AE_SHA256_BLOCK * AE_SHA256_BLOCK;
		n %= AE_SHA256_BLOCK;
	}
	if (n > 0) {
		memcpy(s->buf, p, n);
		s->fill = n;
	}
}

void
ae_sha256_final(struct ae_sha256 *s, uint8_t out[AE_SHA256_LEN])
{
	uint64_t bits = s->len * 8;
	int i;

	s->buf[s->fill++] = 0x80;
	if (s->fill > AE_SHA256_BLOCK - 8) {
		memset(s->buf + s->fill, 0, AE_SHA256_BLOCK - s->fill);
		compress(s->h, s->buf, 1);
		s->fill = 0;
	}
	memset(s->buf + s->fill, 0, AE_SHA256_BLOCK - 8 - s->fill);
	store_be64(s->buf + AE_SHA256_BLOCK - 8, bits);
	compress(s->h, s->buf, 1);
	for (i = 0; i < 8; i++)
		store_be32(out + 4 * i, s->h[i]);
	ae_wipe(s, sizeof *s);
}

void
ae_sha256(const void *p, size_t n, uint8_t out[AE_SHA256_LEN])
{
	struct ae_sha256 s;

	ae_sha256_init(&s);
	ae_sha256_update(&s, p, n);
	ae_sha256_final(&s, out);
}
