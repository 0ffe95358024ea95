#!/usr/bin/env bats
# The nightly backup a person runs (issue 36): a chain of -g levels that
# describes itself (--info shows each one's level and time; the global
# header of format 6.7), restored to any night with one command (-x
# with several -f), searched with one command (-t with several -f), and
# a note when an incremental archive is extracted without -g.

load test_helper

setup() {
	test_dir
	make_key key
}

# night N: change the tree as night N does, then dump it as LN.aes
# (and keep what the tree was, to compare a restore with)
night() {
	case $1 in
	1) echo new > home/docs/b ;;
	2) mv home/docs home/papers ;;          # a renamed directory
	3) rm home/papers/a ;;                  # a deletion
	4) echo c > home/c; ln -s c home/lc ;;
	5) echo v5 > home/papers/b ;;           # a change
	6) mkdir home/x; echo y > home/x/y; rm home/lc ;;
	7) rm -r home/x; echo late > home/late ;;
	esac
	run_aescrypt 0 -c -q -k key -g snap -f "L$1.aes" home
	mkdir -p "want$1" && cp -a home "want$1/"
	after_snapshot snap
}

@test "eight nights: each level says its level and time, restore to night 6 in one command, find a file's nights in one command" {
	mkdir -p home/docs
	echo v0 > home/docs/a
	for n in 0 1 2 3 4 5 6 7; do
		night $n
	done
	# each level describes itself, under the key; the chain links up
	for n in 0 1 2 3 4 5 6 7; do
		run_aescrypt 0 --info -k key "L$n.aes"
		assert_match "created: +20[0-9]{2}-[0-9]{2}-[0-9]{2} "
		if [ "$n" -eq 0 ]; then
			assert_match "dump: +level 0, a full listed-incremental dump"
		else
			assert_match "dump: +level $n, incremental"
		fi
		assert_match "members: +[0-9]+ \(from the index\)"
		"$AESCRYPT" --info=json -k key "L$n.aes" > "i$n.json"
	done
	/usr/bin/python3 - <<'PY'
import json
info = [json.load(open("i%d.json" % n)) for n in range(8)]
for n, i in enumerate(info):
    assert i["level"] == n, (n, i)
    assert i["members"] > 0 and i["size"] > 0, i
    if n:
        # each level continues the one before it (whole seconds here)
        assert i["continues"] == info[n - 1]["created"], (n, i)
        assert i["created"] >= info[n - 1]["created"]
    else:
        assert "continues" not in i
PY
	# without a key, --info shows no contents and no level
	run_aescrypt 0 --info L3.aes
	refute_match "level 3"
	# restore to night 6 in one command: deletions and the rename applied
	mkdir r6
	run_aescrypt 0 -x -q -g /dev/null -k key -f L0.aes -f L1.aes -f L2.aes \
	    -f L3.aes -f L4.aes -f L5.aes -f L6.aes -C r6
	[ "$(sig r6/home)" = "$(sig want6/home)" ]
	[ ! -e r6/home/docs ]
	[ ! -e r6/home/papers/a ]
	[ ! -e r6/home/lc ]
	[ "$(cat r6/home/papers/b)" = v5 ]
	# which nights hold a file: one command, each line names its archive
	run_aescrypt 0 -t -k key -f L0.aes -f L1.aes -f L2.aes -f L3.aes \
	    -f L4.aes -f L5.aes -f L6.aes -f L7.aes home/papers/b
	[ "$output" = "$(printf 'L2.aes: home/papers/b\nL5.aes: home/papers/b')" ]
	# a member that some archives lack is no error when one has it; one
	# that none has is, once, with the count
	run_aescrypt 1 -t -q -k key -f L0.aes -f L1.aes home/docs/b nothing/here
	grep -qx 'L1.aes: home/docs/b' <<< "$output"
	assert_match "error: nothing/here: not found in any of the 2 archives"
	[ "$(grep -c 'not found' <<< "$output")" -eq 1 ]
}

