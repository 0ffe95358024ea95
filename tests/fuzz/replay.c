/*
 * replay.c -- run a fuzz harness over files, without libFuzzer: each
 * argument is a file or a directory of files, each file one input.  It
 * is how make check replays the committed corpora (tests/fuzz/corpus/),
 * and how a crash file from a fuzzer is rerun under a debugger.
 */
#include "config.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (buf == NULL)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	int i, files = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;
		char path[4096];

		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]) != 0)
				return 1;
			files++;
			continue;
		}
		if ((d = opendir(argv[i])) == NULL) {
			perror(argv[i]);
			return 1;
		}
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i],
			    de->d_name);
			if (run_file(path) != 0) {
				closedir(d);
				return 1;
			}
			files++;
		}
		closedir(d);
	}
	printf("%s: %d inputs replayed, no crash\n", argv[0], files);
	return files > 0 ? 0 : 1;
}
