# fish completion for aescrypt
#
# Modes and options with descriptions; files for -f, -k, -T and the key
# options; directories for -C; levels, thread counts, sizes and costs;
# .aes files for -f with -t or -x and for the operand of -d; any path as
# an operand of -c and -e.

# The mode given so far: c, t, x, e, d, or nothing.
function __aescrypt_mode
    for t in (commandline -opc)[2..-1]
        switch $t
            case -c --create
                echo c; return
            case -t --list
                echo t; return
            case -x --extract
                echo x; return
            case -e --encrypt
                echo e; return
            case -d --decrypt
                echo d; return
            case --test --info --info=json
                echo i; return
            case --mount
                echo x; return
            case '--*'
            case '-*c*'
                echo c; return
            case '-*t*'
                echo t; return
            case '-*x*'
                echo x; return
        end
    end
end

function __aescrypt_mode_in
    contains -- (__aescrypt_mode) $argv
end

function __aescrypt_no_mode
    test -z (__aescrypt_mode)
end

# Directories (to descend into) and files ending in .aes.
function __aescrypt_aes_files
    set -l cur (commandline -ct)
    for f in $cur*
        if test -d $f
            echo $f/
        else if string match -q -- '*.aes' $f
            echo $f
        end
    end
end

complete -c aescrypt -f

# modes
complete -c aescrypt -n __aescrypt_no_mode -s c -l create -d 'Create an archive of paths'
complete -c aescrypt -n __aescrypt_no_mode -s t -l list -d 'List an archive'
complete -c aescrypt -n __aescrypt_no_mode -s x -l extract -d 'Extract an archive'
complete -c aescrypt -n __aescrypt_no_mode -s e -l encrypt -d 'Encrypt a stream'
complete -c aescrypt -n __aescrypt_no_mode -s d -l decrypt -d 'Decrypt a stream'
complete -c aescrypt -n __aescrypt_no_mode -l test -d 'Authenticate a whole file, write nothing'
complete -c aescrypt -n __aescrypt_no_mode -l info -d 'Describe a file header, no key needed'
complete -c aescrypt -n __aescrypt_no_mode -l info=json -d 'The header as JSON'
complete -c aescrypt -n __aescrypt_no_mode -l mount -x -a '(__fish_complete_directories)' -d 'Mount an archive read-only on DIR (FUSE)'
complete -c aescrypt -l foreground -d 'With --mount: stay attached'
complete -c aescrypt -l levels -d 'With --mount: each level alone under .aescrypt-levels'
complete -c aescrypt -l mount-cache -x -a '0 16M 64M 256M 1G' -d 'With --mount: plaintext cache'
complete -c aescrypt -l allow-other -d 'With --mount: let other users in'
complete -c aescrypt -n __aescrypt_no_mode -l gen-key -r -F -d 'Make a key file'
complete -c aescrypt -n __aescrypt_no_mode -l benchmark -d 'Measure this machine, in memory'
complete -c aescrypt -n __aescrypt_no_mode -l benchmark=json -d 'The benchmark as JSON'
complete -c aescrypt -n __aescrypt_no_mode -l benchmark=csv -d 'The benchmark as CSV'
complete -c aescrypt -n __aescrypt_no_mode -l benchmark=all -d 'Every level, engine and tier'