@test "an incremental archive extracted without -g says that deletions were not applied, once" {
	mkdir -p home/docs
	echo a > home/docs/a
	night 0
	rm home/docs/a
	run_aescrypt 0 -c -q -k key -g snap -f L1.aes home
	mkdir o
	run_aescrypt 0 -x -k key -f L0.aes -C o
	refute_match "note:"
	run_aescrypt 0 -x -k key -f L1.aes -C o
	assert_match "note: L1\.aes is a level 1 incremental archive: files deleted since the level before it are kept without -g; extract with -g /dev/null to remove them"
	[ "$(grep -c 'note:' <<< "$output")" -eq 1 ]
	[ -e o/home/docs/a ]
	run_aescrypt 0 -x -k key -g /dev/null -f L1.aes -C o
	refute_match "note:"
	[ ! -e o/home/docs/a ]
}

@test "the global header: GNU tar, bsdtar and tarfile read past it; the snapshot keeps the level, and GNU tar continues it" {
	mkdir -p home
	echo a > home/a
	run_aescrypt 0 -c -q -k key -g snap -f L0.aes home
	head -1 snap | grep -qx 'GNU tar-1.34 aescrypt level=0-2'
	"$AESCRYPT" -d -k key L0.aes > l0.tar
	[ "$(tar -tf l0.tar 2>&1)" = "$(printf 'home/\nhome/a')" ]
	[ "$(bsdtar -tf l0.tar 2>&1)" = "$(printf 'home/\nhome/a')" ]
	/usr/bin/python3 -c '
import tarfile, sys
t = tarfile.open("l0.tar")
assert t.getnames() == ["home", "home/a"], t.getnames()
assert t.pax_headers["AESCRYPT.level"] == "0", t.pax_headers
assert "AESCRYPT.created" in t.pax_headers'
	# GNU tar takes the snapshot with aescrypt's level in it
	after_snapshot snap
	echo b > home/b
	tar -cf l1.tar -g snap home
	[ "$(tar -tf l1.tar | LC_ALL=C sort | tr '\n' ' ')" = "home/ home/b " ]
	# and writes its own first line: the next aescrypt level is 1
	after_snapshot snap
	echo c > home/c
	run_aescrypt 0 -c -q -k key -g snap -f L2.aes home
	run_aescrypt 0 --info -k key L2.aes
	assert_match "dump: +level 1, incremental"
	# an archive with no member has no global header: the end blocks
	mkdir empty
	run_aescrypt 0 -c -q -k key --exclude empty -f e.aes empty
	[ "$("$AESCRYPT" -d -k key e.aes | wc -c)" -eq 1024 ]
	[ -z "$("$AESCRYPT" -d -k key e.aes | tr -d '\0')" ]
}

@test "several -f belong to -x and -t; -c takes one; a failing archive stops the run" {
	mkdir -p home
	echo a > home/a
	run_aescrypt 0 -c -q -k key -f a.aes home
	run_aescrypt 2 -c -q -k key -f b.aes -f c.aes home
	assert_match "error: -f may be given once with -c"
	assert_match "hint: -x, -t and --mount take several archives"
	[ ! -e b.aes ]
	[ ! -e c.aes ]
	# a failing archive stops the run, as commands joined by && would
	echo junk > bad.aes
	mkdir o
	run_aescrypt 4 -x -q -k key -f bad.aes -f a.aes -C o
	[ ! -e o/home ]
	# and it names the archives it did not read (issue 50)
	assert_match "error: not read: a.aes; the chain stops at bad.aes \(--salvage goes on past a damaged archive\)"
}

