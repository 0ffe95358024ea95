#!/usr/bin/env bats
# The bash completion: what compgen offers for a few command lines.

load test_helper

# complete_words WORD...: run _aescrypt as bash would for the command
# line "aescrypt WORD..." (the last word is the one being completed) and
# put the candidates, sorted, one per line, in $output.
complete_words() {
	source "$BATS_TEST_DIRNAME/../../completions/aescrypt.bash"
	COMP_WORDS=(aescrypt "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_aescrypt
	output=$(printf '%s\n' "${COMPREPLY[@]}" | sort)
}

@test "completes long options from a prefix" {
	complete_words --pass
	[ "$output" = $'--passphrase\n--passphrase-fd\n--passphrase-file' ]
}

@test "completes the modes" {
	complete_words --en
	[ "$output" = --encrypt ]
	complete_words --gen
	[ "$output" = $'--gen-identity\n--gen-key' ]
}

@test "offers chunk sizes and KDF costs" {
	complete_words -e --chunk-size 2
	[ "$output" = $'256K\n2M' ]
	complete_words -e --kdf-time ""
	[ "$(echo "$output" | wc -l)" -eq 10 ]
}

@test "after -d, offers .aes files and directories, not other files" {
	touch a.aes b.txt
	mkdir sub
	complete_words -d ""
	[ "$output" = $'a.aes\nsub' ]
}

@test "after -e, and for -k, offers any file" {
	touch a.aes b.txt
	complete_words -e ""
	[ "$output" = $'a.aes\nb.txt' ]
	complete_words -d -k b
	[ "$output" = b.txt ]
}

@test "every option in --help is offered by the completion" {
	run_aescrypt 0 --help=all
	local opt
	for opt in $(grep -oE -- '--[a-z][a-z-]+' <<< "$output" | sort -u); do
		complete_words "$opt"
		[[ $'\n'"$output"$'\n' == *$'\n'"$opt"$'\n'* ]] || {
			echo "--help lists $opt but the completion does not offer it" >&2
			return 1
		}
	done
}

@test "for -f after -x or -t, offers .aes files; after -c, any file" {
	touch a.aes b.txt
	mkdir sub
	complete_words -x -f ""
	[ "$output" = $'a.aes\nsub' ]
	complete_words -tvf ""
	[ "$output" = $'a.aes\nsub' ]
	complete_words -c -f ""
	[ "$output" = $'a.aes\nb.txt\nsub' ]
}

@test "-C offers directories only; -c operands are any path" {
	touch a.aes b.txt
	mkdir sub
	complete_words -x -C ""
	[ "$output" = sub ]
	complete_words -c -f out.aes ""
	[ "$output" = $'a.aes\nb.txt\nsub' ]
}

@test "completes the archive modes" {
	complete_words --ext
	[ "$output" = --extract ]
	complete_words --exclude-c
	[ "$output" = $'--exclude-caches\n--exclude-caches-all\n--exclude-caches-under' ]
	complete_words --cr
	[ "$output" = --create ]
}

# ---- fish and zsh ----

# fish_complete LINE: what fish offers for the command line LINE (the
# candidates only, sorted, one per line).
fish_complete() {
	output=$(fish -c "source '$BATS_TEST_DIRNAME/../../completions/aescrypt.fish'; complete -C '$1'" |
	    cut -f1 | sort)
}

@test "fish: modes, options by mode, and option values" {
	command -v fish > /dev/null || skip "fish is not installed"
	fish -n "$BATS_TEST_DIRNAME/../../completions/aescrypt.fish"
	fish_complete "aescrypt --ex"
	[ "$output" = --extract ]
	fish_complete "aescrypt -c --exclude-t"
	[ "$output" = $'--exclude-tag\n--exclude-tag-all\n--exclude-tag-under' ]
	# -c's selection options are not offered to -x
	fish_complete "aescrypt -x --exclude-"
	[ "$output" = $'--exclude-from\n--exclude-vcs' ]
	fish_complete "aescrypt -e --chunk-size 2"
	[ "$output" = $'256K\n2M' ]
	fish_complete "aescrypt --pass"
	[ "$output" = $'--passphrase\n--passphrase-fd\n--passphrase-file' ]
}

@test "fish: .aes files for -f after -x and -t and after -d; directories for -C" {
	command -v fish > /dev/null || skip "fish is not installed"
	touch a.aes b.txt
	mkdir sub
	fish_complete "aescrypt -x -f "
	[ "$output" = $'a.aes\nsub/' ]
	fish_complete "aescrypt -tvf "
	[ "$output" = $'a.aes\nsub/' ]
	fish_complete "aescrypt -d "
	[ "$output" = $'a.aes\nsub/' ]
	fish_complete "aescrypt -x -C "
	[ "$output" = sub/ ]
	fish_complete "aescrypt -c "
	[ "$output" = $'a.aes\nb.txt\nsub/' ]
}

@test "fish and zsh: every option in --help is offered" {
	command -v fish > /dev/null || skip "fish is not installed"
	local f=$BATS_TEST_DIRNAME/../../completions
	run_aescrypt 0 --help=all
	local opt
	for opt in $(grep -oE -- '--[a-z][a-z-]+' <<< "$output" | sort -u); do
		grep -q -- "-l ${opt#--}\b" "$f/aescrypt.fish" || {
			echo "aescrypt.fish does not offer $opt" >&2
			return 1
		}
		grep -q -- "$opt" "$f/_aescrypt" || {
			echo "_aescrypt does not offer $opt" >&2
			return 1
		}
	done
}

@test "zsh: the completion parses and compinit registers it for aescrypt" {
	command -v zsh > /dev/null || skip "zsh is not installed"
	local f=$BATS_TEST_DIRNAME/../../completions
	zsh -n "$f/_aescrypt"
	run zsh -f -c "fpath=('$f' \$fpath); autoload -U compinit; compinit -u -D; print -r -- \${_comps[aescrypt]}"
	[ "$output" = _aescrypt ]
}
