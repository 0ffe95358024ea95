/*
 * cpu.h -- what the processor can do, read once.
 *
 * ae_cpu_features() runs CPUID (and XGETBV, to learn whether the OS saves
 * the wide vector registers) on x86, or reads the kernel's HWCAP word
 * (getauxval) on aarch64, on its first call and caches the answer.
 * That cache is the only process-wide state the core keeps; it is filled
 * under pthread_once, so any thread may call ae_cpu_features().
 */
#ifndef AE_CPU_H
#define AE_CPU_H

struct ae_cpu_features {
	unsigned sse2 : 1;
	unsigned ssse3 : 1;
	unsigned sse41 : 1;
	unsigned aesni : 1;
	unsigned pclmul : 1;
	unsigned avx : 1;       /* CPU has it and the OS saves YMM state */
	unsigned avx2 : 1;
	unsigned vaes : 1;
	unsigned vpclmulqdq : 1;
	unsigned avx512f : 1;   /* CPU has it and the OS saves ZMM state */
	unsigned avx512bw : 1;
	unsigned avx512vl : 1;
	unsigned sha : 1;       /* the SHA-256 instructions (SHA-NI) */
	unsigned zmm_slow : 1;  /* an Intel core whose clock drops while
	                         * 512-bit vectors run (Ice Lake, Tiger
	                         * Lake): tier 4 is not the default there */
	unsigned arm_aes : 1;   /* ARMv8 Crypto Extensions: AESE/AESMC */
	unsigned arm_pmull : 1; /* PMULL/PMULL2 on 64-bit lanes */
};

/* Return the cached feature set.  Never NULL.  Flags of another
 * architecture are 0, and so are all flags where the build has no way
 * to ask (aarch64 without getauxval: see configure). */
const struct ae_cpu_features *ae_cpu_features(void);

/*
 * Write a space-separated list of the features found (e.g. "aes pclmul
 * avx2 vaes") into buf, always NUL-terminated when size > 0.  "none" if
 * no flag is set.
 */
void ae_cpu_describe(char *buf, unsigned long size);

#endif
