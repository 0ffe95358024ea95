#!/bin/sh
# run.sh DIR -- the constant-time check and its negative control.
#
# Passes only if ctgrind runs clean under valgrind memcheck AND the
# deliberately leaky ct_negative is flagged, proving the check can fail.
set -u
dir=$1
if ! command -v valgrind >/dev/null 2>&1; then
	echo "ct: error: valgrind is not installed (apt-get install valgrind)" >&2
	exit 1
fi
vg="valgrind -q --error-exitcode=42 --track-origins=yes"
status=0

echo "ct: seal/open with secret key, plaintext and H marked undefined"
if $vg "$dir/ctgrind"; then
	echo "ct: ctgrind: no secret-dependent branch or address (pass)"
	pass=1; fail=0
else
	echo "ct: ctgrind: valgrind reported secret-dependent behaviour (FAIL)" >&2
	pass=0; fail=1; status=1
fi

echo "ct: negative control: a secret-indexed table lookup must be caught"
$vg "$dir/ct_negative" >/dev/null 2>"$dir/negative.log"
rc=$?
if [ "$rc" -eq 42 ] && grep -q "uninitialised" "$dir/negative.log"; then
	echo "ct: negative control flagged, as it must be (pass)"
	pass=$((pass + 1))
else
	echo "ct: negative control NOT flagged (rc $rc): the check is blind (FAIL)" >&2
	cat "$dir/negative.log" >&2
	fail=$((fail + 1)); status=1
fi
echo "ct: $pass passed, $fail failed"
exit $status
