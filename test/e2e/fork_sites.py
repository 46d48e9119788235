#!/usr/bin/env python3
"""fork_sites.py SYMQ — `symq run --fork-sites`: stats.json's "fork_sites" counts the forks of
each source location exactly, as the driver's source says (engine/exec/interp_stats.h).

Two drivers, written here with their lines marked:
- LOOP: a loop of 3 iterations over 3 symbolic bytes with two branches (`== 'a'`, else
  `== 'b'`). Before iteration i there are 3^i paths; each forks once at the first branch
  and its false side once at the second: 1 + 3 + 9 = 13 forks at each, 27 paths, no other
  site; no merged state, no region (--merge=none).
- SPAN: memspn's loop over a buffer of symbolic size n <= 3 (`i < n`, `s[i] != 'a'`: 3 forks
  each under forking), then a branch on i after the loop. Under forking i is concrete on
  every path, so that branch never forks; under --merge=cfg the loop is a region whose two
  exits (the bound, the break) each give one merged state, and each of the two forks at the
  branch after the loop: forks 2, merged 2, while the loop's 6 forks are in_region, none
  merged.
- CALLS: a function with one branch, called twice in a row on two symbolic bytes, first from
  main, then through a wrapper: its branch forks once under the first call and twice under
  the second (once per path the first made), so the site has 3 forks and callers
  {"the wrapper's call < main's call of the wrapper": 2, "main's first call": 1}, in that
  order (a caller is the call and its own caller's, main's has none).
Also: without --fork-sites stats.json has no "fork_sites"; the sites are sorted by forks
(ties by line); their sum is stats.json's "forks". Prints `PASS what` / `FAIL what: why`,
then `N passed, N failed`; exit status 1 on a failure.
"""
import json
import os
import subprocess
import sys
import tempfile

from script_report import report

LOOP = """#include <klee/klee.h>
int main(void) {
  char s[3];
  klee_make_symbolic(s, sizeof s, "s");
  int a = 0, b = 0;
  for (int i = 0; i < 3; i++) {
    if (s[i] == 'a') /* @A */
      a++;
    else if (s[i] == 'b') /* @B */
      b++;
  }
  return a - b;
}
"""

SPAN = """#include <klee/klee.h>
#include <stdlib.h>
int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 3);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  size_t i = 0;
  for (; i < n; i++) /* @BOUND */
    if (s[i] != 'a') /* @BREAK */
      break;
  if (i == 2) /* @AFTER */
    return 1;
  return 0;
}
"""

CALLS = """#include <klee/klee.h>
static int is_a(char c) {
  if (c == 'a') /* @IN */
    return 1;
  return 0;
}
static int wrap(char c) {
  return is_a(c); /* @WRAP */
}
int main(void) {
  char s[2];
  klee_make_symbolic(s, sizeof s, "s");
  int n = is_a(s[0]); /* @FIRST */
  n += wrap(s[1]); /* @SECOND */
  return n;
}
"""


def line_of(source, mark):
    return next(n for n, text in enumerate(source.splitlines(), 1) if mark in text)


def run(symq, tmp, name, source, args):
    path = os.path.join(tmp, name + ".c")
    with open(path, "w") as f:
        f.write(source)
    out = os.path.join(tmp, name + "-" + "-".join(a.strip("-") for a in args))
    p = subprocess.run([symq, "run", "--no-progress", f"--output-dir={out}", *args, path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, f"exit {p.returncode}: {p.stderr[-300:]}"
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f), path


def place(key):
    """"FILE:LINE FUNCTION" -> (FILE, LINE, FUNCTION); several joined by " < " -> a list"""
    if " < " in key:
        return [place(part) for part in key.split(" < ")]
    where, function = key.rsplit(" ", 1)
    file, line = where.rsplit(":", 1)
    return file, int(line), function


def sites_of(stats, path, function="main"):
    """{line: {"forks", "merged", "in_region"}} of the driver's sites in `function`, in
    stats.json's order; "callers" apart, checked only when it holds some (sites_callers)."""
    sites = {}
    for key, counts in stats.get("fork_sites", {}).items():
        file, line, fn = place(key)
        if file == path and fn == function:
            sites[line] = {k: v for k, v in counts.items() if k != "callers" or v}
    return sites


def main():
    symq = sys.argv[1]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        stats, path = run(symq, tmp, "loop", LOOP, ["--fork-sites"])
        if stats is None:
            results.append(("the loop runs", False, path))
        else:
            a, b = line_of(LOOP, "@A"), line_of(LOOP, "@B")
            want = {a: {"forks": 13, "merged": 0, "in_region": 0},
                    b: {"forks": 13, "merged": 0, "in_region": 0}}
            got = sites_of(stats, path)
            results.append(("a loop with two branches: 13 forks at each, nowhere else",
                            got == want and len(stats["fork_sites"]) == 2
                            and stats["completed_paths"] == 27,
                            f"sites {stats.get('fork_sites')}, paths {stats['completed_paths']}"))
            results.append(("the sites' forks sum to stats.json's forks",
                            sum(c["forks"] for c in stats["fork_sites"].values())
                            == stats["forks"], f"forks {stats['forks']}"))
            results.append(("ties in line order", list(got) == [a, b], f"order {list(got)}"))
        stats, path = run(symq, tmp, "calls", CALLS, ["--fork-sites"])
        if stats is None:
            results.append(("the calls run", False, path))
        else:
            first, second = line_of(CALLS, "@FIRST"), line_of(CALLS, "@SECOND")
            callers = {}
            for site, counts in sites_of(stats, path, "is_a").items():
                callers[site] = [(place(k), n) for k, n in counts.get("callers", {}).items()]
            wrap = line_of(CALLS, "@WRAP")
            want = {line_of(CALLS, "@IN"): [([(path, wrap, "wrap"), (path, second, "main")], 2),
                                             ((path, first, "main"), 1)]}
            results.append(("a function's branch: its forks by the calls that led there, most first",
                            callers == want and stats["forks"] == 3,
                            f"callers {callers}, want {want}, forks {stats['forks']}"))
        stats, path = run(symq, tmp, "loop", LOOP, [])
        results.append(("no fork_sites without --fork-sites",
                        stats is not None and "fork_sites" not in stats, str(path)))
        bound, brk, after = (line_of(SPAN, m) for m in ("@BOUND", "@BREAK", "@AFTER"))
        for mode, want in (
                ("none", {bound: {"forks": 3, "merged": 0, "in_region": 0},
                          brk: {"forks": 3, "merged": 0, "in_region": 0}}),
                ("cfg", {bound: {"forks": 3, "merged": 0, "in_region": 3},
                         brk: {"forks": 3, "merged": 0, "in_region": 3},
                         after: {"forks": 2, "merged": 2, "in_region": 0}})):
            stats, path = run(symq, tmp, "span", SPAN, ["--fork-sites", f"--merge={mode}"])
            got = sites_of(stats, path) if stats is not None else path
            results.append((f"memspn's loop under --merge={mode}: forks, merged, in regions",
                            got == want, f"sites {got}, want {want}"))
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
