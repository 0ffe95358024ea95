/*
 * oracle.c -- the escape oracle of the harnesses that extract (contract
 * in oracle.h).
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "oracle.h"

static char base[64], mid[80], sentinel[96];
char oracle_dest[96];

static const char SENTINEL[] = "outside the root\n";


/* At exit, nothing is left of base. */
static void
teardown(void)
{
	oracle_empty();
	rmdir(oracle_dest);
	rmdir(mid);
	unlink(sentinel);
	rmdir(base);
}

void
oracle_setup(void)
{
	const char *tmp = getenv("TMPDIR");
	static int ready;
	FILE *f;

	if (ready)
		return;
	ready = 1;

	snprintf(base, sizeof base, "%s/aescrypt-fuzz-XXXXXX",
	    tmp != NULL && strlen(tmp) < 32 ? tmp : "/tmp");
	FUZZ_ASSERT(mkdtemp(base) != NULL);
	snprintf(mid, sizeof mid, "%s/a", base);
	snprintf(oracle_dest, sizeof oracle_dest, "%s/a/dest", base);
	snprintf(sentinel, sizeof sentinel, "%s/sentinel", base);
	FUZZ_ASSERT(mkdir(mid, 0700) == 0);
	FUZZ_ASSERT(mkdir(oracle_dest, 0700) == 0);
	FUZZ_ASSERT((f = fopen(sentinel, "w")) != NULL);
	fputs(SENTINEL, f);
	fclose(f);
	atexit(teardown);
}

/* The names in dir other than "." and "..", which must be exactly
 * `want` (one name) or `want` and `also`. */
static void
only(const char *dir, const char *want, const char *also)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	FUZZ_ASSERT(d != NULL);
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (strcmp(e->d_name, want) != 0 && (also == NULL
		    || strcmp(e->d_name, also) != 0)) {
			fprintf(stderr, "escaped the root: %s/%s\n", dir,
			    e->d_name);
			abort();
		}
	}
	closedir(d);
}

void
oracle_check(void)
{
	char buf[64];
	FILE *f;
	size_t n;

	only(base, "a", "sentinel");
	only(mid, "dest", NULL);
	FUZZ_ASSERT((f = fopen(sentinel, "r")) != NULL);
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	FUZZ_ASSERT(n == sizeof SENTINEL - 1
	    && memcmp(buf, SENTINEL, n) == 0);
}

/*
 * Emptying the root, never following a symlink and with no limit on depth
 * or path length (a member may be 2048 directories deep, past PATH_MAX,
 * where nftw gives up): one directory open at a time, going down into
 * the first subdirectory left, removing everything else, and coming back
 * up through ".." with a stack of the names taken.  Directories are made
 * 0700 on the way down (an archive may make them 0000).
 */
void
oracle_empty(void)
{
	char **names = NULL;
	size_t depth = 0, cap = 0;
	int fd = open(oracle_dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	chmod(oracle_dest, 0700);
	FUZZ_ASSERT(fd >= 0);
	for (;;) {
		int dfd = dup(fd);
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		struct dirent *e;
		char *sub = NULL;
		struct stat st;

		FUZZ_ASSERT(d != NULL);
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0
			    || strcmp(e->d_name, "..") == 0)
				continue;
			if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
			    && S_ISDIR(st.st_mode)) {
				if (sub == NULL)
					FUZZ_ASSERT((sub = strdup(e->d_name))
					    != NULL);
			} else {
				unlinkat(fd, e->d_name, 0);
			}
		}
		closedir(d);
		if (sub != NULL) {          /* down */
			int nfd;

			/* (a failure shows as the openat below failing) */
			if (fchmodat(fd, sub, 0700, 0) != 0) {
			}
			nfd = openat(fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW
			    | O_CLOEXEC);
			FUZZ_ASSERT(nfd >= 0);
			close(fd);
			fd = nfd;
			if (depth == cap) {
				cap = cap ? 2 * cap : 64;
				FUZZ_ASSERT((names = realloc(names,
				    cap * sizeof *names)) != NULL);
			}
			names[depth++] = sub;
			continue;
		}
		if (depth == 0)
			break;
		{                           /* empty: up, and remove it */
			int pfd = openat(fd, "..", O_RDONLY | O_DIRECTORY
			    | O_CLOEXEC);

			FUZZ_ASSERT(pfd >= 0);
			close(fd);
			fd = pfd;
			depth--;
			FUZZ_ASSERT(unlinkat(fd, names[depth], AT_REMOVEDIR)
			    == 0);
			free(names[depth]);
		}
	}
	close(fd);
	free(names);
}
