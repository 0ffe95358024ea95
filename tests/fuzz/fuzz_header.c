/*
 * fuzz_header.c -- the container header parser and the key-slot
 * unwrap: bytes as a whole header (ae_header_parse), and as the start of
 * a stream (ae_header_read); a header that parses is then unlocked with
 * a fixed key file key, two fixed identities (X25519 and ssh-ed25519,
 * the keys of tests/unit/test_recipient.c, whose samples seed the
 * corpus) and a fixed passphrase, under Argon2id limits
 * kept tiny so that a hostile cost is refused, not run.  The bytes are
 * also tried with their CRC-32 made right, as a careful attacker would,
 * so that mutations reach the field and slot checks behind it.
 */
#include "config.h"

#include <string.h>
#include <zlib.h>

#include "common/error.h"
#include "fuzz.h"
#include "../samples/test_keys.h"
#include "container/header.h"
#include "common/io.h"

static void one(const uint8_t *data, size_t size);

static struct ae_identity ids[2];


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t fixed[AE_HEADER_MAX];
	size_t L;

	if (ids[0].type == 0) {
		FUZZ_ASSERT(ae_identity_parse_age(test_age_secret, &ids[0], NULL)
		    == AE_OK);
		FUZZ_ASSERT(ae_identity_parse_ssh(test_ssh_private,
		    sizeof test_ssh_private - 1, &ids[1], NULL) == AE_OK);
	}
	one(data, size);
	if (size < 11 || size > AE_HEADER_MAX)
		return 0;
	L = (size_t)data[9] << 8 | data[10];
	if (L < 36 + 11 || L > size)
		return 0;
	memcpy(fixed, data, size);
	{
		uLong crc = crc32(0L, fixed, (uInt)(L - 36));

		fixed[L - 36] = (uint8_t)(crc >> 24);
		fixed[L - 35] = (uint8_t)(crc >> 16);
		fixed[L - 34] = (uint8_t)(crc >> 8);
		fixed[L - 33] = (uint8_t)crc;
	}
	one(fixed, size);
	return 0;
}

static void
one(const uint8_t *data, size_t size)
{
	static struct ae_header h;
	struct ae_diag d;
	struct ae_memio m;
	struct ae_reader r = { ae_mem_read, &m, NULL };
	struct ae_unlock u;
	uint8_t fk[AE_FILE_KEY_LEN];
	int rc;

	memset(&d, 0, sizeof d);
	rc = ae_header_parse(data, size, &h, &d);
	FUZZ_ASSERT(rc == AE_OK || rc == AE_EFORMAT || rc == AE_ENOTSUP
	    || rc == AE_ETRUNC);
	if (rc == AE_OK) {
		unsigned i, npass = 0, known = 0;

		FUZZ_ASSERT(h.len == size && h.nstanzas >= 1);
		/* The slot rules of spec 4.4 hold for every parsed header. */
		for (i = 0; i < h.nstanzas; i++) {
			known += ae_stanza_len(h.stanza[i].type) != 0;
			if (h.stanza[i].type == AE_STANZA_ARGON2ID) {
				npass++;
				FUZZ_ASSERT(ae_kdf_valid(&h.stanza[i].kdf) == AE_OK);
			}
		}
		FUZZ_ASSERT(npass <= 1 && known >= 1);
		memset(&u, 0, sizeof u);
		u.key = FUZZ_KEY;
		u.pass = (const uint8_t *)"fuzz";
		u.passlen = 4;
		u.limits.max_m_kib = 64;
		u.limits.max_t = 1;
		u.limits.max_p = 1;
		u.ids = ids;
		u.nids = 2;
		rc = ae_header_unlock(&h, &u, fk, &d);
		/* (AE_EFORMAT only for a low-order share: the other slot
		 * rules were checked by the parse) */
		FUZZ_ASSERT(rc == AE_OK || rc == AE_EKEY || rc == AE_ELIMIT
		    || rc == AE_EAUTH || rc == AE_ENOMEM
		    || (rc == AE_EFORMAT && d.where == AE_AT_STANZA));
	}

	memset(&m, 0, sizeof m);
	m.src = data;
	m.len = size;
	rc = ae_header_read(&r, &h, &d);
	FUZZ_ASSERT(rc == AE_OK || rc == AE_EFORMAT || rc == AE_ENOTSUP
	    || rc == AE_ETRUNC);
	if (rc == AE_OK)
		FUZZ_ASSERT(m.pos == h.len && h.len <= AE_HEADER_MAX);
}
