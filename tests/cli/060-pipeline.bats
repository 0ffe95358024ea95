#!/usr/bin/env bats
# The parallel pipeline through the CLI: any -j reads what any other -j
# wrote; failures name the right chunk whatever the thread count; a
# closed pipe ends the run promptly; --stats tells a consistent story.
# (make check-tsan runs this file against a ThreadSanitizer build.)

load test_helper

@test "-j 1, 2, 3 and 8 agree, on and off chunk boundaries, both ways" {
	make_key k
	local n j jd
	for n in $((65536 * 12)) $((65536 * 12 + 999)); do
		head -c $((n / 2)) /dev/urandom > in.bin
		seq 1 $((n / 4)) | head -c $((n - n / 2)) >> in.bin
		[ "$(stat -c %s in.bin)" -eq "$n" ]
		for j in 1 2 3 8; do
			"$AESCRYPT" -e -k k -j "$j" --chunk-size 64K -o "c$j.aes" in.bin
		done
		for j in 1 2 3 8; do
			for jd in 1 2 3 8; do
				"$AESCRYPT" -d -k k -j "$jd" -o out.bin "c$j.aes"
				assert_same in.bin out.bin
			done
		done
		# same plaintext, same chunking: same sizes whatever -j
		[ "$(stat -c %s c1.aes)" -eq "$(stat -c %s c8.aes)" ]
	done
}

@test "a damaged chunk in the middle of 50, decrypted with -j8, is named; no output file" {
	make_key k
	head -c $((65536 * 50 - 3)) /dev/urandom > in.bin
	"$AESCRYPT" -e -k k -j8 --chunk-size 64K -o c.aes in.bin
	# 149-byte header, then records of 65536 + 21 bytes (random: stored)
	local off=$((149 + 25 * 65557))
	flip_byte c.aes $((off + 1000))
	run_aescrypt 4 -d -k k -j8 -o out.bin c.aes
	assert_match "chunk 25 at offset $off failed authentication"
	assert_no_output . out.bin
	run_aescrypt 4 -d -k k -j1 -o out.bin c.aes
	assert_match "chunk 25 at offset $off failed authentication"
}

@test "a truncated 50-chunk file names the missing chunk with -j8" {
	make_key k
	head -c $((65536 * 50)) /dev/urandom > in.bin
	"$AESCRYPT" -e -k k -j8 --chunk-size 64K -o c.aes in.bin
	head -c $((149 + 30 * 65557)) c.aes > cut.aes
	run_aescrypt 4 -d -k k -j8 -o out.bin cut.aes
	assert_match "chunk 30 at offset $((149 + 30 * 65557)) is missing: the input ends with no final chunk"
	assert_no_output . out.bin
}

@test "a closed pipe (head -c 1) ends -e and -d promptly and silently with exit 141" {
	make_key k
	head -c 30000000 /dev/urandom > in.bin
	"$AESCRYPT" -e -k k -0 -o c.aes in.bin
	run timeout 20 bash -c "'$AESCRYPT' -d -k k -j8 c.aes | head -c 1 > /dev/null; exit \${PIPESTATUS[0]}"
	[ "$status" -eq 141 ]
	[ -z "$output" ]
	run timeout 20 bash -c "'$AESCRYPT' -e -k k -j8 -1 in.bin | head -c 1 > /dev/null; exit \${PIPESTATUS[0]}"
	[ "$status" -eq 141 ]
	[ -z "$output" ]
}

@test "a closed pipe while the input is stalled still ends the run" {
	make_key k
	mkfifo in.fifo
	# the sleep is the stall (the pipe stays open, with nothing more in
	# it), not a clock the test waits on; kill_feeder ends it
	feed in.fifo "head -c 3000000 /dev/urandom; sleep 60"
	run timeout 20 bash -c "'$AESCRYPT' -e -k k -j2 -0 in.fifo | head -c 1 > /dev/null; exit \${PIPESTATUS[0]}"
	kill_feeder
	[ "$status" -eq 141 ]
}

# stats_field JSON NAME: the number after "NAME": in JSON.
stats_field() {
	grep -o "\"$2\":[0-9.]*" <<< "$1" | head -1 | cut -d: -f2
}

