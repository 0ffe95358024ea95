/*
 * dirnames.h -- the names in a directory, as the walk (reader.c) and -g's
 * purge (dw_incremental.c) both read them.
 */
#ifndef AE_DISK_DIRNAMES_H
#define AE_DISK_DIRNAMES_H

#include <stddef.h>

/*
 * The names in the directory open as fd, sorted by strcmp, without "."
 * and "..", each with its type (ae_dir_name_type), into *ents (malloc'd, each malloc'd; *n of them; free with
 * ae_dir_names_free).  fd stays open and its position is not used.  0;
 * -1 (errno set, nothing to free) if it cannot be read; -2 (errno set)
 * if reading failed part way, with what was read (to free).
 */
int ae_dir_names(int fd, char ***ents, size_t *n);

/* The type readdir gave for a name from ae_dir_names (kept past its
 * NUL, so that each name is still one allocation): a DT_* value, or 0
 * (DT_UNKNOWN) where the file system gives none.  A hint only: the file
 * may have been replaced since. */
int ae_dir_name_type(const char *name);
void ae_dir_names_free(char **ents, size_t n);

#endif