# archives
complete -c aescrypt -n '__aescrypt_mode_in t x i' -s f -l file -x -a '(__aescrypt_aes_files)' -d 'Archive to read'
complete -c aescrypt -n '__aescrypt_mode_in c' -s f -l file -r -F -d 'Archive to write'
complete -c aescrypt -n '__aescrypt_mode_in c x' -s C -l directory -x -a '(__fish_complete_directories)' -d 'Paths relative to / extract into DIR'
complete -c aescrypt -n '__aescrypt_mode_in c t x d' -s v -l verbose -d 'List members as they go'
complete -c aescrypt -n '__aescrypt_mode_in c' -s h -l dereference -d 'Archive what symlinks point to'
complete -c aescrypt -n '__aescrypt_mode_in c t x' -l exclude -x -d 'Leave out what matches a pattern'
complete -c aescrypt -n '__aescrypt_mode_in c t x' -s X -l exclude-from -r -F -d 'Leave out what matches the patterns in a file'
complete -c aescrypt -n '__aescrypt_mode_in c t x' -l exclude-vcs -d 'Leave out version control files (.git, CVS, ...)'
complete -c aescrypt -n '__aescrypt_mode_in c' -l exclude-caches -d 'Of a CACHEDIR.TAG directory, the tag alone'
complete -c aescrypt -n '__aescrypt_mode_in c' -l exclude-caches-under -d 'Of a CACHEDIR.TAG directory, the directory alone'
complete -c aescrypt -n '__aescrypt_mode_in c' -l exclude-caches-all -d 'Leave out CACHEDIR.TAG directories'
complete -c aescrypt -n '__aescrypt_mode_in c' -l exclude-tag -x -d 'Of a directory holding FILE, FILE alone'
complete -c aescrypt -n '__aescrypt_mode_in c' -l exclude-tag-under -x -d 'Of a directory holding FILE, the directory alone'
complete -c aescrypt -n '__aescrypt_mode_in c' -l exclude-tag-all -x -d 'Leave out directories holding FILE'
complete -c aescrypt -n '__aescrypt_mode_in c' -l one-file-system -d "Stay on each operand's file system"
complete -c aescrypt -n '__aescrypt_mode_in c' -s N -l newer -r -F -d "Files changed after a date (or a file's mtime)"
complete -c aescrypt -n '__aescrypt_mode_in c' -l after-date -r -F -d "Files changed after a date (or a file's mtime)"
complete -c aescrypt -n '__aescrypt_mode_in c' -l newer-mtime -r -F -d 'Files modified after a date'
complete -c aescrypt -n '__aescrypt_mode_in c t x' -s g -l listed-incremental -r -F -d 'Incremental backup with a GNU tar snapshot file'
complete -c aescrypt -n '__aescrypt_mode_in c' -l level -x -a 0 -d 'With -g: a full dump'
complete -c aescrypt -n '__aescrypt_mode_in c t x' -s T -l files-from -r -F -d 'Paths (-c) or patterns (-t, -x) from a file'
complete -c aescrypt -n '__aescrypt_mode_in c t x' -l null -d 'The -T list is NUL-separated'
complete -c aescrypt -n '__aescrypt_mode_in x' -s O -l to-stdout -d 'Write member data to standard output'
complete -c aescrypt -n '__aescrypt_mode_in x' -l strip-components -x -a '1 2 3' -d 'Drop leading parts of names'
complete -c aescrypt -n '__aescrypt_mode_in x d' -l max-size -x -d 'Skip members larger (-O: stop; -d: AES Crypt copy limit)'
complete -c aescrypt -n '__aescrypt_mode_in t x' -l wildcards -d 'Accepted: patterns are always on'
complete -c aescrypt -n '__aescrypt_mode_in c e' -s z -l gzip -d 'DEFLATE, the default'
complete -c aescrypt -n '__aescrypt_mode_in c x' -l xattrs -d 'Keep extended attributes (not system.*)'
complete -c aescrypt -n '__aescrypt_mode_in c x' -l no-xattrs -d 'Leave extended attributes out (the default)'
complete -c aescrypt -n '__aescrypt_mode_in c x' -l xattrs-include -x -a 'user.\* trusted.\* security.\*' -d 'Attributes that travel (a shell pattern)'
complete -c aescrypt -n '__aescrypt_mode_in c x' -l xattrs-exclude -x -d 'Attributes that do not travel'
complete -c aescrypt -n '__aescrypt_mode_in c x' -l acls -d 'Keep POSIX ACLs'
complete -c aescrypt -n '__aescrypt_mode_in c x' -l no-acls -d 'Leave POSIX ACLs out (the default)'
complete -c aescrypt -n '__aescrypt_mode_in x' -l keep-old-files -d 'Do not replace existing files'
complete -c aescrypt -n '__aescrypt_mode_in x' -l skip-old-files -d 'Do not replace existing files, quietly'
complete -c aescrypt -n '__aescrypt_mode_in x' -l keep-newer-files -d 'Keep existing files as new or newer'
complete -c aescrypt -n '__aescrypt_mode_in x' -l overwrite -d 'Replace existing files (the default)'
complete -c aescrypt -n '__aescrypt_mode_in x' -s U -l unlink-first -d 'Replace existing files (the default)'
complete -c aescrypt -n '__aescrypt_mode_in x' -l overwrite-dir -d "Replace directories' metadata (the default)"
complete -c aescrypt -n '__aescrypt_mode_in x' -l no-overwrite-dir -d "Keep existing directories' metadata"
complete -c aescrypt -n '__aescrypt_mode_in x' -l no-devices -d 'Make no device nodes'
complete -c aescrypt -n '__aescrypt_mode_in x' -s p -l preserve-permissions -d 'Exact modes, setuid included'
complete -c aescrypt -n '__aescrypt_mode_in x' -l same-owner -d 'Restore owners (root only; its default)'
complete -c aescrypt -n '__aescrypt_mode_in x' -l no-same-owner -d 'As root: files belong to root, no devices'
complete -c aescrypt -n '__aescrypt_mode_in x' -l same-permissions -d 'Exact modes (the default for root)'
complete -c aescrypt -n '__aescrypt_mode_in x' -l no-same-permissions -d 'Umask, no setuid (the default for users)'

# streams
complete -c aescrypt -n '__aescrypt_mode_in e d' -s o -l output -r -F -d 'Output file'

