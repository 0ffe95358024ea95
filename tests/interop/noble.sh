#!/bin/sh
# noble.sh DRIVER -- the ML-KEM-768 and X-Wing cross-check against
# @noble/post-quantum (noble_pq.mjs).  The module is a test-only
# dependency: .ci/run and the README's install step put it in
# build/noble with
#     npm install --prefix build/noble @noble/post-quantum@0.7.1
# Without node or the module the check is skipped with a banner, unless
# AE_REQUIRE_NOBLE=1 (CI), where a skip is a failure.  Its scale comes
# from AE_TEST_SCALE, as every long campaign's: 1,000 seeds (quick, make
# check) or 10,000 (full, make check-long).
set -u
driver=$1
dir=${NOBLE_DIR:-build/noble}
case ${AE_TEST_SCALE:-quick} in
quick) count=1000 ;;
full) count=10000 ;;
*) echo "noble: AE_TEST_SCALE must be quick or full" >&2; exit 2 ;;
esac
here=$(dirname "$0")

why=
if ! command -v node >/dev/null 2>&1; then
	why="node is not installed (apt-get install nodejs)"
elif [ ! -f "$dir/node_modules/@noble/post-quantum/ml-kem.js" ]; then
	why="@noble/post-quantum is not in $dir (npm install --prefix $dir @noble/post-quantum@0.7.1)"
fi
if [ -n "$why" ]; then
	echo "########################################################################"
	echo "## noble: SKIPPED: the ML-KEM/X-Wing cross-check did not run:"
	echo "##   $why"
	echo "########################################################################"
	if [ "${AE_REQUIRE_NOBLE:-0}" = 1 ]; then
		echo "noble: AE_REQUIRE_NOBLE=1, so a skip fails" >&2
		exit 1
	fi
	exit 0
fi
exec node "$here/noble_pq.mjs" "$(cd "$dir" && pwd)" "$driver" "$count"
