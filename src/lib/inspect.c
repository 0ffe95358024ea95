/*
 * inspect.c -- aescrypt_inspect: what a header says, without a key
 * (contract in aescrypt.h).
 */
#include "config.h"
#include "inspect.h"

#include <stdlib.h>
#include <string.h>

#include "container/format.h"
#include "message.h"
#include "source.h"

_Static_assert(AESCRYPT_MAX_SLOTS == AE_MAX_STANZAS, "a header's slots fit");
_Static_assert((int)AESCRYPT_SLOT_PASSPHRASE == (int)AE_STANZA_ARGON2ID
    && (int)AESCRYPT_SLOT_KEYFILE == (int)AE_STANZA_KEYFILE
    && (int)AESCRYPT_SLOT_X25519 == (int)AE_STANZA_X25519
    && (int)AESCRYPT_SLOT_SSH_ED25519 == (int)AE_STANZA_SSH_ED25519
    && (int)AESCRYPT_SLOT_SSH_RSA == (int)AE_STANZA_SSH_RSA
    && (int)AESCRYPT_SLOT_MLKEM768X25519 == (int)AE_STANZA_MLKEM768X25519,
    "the slot types are the format's numbers");

int
aescrypt_inspect(const struct aescrypt_source *s, struct aescrypt_info *info,
    char *err, size_t errlen)
{
	struct ae_header *h;
	struct ae_diag d = { 0 };
	struct source src;
	int e;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (info == NULL || ae_lib_source_callbacks(&src, s) != AE_OK) {
		if (err != NULL)
			ae_lib_message_plain(err, errlen, NULL, "no info, or a "
			    "source without read or pread");
		return AESCRYPT_EINVAL;
	}
	if ((h = malloc(sizeof *h)) == NULL)
		return AESCRYPT_ENOMEM;
	memset(info, 0, sizeof *info);
	if ((e = ae_header_read(&src.seq, h, &d)) != AE_OK) {
		if (err != NULL)
			ae_lib_message_describe(err, errlen, NULL, e, &d);
		free(h);
		return e;
	}
	ae_lib_info_of(h, info);
	free(h);
	return AESCRYPT_OK;
}

void
ae_lib_info_of(const struct ae_header *h, struct aescrypt_info *info)
{
	unsigned i;

	memset(info, 0, sizeof *info);
	info->kind = AE_PAYLOAD_IS_ARCHIVE(h->payload_type) ? AESCRYPT_ARCHIVE
	    : AESCRYPT_STREAM;
	info->codec = h->codec;
	info->chunk_log2 = h->chunk_log2;
	info->indexed = h->payload_type == AE_PAYLOAD_PAX_INDEXED;
	info->has_copy = h->copy;
	info->header_len = h->len;
	info->nslots = h->nstanzas;
	for (i = 0; i < h->nstanzas && i < AESCRYPT_MAX_SLOTS; i++) {
		info->slot[i].type = h->stanza[i].type;
		if (h->stanza[i].type == AE_STANZA_ARGON2ID) {
			info->slot[i].kdf_t = h->stanza[i].kdf.t;
			info->slot[i].kdf_m_kib = h->stanza[i].kdf.m_kib;
			info->slot[i].kdf_p = h->stanza[i].kdf.p;
		}
	}
}

int
aescrypt_slot_class(int type)
{
	const struct ae_slot_type *t = type >= 0 && type <= 255 ?
	    ae_slot_type_get((uint8_t)type) : NULL;

	if (t == NULL)
		return -1;
	return t->cls == AE_SLOT_PASSPHRASE ? AESCRYPT_SLOT_CLASS_PASSPHRASE :
	    t->cls == AE_SLOT_KEYFILE ? AESCRYPT_SLOT_CLASS_KEYFILE :
	    AESCRYPT_SLOT_CLASS_RECIPIENT;
}