@test "what a nightly job meets: -q keeps the cache-tag and leading-/ warnings out of mail; -k before an option and an empty stdin get a hint" {
	mkdir -p home/cache
	printf 'Signature: 8a477f597d28d172789f06886806bc55' > home/cache/CACHEDIR.TAG
	echo a > home/a
	run_aescrypt 0 -c -q -k key --exclude-caches -f a.aes home
	[ -z "$output" ]
	run_aescrypt 0 -c -k key --exclude-caches -f b.aes home
	assert_match "warning: home/cache/: contains a cache directory tag CACHEDIR.TAG; contents not dumped"
	run_aescrypt 0 -c -q -k key -f c.aes "$T/home/a"
	[ -z "$output" ]
	run_aescrypt 0 -c -k key -f d.aes "$T/home/a"
	assert_match "removing leading '/' from member names"
	# the same members either way: -q changes what is said, not stored
	[ "$("$AESCRYPT" -t -k key -f a.aes)" = "$("$AESCRYPT" -t -k key -f b.aes)" ]
	# tar's -k is --keep-old-files: "-x -k -f a.aes" is refused
	mkdir o
	run_aescrypt 2 -x -k -f a.aes -C o
	assert_match "error: -k takes a key file, not the option '-f'"
	assert_match "hint: tar's -k \(keep old files\) is --keep-old-files here"
	[ -z "$(ls -A o)" ]
	# a forgotten -f in cron: the archive became a pattern, stdin is empty
	run bash -c "'$AESCRYPT' -t -k key a.aes < /dev/null"
	[ "$status" -eq 4 ]
	assert_match "error: standard input: input is empty"
	assert_match "hint: nothing came on standard input: missing -f\?"
}

