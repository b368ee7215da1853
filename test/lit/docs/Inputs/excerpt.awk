# excerpt.awk - checks that a code block quoted in a hand-written doc page is what the tools
# print now.
#
#   awk -v section=S -v block=B -f excerpt.awk OUTPUT DOC.md
#
# OUTPUT is what the doc's command prints today; DOC.md the page. The block is the B-th
# fenced block (```) after the heading that starts with "## S" (e.g. S = "3." for
# "## 3. `--tile`: ..."). Each line of the block must be a line of OUTPUT, up to
# whitespace (runs of spaces and tabs count as one space; leading and trailing ones do not
# count), where "..." in a doc line stands for any text, the blanks around it included:
# `%9 = "tile.load"(...) : ...` matches a line that starts with `%9 = "tile.load"(` and
# has `) :` after it; `"tile.dot"(%a, %b, %c) ... : (...) -> T` also matches the op with
# an attribute before its types. A note at
# the end of a doc line (two or more blanks, then "// ") is not part of it. Lines that are
# empty, only "...", a note ("// " first) or a command ("$ " first) are skipped.
# Prints each doc line that matches no line of OUTPUT and exits 1 if there is one, or if
# the block has no line to check (the section or block is gone: the test is stale).

function norm(s) {
  gsub(/[ \t]+/, " ", s)
  sub(/^ /, "", s)
  sub(/ $/, "", s)
  return s
}

# Whether output line `line` matches doc line `pat` ("..." = any text).
function matches(pat, line,    n, p, i, pos, k, piece) {
  if (index(pat, "...") == 0)
    return pat == line
  n = split(pat, p, /\.\.\./)
  pos = 1
  for (i = 1; i <= n; i++) {
    piece = p[i]
    if (i > 1)
      sub(/^ /, "", piece)
    if (i < n)
      sub(/ $/, "", piece)
    if (piece == "")
      continue
    if (i == 1) {
      if (substr(line, 1, length(piece)) != piece)
        return 0
      pos = length(piece) + 1
    } else if (i == n) {
      k = length(line) - length(piece) + 1
      if (k < pos || substr(line, k) != piece)
        return 0
    } else {
      k = index(substr(line, pos), piece)
      if (k == 0)
        return 0
      pos += k - 1 + length(piece)
    }
  }
  return 1
}

FNR == NR { out[++nout] = norm($0); next }

# The doc page.
/^```/ {
  inblock = !inblock
  if (inblock && insection)
    nblock++
  next
}
!inblock && /^## / {
  insection = index($0, "## " section) == 1
  nblock = 0
  next
}
insection && inblock && nblock == block {
  l = $0
  sub(/[ \t][ \t]+\/\/ .*$/, "", l)
  l = norm(l)
  if (l == "" || l == "..." || substr(l, 1, 3) == "// " || substr(l, 1, 2) == "$ ")
    next
  checked++
  for (j = 1; j <= nout; j++)
    if (matches(l, out[j]))
      next
  if (!bad++)
    printf "%s, section %s, block %d: not in the tools' output now:\n", FILENAME, section, block
  print "  " $0
}

END {
  if (checked == 0) {
    printf "%s: section %s has no block %d with lines to check\n", FILENAME, section, block
    exit 1
  }
  exit bad > 0
}