@test "--stats prints every stage, the tier, the engine and the thread count" {
	make_key k
	seq 1 500000 > in.bin
	local engine
	engine=$("$AESCRYPT" --version | sed -n 's/^deflate engine: \([a-z]*\) .*/\1/p')
	[ -n "$engine" ]
	run_aescrypt 0 -e -k k -j2 --stats -o c.aes in.bin
	assert_match "stats: encrypt, cipher (vaes-avx512|vaes-avx2|aesni-pclmul|soft-ct), codec deflate \($engine\), 2 worker threads"
	run_aescrypt 0 -e -k k -j2 --stats --deflate zlib -o z.aes in.bin
	assert_match "codec deflate \(zlib\), 2 worker threads"
	# either engine opens the other's file
	run_aescrypt 0 -d -k k --deflate zlib -o out.bin c.aes
	cmp in.bin out.bin
	run_aescrypt 0 -d -k k -o out.bin z.aes
	cmp in.bin out.bin
	run_aescrypt 2 -e -k k --deflate gzip -o x.aes in.bin
	assert_match "'libdeflate' or 'zlib'"
	if [ "$engine" = zlib ]; then
		run_aescrypt 2 -e -k k --deflate libdeflate -o x.aes in.bin
		assert_match "this build has no libdeflate"
	fi
	run_aescrypt 0 -e -k k -j2 --stats -o c.aes in.bin
	assert_match 'wall [0-9.]+ s, CPU [0-9.]+ s, peak memory [0-9]+ KiB'
	assert_match "in $(stat -c %s in.bin) bytes, out $(stat -c %s c.aes) bytes"
	assert_match "in [0-9]+ chunks \(ratio"
	# compress is the work here; the table has no row that measured
	# nothing: no kdf row with a key file
	assert_match "  compress +[0-9.]+ +[0-9.]+%"
	refute_match "  kdf "
	# the wall-clock waits
	assert_match "waits \(wall clock\):"
	assert_match "[0-9.]+ s  writer waiting for the next chunk"
	run_aescrypt 0 -d -k k --stats -o out.bin c.aes
	assert_match "stats: decrypt, "
	assert_match "  inflate +[0-9.]+ +[0-9.]+%"
	run_aescrypt 0 -d -k k --no-hw --stats -o out.bin c.aes
	assert_match 'cipher soft-ct'
	# one chunk, not "1 chunks"; -0 has no compress row
	echo hi > small
	run_aescrypt 0 -e -k k -0 --stats -o s.aes small
	assert_match "in 1 chunk \(ratio"
	refute_match "  compress "
}

@test "--stats=json: the bytes match the files and the shares add up to 1" {
	make_key k
	seq 1 800000 > in.bin
	"$AESCRYPT" -e -k k -j2 --stats=json -o c.aes in.bin 2> s.json
	local j
	j=$(cat s.json)
	[ "$(stats_field "$j" bytes_in)" -eq "$(stat -c %s in.bin)" ]
	[ "$(stats_field "$j" bytes_out)" -eq "$(stat -c %s c.aes)" ]
	[ "$(stats_field "$j" payload_bytes)" -eq "$(stat -c %s in.bin)" ]
	# record bytes + header + its copy and length at the end = the file
	[ $(( $(stats_field "$j" record_bytes) + 149 + 151 )) -eq "$(stat -c %s c.aes)" ]
	[ "$(stats_field "$j" threads)" -eq 2 ]
	grep -o '"share":[0-9.]*' s.json | cut -d: -f2 |
	    awk '{s += $1} END {exit !(NR == 6 && s > 0.998 && s < 1.002)}'
	# every wait, in seconds
	local w
	for w in reader_on_input_s reader_on_buffers_s workers_on_reader_s \
	    writer_on_workers_s writer_on_output_s; do
		grep -qE "\"$w\":[0-9]+\.[0-9]+" s.json
	done
	"$AESCRYPT" -d -k k --stats=json -o out.bin c.aes 2> d.json
	j=$(cat d.json)
	[ "$(stats_field "$j" bytes_in)" -eq "$(stat -c %s c.aes)" ]
	[ "$(stats_field "$j" bytes_out)" -eq "$(stat -c %s in.bin)" ]
	grep -q '"mode":"decrypt"' d.json
}

