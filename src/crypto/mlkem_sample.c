/*
 * mlkem_sample.c -- SampleNTT and SamplePolyCBD_2.
 */
#include "mlkem_sample.h"

#include "sha3.h"
#include "common/wipe.h"

void ae_mlkem_sample_ntt(struct ae_poly *a, const uint8_t rho[32],
    uint8_t j, uint8_t i)
{
	struct ae_keccak k;
	uint8_t ji[2] = { j, i }, b[3 * 56];   /* one SHAKE128 block */
	unsigned n = 0, o = sizeof b;

	ae_shake128_init(&k);
	ae_keccak_absorb(&k, rho, 32);
	ae_keccak_absorb(&k, ji, 2);
	while (n < AE_MLKEM_N) {
		if (o == sizeof b) {
			ae_keccak_squeeze(&k, b, sizeof b);
			o = 0;
		}
		uint16_t d1 = (uint16_t)(b[o] | ((b[o + 1] & 15) << 8));
		uint16_t d2 = (uint16_t)((b[o + 1] >> 4) | (b[o + 2] << 4));
		o += 3;
		if (d1 < AE_MLKEM_Q)
			a->c[n++] = d1;
		if (d2 < AE_MLKEM_Q && n < AE_MLKEM_N)
			a->c[n++] = d2;
	}
}

void ae_mlkem_sample_cbd2(struct ae_poly *a, const uint8_t s[32], uint8_t b)
{
	uint8_t buf[128];

	ae_shake256(buf, sizeof buf, s, 32, &b, 1);
	/* Each byte gives two coefficients: (bit0 + bit1) - (bit2 + bit3)
	 * and the same of its high nibble. */
	for (int i = 0; i < 128; i++) {
		for (int h = 0; h < 2; h++) {
			unsigned v = buf[i] >> (4 * h);
			unsigned x = (v & 1) + ((v >> 1) & 1);
			unsigned y = ((v >> 2) & 1) + ((v >> 3) & 1);
			/* x - y mod q, without a branch: add q, reduce once */
			uint32_t t = x + AE_MLKEM_Q - y;
			t -= AE_MLKEM_Q & (0u - ((AE_MLKEM_Q - 1 - t) >> 31));
			a->c[2 * i + h] = (uint16_t)t;
		}
	}
	ae_wipe(buf, sizeof buf);
}
