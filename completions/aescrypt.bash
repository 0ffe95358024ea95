# bash completion for aescrypt                         -*- shell-script -*-
#
# Completes modes and options, file names for options that take a file,
# sizes and counts for the KDF and chunk options, and, after -d, files
# ending in .aes.

_aescrypt() {
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion || return
	else
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	fi

	case $prev in
	-o|--output|-k|--key-file|--passphrase-file|--gen-key)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--passphrase-fd)
		COMPREPLY=($(compgen -W '0 3 4 5 6 7 8 9' -- "$cur"))
		return
		;;
	--chunk-size)
		COMPREPLY=($(compgen -W '64K 128K 256K 512K 1M 2M 4M' -- "$cur"))
		return
		;;
	--kdf-memory|--max-kdf-memory)
		COMPREPLY=($(compgen -W '64M 128M 256M 512M 1G 2G 4G' -- "$cur"))
		return
		;;
	--kdf-time)
		COMPREPLY=($(compgen -W '1 2 3 4 5 6 7 8 9 10' -- "$cur"))
		return
		;;
	--kdf-parallelism)
		COMPREPLY=($(compgen -W '1 2 4 8 16' -- "$cur"))
		return
		;;
	-j|--threads)
		COMPREPLY=($(compgen -W "$(seq 1 "$(nproc 2>/dev/null || echo 4)")" -- "$cur"))
		return
		;;
	--benchmark-time)
		COMPREPLY=($(compgen -W '1 5 10 30 60' -- "$cur"))
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-e --encrypt -d --decrypt --gen-key
		    -o --output -k --key-file -P --passphrase --passphrase-file
		    --passphrase-fd -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 --chunk-size
		    --kdf-memory --kdf-time --kdf-parallelism --max-kdf-memory
		    -j --threads --stats --stats=json --no-hw --benchmark
		    --benchmark-time -h --help -V --version' -- "$cur"))
		return
	fi

	# An operand: after -d, containers; otherwise any file.
	local w
	for w in "${words[@]:1:cword-1}"; do
		case $w in
		-d|--decrypt)
			COMPREPLY=($(compgen -f -X '!*.aes' -- "$cur")
			    $(compgen -d -- "$cur"))
			return
			;;
		esac
	done
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _aescrypt aescrypt