@test "--stats with a passphrase measures the KDF" {
	seq 1 1000 > in.bin
	AESCRYPT_PASSPHRASE=pw run_aescrypt 0 -e --kdf-memory 32M --kdf-time 2 --kdf-parallelism 1 --stats -o c.aes in.bin
	assert_match 'kdf: Argon2id 32 MiB'
	# the kdf row's CPU seconds are not zero
	grep -E '^  kdf +[0-9.]+' <<< "$output" | awk '{exit !($2 > 0)}'
}

@test "memory stays bounded: 100 MB through -j2 peaks under 64 MiB" {
	make_key k
	head -c 100000000 /dev/urandom > in.bin
	"$AESCRYPT" -e -k k -j2 -1 --stats=json -o c.aes in.bin 2> e.json
	[ "$(stats_field "$(cat e.json)" peak_rss_kib)" -lt 65536 ]
	"$AESCRYPT" -d -k k -j2 --stats=json -o /dev/null c.aes 2> d.json
	[ "$(stats_field "$(cat d.json)" peak_rss_kib)" -lt 65536 ]
}

@test "-j rejects 0 and values over 256" {
	run_aescrypt 2 -e -j 0
	assert_match "-j: invalid value '0'"
	run_aescrypt 2 -e --threads 257
}

# bats test_tags=benchmark
@test "--benchmark: the default set (every tier at -0 and -6, zstd), the cipher alone, medians with spreads, no chart on a pipe" {
	# a budget the default set's floor fits in on a loaded machine
	run_aescrypt 0 --benchmark --benchmark-time 6 -j2
	assert_match 'aescrypt --benchmark: 2 worker threads, 256 KiB chunks, in memory'
	assert_match 'The cipher alone'
	assert_match 'encrypt  \(zip = compress\)'
	assert_match 'decrypt  \(zip = decompress\)'
	refute_match 'Where the CPU goes'
	local data tier engine tiers dtier
	tiers=$("$AESCRYPT" --version | sed -n 's/^tiers available: //p')
	dtier=$("$AESCRYPT" --version | sed -n "s/^cipher: .*tier in use: //p")
	[ -n "$dtier" ]
	[ -n "$tiers" ]
	engine=zlib
	if "$AESCRYPT" --version | grep -q 'deflate engine: libdeflate'; then
		engine=libdeflate
		assert_match 'deflate engines: libdeflate [0-9.]+ \(default\), zlib [0-9.]+'
	fi
	if [ "${AE_HAVE_ZSTD:-1}" = 1 ]; then
		assert_match 'zstd: 1\.[0-9.]+, 8192 KiB chunks'
	else
		assert_match 'zstd: not in this build'
	fi
	# The budget may leave measurements out on a loaded machine (said,
	# and counted): what must hold is the matrix.  Each row measured is
	# one of the default set's, the first pair always runs, and rows
	# and the count left out make the whole set: per data, each tier at
	# -0 and -6, and zstd once on the default tier, both directions.
	local ntiers=0 nz=0 rows skipped want
	for tier in $tiers; do
		assert_match "  $tier +seal +[0-9.]+.? MB/s +open +[0-9.]+.? MB/s"
		ntiers=$((ntiers + 1))
	done
	[ "${AE_HAVE_ZSTD:-1}" = 1 ] && nz=1
	rows=$(grep -cE '^(text|random) +-[0-9] ' <<< "$output" || true)
	skipped=$(tr '\n' ' ' <<< "$output" | sed -nE 's/.* ([0-9]+) more measurements had no +time left .*/\1/p')
	want=$(( 2 * 2 * (2 * ntiers + nz) ))
	echo "rows $rows (one a direction), skipped ${skipped:-0}, the set $want"
	[ $(( rows + ${skipped:-0} )) -eq "$want" ]
	assert_match "text +-0 +[a-z0-9-]+ "
	while read -r data level rest; do
		case "$data $level $rest" in
		"text -0 "* | "random -0 "*) ;;
		"text -6 $engine "* | "random -6 $engine "*) ;;
		"text -6 zstd $dtier "* | "random -6 zstd $dtier "*) ;;
		*) echo "not of the default set: $data $level $rest"; false ;;
		esac
	done < <(grep -E '^(text|random) +-[0-9] ' <<< "$output" | tr -s ' ')
	assert_match 'zip MB/s +aes MB/s +total +aes % +ratio'
	assert_match '[0-9.]+[~?]? +[0-9.]+% [01]\.[0-9]{3}'
	[ "$(awk 'length > 80' <<< "$output" | wc -l)" -eq 0 ]
	assert_match 'At -0 \(text, [a-z0-9-]+\) AES-GCM ran at [0-9]+ MB/s of its CPU time in the'
	assert_match 'against [0-9]+ MB/s alone \([0-9]+%\)'
	assert_match 'time: 6\.0 s at most, and a trial: each of the [0-9]+ pipeline'
	tr '\n' ' ' <<< "$output" | grep -qE '[0-9.]+ s in all \(budget 6\.0 s\)\. The floor, [0-9.]+ s, was'
	tr '\n' ' ' <<< "$output" | grep -qE '[0-9]+ of them had more trials from the rest of the budget'
	tr '\n' ' ' <<< "$output" | grep -qE -- '--benchmark=all measures every level, both DEFLATE engines and zstd with every tier'
	# (a -6 row, where the budget reached one, gives its ratio)
	if grep -qE '^text +-6 ' <<< "$output"; then
		grep -qE '^text +-6 .* 0\.[0-9]{3}$' <<< "$output"
	fi
	run_aescrypt 2 --benchmark --benchmark-time 0
	run_aescrypt 2 --benchmark -e
	run_aescrypt 2 --benchmark=xml
	assert_match "'all', 'text', 'json' or 'csv', or 'all,' and a format"
}

