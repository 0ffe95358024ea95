/*
 * bech32.c -- Bech32 (contract in bech32.h), written from BIP-173.
 *
 * Constant-time in the characters and the data: an age identity's text
 * is its secret key, so no branch or table index may depend on it.  A
 * character's value is found by comparing it with all 32 of the
 * charset, the checksum's generator terms are masked in, and every check
 * is gathered into one verdict that is declassified (crypto/wipe.h) and
 * only then branched on.  The failure path may leak where a string went
 * wrong: that string did not decode, and recipients (whose positions are
 * reported) are public.
 */
#include "config.h"
#include "bech32.h"

#include <string.h>

#include "common/wipe.h"

static const char charset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/* 1 if a < b, for a, b < 2^31; else 0.  No branch. */
static uint32_t
lt(uint32_t a, uint32_t b)
{
	return (a - b) >> 31;
}

static uint32_t
eq(uint32_t a, uint32_t b)
{
	return lt(a ^ b, 1);
}

static uint32_t
in_range(uint32_t c, uint32_t lo, uint32_t hi)
{
	return lt(c, hi + 1) & (1 ^ lt(c, lo));
}

static uint32_t
polymod_step(uint32_t chk, uint32_t v)
{
	static const uint32_t gen[5] = {
		0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3
	};
	uint32_t top = chk >> 25;
	int i;

	chk = (chk & 0x1ffffff) << 5 ^ v;
	for (i = 0; i < 5; i++)
		chk ^= gen[i] & (0 - ((top >> i) & 1));
	return chk;
}

/* The checksum state after the expanded hrp (public). */
static uint32_t
hrp_polymod(const char *hrp, size_t n)
{
	uint32_t chk = 1;
	size_t i;

	for (i = 0; i < n; i++)
		chk = polymod_step(chk, (uint8_t)hrp[i] >> 5);
	chk = polymod_step(chk, 0);
	for (i = 0; i < n; i++)
		chk = polymod_step(chk, (uint8_t)hrp[i] & 31);
	return chk;
}

/* charset[v] for v < 32, reading every entry. */
static char
to_char(uint32_t v)
{
	uint32_t c = 0, i;

	for (i = 0; i < 32; i++)
		c |= (uint32_t)(uint8_t)charset[i] & (0 - eq(i, v));
	return (char)c;
}

/* The value of c (lower case) in the charset, reading every entry;
 * *found is 1 if it is there. */
static uint32_t
from_char(uint32_t c, uint32_t *found)
{
	uint32_t v = 0, f = 0, i, m;

	for (i = 0; i < 32; i++) {
		m = eq(c, (uint8_t)charset[i]);
		v |= i & (0 - m);
		f |= m;
	}
	*found = f;
	return v;
}

size_t
ae_bech32_encode(char *out, size_t cap, const char *hrp, const uint8_t *data,
    size_t len)
{
	size_t hn = strlen(hrp), groups = (len * 8 + 4) / 5, n, i, g;
	uint32_t chk, acc = 0, v;
	int bits = 0;

	if (hn < 1 || hn > 83 || hn + 1 + groups + 6 + 1 > cap)
		return 0;
	for (i = 0; i < hn; i++)
		if (hrp[i] < 33 || hrp[i] > 126 || (hrp[i] >= 'A'
		    && hrp[i] <= 'Z'))
			return 0;
	memcpy(out, hrp, hn);
	out[hn] = '1';
	n = hn + 1;
	chk = hrp_polymod(hrp, hn);
	/* The number of groups and the bit counts depend on len only. */
	for (i = 0, g = 0; g < groups; g++) {
		if (bits < 5 && i < len) {
			acc = acc << 8 | data[i++];
			bits += 8;
		}
		if (bits >= 5) {
			v = (acc >> (bits - 5)) & 31;
			bits -= 5;
		} else {
			v = (acc << (5 - bits)) & 31;   /* zero padding */
			bits = 0;
		}
		chk = polymod_step(chk, v);
		out[n++] = to_char(v);
	}
	for (i = 0; i < 6; i++)
		chk = polymod_step(chk, 0);
	chk ^= 1;
	for (i = 0; i < 6; i++)
		out[n++] = to_char((chk >> (5 * (5 - i))) & 31);
	out[n] = '\0';
	ae_wipe(&acc, sizeof acc);
	return n;
}

/* Where s first goes wrong, for the failure path only. */
static size_t
first_bad(const char *s, size_t n, size_t sep)
{
	size_t i;
	int lower = 0, upper = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 33 || c > 126)
			return i;
		lower |= c >= 'a' && c <= 'z';
		upper |= c >= 'A' && c <= 'Z';
		if (lower && upper)
			return i;
		if (i > sep && memchr(charset, c | ((c >= 'A' && c <= 'Z') ?
		    0x20 : 0), 32) == NULL)
			return i;
	}
	return n;
}

