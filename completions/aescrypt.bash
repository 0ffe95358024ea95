# bash completion for aescrypt                         -*- shell-script -*-
#
# Completes modes and options, file names for options that take a file,
# directories for -C, sizes and counts for the KDF and chunk options,
# .aes files after -d and for -f with -t or -x, and paths after -c.

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

	# The mode, wherever it was given.
	local w mode=
	for w in "${words[@]:1:cword-1}"; do
		case $w in
		-c|--create) mode=c ;;
		-t|--list) mode=t ;;
		-x|--extract) mode=x ;;
		-d|--decrypt) mode=d ;;
		-e|--encrypt) mode=e ;;
		--test|--info|--info=json) mode=i ;;
		--mount) mode=x ;;
		-[!-]*)
			# bundled short options, as in -xvf
			case $w in
			--*) ;;
			*c*) mode=c ;; *t*) mode=t ;; *x*) mode=x ;;
			esac
			;;
		esac
	done

	case $prev in
	-f|--file|-[!-]*f)
		if [[ $mode == [txi] ]]; then
			COMPREPLY=($(compgen -f -X '!*.aes' -- "$cur")
			    $(compgen -d -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return
		;;
	-C|--directory|--mount)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-o|--output|-k|--key-file|--passphrase-file|--gen-key|-T|--files-from|-R|--recipients-file|-i|--identity|--gen-identity|-X|--exclude-from|-N|--newer|--after-date|--newer-mtime|-g|--listed-incremental|--checksum|--sign|--sig-file|--signer)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--exclude|-r|--recipient|--exclude-tag|--exclude-tag-under|--exclude-tag-all)
		return
		;;
	--strip-components)
		COMPREPLY=($(compgen -W '1 2 3' -- "$cur"))
		return
		;;
	--level)
		COMPREPLY=($(compgen -W '0' -- "$cur"))
		return
		;;
	--passphrase-fd)
		COMPREPLY=($(compgen -W '0 3 4 5 6 7 8 9' -- "$cur"))
		return
		;;
	--chunk-size)
		COMPREPLY=($(compgen -W '64K 128K 256K 512K 1M 2M 4M 8M' -- "$cur"))
		return
		;;
	--kdf-memory|--max-kdf-memory|--mount-cache)
		COMPREPLY=($(compgen -W '64M 128M 256M 512M 1G 2G 4G' -- "$cur"))
		return
		;;
	--max-work-factor)
		COMPREPLY=($(compgen -W '18 20 22 24 26' -- "$cur"))
		return
		;;
	--plugin-timeout)
		COMPREPLY=($(compgen -W '30 60 120 300' -- "$cur"))
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
	--deflate)
		COMPREPLY=($(compgen -W 'libdeflate zlib' -- "$cur"))
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-c --create -t --list -x --extract
		    -e --encrypt -d --decrypt --test --info --info=json
		    --mount --foreground --levels --mount-cache --allow-other
		    --gen-key -f --file -C --directory -O --to-stdout
		    --strip-components --max-size --wildcards -z --gzip
		    --xattrs --no-xattrs --xattrs-include --xattrs-exclude
		    --acls --no-acls
		    -r --recipient -R --recipients-file -i --identity --gen-identity --pq
		    --salvage --no-index --no-chain-check --checksum --sign --sig-file --signer --totals
		    -v --verbose --dereference --exclude -T --files-from --null
		    -X --exclude-from --exclude-vcs --exclude-caches
		    --exclude-caches-under --exclude-caches-all --exclude-tag
		    --exclude-tag-under --exclude-tag-all --one-file-system
		    -N --newer --after-date --newer-mtime -g --listed-incremental
		    --level
		    --keep-old-files -p --preserve-permissions --same-owner
		    --skip-old-files --keep-newer-files --overwrite -U
		    --unlink-first --overwrite-dir --no-overwrite-dir
		    --no-devices --no-same-owner
		    --same-permissions --no-same-permissions
		    -o --output -k --key-file -P --passphrase --passphrase-file
		    --passphrase-fd -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 --chunk-size
		    --kdf-memory --kdf-time --kdf-parallelism --max-kdf-memory
		    --max-work-factor --plugin-timeout
		    -j --threads --stats --stats=json --no-hw --deflate --zstd --benchmark --benchmark=json --benchmark=csv --benchmark=all
		    -q --quiet --progress
		    --benchmark-time -h --help --help=all -V --version' -- "$cur"))
		return
	fi

	# An operand: after -d, containers; after -t/-x, member names (not
	# known without the key, so nothing); otherwise any file.
	case $mode in
	d|i)
		COMPREPLY=($(compgen -f -X '!*.aes' -- "$cur")
		    $(compgen -d -- "$cur"))
		;;
	t|x)
		COMPREPLY=()
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}
complete -F _aescrypt aescrypt
