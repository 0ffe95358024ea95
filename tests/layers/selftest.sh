#!/bin/sh
# tests/layers/selftest.sh -- the layer check can fail: on a small tree
# of its own (in a temp directory) it must pass the clean tree and fail
# each planted include: upward, sideways between the rank-3 siblings,
# through "../", and to a bare name from another folder.
set -u
check=$(dirname "$0")/check.sh
t=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-layers.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT INT TERM
fail=0

tree() {
	rm -rf "$t/src"
	mkdir -p "$t/src/common" "$t/src/crypto" "$t/src/container" \
	    "$t/src/pipeline" "$t/src/archive" "$t/src/cli"
	echo '#include "config.h"' > "$t/src/common/e.h"
	printf '#include "common/e.h"\n#include "g.h"\n' > "$t/src/crypto/g.c"
	: > "$t/src/crypto/g.h"
	printf '#include "crypto/g.h"\n' > "$t/src/container/h.c"
	printf '#include "container/h.h"\n' > "$t/src/pipeline/p.c"
	: > "$t/src/container/h.h"
	printf '#include "common/e.h"\n' > "$t/src/archive/a.c"
	: > "$t/src/archive/a.h"
	printf '#include "pipeline/p.h"\n#include "archive/a.h"\n' > "$t/src/cli/m.c"
	: > "$t/src/pipeline/p.h"
}

expect() {   # expect STATUS WHAT
	if sh "$check" "$t/src" > "$t/out" 2>&1; then got=0; else got=1; fi
	if [ "$got" -ne "$1" ]; then
		echo "layers selftest: $2: the check exited $got, want $1"
		cat "$t/out"
		fail=1
	fi
}

tree; expect 0 "a clean tree"
tree; echo '#include "container/h.h"' >> "$t/src/crypto/g.c"; expect 1 "an upward include"
tree; echo '#include "archive/a.h"' >> "$t/src/pipeline/p.c"; expect 1 "a sideways include"
tree; echo '#include "../archive/a.h"' >> "$t/src/cli/m.c"; expect 1 "a ../ include"
tree; echo '#include "h.h"' >> "$t/src/crypto/g.c"; expect 1 "a bare name from another folder"
tree; : > "$t/src/loose.c"; expect 1 "a file in no layer"
[ "$fail" -eq 0 ] && echo "layers selftest: 6 trees, each judged right"
exit "$fail"
