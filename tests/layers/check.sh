#!/bin/sh
# tests/layers/check.sh -- keep src/ layered: an #include may only point
# down.  The layers, lowest first (src/README.md says what each owns):
#
#   0 common     1 crypto     2 container     3 pipeline, archive     4 cli
#
# A file may include headers of its own folder by bare name, headers of a
# lower layer as "layer/name.h", and config.h.  Anything else fails: an
# upward include, one between the two rank-3 siblings, a bare name that
# is not in the file's own folder, or a "../" path that hides where it
# points.  Usage: check.sh [SRCDIR]  (default: src)
set -u
src=${1:-src}

rank() {
	case $1 in
	common) echo 0 ;; crypto) echo 1 ;; container) echo 2 ;;
	pipeline|archive) echo 3 ;; cli) echo 4 ;; *) echo -1 ;;
	esac
}

bad=0 n=0
for f in "$src"/*/*.c "$src"/*/*.h; do
	[ -e "$f" ] || continue
	dir=${f%/*}; layer=${dir##*/}; mine=$(rank "$layer")
	if [ "$mine" -lt 0 ]; then
		echo "layers: $f: folder '$layer' is not a known layer"; bad=1; continue
	fi
	# Every quoted include, with its line number.
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		n=$((n + 1))
		case $inc in
		config.h) continue ;;
		../*|*/../*) echo "layers: $f includes \"$inc\": name the layer instead of ../"; bad=1 ;;
		*/*/*) echo "layers: $f includes \"$inc\": one folder level only"; bad=1 ;;
		*/*)
			to=${inc%%/*}; theirs=$(rank "$to")
			if [ ! -e "$src/$inc" ]; then
				echo "layers: $f includes \"$inc\", which does not exist"; bad=1
			elif [ "$to" = "$layer" ]; then
				echo "layers: $f includes \"$inc\": name headers of its own folder bare"; bad=1
			elif [ "$theirs" -ge "$mine" ]; then
				echo "layers: $f ($layer, layer $mine) includes \"$inc\" ($to, layer $theirs): includes must point down"; bad=1
			fi ;;
		*)
			if [ ! -e "$dir/$inc" ]; then
				echo "layers: $f includes \"$inc\", which is not in $dir/"; bad=1
			fi ;;
		esac
	done
done
# Source files directly in src/ would belong to no layer.
for f in "$src"/*.c "$src"/*.h; do
	[ -e "$f" ] && { echo "layers: $f is in no layer folder"; bad=1; }
done
if [ "$bad" -ne 0 ]; then
	echo "layers: FAILED"; exit 1
fi
echo "layers: $n includes checked, all point down"
