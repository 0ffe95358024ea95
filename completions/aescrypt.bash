# bash completion for aescrypt
_aescrypt() {
	local cur=${COMP_WORDS[COMP_CWORD]}
	COMPREPLY=($(compgen -W '--help --version --no-hw -h -V' -- "$cur"))
}
complete -F _aescrypt aescrypt
