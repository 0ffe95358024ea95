#include "config.h"
#include "kdf.h"

#include <unistd.h>

#include <argon2.h>

void
ae_kdf_default_limits(struct ae_kdf_limits *lim)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);
	uint64_t cap = AE_KDF_CAP_M_KIB;

	if (pages > 0 && psize > 0) {
		uint64_t half = (uint64_t)pages * (uint64_t)psize / 2 / 1024;
		if (half < cap)
			cap = half;
	}
	lim->max_m_kib = cap;
	lim->max_t = AE_KDF_CAP_T;
	lim->max_p = AE_KDF_CAP_P;
}

int
ae_kdf_valid(const struct ae_kdf_params *p)
{
	if (p->t < 1 || p->p < 1 || p->p > ARGON2_MAX_LANES)
		return AE_EFORMAT;
	if ((uint64_t)p->m_kib < 8 * (uint64_t)p->p)
		return AE_EFORMAT;
	return AE_OK;
}

static int
over(struct ae_diag *d, const char *what, uint64_t have, uint64_t limit)
{
	if (d != NULL) {
		d->have = have;
		d->limit = limit;
	}
	return ae_fail(d, AE_ELIMIT, AE_AT_STANZA, what, 0, 0);
}

int
ae_kdf_within(const struct ae_kdf_params *p, const struct ae_kdf_limits *lim,
    struct ae_diag *d)
{
	if (p->m_kib > lim->max_m_kib)
		return over(d, "Argon2id memory", p->m_kib, lim->max_m_kib);
	if (p->t > lim->max_t)
		return over(d, "Argon2id passes", p->t, lim->max_t);
	if (p->p > lim->max_p)
		return over(d, "Argon2id lanes", p->p, lim->max_p);
	return AE_OK;
}

int
ae_kdf_argon2id(const void *pass, size_t passlen, const uint8_t *salt,
    size_t saltlen, const struct ae_kdf_params *p, uint8_t out[32])
{
	int r;

	if (ae_kdf_valid(p) != AE_OK)
		return AE_EFORMAT;
	r = argon2id_hash_raw(p->t, p->m_kib, p->p, pass, passlen, salt,
	    saltlen, out, 32);
	if (r == ARGON2_OK)
		return AE_OK;
	if (r == ARGON2_MEMORY_ALLOCATION_ERROR)
		return AE_ENOMEM;
	return AE_EFORMAT;
}
