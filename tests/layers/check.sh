#!/bin/sh
# tests/layers/check.sh -- keep src/ layered.  The layers, lowest first
# (src/README.md says what each owns):
#
#   0 common   1 crypto   2 container   3 pipeline, archive   4 disk
#   5 lib (the public library)   6 mount (its FUSE front end)   7 cli
#
# A file may include headers of its own folder by bare name, config.h,
# the public header aescrypt.h (include/; from lib and the layers above
# it, whose README.md allows `aescrypt.h`), and headers of the layers its folder's README.md allows on its "May
# include:" line: the folders named there in backquotes (`crypto/`), or
# "every layer below".  Such a layer must also rank lower, so there is no
# circle whatever a README says.  Anything else fails: an include the
# README does not allow, an upward or sideways one, a bare name that is
# not in the file's own folder, a "../" path that hides where it points,
# or a layer folder whose README does not say what it may include.
# Usage: check.sh [SRCDIR]  (default: src)
set -u
src=${1:-src}

rank() {
	case $1 in
	common) echo 0 ;; crypto) echo 1 ;; container) echo 2 ;;
	pipeline|archive) echo 3 ;; disk) echo 4 ;; lib) echo 5 ;; mount) echo 6 ;;
	cli) echo 7 ;;
	*) echo -1 ;;
	esac
}

# The layers a folder's README allows, space-separated, or "below" for
# every lower one; nothing (and status 1) if it does not say.  The
# sentence runs from "May include:" to the first '.' outside backquotes.
allowed() {
	[ -f "$src/$1/README.md" ] || return 1
	awk '
	BEGIN { on = 0; text = "" }
	{
		line = $0
		if (!on) {
			i = index(line, "May include:")
			if (i == 0) next
			line = substr(line, i + 12); on = 1
		}
		text = text " " line
	}
	END {
		if (!on) exit 1
		out = ""; q = 0
		for (i = 1; i <= length(text); i++) {
			c = substr(text, i, 1)
			if (c == "`") q = !q
			if (c == "." && !q) break
			out = out c
		}
		if (out ~ /every layer below/) { print "below"; exit 0 }
		n = split(out, parts, "`")
		res = ""
		for (k = 2; k <= n; k += 2)
			if (parts[k] ~ /\/$/) res = res " " substr(parts[k], 1, length(parts[k]) - 1)
		print res
	}' "$src/$1/README.md"
}

bad=0 n=0
for f in "$src"/*/*.c "$src"/*/*.h; do
	[ -e "$f" ] || continue
	dir=${f%/*}; layer=${dir##*/}; mine=$(rank "$layer")
	if [ "$mine" -lt 0 ]; then
		echo "layers: $f: folder '$layer' is not a known layer"; bad=1; continue
	fi
	if ! may=$(allowed "$layer"); then
		echo "layers: $src/$layer/README.md does not say what the layer may include (a 'May include:' line)"
		bad=1; continue
	fi
	# Every quoted include.
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		n=$((n + 1))
		case $inc in
		config.h) continue ;;
		aescrypt.h)
			if [ "$mine" -lt 5 ]; then
				echo "layers: $f includes \"aescrypt.h\": the public header is for lib/ and above"; bad=1
			elif ! grep -q '`aescrypt.h`' "$src/$layer/README.md"; then
				echo "layers: $f includes \"aescrypt.h\", but $src/$layer/README.md does not allow \`aescrypt.h\`"; bad=1
			fi
			continue ;;
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
			elif [ "$may" != below ] && ! printf ' %s ' "$may" | grep -q " $to "; then
				echo "layers: $f includes \"$inc\", but $src/$layer/README.md allows only:$may"; bad=1
			elif [ "$mine" -gt 5 ] && [ "$to" = container -o "$to" = pipeline -o "$to" = crypto ]; then
				# above lib/: past aescrypt.h only where the README
				# lists it, with its reason
				if ! grep -q "^- \`${f##*/}\`:.*\`$inc\`" "$src/$layer/README.md"; then
					echo "layers: $f includes \"$inc\", past aescrypt.h, and $src/$layer/README.md does not list it (Past \`aescrypt.h\`)"; bad=1
				fi
			fi ;;
		*)
			if [ ! -e "$dir/$inc" ]; then
				echo "layers: $f includes \"$inc\", which is not in $dir/"; bad=1
			fi ;;
		esac
	done