@test "--checksum: sha256sum -c finds bit rot without a key; --info follows every frame without one" {
	mkdir -p home
	head -c 300000 /dev/urandom > home/r
	echo a > home/a
	run_aescrypt 0 -c -q -k key --checksum SUMS -f 'night 1.aes' home
	echo stream | "$AESCRYPT" -e -q -k key --checksum SUMS -o s.aes
	echo stream | "$AESCRYPT" -e -q -k key --checksum SUMS > piped.aes
	[ "$(wc -l < SUMS)" -eq 3 ]
	grep -q '  night 1\.aes$' SUMS
	grep -q '  s\.aes$' SUMS
	# standard output is named "-", the bytes hashed as they were written
	[ "$(sed -n 3p SUMS)" = "$(sha256sum < piped.aes | cut -d' ' -f1)  -" ]
	head -2 SUMS > two
	run sha256sum -c two
	[ "$status" -eq 0 ]
	# one flipped bit inside a record: the sum finds it; the frames hold,
	# so --info (no key) says whole, and --test (the key) finds it too
	cp 'night 1.aes' keep.aes
	flip_byte 'night 1.aes' 5000
	run sha256sum -c two
	[ "$status" -ne 0 ]
	assert_match "night 1.aes: FAILED"
	run_aescrypt 0 --info 'night 1.aes'
	assert_match "whole: +yes"
	run_aescrypt 4 --test -k key 'night 1.aes'
	# a name with a newline is escaped as sha256sum escapes it
	run_aescrypt 0 -c -q -k key --checksum S2 -f $'odd\nname.aes' home
	[ "$(head -c 1 S2)" = '\' ]
	run sha256sum -c S2
	[ "$status" -eq 0 ]
	# nowhere to write the sum: the archive is complete, the run fails
	run_aescrypt 6 -c -q -k key --checksum nodir/SUMS -f late.aes home
	assert_match "nodir/SUMS: No such file or directory \(the output is complete; its checksum was not recorded\)"
	[ -s late.aes ]
	# it belongs to -c and -e
	run_aescrypt 2 -x -k key --checksum SUMS -f keep.aes
	assert_match "--checksum does not apply to -x"
}

@test "--totals: the bytes, as GNU tar says them, and for -g the files new, changed and unchanged since the last level" {
	mkdir -p home/d
	echo a > home/a
	echo b > home/d/b
	echo c > home/d/c
	run_aescrypt 0 -c -q -k key --totals -g snap -f L0.aes home
	assert_match "Total bytes written: $(stat -c %s L0.aes) \("
	assert_match "Level 0: 3 new files, 0 changed, 2 directories, 0 other members; 0 files unchanged since the last level, not archived"
	after_snapshot snap
	echo new > home/d/n
	echo more >> home/d/b
	ln -s a home/l
	run_aescrypt 0 -c -q -k key --totals -g snap -f L1.aes home
	assert_match "Total bytes written: $(stat -c %s L1.aes) \("
	assert_match "Level 1: 1 new file, 1 changed, 2 directories, 1 other member; 2 files unchanged since the last level, not archived"
	# -q does not silence what was asked for; reading says "read"
	echo data | "$AESCRYPT" -e -q -k key -o s.aes
	run_aescrypt 0 -d -q -k key --totals -o s.out s.aes
	assert_match "^Total bytes read: [1-9][0-9]* \([0-9.]+ [KMG]?i?B, [0-9.]+ [KMG]?i?B/s\)$"
	mkdir o
	run_aescrypt 0 -x -q -k key --totals -f L1.aes -C o
	assert_match "Total bytes read: [1-9]"
	# without it, nothing is said
	run_aescrypt 0 -c -q -k key -g snap -f L2.aes home
	[ -z "$output" ]
}

@test "several -f read a -T list once for each archive; -T - cannot be, and is refused" {
	mkdir -p home
	echo a > home/a
	echo b > home/b
	run_aescrypt 0 -c -q -k key -f A.aes home/a
	run_aescrypt 0 -c -q -k key -f B.aes home/b
	printf 'home/a\nhome/b\n' > pats
	run_aescrypt 0 -t -k key -T pats -f A.aes -f B.aes
	[ "$output" = "$(printf 'A.aes: home/a\nB.aes: home/b')" ]
	run bash -c "printf 'home/a\n' | '$AESCRYPT' -t -k key -T - -f A.aes -f B.aes"
	[ "$status" -eq 2 ]
	assert_match "error: -T - with several -f: the list on standard input can be read for one archive only"
}

@test "--checksum, --sig-file and -g never name the archive being written, and -o never replaces its input (issue 50)" {
	mkdir -p home && echo a > home/a
	run_aescrypt 0 -c -q -k key -f old.aes home
	cp old.aes keep.aes
	# a new archive, and one replaced, named again by each other output,
	# by the same name, another path to it, or a symlink to it
	ln -s old.aes link.aes
	for n in new.aes old.aes ./old.aes link.aes; do
		run_aescrypt 2 -c -q -k key --checksum "$n" -f "${n#./}" home
		assert_match "--checksum $n names the output being written: its line would be appended to it"
		# (an archive that is there is no snapshot: refused as such)
		run_aescrypt 2 -c -q -k key -g "$n" -f "${n#./}" home
	done
	run_aescrypt 2 -c -q -k key -g new.aes -f new.aes home
	assert_match "-g new.aes names the output being written: the snapshot would replace it"
	[ ! -e new.aes ]
	cmp old.aes keep.aes
	[ -L link.aes ]
	ssh-keygen -q -t ed25519 -N '' -C t -f sk
	run_aescrypt 2 -c -q -k key --sign sk --sig-file old.aes -f old.aes home
	assert_match "--sig-file old.aes names the output being written: the signature would replace it"
	echo stream | { run_aescrypt 2 -e -q -k key --checksum s.aes -o s.aes; }
	[ ! -e s.aes ]
	cmp old.aes keep.aes
	# -o of -e and -d over the file being read: refused, the file kept
	echo plain > p && cp p p.keep
	run_aescrypt 2 -e -q -k key -o p p
	assert_match "p is the input: the output would replace the file being read"
	cmp p p.keep
	run_aescrypt 2 -d -k key -o old.aes old.aes
	assert_match "old.aes is the input: the output would replace the file being read"
	cmp old.aes keep.aes
	# other names are as before
	run_aescrypt 0 -c -q -k key --checksum SUMS -g snap -f new.aes home
	grep -q '  new\.aes$' SUMS
	run_aescrypt 0 -d -k key -o p2 old.aes
}

@test "a chain with a damaged level: --salvage reads on to the last level, applying its changes and deletions, and names each loss (issue 50)" {
	local i d
	mkdir -p home
	for d in 0 1 2 3 4 5; do mkdir home/d$d; done
	for i in $(seq 1 600); do echo "file $i" > "home/d$((i % 6))/f$i"; done
	run_aescrypt 0 -c -q -k key -g snap -f L0.aes home
	after_snapshot snap
	# night 1: 120 files of 4 KiB random (L1's bulk), 50 changed, 30 gone
	for i in $(seq 601 720); do head -c 4096 /dev/urandom > "home/d$((i % 6))/f$i"; done
	for i in $(seq 1 50); do echo "changed $i" >> "home/d$((i % 6))/f$i"; done
	for i in $(seq 51 80); do rm "home/d$((i % 6))/f$i"; done
	run_aescrypt 0 -c -q -k key -g snap -f L1.aes home
	after_snapshot snap
	# night 2: 40 more gone, 20 changed (some of night 1's new ones)
	for i in $(seq 81 120); do rm "home/d$((i % 6))/f$i"; done
	for i in $(seq 601 620); do echo again >> "home/d$((i % 6))/f$i"; done
	run_aescrypt 0 -c -q -k key -g snap -f L2.aes home
	after_snapshot snap
	# night 3: 10 new, 10 gone
	for i in $(seq 721 730); do echo "late $i" > "home/d$((i % 6))/f$i"; done
	for i in $(seq 121 130); do rm "home/d$((i % 6))/f$i"; done
	run_aescrypt 0 -c -q -k key -g snap -f L3.aes home
	# 4 KiB zeroed in the middle of L1
	/usr/bin/python3 - <<'PY'
d = bytearray(open("L1.aes", "rb").read())
m = len(d) // 2
d[m:m + 4096] = bytes(4096)
open("L1.aes", "wb").write(d)
PY
	# without --salvage the chain stops at L1, and says which were not read
	mkdir plain
	run_aescrypt 4 -x -q -k key -g /dev/null -f L0.aes -f L1.aes -f L2.aes -f L3.aes -C plain
	assert_match "not read: L2.aes, L3.aes; the chain stops at L1.aes"
	mkdir out
	run_aescrypt 4 -x -q --salvage -k key -g /dev/null -f L0.aes -f L1.aes -f L2.aes -f L3.aes -C out
	echo "$output"
	assert_match "the chain of 4 archives, each read: L0.aes whole; L1.aes damaged \(its losses are named above\); L2.aes whole; L3.aes whole"
	# every file the final tree holds is there and right, but those that
	# lay in L1's lost chunk and no later level stored again, each named
	local want=0 ok=0 named=0 f rel
	while IFS= read -r f; do
		rel=${f#home/}
		want=$((want + 1))
		if cmp -s "home/$rel" "out/home/$rel"; then
			ok=$((ok + 1))
		else
			grep -q "home/$rel: lost" <<< "$output"
			named=$((named + 1))
		fi
	done < <(find home -type f | sort)
	echo "want $want, right $ok, lost and named $named"
	[ "$want" -eq 650 ]
	# (a 256 KiB chunk of L1 holds about 60 of its members)
	[ "$named" -ge 1 ]
	[ "$named" -le 80 ]
	# and nothing that the last level no longer holds: every deletion of
	# every level was applied (a file lost in L1 may stay as L0 had it)
	[ -z "$(comm -13 <(cd home && find . -type f | sort) <(cd out/home && find . -type f | sort))" ]
}

# two weeks of nights: L0..L3, then a new full dump W0 and W1
two_weeks() {
	mkdir -p home/docs
	echo v0 > home/docs/a
	for n in 0 1 2 3; do
		night $n
	done
	run_aescrypt 0 -c -q -k key -g snap --level=0 -f W0.aes home
	after_snapshot snap
	echo w1 > home/w1
	run_aescrypt 0 -c -q -k key -g snap -f W1.aes home
	run_aescrypt 0 -c -q -k key -f plain.aes home
}

# chain_refused ARCHIVE...: -x -g of the archives stops with exit 8
# before writing anything, and so does -t; $output is -x's.
chain_refused() {
	local a args=()
	for a in "$@"; do
		args+=(-f "$a")
	done
	rm -rf o && mkdir o
	run_aescrypt 8 -t -q -k key -g /dev/null "${args[@]}"
	[ -z "$(grep -v '^aescrypt: ' <<< "$output")" ]
	run_aescrypt 8 -x -q -k key -g /dev/null "${args[@]}" -C o
	[ -z "$(ls -A o)" ] || { echo "written: $(ls -A o)" >&2; return 1; }
	assert_match "hint: give the levels of one chain in the order they were made"
}

@test "a broken chain stops -x and -t -g before anything is written: a gap, the wrong order, no level 0, two weeks mixed, an archive made without -g; --no-chain-check lets it through (issue 51)" {
	two_weeks
	# the whole chain, and the second week's, restore
	mkdir whole
	run_aescrypt 0 -x -q -k key -g /dev/null -f L0.aes -f L1.aes -f L2.aes -f L3.aes -C whole
	diff -r want3/home whole/home
	run_aescrypt 0 -t -q -k key -f W0.aes -f W1.aes
	# a gap
	chain_refused L0.aes L1.aes L3.aes
	assert_match "error: L3.aes \(level 3\) was made after a dump begun [0-9-]+ [0-9:]+ UTC that none of the archives given is: a level is missing"
	# the wrong order
	chain_refused L0.aes L2.aes L1.aes
	assert_match "error: L2.aes \(level 2\) continues L1.aes, which is given after it: the archives are out of order"
	# no level 0
	chain_refused L1.aes L2.aes
	assert_match "error: L1.aes is level 1, made after a dump begun .* and no full dump \(level 0\) comes before it"
	# two weeks mixed: a second full dump, or a level of the other week
	chain_refused L0.aes L1.aes W0.aes W1.aes
	assert_match "error: W0.aes is a full dump \(level 0\) after L1.aes: two chains are mixed"
	chain_refused L0.aes W1.aes
	assert_match "error: W1.aes \(level 1\) was made after a dump begun .* that none of the archives given is"
	# a foreign archive: made without -g
	chain_refused L0.aes plain.aes L1.aes
	assert_match "error: plain.aes is not a listed-incremental dump \(made without -g\), beside 2 that are"
	# an archive that records no level (a tar sealed with -e) could be
	# the missing one: nothing is claimed, and the run reads them all
	tar -cf old.tar home
	"$AESCRYPT" -e -q -k key -o old.aes old.tar
	mkdir unk
	run_aescrypt 0 -x -q -k key -g /dev/null -f L0.aes -f old.aes -f L3.aes -C unk
	refute_match "none of the archives given"
	# the escape: read as given
	mkdir esc
	run_aescrypt 0 -x -q -k key -g /dev/null --no-chain-check -f L0.aes -f L1.aes -f L3.aes -C esc
	[ -e esc/home ]
	# --no-chain-check is for -t and -x
	run_aescrypt 2 -c -q -k key --no-chain-check -f x.aes home
	# archives that are no dumps at all are read as before
	run_aescrypt 0 -t -q -k key -f plain.aes -f plain.aes
	# -t without -g searches, across weeks too: which nights hold a file
	run_aescrypt 0 -t -q -k key -f L0.aes -f L1.aes -f W0.aes -f W1.aes home/w1
	[ "$output" = "W1.aes: home/w1" ]
}

@test "-x -g of one level above 0 says that the levels before it are needed; level 0 alone says nothing (issue 51)" {
	two_weeks
	mkdir a b
	run_aescrypt 0 -x -q -k key -g /dev/null -f L2.aes -C a
	assert_match "warning: L2.aes is level 2 of a chain: alone it holds what changed since level 1; restore levels 0 to 1 first"
	run_aescrypt 0 -x -q -k key -g /dev/null -f L0.aes -C b
	refute_match "of a chain"
}

@test "--info lists two weeks of nights as two chains, and marks a level whose chain is not given; the man page's pruning recipe keeps the newest chain, and the sums still check (issue 51)" {
	command -v jq > /dev/null || skip "jq is not installed (the recipe uses it)"
	mkdir -p bk home/docs
	echo v0 > home/docs/a
	local n f
	# two weeks of two nights, each archive with its own sum file
	for n in 0 1 2 3; do
		[ $n = 1 ] && echo one > home/one
		[ $n = 3 ] && echo three > home/three
		f=h-$n.aes
		if [ $n = 2 ]; then
			run_aescrypt 0 -c -q -k key --level=0 -g snap --checksum bk/$f.sha256 -f bk/$f home
		else
			run_aescrypt 0 -c -q -k key -g snap --checksum bk/$f.sha256 -f bk/$f home
		fi
		after_snapshot snap
	done
	sed -i 's|  bk/|  |' bk/*.sha256     # sums of the names as they sit in bk
	(cd bk && sha256sum --quiet -c h-*.sha256)
	run_aescrypt 0 --info -k key bk/h-0.aes bk/h-1.aes bk/h-2.aes bk/h-3.aes
	assert_match "chains:      2, oldest first"
	[ "$(sed -n '/^chains:/,$p' <<< "$output" | grep -c '^chain [12]: ')" -eq 2 ]
	sed -n '/^chain 1:/,/^chain 2:/p' <<< "$output" | grep -q "bk/h-1.aes: level 1, begun .*, 3 members"
	sed -n '/^chain 2:/,$p' <<< "$output" | grep -q "bk/h-3.aes: level 1"
	# the directory stands for its .aes files (the sums are not read)
	run_aescrypt 0 --info -k key bk
	assert_match "chains:      2, oldest first"
	[ "$(grep -c '^file: ' <<< "$output")" -eq 4 ]
	# a level without the one it continues is named, with that dump's time
	run_aescrypt 0 --info -k key bk/h-1.aes bk/h-2.aes bk/h-3.aes
	assert_match "in no chain given \(the dump each continues is not among them\):"
	assert_match "\(bk/h-1.aes continues a dump begun [0-9-]+ [0-9:]+ UTC\)"
	run_aescrypt 0 --info=json -k key bk/h-0.aes bk/h-1.aes bk/h-3.aes
	[ "$(tail -1 <<< "$output" | jq -c .orphans)" = '["bk/h-3.aes"]' ]
	# the recipe as the man page gives it, keeping one chain, not four
	local recipe
	recipe=$(grep -F "jq -r 'select(.chains)" "$BATS_TEST_DIRNAME/../../man/aescrypt.1" |
	    sed -e 's/^\.Dl \$ //' -e 's/\\(dq/"/g' -e 's|-i ~/.backup-identity.txt|-k ../key|' \
	    -e 's/:-4\]/:-1]/' -e 's|cd /backup|cd bk|')
	[ -n "$recipe" ]
	echo "recipe: $recipe"
	# (aescrypt is the one under test)
	mkdir bin
	ln -s "$AESCRYPT" bin/aescrypt
	PATH=$PWD/bin:$PATH bash -c "set -o pipefail; $recipe"
	[ "$(cd bk && ls | sort | tr '\n' ' ')" = "h-2.aes h-2.aes.sha256 h-3.aes h-3.aes.sha256 " ]
	(cd bk && sha256sum --quiet -c h-*.sha256)
	mkdir out
	run_aescrypt 0 -x -q -k key -g /dev/null -f bk/h-2.aes -f bk/h-3.aes -C out
	[ "$(cat out/home/three)" = three ]
}
