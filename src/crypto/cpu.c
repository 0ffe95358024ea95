#include "config.h"
#include "cpu.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define AE_X86 1
#endif

#if defined(__aarch64__) && defined(HAVE_GETAUXVAL)
#include <sys/auxv.h>
/* The kernel's bits (asm/hwcap.h), spelled out: the header is Linux's. */
#define AE_HWCAP_AES (1UL << 3)
#define AE_HWCAP_PMULL (1UL << 4)
#define AE_ARM 1
#endif

static struct ae_cpu_features g_features;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

#ifdef AE_X86
/* XGETBV is encoded by hand so that the file needs no -mxsave. */
static unsigned long long
xgetbv0(void)
{
	unsigned eax, edx;

	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
	return ((unsigned long long)edx << 32) | eax;
}
#endif

static void
detect(void)
{
#ifdef AE_X86
	unsigned a, b, c, d, max, family, model;
	int intel;
	unsigned long long xcr0 = 0;
	int os_ymm, os_zmm;

	memset(&g_features, 0, sizeof g_features);
	max = __get_cpuid_max(0, NULL);
	if (max < 1)
		return;
	{
		unsigned vb, vc, vd;

		__cpuid(0, max, vb, vc, vd);
		/* "GenuineIntel": EBX, EDX, ECX */
		intel = vb == 0x756e6547 && vd == 0x49656e69 && vc == 0x6c65746e;
	}
	__cpuid(1, a, b, c, d);
	family = (a >> 8) & 0xf;
	model = ((a >> 4) & 0xf) | (family == 6 ? ((a >> 12) & 0xf0) : 0);
	g_features.sse2 = (d >> 26) & 1;
	g_features.ssse3 = (c >> 9) & 1;
	g_features.sse41 = (c >> 19) & 1;
	g_features.aesni = (c >> 25) & 1;
	g_features.pclmul = (c >> 1) & 1;
	/* AVX state is usable only if the OS enabled it (OSXSAVE, then XCR0
	 * bits 1-2 for XMM/YMM, and 5-7 for the AVX-512 opmask and ZMM). */
	if ((c >> 27) & 1)
		xcr0 = xgetbv0();
	os_ymm = (xcr0 & 0x6) == 0x6;
	os_zmm = os_ymm && (xcr0 & 0xe0) == 0xe0;
	g_features.avx = os_ymm && ((c >> 28) & 1);
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		g_features.avx2 = g_features.avx && ((b >> 5) & 1);
		g_features.vaes = g_features.avx && ((c >> 9) & 1);
		g_features.vpclmulqdq = g_features.avx && ((c >> 10) & 1);
		g_features.avx512f = os_zmm && ((b >> 16) & 1);
		g_features.avx512bw = os_zmm && ((b >> 30) & 1);
		g_features.avx512vl = os_zmm && ((b >> 31) & 1);
		g_features.sha = ((b >> 29) & 1) && g_features.sse41;
	}
	/* Ice Lake (client 0x7d, 0x7e; server 0x6a, 0x6c) and Tiger Lake
	 * (0x8c, 0x8d): the first cores with VAES, whose clock drops under
	 * 512-bit vectors; Linux's AES-GCM keeps to 256 bits on them.
	 * Sapphire Rapids and later, and AMD's Zen 4 and 5, do not. */
	g_features.zmm_slow = intel && family == 6 && (model == 0x7d
	    || model == 0x7e || model == 0x6a || model == 0x6c
	    || model == 0x8c || model == 0x8d);
#endif
#ifdef AE_ARM
	{
		unsigned long hw = getauxval(AT_HWCAP);

		g_features.arm_aes = (hw & AE_HWCAP_AES) != 0;
		g_features.arm_pmull = (hw & AE_HWCAP_PMULL) != 0;
	}
#endif
}

const struct ae_cpu_features *
ae_cpu_features(void)
{
	pthread_once(&g_once, detect);
	return &g_features;
}

void
ae_cpu_describe(char *buf, unsigned long size)
{
	const struct ae_cpu_features *f = ae_cpu_features();
	const struct { const char *name; int on; } list[] = {
		{ "sse2", f->sse2 }, { "ssse3", f->ssse3 }, { "sse4.1", f->sse41 },
		{ "aes", f->aesni }, { "pclmul", f->pclmul }, { "avx", f->avx },
		{ "avx2", f->avx2 }, { "vaes", f->vaes }, { "sha", f->sha },
		{ "vpclmulqdq", f->vpclmulqdq }, { "avx512f", f->avx512f },
		{ "avx512bw", f->avx512bw }, { "avx512vl", f->avx512vl },
		{ "aes", f->arm_aes }, { "pmull", f->arm_pmull },
	};
	size_t i, used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < sizeof list / sizeof list[0]; i++) {
		int n;

		if (!list[i].on)
			continue;
		n = snprintf(buf + used, size - used, "%s%s", used ? " " : "",
		    list[i].name);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
	if (used == 0)
		snprintf(buf, size, "none");
}
