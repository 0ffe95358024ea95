/*
 * bech32.c -- Bech32 (contract in bech32.h), written from BIP-173.
 */
#include "config.h"
#include "bech32.h"

#include <string.h>

static const char charset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

static uint32_t
polymod_step(uint32_t chk, uint8_t v)
{
	static const uint32_t gen[5] = {
		0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3
	};
	uint32_t top = chk >> 25;
	int i;

	chk = (chk & 0x1ffffff) << 5 ^ v;
	for (i = 0; i < 5; i++)
		if ((top >> i) & 1)
			chk ^= gen[i];
	return chk;
}

/* The checksum state after the expanded hrp. */
static uint32_t
hrp_polymod(const char *hrp, size_t n)
{
	uint32_t chk = 1;
	size_t i;

	for (i = 0; i < n; i++)
		chk = polymod_step(chk, (uint8_t)(hrp[i] >> 5));
	chk = polymod_step(chk, 0);
	for (i = 0; i < n; i++)
		chk = polymod_step(chk, (uint8_t)(hrp[i] & 31));
	return chk;
}

size_t
ae_bech32_encode(char *out, size_t cap, const char *hrp, const uint8_t *data,
    size_t len)
{
	size_t hn = strlen(hrp), groups = (len * 8 + 4) / 5, n, i, k = 0;
	uint32_t chk, acc = 0;
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
	for (i = 0; i < len || bits > 0; ) {
		uint8_t v;

		if (bits < 5 && i < len) {
			acc = acc << 8 | data[i++];
			bits += 8;
		}
		if (bits >= 5) {
			v = (uint8_t)((acc >> (bits - 5)) & 31);
			bits -= 5;
		} else {
			v = (uint8_t)((acc << (5 - bits)) & 31);    /* padding */
			bits = 0;
		}
		chk = polymod_step(chk, v);
		out[n++] = charset[v];
		k++;
	}
	for (i = 0; i < 6; i++)
		chk = polymod_step(chk, 0);
	chk ^= 1;
	for (i = 0; i < 6; i++)
		out[n++] = charset[(chk >> (5 * (5 - i))) & 31];
	out[n] = '\0';
	(void)k;
	return n;
}

int
ae_bech32_decode(const char *s, char *hrp, size_t hcap, uint8_t *data,
    size_t dcap, size_t *len, size_t *bad)
{
	size_t n = strlen(s), sep, i, out = 0;
	int lower = 0, upper = 0, bits = 0;
	uint32_t chk, acc = 0;

	*len = 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 33 || c > 126) {
			*bad = i;
			return -1;
		}
		if (c >= 'a' && c <= 'z')
			lower = 1;
		if (c >= 'A' && c <= 'Z')
			upper = 1;
		if (lower && upper) {
			*bad = i;   /* the first character of the other case */
			return -4;
		}
	}
	sep = n;
	for (i = n; i > 0; i--)
		if (s[i - 1] == '1') {
			sep = i - 1;
			break;
		}
	if (sep == n || sep == 0) {
		*bad = sep == 0 ? 0 : n;
		return -1;
	}
	if (n - sep - 1 < 6) {
		*bad = n;
		return -2;
	}
	if (sep + 1 > hcap)
		return -3;
	for (i = 0; i < sep; i++)
		hrp[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	hrp[sep] = '\0';
	chk = hrp_polymod(hrp, sep);
	for (i = sep + 1; i < n; i++) {
		char c = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
		const char *p = memchr(charset, c, 32);
		uint8_t v;

		if (p == NULL || c == '\0') {
			*bad = i;
			return -1;
		}
		v = (uint8_t)(p - charset);
		chk = polymod_step(chk, v);
		if (i < n - 6) {
			acc = acc << 5 | v;
			bits += 5;
			if (bits >= 8) {
				if (out == dcap)
					return -3;
				data[out++] = (uint8_t)(acc >> (bits - 8));
				bits -= 8;
			}
		}
	}
	if (chk != 1 || bits >= 5 || (acc & ((1u << bits) - 1)) != 0) {
		*bad = n;
		return -2;
	}
	*len = out;
	return 0;
}