# bats test_tags=benchmark
@test "--benchmark on a terminal starts with the chart of CPU shares" {
	# (a budget the default set's floor fits in, under the suite's load)
	script -qec "'$AESCRYPT' --benchmark --benchmark-time 5 -j2" /dev/null > tty.raw 2>&1
	tr '\r' '\n' < tty.raw > tty.log
	grep -q 'Where the CPU goes, encrypting text with libdeflate\|Where the CPU goes, encrypting text with zlib' tty.log
	if [ "${AE_HAVE_ZSTD:-1}" = 1 ]; then
		grep -q 'Where the CPU goes, encrypting text with zstd' tty.log
	fi
	# a bar per tier at each level, split into #, = and .
	grep -E '^  -0 [a-z0-9-]+ +\|[#=.]{30}\| AES +[0-9.]+%' tty.log
	# within 80 columns
	[ "$(awk 'length > 80' tty.log | wc -l)" -eq 0 ]
	# -6 has a bar wherever the budget measured it (a loaded machine
	# may leave it out, and the run then says so)
	if ! grep -q 'had no time left' tty.log || grep -qE '^text +-6 ' tty.log; then
		grep -E '^  -6 [a-z0-9-]+ +\|#+=*\.*\| AES' tty.log
	fi
	grep -q 'The cipher alone' tty.log
}

