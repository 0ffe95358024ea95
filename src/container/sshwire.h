/*
 * sshwire.h -- SSH's wire encoding (RFC 4251 section 5): strings read
 * from untrusted bytes, and written.  Shared by the ssh keys, SSHSIG
 * and the ssh-agent protocol.
 */
#ifndef AE_SSHWIRE_H
#define AE_SSHWIRE_H

#include <stddef.h>
#include <stdint.h>

/* Read a string at *p (of the bytes up to end): its bytes and length,
 * with *p moved past it.  0, or -1 if it runs past end (*p unmoved). */
int ae_ssh_string(const uint8_t **p, const uint8_t *end,
    const uint8_t **str, size_t *len);

/* Whether s[0, n) is the text want. */
int ae_ssh_string_is(const uint8_t *s, size_t n, const char *want);

/* A writer into out[0, cap): what does not fit sets over, and nothing
 * more is written, so a caller checks once at the end. */
struct ae_ssh_out {
	uint8_t *p;
	size_t len, cap;
	int over;
};

/* Append raw bytes, a u32, or a string (its u32 length, then s[0, n)). */
void ae_ssh_put(struct ae_ssh_out *o, const void *s, size_t n);
void ae_ssh_put_u32(struct ae_ssh_out *o, uint32_t v);
void ae_ssh_put_string(struct ae_ssh_out *o, const void *s, size_t n);

#endif
