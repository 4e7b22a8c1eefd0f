#!/usr/bin/env bash
# The docs hold together: every relative link in a tracked Markdown file names a file
# or folder the repository has, and no source file cites a document that is not in the
# repository (the seed documents and notes ply began from are named by title in
# docs/references.md, never by their outside file names); every docs/ page but the
# dated logs is at most 300 lines, and every log page (docs/log/, named YYYY-MM-DD-topic)
# is linked from a page outside docs/log/.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
while IFS= read -r md; do
  dir=$(dirname "$md")
  # [text](target) links, skipping URLs and in-page anchors.
  grep -oE '\]\([^)#[:space:]]+(#[^)]*)?\)' "$md" | sed -E 's/^\]\(//; s/\)$//; s/#.*$//' |
    while IFS= read -r target; do
      case "$target" in http://*|https://*|mailto:*|'') continue ;; esac
      if [ ! -e "$dir/$target" ]; then
        echo "$md: broken link to $target" >&2
        echo broken
      fi
    done
done < <(git ls-files '*.md' | grep -v '^fuzz/corpus/') | grep -c broken >/dev/null && status=1

if git grep -nE 'seed[ -]?00[0-9]|notes/(halma|checkers|embedded|mpi)\.md|shared/(seeds|notes)' \
    -- '*.rs' '*.sh' '*.py' '*.toml' '*.txt' ':!scripts/test-docs.sh' ':!fuzz/corpus' >&2; then
  echo "source files above cite documents outside the repository: name them as docs/references.md does" >&2
  status=1
fi
# Paths named in docs and comments (`core/src/…rs`, `scripts/….sh`, …) exist: from the
# repository's root, or from the top folder of the file that names them (fuzz/ names
# its own corpus test that way). NAME stands for any name in a pattern.
while IFS=: read -r file path; do
  case "$path" in *NAME*) continue ;; esac
  [ -e "$path" ] || [ -e "${file%%/*}/$path" ] || {
    echo "$file names $path, which the repository does not have" >&2
    status=1
  }
done < <(git grep -oE '\b(core|host|tests|scripts|benches|firmware-sim|fuzz|tools|docs)/[A-Za-z0-9_./-]+\.(rs|sh|py|txt|md|toml|svg)\b' \
  -- '*.md' '*.rs' '*.sh' '*.py' '*.toml' ':!fuzz/corpus' | sort -u)

# A docs/ page says how a thing works and how to use it, in at most MAX_LINES lines;
# the dated history of measurements and ideas not kept goes to docs/log/. No page is
# exempt.
max_lines=300
while IFS= read -r md; do
  n=$(wc -l <"$md")
  if [ "$n" -gt "$max_lines" ]; then
    echo "$md: $n lines, more than $max_lines: split it, or move its dated measurements to a log page under docs/log/" >&2
    status=1
  fi
done < <(git ls-files 'docs/*.md' | grep -v '^docs/log/')

# Each log page is named by the date of its measurements and linked from a page
# outside docs/log/ (the page it belongs to), so that nothing measured is lost from
# sight.
linked=$(git ls-files '*.md' | grep -v -e '^fuzz/corpus/' -e '^docs/log/' | while IFS= read -r md; do
  dir=$(dirname "$md")
  { grep -oE '\]\([^)#[:space:]]+(#[^)]*)?\)' "$md" || true; } | sed -E 's/^\]\(//; s/\)$//; s/#.*$//' |
    while IFS= read -r target; do
      case "$target" in http://*|https://*|mailto:*|'') continue ;; esac
      realpath -m --relative-to=. "$dir/$target"
    done
done | sort -u)
while IFS= read -r log; do
  if ! [[ "$log" =~ ^docs/log/[0-9]{4}-[0-9]{2}-[0-9]{2}-[a-z0-9-]+\.md$ ]]; then
    echo "$log: a log page is named YYYY-MM-DD-topic under docs/log/ (the date of its measurements)" >&2
    status=1
  fi
  if ! grep -qxF "$log" <<<"$linked"; then
    echo "$log is linked from no page outside docs/log/: link it from the page it belongs to" >&2
    status=1
  fi
done < <(git ls-files 'docs/log/*')

[ "$status" = 0 ] && echo "docs: links, citations and named paths resolve; pages within $max_lines lines; every log page linked"
exit "$status"