done
# No circles inside a layer either: module X (X.c and X.h) uses module Y
# when either includes Y.h by its bare name; the uses may form no loop,
# which tsort finds (a file using its own header is no loop).
for dir in "$src"/*/; do
	[ -d "$dir" ] || continue
	pairs=$(for f in "$dir"*.c "$dir"*.h; do
		[ -e "$f" ] || continue
		m=${f##*/}; m=${m%.*}
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)\.h".*/\1/p' "$f"); do
			[ "$inc" = config ] || [ "$inc" = "$m" ] || echo "$m $inc"
		done
	done)
	[ -n "$pairs" ] || continue
	if ! printf '%s\n' "$pairs" | tsort > /dev/null 2> "${TMPDIR:-/tmp}/layers.$$"; then
		echo "layers: ${dir%/}: files use each other in a loop:" \
		    $(sed -n 's/^tsort: \([^-].*\)/\1/p' "${TMPDIR:-/tmp}/layers.$$" | sort -u)
		bad=1
	fi
	rm -f "${TMPDIR:-/tmp}/layers.$$"
done
# Each layer's README names every room in it (a file's stem, or the
# stem with .c, .h or .py, in backquotes), so that a newcomer finds where a thing lives there.
for dir in "$src"/*/; do
	[ -f "$dir/README.md" ] || continue
	for f in "$dir"*.c "$dir"*.h "$dir"*.py; do
		[ -e "$f" ] || continue
		m=${f##*/}
		b=${m%.*}
		if ! grep -q "\`$b\`\|\`$b\.[chpy]*\`" "$dir/README.md"; then
			echo "layers: ${dir%/}/README.md does not name $m"; bad=1
		fi
	done
done
# A layer's list of includes past aescrypt.h names only includes that
# are there: the list shrinks as the command moves onto the library.
past=0
for readme in "$src"/*/README.md; do
	dir=${readme%/README.md}
	grep '^- `[a-z_0-9]*\.[ch]`: `' "$readme" > "${TMPDIR:-/tmp}/layers-past.$$" 2>/dev/null || continue
	while IFS= read -r line; do
		file=${line#- \`}; file=${file%%\`*}
		past=$((past + 1))
		for inc in $(printf '%s\n' "${line#*: }" | grep -o '`\(container\|pipeline\|crypto\)/[a-z_0-9]*\.h`' | tr -d '`'); do
			if [ ! -f "$dir/$file" ] || ! grep -q "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$inc\"" "$dir/$file"; then
				echo "layers: $readme lists $file as including $inc, which it does not: take it off the list"; bad=1
			fi
		done
	done < "${TMPDIR:-/tmp}/layers-past.$$"
	rm -f "${TMPDIR:-/tmp}/layers-past.$$"
done
# The command is the library's client: a few files may still reach past
# aescrypt.h, each for its reason, and no more than that.
if [ "$past" -gt "${LAYERS_PAST_MAX:-4}" ]; then
	echo "layers: $past files reach past aescrypt.h, over the ${LAYERS_PAST_MAX:-4} allowed: move what they need into the library"; bad=1
fi
# Source files directly in src/ would belong to no layer.
for f in "$src"/*.c "$src"/*.h; do
	[ -e "$f" ] && { echo "layers: $f is in no layer folder"; bad=1; }
done
if [ "$bad" -ne 0 ]; then
	echo "layers: FAILED"; exit 1
fi
echo "layers: $n includes checked, all point down and as each README allows, no loop in a layer, every file named in its README; $past files reach past aescrypt.h, each listed with its reason"