# keys
complete -c aescrypt -n '__aescrypt_mode_in c e' -s r -l recipient -x -d 'Encrypt to a public key (age1..., ssh-ed25519, ssh-rsa)'
complete -c aescrypt -n '__aescrypt_mode_in c e' -s R -l recipients-file -r -F -d 'Recipients from a file'
complete -c aescrypt -l totals -d 'Say the bytes written or read when done; -c -g: files new and changed'
complete -c aescrypt -n '__aescrypt_mode_in c e' -l checksum -r -F -d 'Append the SHA-256 of the output to FILE, as sha256sum'
complete -c aescrypt -n '__aescrypt_mode_in c e' -l sign -r -F -d 'Sign with an ssh-ed25519 key (or .pub in ssh-agent)'
complete -c aescrypt -n '__aescrypt_mode_in d t x i' -l signer -r -F -d 'Fail unless signed by a key FILE allows (allowed_signers)'
complete -c aescrypt -n '__aescrypt_mode_in c e' -l sig-file -r -F -d 'Write an OpenSSH signature of the output to FILE'
complete -c aescrypt -n '__aescrypt_mode_in d t x i' -s i -l identity -r -F -d 'A private key (age identity, OpenSSH)'
complete -c aescrypt -n __aescrypt_no_mode -l gen-identity -r -F -d 'Make a key pair in age format'
complete -c aescrypt -l pq -d 'With --gen-identity: a post-quantum key pair'
complete -c aescrypt -s k -l key-file -r -F -d 'Use a key file'
complete -c aescrypt -s P -l passphrase -d 'Also use a passphrase with -k'
complete -c aescrypt -l passphrase-file -r -F -d 'Read the passphrase from a file'
complete -c aescrypt -l passphrase-fd -x -a '0 3 4 5 6 7 8 9' -d 'Read the passphrase from a descriptor'

# encryption
for level in 0 1 2 3 4 5 6 7 8 9
    complete -c aescrypt -n '__aescrypt_mode_in c e' -s $level -d "Compression level $level"
end
complete -c aescrypt -l chunk-size -x -a '64K 128K 256K 512K 1M 2M 4M 8M' -d 'Chunk size (8M with --zstd)'
complete -c aescrypt -n '__aescrypt_mode_in c e' -l kdf-memory -x -a '64M 128M 256M 512M 1G 2G 4G' -d 'Argon2id memory'
complete -c aescrypt -n '__aescrypt_mode_in c e' -l kdf-time -x -a '1 2 3 4 5 6 7 8 9 10' -d 'Argon2id passes'
complete -c aescrypt -n '__aescrypt_mode_in c e' -l kdf-parallelism -x -a '1 2 4 8 16' -d 'Argon2id lanes'
complete -c aescrypt -n '__aescrypt_mode_in x d t' -l salvage -d 'Go on past damaged chunks, keep what is whole'
complete -c aescrypt -n '__aescrypt_mode_in c t x' -l no-index -d 'c: write no index; t, x: read the whole archive'
complete -c aescrypt -n '__aescrypt_mode_in t x' -l no-chain-check -d 'several -g dumps read as given, not checked as one chain'
complete -c aescrypt -n '__aescrypt_mode_in t x d' -l max-kdf-memory -x -a '1G 2G 4G 8G' -d 'Refuse files whose KDF needs more'
complete -c aescrypt -n '__aescrypt_mode_in t x d' -l max-work-factor -x -a '18 20 22 24 26' -d 'age files: refuse an scrypt work factor over this'
complete -c aescrypt -n '__aescrypt_mode_in t x d' -l plugin-timeout -x -a '30 60 120 300' -d 'age plugins: seconds one may say nothing'

# performance and other
complete -c aescrypt -s j -l threads -x -a '(seq 1 (nproc))' -d 'Worker threads'
complete -c aescrypt -l stats -d 'Print where the time went'
complete -c aescrypt -l stats=json -d 'The same, as JSON'
complete -c aescrypt -l no-hw -d 'Use the portable constant-time cipher'
complete -c aescrypt -l deflate -x -a 'libdeflate zlib' -d 'The DEFLATE engine'
complete -c aescrypt -n '__aescrypt_mode_in c e' -l zstd -d 'Compress with zstd (8 MiB chunks)'
complete -c aescrypt -s q -l quiet -d 'No progress line'
complete -c aescrypt -l progress -d 'A progress line even off a terminal'
complete -c aescrypt -l benchmark-time -x -a '1 5 10 30 60' -d 'Seconds for --benchmark'
complete -c aescrypt -l help -d 'Show the help'
complete -c aescrypt -l help=all -d 'Show every option'
complete -c aescrypt -s V -l version -d 'Show version, cipher tiers, libraries'

# operands
complete -c aescrypt -n '__aescrypt_mode_in d i' -a '(__aescrypt_aes_files)'
complete -c aescrypt -n '__aescrypt_mode_in c e' -F
