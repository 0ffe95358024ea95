/*
 * fuzz.h -- what the fuzz harnesses share.
 *
 * Each harness defines LLVMFuzzerTestOneInput.  Built with
 * clang -fsanitize=fuzzer it is a libFuzzer target (make fuzz), and AFL++
 * builds it the same way (afl-clang-fast -fsanitize=fuzzer).  Built with
 * replay.c instead, it runs the committed corpus once, as a regression
 * test in make check.  A harness reports a bug by crashing (abort), so
 * that every fuzzer and sanitizer sees it.
 */
#ifndef AE_FUZZ_H
#define AE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The one fixed key of the harnesses that need to get past
 * authentication: a bug behind it is a bug all the same. */
static const uint8_t FUZZ_KEY[32] = {
	0x46, 0x55, 0x5a, 0x5a, 0x20, 0x6b, 0x65, 0x79,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17
};

#define FUZZ_ASSERT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,	\
		    #cond);						\
		abort();						\
	}								\
} while (0)

#endif
