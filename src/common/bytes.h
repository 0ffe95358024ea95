/*
 * bytes.h -- loading and storing integers at fixed byte order.
 *
 * Byte-by-byte so they are alignment- and endian-neutral; compilers turn
 * them into single loads/stores (plus a byte swap) on x86.
 */
#ifndef AE_BYTES_H
#define AE_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t
load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16
	    | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void
store_be32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)(x >> 24); p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);  p[3] = (uint8_t)x;
}

static inline uint64_t
load_be64(const uint8_t *p)
{
	return (uint64_t)load_be32(p) << 32 | load_be32(p + 4);
}

static inline void
store_be64(uint8_t *p, uint64_t x)
{
	store_be32(p, (uint32_t)(x >> 32));
	store_be32(p + 4, (uint32_t)x);
}

static inline void
store_le16(uint8_t *p, uint16_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
}

static inline uint32_t
load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16
	    | (uint32_t)p[3] << 24;
}

static inline void
store_le32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)x;         p[1] = (uint8_t)(x >> 8);
	p[2] = (uint8_t)(x >> 16); p[3] = (uint8_t)(x >> 24);
}

/*
 * A count in 7-bit groups, low first, the high bit saying another
 * follows: what the in-memory front coding of paths uses (the index
 * builder, the -x index digests); never read from input, only from what
 * ae_put_varint wrote.  Each returns the bytes used (at most 10).
 */
static inline size_t
ae_put_varint(uint8_t *p, size_t v)
{
	size_t k = 0;

	while (v >= 0x80) {
		p[k++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[k++] = (uint8_t)v;
	return k;
}

static inline size_t
ae_get_varint(const uint8_t *p, size_t *v)
{
	size_t k = 0, sh = 0;

	*v = 0;
	do
		*v |= (size_t)(p[k] & 0x7f) << sh, sh += 7;
	while (p[k++] & 0x80);
	return k;
}

#endif
