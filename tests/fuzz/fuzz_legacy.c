/*
 * fuzz_legacy.c -- a file of another format, the whole read path: what
 * kind it is (ae_sniff), then, as AES Crypt, its header, the key with
 * the passphrase "fuzz" (the seeds are made with it, so mutations reach
 * the key block's MAC and, past it, the payload), and the payload to
 * memory.  Whatever happens: the header stays inside the input, the
 * creator string ends in a NUL, no more plaintext comes out than
 * ciphertext went in, and a success read the whole input.
 */
#include "config.h"

#include <string.h>

#include "common/io.h"
#include "container/legacy.h"
#include "container/sniff.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ae_memio in = { 0 }, out = { 0 };
	struct ae_reader r = { ae_mem_read, &in, NULL };
	struct ae_writer w = { ae_mem_write, &out };
	struct ae_legacy lg;
	struct ae_legacy_keys k;
	uint64_t plain = 0, cipher = 0;
	int e;

	FUZZ_ASSERT(ae_kind_name(ae_sniff(data, size)) != NULL);
	in.src = data;
	in.len = size;
	if (ae_legacy_read_header(&r, &lg, NULL) != AE_OK)
		return 0;
	FUZZ_ASSERT(lg.header_len <= size && lg.version <= 3);
	FUZZ_ASSERT(memchr(lg.creator, 0, sizeof lg.creator) != NULL);
	/* a version 3 count over 64 is refused here, as the CLI refuses
	 * absurd ones, so that each input takes milliseconds */
	if (ae_legacy_unlock(&lg, (const uint8_t *)"fuzz", 4, 64, &k, NULL)
	    == AE_OK) {
		e = ae_legacy_decrypt(&lg, &k, &r, &w, 0, &plain, &cipher,
		    NULL);
		FUZZ_ASSERT(plain == out.fill && plain <= cipher);
		/* a success read it all: the ciphertext, then the trailer */
		if (e == AE_OK)
			FUZZ_ASSERT(cipher % 16 == 0 && size - lg.header_len
			    - cipher == (lg.version == 1 || lg.version == 2 ?
			    33u : 32u));
	}
	ae_legacy_keys_wipe(&k);
	free(out.dst);
	return 0;
}
