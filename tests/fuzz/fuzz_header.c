/*
 * fuzz_header.c -- the container header parser and the key-slot
 * unwrap: bytes as a whole header (ae_header_parse), and as the start of
 * a stream (ae_header_read); a header that parses is then unlocked with
 * a fixed key file key, fixed identities (X25519, ssh-ed25519 and
 * ssh-rsa, the keys of tests/unit/test_recipient.c, and the
 * post-quantum sample's, whose samples seed the corpus: a PQ slot with
 * its tag runs a whole X-Wing decapsulation on what the input holds)
 * and a fixed passphrase, under Argon2id limits
 * kept tiny so that a hostile cost is refused, not run.  The bytes are
 * also tried with their CRC-32 made right, as a careful attacker would,
 * so that mutations reach the field and slot checks behind it.  The
 * bytes are also read as the end of a file, for a copy of the header
 * (ae_header_parse_copy, spec 6.9).
 */
#include "config.h"

#include <string.h>
#include <zlib.h>

#include "common/error.h"
#include "fuzz.h"
#include "../samples/test_keys.h"
#include "container/header.h"
#include "crypto/rsa.h"
#include "crypto/x25519.h"
#include "common/io.h"

static void one(const uint8_t *data, size_t size);

static struct ae_identity ids[4];
static size_t nids;


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t fixed[AE_HEADER_MAX];
	size_t L;

	if (ids[0].type == 0) {
		FUZZ_ASSERT(ae_identity_parse_age(test_age_secret, &ids[0], NULL)
		    == AE_OK);
		FUZZ_ASSERT(ae_identity_parse_ssh(test_ssh_private,
		    sizeof test_ssh_private - 1, NULL, 0, &ids[1], NULL) == AE_OK);
		FUZZ_ASSERT(ae_identity_parse_age(test_pq_secret, &ids[2], NULL)
		    == AE_OK);
		nids = 3;
		/* the RSA one where the build has libcrypto: slots whose tag
		 * is its key's run OAEP decryption on what the input holds */
		if (ae_rsa_available()) {
			FUZZ_ASSERT(ae_identity_parse_ssh(test_rsa_private,
			    sizeof test_rsa_private - 1, NULL, 0, &ids[3], NULL)
			    == AE_OK);
			nids = 4;
		}
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
			known += ae_stanza_known(h.stanza[i].type);
			if (h.stanza[i].type == AE_STANZA_ARGON2ID) {
				npass++;
				FUZZ_ASSERT(ae_kdf_valid(&h.stanza[i].kdf) == AE_OK);
			}
		}
		FUZZ_ASSERT(npass <= 1 && known >= 1);
		/* and no recipient share of low order (4.5, 4.8) */
		for (i = 0; i < h.nstanzas; i++) {
			FUZZ_ASSERT((h.stanza[i].type != AE_STANZA_X25519
			    && h.stanza[i].type != AE_STANZA_SSH_ED25519)
			    || !ae_x25519_low_order(h.stanza[i].share));
			FUZZ_ASSERT(h.stanza[i].type != AE_STANZA_MLKEM768X25519
			    || !ae_x25519_low_order(h.stanza[i].ct
			    + AE_PQ_CT_LEN - 32));
		}
		memset(&u, 0, sizeof u);
		u.key = FUZZ_KEY;
		u.pass = (const uint8_t *)"fuzz";
		u.passlen = 4;
		u.limits.max_m_kib = 64;
		u.limits.max_t = 1;
		u.limits.max_p = 1;
		u.ids = ids;
		u.nids = nids;
		rc = ae_header_unlock(&h, &u, fk, &d);
		/* (every slot rule, the low-order shares included, was
		 * checked by the parse: nothing is malformed here) */
		FUZZ_ASSERT(rc == AE_OK || rc == AE_EKEY || rc == AE_ELIMIT
		    || rc == AE_EAUTH || rc == AE_ENOMEM);
	}

	memset(&m, 0, sizeof m);
	m.src = data;
	m.len = size;
	rc = ae_header_read(&r, &h, &d);
	FUZZ_ASSERT(rc == AE_OK || rc == AE_EFORMAT || rc == AE_ENOTSUP
	    || rc == AE_ETRUNC);
	if (rc == AE_OK)
		FUZZ_ASSERT(m.pos == h.len && h.len <= AE_HEADER_MAX);

	/* the same bytes as the end of a file, for the copy (6.9) */
	rc = ae_header_parse_copy(data, size, &h, &d);
	FUZZ_ASSERT(rc == AE_OK || rc == AE_EFORMAT || rc == AE_ENOTSUP
	    || rc == AE_ETRUNC);
	if (rc == AE_OK)
		FUZZ_ASSERT(h.copy && h.from_copy
		    && h.len + AE_COPY_LEN_LEN <= size
		    && memcmp(h.raw, data + size - AE_COPY_LEN_LEN - h.len,
		    h.len) == 0);
}
