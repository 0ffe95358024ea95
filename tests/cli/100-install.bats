#!/usr/bin/env bats
# make install and make uninstall, into a DESTDIR: the binary, the man
# page and the three completions, each where its consumer looks.

load test_helper

ROOT=$BATS_TEST_DIRNAME/../..

@test "make install puts everything under DESTDIR and PREFIX; uninstall removes it" {
	[ -f "$ROOT/Makefile" ] || skip "not configured"
	make -s -C "$ROOT" install DESTDIR="$T/stage" PREFIX=/opt/ae > /dev/null
	local f
	for f in bin/aescrypt share/man/man1/aescrypt.1 \
	    share/bash-completion/completions/aescrypt \
	    share/zsh/site-functions/_aescrypt \
	    share/fish/vendor_completions.d/aescrypt.fish; do
		[ -f "$T/stage/opt/ae/$f" ] || {
			echo "missing: $f" >&2
			return 1
		}
	done
	[ "$(stat -c %a "$T/stage/opt/ae/bin/aescrypt")" = 755 ]
	[ "$(stat -c %a "$T/stage/opt/ae/share/man/man1/aescrypt.1")" = 644 ]
	"$T/stage/opt/ae/bin/aescrypt" --version | grep -q '^aescrypt '
	if command -v man > /dev/null; then
		MANWIDTH=80 man -l "$T/stage/opt/ae/share/man/man1/aescrypt.1" 2> /dev/null |
		    grep -q 'encrypted, compressed archives'
	fi
	make -s -C "$ROOT" uninstall DESTDIR="$T/stage" PREFIX=/opt/ae > /dev/null
	[ -z "$(find "$T/stage" -type f)" ]
}
