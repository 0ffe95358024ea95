/*
 * members.h -- the MEMBER operands of -t and -x: which members they
 * select, and which of them never matched (an error at the end, as in
 * tar).
 */
#ifndef AE_CLI_MEMBERS_H
#define AE_CLI_MEMBERS_H

#include <stddef.h>

struct members {
	char **names;       /* the operands, as given */
	size_t n;
	unsigned char *hit; /* per operand: matched a member */
};

/* 0, or -1 if out of memory.  n == 0 selects everything. */
int members_init(struct members *s, char **names, size_t n);
void members_free(struct members *s);

/*
 * Whether the member path is selected: it equals an operand or lies
 * under one (operand "dir" selects "dir/" and "dir/x"), ignoring a
 * leading "./" and trailing '/' on either side.  Marks the operands it
 * matched.
 */
int members_select(struct members *s, const char *path);

/* Report each operand that matched nothing ("aescrypt: error: NAME:
 * not found in archive").  Returns how many. */
size_t members_report_missing(const struct members *s);

#endif
