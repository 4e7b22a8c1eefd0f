#!/usr/bin/env bash
# The docs hold together: every relative link in a tracked Markdown file names a file
# or folder the repository has, and no source file cites a document that is not in the
# repository (the seed documents and notes ply began from are named by title in
# docs/references.md, never by their outside file names).
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

[ "$status" = 0 ] && echo "docs: links, citations and named paths resolve"
exit "$status"
