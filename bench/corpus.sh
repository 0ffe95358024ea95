# corpus.sh -- what the benchmarks share, sourced (not run): the
# standard trees and the timing helpers.  Each function works in $W
# (the benchmark's own directory), which the caller makes and removes.
#
#   corpus_mixed DIR MEDIA DOCS: MEDIA files of 512 KiB random bytes
#       (media) under DIR/media, and DOCS text files of 1 to 24 KiB
#       (documents, each a different slice of one text) under DIR/docs:
#       the standard corpus, 12,800 files and ~300 MB at 300 and 12,500
#   corpus_many DIR N: N files of 20 to 80 bytes (a mail spool, a
#       cache), 1,000 to a directory
#   time1 NAME CMD...: run CMD (its output dropped) and append "NAME
#       seconds" to $W/times (bash's clock: no process is started to
#       read it)
#   med NAME: the median of NAME's times, with the range: "m (lo-hi)"

corpus_mixed() {
	local i
	mkdir -p "$1/media" "$1/docs"
	for i in $(seq 1 "$2"); do
		head -c 524288 /dev/urandom > "$1/media/m$i"
	done
	[ -f "$W/text" ] || seq 1 400000 > "$W/text"
	python3 - "$1/docs" "$3" "$W/text" <<'PY'
import os, sys
d, n, text = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "rb").read()
for i in range(n):
    size = 1024 + (i * 7919) % (23 * 1024)
    at = (i * 104729) % (len(text) - size)
    with open(os.path.join(d, "doc-%05d.txt" % i), "wb") as f:
        f.write(text[at:at + size])
PY
}

corpus_many() {
	mkdir -p "$1"
	python3 - "$1" "$2" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n // 1000):
    sub = os.path.join(d, "%03d" % i)
    os.mkdir(sub)
    for k in range(1000):
        with open(os.path.join(sub, "msg-%04d" % k), "w") as f:
            f.write("message %d/%d\n" % (i, k) * (1 + (i + k) % 5))
PY
}

time1() {
	local name=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	"$@" > /dev/null
	t1=$EPOCHREALTIME
	echo "$name $(echo "$t1 - $t0" | bc)" >> "$W/times"
}

med() {
	grep "^$1 [0-9.]*$" "$W/times" | awk '{print $NF}' | sort -n |
	    awk '{v[NR] = $1} END { printf "%.3f (%.3f-%.3f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
