#ifndef AE_VERSION_H
#define AE_VERSION_H

#define AESCRYPT_VERSION "0.3.0"

#endif