int
ae_bech32_decode(const char *s, size_t n, char *hrp, size_t hcap,
    uint8_t *data, size_t dcap, size_t *len, size_t *bad)
{
	size_t sep = 0, i, out = 0;
	uint32_t lower = 0, upper = 0, oddchar = 0, notfound = 0, has_sep = 0;
	uint32_t chk, acc = 0, verdict;
	int bits = 0;

	*len = 0;
	/* One pass over every character: its class and the last '1'. */
	for (i = 0; i < n; i++) {
		uint32_t c = (uint8_t)s[i], one = eq(c, '1');
		size_t m = 0 - (size_t)one;

		oddchar |= 1 ^ in_range(c, 33, 126);
		lower |= in_range(c, 'a', 'z');
		upper |= in_range(c, 'A', 'Z');
		sep = (sep & ~m) | (i & m);
		has_sep |= one;
	}
	/* Where the data starts, whether the case is mixed, whether there
	 * is a separator: public (the caller's hrp says where it is). */
	AE_DECLASSIFY(&sep, sizeof sep);
	AE_DECLASSIFY(&has_sep, sizeof has_sep);
	AE_DECLASSIFY(&lower, sizeof lower);
	AE_DECLASSIFY(&upper, sizeof upper);
	AE_DECLASSIFY(&oddchar, sizeof oddchar);
	if (lower && upper) {
		*bad = first_bad(s, n, n);
		return -4;
	}
	if (oddchar || !has_sep || sep == 0) {
		*bad = oddchar ? first_bad(s, n, n) : has_sep ? 0 : n;
		return -1;
	}
	if (n - sep - 1 < 6) {
		*bad = n;
		return -2;
	}
	if (sep + 1 > hcap)
		return -3;
	for (i = 0; i < sep; i++)   /* the hrp: public */
		hrp[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	hrp[sep] = '\0';
	if (((n - sep - 1 - 6) * 5) / 8 > dcap)
		return -3;
	chk = hrp_polymod(hrp, sep);
	for (i = sep + 1; i < n; i++) {
		uint32_t c = (uint8_t)s[i], found, v;

		c |= 0x20 & (0 - in_range(c, 'A', 'Z'));
		v = from_char(c, &found);
		notfound |= 1 ^ found;
		chk = polymod_step(chk, v);
		if (i < n - 6) {        /* positions: public */
			acc = acc << 5 | v;
			bits += 5;
			if (bits >= 8) {
				data[out++] = (uint8_t)(acc >> (bits - 8));
				bits -= 8;
			}
		}
	}
	/* bits < 5 always here (public); the padding must be zero */
	verdict = notfound | (1 ^ eq(chk, 1))
	    | (1 ^ eq(acc & ((1u << bits) - 1), 0)) | (uint32_t)(bits >= 5);
	AE_DECLASSIFY(&verdict, sizeof verdict);
	AE_DECLASSIFY(&notfound, sizeof notfound);
	ae_wipe(&acc, sizeof acc);
	if (notfound) {
		*bad = first_bad(s, n, sep);
		ae_wipe(data, out);
		return -1;
	}
	if (verdict) {
		*bad = n;
		ae_wipe(data, out);
		return -2;
	}
	*len = out;
	return 0;
}

int
ae_bech32_key(const char *s, const char *hrp, uint8_t *key, size_t keylen,
    struct ae_diag *d)
{
	char h[32];
	uint8_t data[2048 + 8];
	size_t len, at;
	int r = ae_bech32_decode(s, strlen(s), h, sizeof h, data, sizeof data,
	    &len, &at);
	const char *why = NULL;

	if (r == -1)
		why = "a character that Bech32 does not allow here";
	else if (r == -4)
		why = "it mixes upper and lower case, which Bech32 does not "
		    "allow";
	else if (r == -2)
		why = "its Bech32 checksum does not match (a character is "
		    "wrong or missing)";
	else if (r == 0 && strcmp(h, hrp) != 0)
		why = "not the expected kind of key (its prefix is wrong)";
	else if (r != 0 || len != keylen)
		why = "the key has the wrong length";
	if (why != NULL) {
		ae_wipe(data, sizeof data);
		return ae_fail(d, AE_EFORMAT, AE_AT_NONE, why, 0,
		    r == -1 || r == -4 ? at : strlen(s));
	}
	memcpy(key, data, keylen);
	ae_wipe(data, sizeof data);
	return AE_OK;
}
