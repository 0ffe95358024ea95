/*
 * test_ghash_ct.c -- the portable and the AVX2 paths of the software
 * GHASH must agree.
 *
 * The GCM vector tests check whatever path the dispatcher picks on this
 * machine (the AVX2 one where the CPU has AVX2); this test pins the
 * portable scalar path to it on random keys, states and lengths, so the
 * code that non-AVX2 machines run is tested here too.
 * (AE_SEED=N replays a run.)
 */
#include "config.h"
#include "check.h"

#include <time.h>

#include "crypto/cpu.h"
#include "crypto/ghash_ct.h"

int
main(void)
{
	const char *env = getenv("AE_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
	uint64_t s = seed;
	static uint8_t data[16 * 300];
	int c;

	printf("test_ghash_ct: seed %llu (replay with AE_SEED=%llu)\n",
	    (unsigned long long)seed, (unsigned long long)seed);
#ifdef HAVE_TARGET_AVX2
	if (!ae_cpu_features()->avx2)
		t_skip("AVX2 path: CPU lacks AVX2, both calls run the portable path");
#else
	t_skip("AVX2 path: not in this build, both calls run the portable path");
#endif
	for (c = 0; c < 500; c++) {
		struct ae_ghash_ct_key k;
		uint8_t h[16], y0[16], ya[16], yb[16];
		size_t n = c < 20 ? (size_t)c : (size_t)(t_rand(&s) % 300);

		t_fill(&s, h, sizeof h);
		t_fill(&s, y0, sizeof y0);
		t_fill(&s, data, 16 * n);
		ae_ghash_ct_init(&k, h);
		memcpy(ya, y0, 16);
		memcpy(yb, y0, 16);
		ae_ghash_ct_update(&k, ya, data, n);
		ae_ghash_ct_update_portable(&k, yb, data, n);
		CHECK_MEM(ya, yb, 16, "case %d, %zu blocks: paths differ", c, n);
	}
	return t_finish("ghash_paths");
}
