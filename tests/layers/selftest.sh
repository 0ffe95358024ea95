#!/bin/sh
# tests/layers/selftest.sh -- the layer check can fail: on a small tree
# of its own (in a temp directory) it must pass the clean tree and fail
# each planted include: upward, sideways between the rank-3 siblings,
# through "../", to a bare name from another folder, one that points
# down but that the folder's README does not allow, and a layer whose
# README says nothing of what it may include, and a file its layer's
# README does not name.
set -u
check=$(dirname "$0")/check.sh
t=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-layers.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT INT TERM
fail=0

# readme LAYER TEXT: the layer's README, with its "May include:" line.
readme() {
	printf '# %s/\n\nWhat it holds.\nMay include: %s\n' "$1" "$2" > "$t/src/$1/README.md"
}

# named LAYER STEM...: the layer's README names these rooms.
named() {
	l=$1; shift
	for m in "$@"; do printf -- '- `%s`\n' "$m" >> "$t/src/$l/README.md"; done
}

tree() {
	rm -rf "$t/src"
	mkdir -p "$t/src/common" "$t/src/crypto" "$t/src/container" \
	    "$t/src/pipeline" "$t/src/archive" "$t/src/disk" "$t/src/cli"
	readme common 'nothing of the project but `config.h`.'
	readme crypto '`common/`.'
	readme container '`common/`, `crypto/`.'
	readme pipeline '`common/`, `crypto/`, `container/`. Not `archive/`.'
	readme archive '`common/`. Not `pipeline/` (a sibling).'
	readme disk '`common/`, `archive/`.'
	readme cli 'every layer below.'
	echo '#include "config.h"' > "$t/src/common/e.h"
	printf '#include "common/e.h"\n#include "g.h"\n' > "$t/src/crypto/g.c"
	: > "$t/src/crypto/g.h"
	printf '#include "crypto/g.h"\n' > "$t/src/container/h.c"
	printf '#include "container/h.h"\n' > "$t/src/pipeline/p.c"
	: > "$t/src/container/h.h"
	printf '#include "common/e.h"\n' > "$t/src/archive/a.c"
	: > "$t/src/archive/a.h"
	printf '#include "archive/a.h"\n' > "$t/src/disk/w.c"
	: > "$t/src/disk/w.h"
	printf '#include "pipeline/p.h"\n#include "disk/w.h"\n' > "$t/src/cli/m.c"
	: > "$t/src/pipeline/p.h"
	# cli/ reaches past aescrypt.h, listed
	printf -- '- `m.c`: `pipeline/p.h`. For the test.\n' >> "$t/src/cli/README.md"
	# each README names its rooms
	for d in "$t"/src/*/; do
		for f in "$d"*.c "$d"*.h; do
			[ -e "$f" ] || continue
			m=${f##*/}
			printf -- '- `%s`\n' "${m%.*}" >> "$d/README.md"
		done
	done
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
tree; : > "$t/src/disk/unnamed.c"; expect 1 "a file its layer's README does not name"
tree; echo '#include "crypto/g.h"' >> "$t/src/disk/w.c"; expect 1 "a downward include the README does not allow"
tree; echo '#include "common/e.h"' >> "$t/src/disk/w.c"; expect 0 "a downward include the README allows"
tree; sed -i 's/^May include:.*/Includes what it likes./' "$t/src/disk/README.md"; expect 1 "a README that does not say"
tree; readme disk '`common/`, `archive/`, `cli/`.'; named disk w
echo '#include "cli/m.h"' >> "$t/src/disk/w.c"; : > "$t/src/cli/m.h"
expect 1 "an upward include a README allows"
tree; printf '#include "y.h"\n' > "$t/src/cli/x.c"; : > "$t/src/cli/x.h"
printf '#include "x.h"\n' > "$t/src/cli/y.c"; : > "$t/src/cli/y.h"; named cli x y
expect 1 "two files of a layer that use each other"
tree; printf '#include "y.h"\n' > "$t/src/cli/x.c"; : > "$t/src/cli/x.h"
printf '#include "y.h"\n' > "$t/src/cli/y.c"; : > "$t/src/cli/y.h"; named cli x y
expect 0 "one file that uses another, and itself"
tree; echo '#include "aescrypt.h"' >> "$t/src/disk/w.c"; expect 1 "the public header below lib/"
tree; echo '#include "aescrypt.h"' >> "$t/src/cli/m.c"; expect 1 "the public header where the README does not allow it"
tree; readme cli 'every layer below, and `aescrypt.h`.'; named cli m
printf -- '- `m.c`: `pipeline/p.h`. For the test.\n' >> "$t/src/cli/README.md"
echo '#include "aescrypt.h"' >> "$t/src/cli/m.c"; expect 0 "the public header where the README allows it"
tree; sed -i '/^- `m.c`: /d' "$t/src/cli/README.md"; expect 1 "an include past aescrypt.h that is not listed"
tree; sed -i 's|^- `m.c`: `pipeline/p.h`.|- `m.c`: `pipeline/p.h`, `crypto/g.h`.|' "$t/src/cli/README.md"; expect 1 "a listed include past aescrypt.h that is gone"
tree; export LAYERS_PAST_MAX=0; expect 1 "more files past aescrypt.h than allowed"; unset LAYERS_PAST_MAX
[ "$fail" -eq 0 ] && echo "layers selftest: 19 trees, each judged right"
exit "$fail"