# bats test_tags=benchmark
@test "--benchmark=all,json: valid, shares add up to 1, what did not fit counted; csv has a row per cell" {
	"$AESCRYPT" --benchmark=all,json --benchmark-time 3 -j2 > b.json
	local engines=1
	"$AESCRYPT" --version | grep -q 'deflate engine: libdeflate' && engines=2
	AE_ENGINES=$engines /usr/bin/python3 - b.json <<'PYEOF'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["threads"] == 2 and b["chunk_kib"] == 256, b
# loosely: not a timing test, only that the budget means something
# (sanitizer builds run several times slower than a trial is sized for,
# and without mallopt, a --portable build, every trial faults its
# buffers in again: --version says so)
import os
# the run takes the budget, or its floor where that is longer (a
# warm-up and one trial of each measurement, reported), plus at most
# about a trial per measurement (a fifth of its share)
assert 0 < b["floor_s"] <= b["elapsed_s"], b
# the count of cells that ran past the floor is what happened: every
# cell with more than one trial is among them
assert sum(c["trials"] > 1 for c in b["cells"]) <= b["cells_with_more_trials"] <= len(b["cells"]), b
# (how long the run took is the machine's load as much as the budget:
# not asserted; the count of cells measured and skipped below is)
assert b["time_budget_s"] == 3, b
assert b["set"] == "all", b
assert len(b["cipher_alone"]) >= 1
for r in b["cipher_alone"]:
    assert r["seal_mb_s"]["median"] > 0 and r["open_mb_s"]["median"] > 0, r
    assert r["seal_mb_s"]["min"] <= r["seal_mb_s"]["median"] <= r["seal_mb_s"]["max"], r
cells = b["cells"]
# every cell of the full set was measured or is counted as skipped:
# per data, each tier at 4 levels, the other engine at 3, zstd at 3
# with each tier, both directions
ntiers = len(b["cipher_alone"])
zstd = os.environ.get("AE_HAVE_ZSTD", "1") == "1"
engines = 2 if os.environ.get("AE_ENGINES", "2") == "2" else 1
want = 2 * 2 * (4 * ntiers + 3 * (engines - 1) + (3 * ntiers if zstd else 0))
assert len(cells) + b["cells_skipped"] == want, (len(cells), b["cells_skipped"], want)
assert len(cells) >= 2, len(cells)
for c in cells:
    s = c["shares"]
    assert abs(s["compress"] + s["encrypt"] + s["io"] - 1.0) < 1e-3, c
    assert c["trials"] >= 1 and c["total_mb_s"]["median"] > 0, c
    assert c["total_mb_s"]["min"] <= c["total_mb_s"]["median"] <= c["total_mb_s"]["max"], c
    assert c["direction"] in ("encrypt", "decrypt") and c["data"] in ("text", "random")
    assert (c["engine"] == "none") == (c["level"] == 0), c
    assert (c["codec"] == "zstd") == (c["engine"] == "zstd"), c
    assert c["chunk_kib"] == (8192 if c["codec"] == "zstd" else 256), c
    if c["codec"] == "deflate":
        assert c["engine"] in ("libdeflate", "zlib"), c
tiers = {r["tier"] for r in b["cipher_alone"]}
# the first cells to run are -0 with every tier
assert tiers == {c["tier"] for c in cells if c["level"] == 0} or b["cells_skipped"] > 0, tiers
print(len(cells))
PYEOF
	"$AESCRYPT" --benchmark=csv --benchmark-time 1 -j2 > b.csv
	"$AESCRYPT" --benchmark=json --benchmark-time 1 -j2 > d.json
	head -1 b.csv | grep -q '^kind,data,direction,level,engine,tier,trials,'
	# the default set: as many rows as it measured, at most its 2 x 2 x
	# (2 levels x tiers + zstd)
	[ "$(grep -c '^pipeline,' b.csv)" -le $(( 2 * 2 * (2 * $(/usr/bin/python3 -c 'import json; print(len(json.load(open("b.json"))["cipher_alone"]))') + 1) )) ]
	[ "$(grep -c '^pipeline,' b.csv)" -ge 1 ]
	# the default set, whole: measured and skipped add up to it
	AE_ZSTD=${AE_HAVE_ZSTD:-1} /usr/bin/python3 -c '
import json, os
d = json.load(open("d.json"))
n = len(d["cipher_alone"])
want = 2 * 2 * (2 * n + (1 if os.environ["AE_ZSTD"] == "1" else 0))
assert d["set"] == "default", d["set"]
assert len(d["cells"]) + d["cells_skipped"] == want, (len(d["cells"]), d["cells_skipped"], want)'
	[ "$(grep -c '^cipher,' b.csv)" -eq $(( 2 * $(/usr/bin/python3 -c 'import json; print(len(json.load(open("b.json"))["cipher_alone"]))') )) ]
}

@test "incompressible data is stored on the probe's word, with either engine; text is compressed" {
	make_key k
	head -c 2000000 /dev/urandom > r.bin
	seq 1 300000 > t.bin
	local e
	for e in zlib $("$AESCRYPT" --version | grep -q 'deflate engine: libdeflate' && echo libdeflate); do
		run_aescrypt 0 -e -k k --deflate "$e" --chunk-size 64K --stats=json -o r.aes r.bin
		# 31 chunks: the 30 full ones are probed and stored, the short
		# final one (under 64 KiB) is compressed in full and stored
		[[ $output =~ \"chunks\":31, ]]
		[[ $output =~ \"stored_by_probe\":30, ]]
		run_aescrypt 0 -e -k k --deflate "$e" --stats=json -o t.aes t.bin
		[[ $output =~ \"stored_by_probe\":0, ]]
		[ "$(stat -c %s t.aes)" -lt $(( $(stat -c %s t.bin) / 2 )) ]
		run_aescrypt 0 -d -k k -o out r.aes
		cmp out r.bin
	done
}
