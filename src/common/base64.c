/*
 * base64.c -- base64 (contract in base64.h).
 *
 * Branches on the characters are fine: what is decoded here is a public
 * key, or a private key file that is then checked as a whole; neither
 * timing nor the alphabet lookups say anything the file does not.
 */
#include "config.h"
#include "base64.h"

static int
value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int
ae_base64_decode(const char *s, size_t n, uint8_t *out, size_t cap,
    size_t *len, size_t *bad)
{
	uint32_t acc = 0;
	size_t i, o = 0, q = 0, pad = 0;
	int v;

	*len = 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
			continue;
		if (c == '=') {
			if (q < 2 || ++pad > 2) {
				*bad = i;
				return -1;
			}
			q++;
			if (q == 4)
				q = 0;
			continue;
		}
		if (pad > 0 || (v = value(c)) < 0) {
			*bad = i;
			return -1;
		}
		acc = acc << 6 | (uint32_t)v;
		if (++q == 4) {
			if (o + 3 > cap)
				return -2;
			out[o++] = (uint8_t)(acc >> 16);
			out[o++] = (uint8_t)(acc >> 8);
			out[o++] = (uint8_t)acc;
			acc = 0;
			q = 0;
		}
	}
	if (pad > 0) {
		/* "xx==" or "xxx=": the quantum ended with its padding; acc
		 * holds 2 or 3 characters. */
		size_t k = 3 - pad;

		if (q != 0 || o + k > cap) {
			*bad = n;
			return q != 0 ? -1 : -2;
		}
		acc <<= 6 * pad;
		out[o++] = (uint8_t)(acc >> 16);
		if (k == 2)
			out[o++] = (uint8_t)(acc >> 8);
	} else if (q == 1) {
		*bad = n;
		return -1;
	} else if (q > 1) {
		/* unpadded tail */
		size_t k = q - 1;

		if (o + k > cap)
			return -2;
		acc <<= 6 * (4 - q);
		out[o++] = (uint8_t)(acc >> 16);
		if (k == 2)
			out[o++] = (uint8_t)(acc >> 8);
	}
	*len = o;
	return 0;
}

size_t
ae_base64_encode(const uint8_t *in, size_t n, int pad, char *out,
    size_t cap)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0, need = pad ? (n + 2) / 3 * 4 : (n * 4 + 2) / 3;

	if (need >= cap)
		return 0;
	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8
		    | in[i + 2];

		out[o++] = abc[v >> 18];
		out[o++] = abc[v >> 12 & 63];
		out[o++] = abc[v >> 6 & 63];
		out[o++] = abc[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)in[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)in[i + 1] << 8;
		out[o++] = abc[v >> 18];
		out[o++] = abc[v >> 12 & 63];
		if (i + 1 < n)
			out[o++] = abc[v >> 6 & 63];
		else if (pad)
			out[o++] = '=';
		if (pad)
			out[o++] = '=';
	}
	out[o] = 0;
	return o;
}

int
ae_base64_decode_strict(const char *s, size_t n, int pad, uint8_t *out,
    size_t cap, size_t *len)
{
	size_t i, o = 0, tail, full;
	uint32_t acc = 0;
	int v, q = 0;

	*len = 0;
	if (pad) {
		/* a multiple of 4, with at most two '=' at its end */
		if (n % 4 != 0)
			return -1;
		tail = 0;
		while (tail < 2 && tail < n && s[n - 1 - tail] == '=')
			tail++;
		n -= tail;
		if (tail > 0 && n % 4 != 4 - tail)
			return -1;
	}
	if (n % 4 == 1)
		return -1;
	full = n / 4 * 3 + (n % 4 == 0 ? 0 : n % 4 - 1);
	if (full > cap)
		return -2;
	for (i = 0; i < n; i++) {
		if ((v = value(s[i])) < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		if (++q == 4) {
			out[o++] = (uint8_t)(acc >> 16);
			out[o++] = (uint8_t)(acc >> 8);
			out[o++] = (uint8_t)acc;
			acc = 0;
			q = 0;
		}
	}
	if (q == 2) {
		/* 12 bits for one byte: the low 4 must be zero */
		if (acc & 0xf)
			return -1;
		out[o++] = (uint8_t)(acc >> 4);
	} else if (q == 3) {
		/* 18 bits for two bytes: the low 2 must be zero */
		if (acc & 0x3)
			return -1;
		out[o++] = (uint8_t)(acc >> 10);
		out[o++] = (uint8_t)(acc >> 2);
	}
	*len = o;
	return 0;
}
