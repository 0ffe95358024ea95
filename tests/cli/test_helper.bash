# test_helper.bash -- shared setup for the aescrypt bats suite.
#
# Each test gets a private temp dir in $T (and runs inside it), and
# run_aescrypt EXPECTED-RC ARGS... runs the binary under test, failing the
# test with the full output when the exit code differs.

: "${AESCRYPT:=$BATS_TEST_DIRNAME/../../aescrypt}"

setup() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/aescrypt-test.XXXXXX")
	cd "$T" || return 1
}

teardown() {
	cd / && rm -rf "$T"
}

# run_aescrypt RC ARGS...: run aescrypt, check its exit status is RC.
# $output and $status are set as by bats' run.
run_aescrypt() {
	local want=$1
	shift
	run "$AESCRYPT" "$@"
	if [ "$status" -ne "$want" ]; then
		echo "aescrypt $*: exit $status, expected $want" >&2
		echo "output: $output" >&2
		return 1
	fi
}

# assert_match REGEX: $output must match.
assert_match() {
	if ! [[ $output =~ $1 ]]; then
		echo "output does not match /$1/:" >&2
		echo "$output" >&2
		return 1
	fi
}
