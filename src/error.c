#include "error.h"

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
	}
	return "unknown error";
}
