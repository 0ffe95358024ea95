/*
 * dumpdir.h -- GNU tar's dumpdirs (a listed-incremental directory's
 * GNU.dumpdir record), read: entries "Yname" (in this archive), "Nname"
 * (unchanged, in an earlier level), "Dname" (a directory), and renames
 * "Rfrom" "Tto", each NUL-terminated, closed by an empty one.  Shared by
 * the extraction (disk/) and the mount (mount/), which both apply them.
 */
#ifndef AE_COMMON_DUMPDIR_H
#define AE_COMMON_DUMPDIR_H

#include <stddef.h>
#include <stdint.h>

/* The entry of dd[0, n) at *pos (its letter, then its name), with *pos
 * moved past it; NULL at the end: the closing empty entry, or one with
 * no NUL (the rest is ignored). */
const char *ae_dumpdir_next(const uint8_t *dd, size_t n, size_t *pos);

/* The letter dumpdir dd[0, n) lists name with (Y, N or D), or 0 if it
 * does not (R and T entries are renames, not names). */
int ae_dumpdir_letter(const uint8_t *dd, size_t n, const char *name);

#endif
