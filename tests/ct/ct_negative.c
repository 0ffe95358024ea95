/*
 * ct_negative.c -- the negative control for the constant-time check.
 *
 * A deliberately leaky S-box lookup: the secret byte indexes a table.
 * Under the same valgrind options as ctgrind, memcheck MUST report an
 * error here; if it does not, the check cannot catch leaks and the
 * ctgrind pass means nothing.
 */
#include <stdint.h>
#include <stdio.h>

#include <valgrind/memcheck.h>

static const uint8_t table[256] = { 0x63, 0x7c, 0x77, 0x7b, 0xf2 };

int
main(void)
{
	volatile uint8_t secret = 0x42;
	uint8_t s = secret, out;

	VALGRIND_MAKE_MEM_UNDEFINED(&s, 1);
	out = table[s];            /* secret-dependent address: must be flagged */
	VALGRIND_MAKE_MEM_DEFINED(&out, 1);
	printf("looked up %u\n", out);
	return 0;
}
