#include "error.h"

#include <errno.h>
#include <stddef.h>

const char *
ae_strerror(int err)
{
	switch (err) {
	case AE_OK:       return "success";
	case AE_EINVAL:   return "invalid argument";
	case AE_EAUTH:    return "authentication failed";
	case AE_ENOMEM:   return "out of memory";
	case AE_EIO:      return "input/output error";
	case AE_EFORMAT:  return "bad format";
	case AE_ETOOBIG:  return "length out of range";
	case AE_ENOTSUP:  return "not supported";
	case AE_EKEY:     return "wrong passphrase or key";
	case AE_ETRUNC:   return "input is truncated";
	case AE_ELIMIT:   return "over the configured limit";
	case AE_EINTR:    return "interrupted";
	}
	return "unknown error";
}

int
ae_fail(struct ae_diag *d, int err, enum ae_where where, const char *what,
    unsigned long long index, unsigned long long offset)
{
	if (d != NULL) {
		d->where = where;
		d->what = what;
		d->index = index;
		d->offset = offset;
		d->sys_errno = err == AE_EIO ? errno : 0;
	}
	return err;
}
