/*
 * ixcheck.h -- whether an archive's index says what its payload holds
 * (the reader's own check, behind aescrypt.h's unstable part).
 *
 * The index is sealed under the file's key, but so is the payload, and
 * whoever makes the archive makes both: with -r, anyone who knows the
 * public key.  An index could list a member that no full read shows (a
 * script hidden inside another member's data, found by -x NAME) or leave
 * out one that a full read makes: the zip central-directory trick.  So
 * the two views are made to agree.  A full read (-t, -x, --test without
 * the index) records every member it meets and compares the list with
 * the index after the final record; a reader that uses the index checks,
 * at each member it decodes, that the header there is the one the index
 * names.
 */
#ifndef AE_LIB_IXCHECK_H
#define AE_LIB_IXCHECK_H

#include <stddef.h>
#include <stdint.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "archive/tar_read.h"
#include "common/io.h"
#include "container/index.h"
#include "crypto/sha256.h"

/* What a full read saw of each member, in order: a SHA-256 of the
 * fields 6.8's entry holds (indexcheck.c). */
struct ixcheck {
	uint8_t (*seen)[AE_SHA256_LEN];
	size_t n, cap;
	int oom;                    /* a member could not be recorded */
	int ended;                  /* the end blocks were read */
	uint64_t end_at;            /* ... here */
	/* the index's plaintext, collected after the payload (with the
	 * reader's cap, AE_INDEX_MAX; over it, too_big and no check) */
	uint8_t *ix;
	size_t ixlen, ixcap;
	int too_big;
	struct ae_writer ixw;       /* writes into ix */
};

void ae_ixcheck_init(struct ixcheck *c);
void ae_ixcheck_free(struct ixcheck *c);

/* The tar reader's observer (tar_read.h, seen; ctx is the ixcheck). */
void ae_ixcheck_seen(void *ctx, const struct ae_tar_member *m,
    uint64_t end_at);

/*
 * After a full read of an indexed archive whose index c->ixw collected:
 * parse the index (6.8) and compare every entry with the member read at
 * its place (name, link, type, mode, owner, size, time), the count and
 * tar_end, into v (aescrypt.h): AESCRYPT_INDEX_AGREES, or what
 * differs.
 */
void ae_ixcheck_compare(struct ixcheck *c, uint64_t header_len,
    unsigned chunk_log2, uint64_t sig_every, uint64_t index_offset,
    uint64_t records, struct aescrypt_index_verdict *v);

/* The SHA-256 a full read keeps of a member: of index entry e's 6.8
 * fields, or of what member m's headers say in the same form.  Equal
 * digests: the entry is the member (what ixcheck_same says). */
void ae_ixcheck_entry_digest(const struct ae_index_member *e,
    uint8_t out[AE_SHA256_LEN]);
void ae_ixcheck_member_digest(const struct ae_tar_member *m,
    uint8_t out[AE_SHA256_LEN]);

/* Whether index entry e is what member m's headers say.  1 or 0. */
int ae_ixcheck_same(const struct ae_index_member *e,
    const struct ae_tar_member *m);

#endif
