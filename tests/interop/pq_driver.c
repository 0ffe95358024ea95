/*
 * pq_driver.c -- this tree's ML-KEM-768 and X-Wing, driven by lines of
 * hex on standard input, for the cross-check against an independent
 * implementation (tests/interop/noble_pq.mjs, @noble/post-quantum).
 *
 *   m D Z M M2 CT    -> EK DK CT1 K1 CT2 K2 KR
 *       keys from d = D, z = Z; encapsulations with m = M and M2; KR the
 *       decapsulation of the foreign ciphertext CT (implicit rejection)
 *   x S E E2 CT      -> PK CT1 K1 CT2 K2 KR
 *       the same for X-Wing: seed S, encapsulation seeds E and E2
 *
 * One line out per line in.  Any failure prints "error" on the line, so
 * the caller sees it where it happened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/mlkem.h"
#include "crypto/xwing.h"

static int unhex(const char *s, uint8_t *out, size_t n)
{
	if (strlen(s) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return 0;
}

static void hex(const uint8_t *p, size_t n, int last)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	putchar(last ? '\n' : ' ');
}

int main(void)
{
	static char line[16384];
	static uint8_t a[64], b[64], c[64], d[64], ct[AE_XWING_CT_LEN];
	static uint8_t ek[AE_XWING_PK_LEN], dk[AE_MLKEM768_DK_LEN];
	static uint8_t c1[AE_XWING_CT_LEN], c2[AE_XWING_CT_LEN];
	uint8_t k1[32], k2[32], kr[32];
	struct ae_xwing_key xk;

	while (fgets(line, sizeof line, stdin) != NULL) {
		char *f[6];
		int n = 0;
		for (char *t = strtok(line, " \n"); t && n < 6; t = strtok(NULL, " \n"))
			f[n++] = t;
		if (n == 6 && strcmp(f[0], "m") == 0
		    && !unhex(f[1], a, 32) && !unhex(f[2], b, 32)
		    && !unhex(f[3], c, 32) && !unhex(f[4], d, 32)
		    && !unhex(f[5], ct, AE_MLKEM768_CT_LEN)) {
			ae_mlkem768_keygen(ek, dk, a, b);
			if (ae_mlkem768_encaps(c1, k1, ek, c) || ae_mlkem768_encaps(c2, k2, ek, d)
			    || ae_mlkem768_decaps(kr, ct, dk)) {
				puts("error");
				fflush(stdout);
				continue;
			}
			hex(ek, AE_MLKEM768_EK_LEN, 0);
			hex(dk, AE_MLKEM768_DK_LEN, 0);
			hex(c1, AE_MLKEM768_CT_LEN, 0);
			hex(k1, 32, 0);
			hex(c2, AE_MLKEM768_CT_LEN, 0);
			hex(k2, 32, 0);
			hex(kr, 32, 1);
		} else if (n == 5 && strcmp(f[0], "x") == 0
		    && !unhex(f[1], a, 32) && !unhex(f[2], b, 64)
		    && !unhex(f[3], c, 64) && !unhex(f[4], ct, AE_XWING_CT_LEN)) {
			if (ae_xwing_expand(&xk, ek, a) || ae_xwing_encaps(c1, k1, ek, b)
			    || ae_xwing_encaps(c2, k2, ek, c) || ae_xwing_decaps(kr, ct, &xk)) {
				puts("error");
				fflush(stdout);
				continue;
			}
			hex(ek, AE_XWING_PK_LEN, 0);
			hex(c1, AE_XWING_CT_LEN, 0);
			hex(k1, 32, 0);
			hex(c2, AE_XWING_CT_LEN, 0);
			hex(k2, 32, 0);
			hex(kr, 32, 1);
		} else
			puts("error");
		fflush(stdout);
	}
	return 0;
}
