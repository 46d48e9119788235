#!/usr/bin/env python3
"""switch_queries.py SYMQ — what a switch on a symbolic value asks the solver
(engine/exec/interp.c, feasible_targets): a value of the condition on the path names one
target and one query asks whether the condition can leave it, so a switch whose value the
path already decides costs two queries, whatever its number of cases; where it can leave,
each other target (the case groups and the default) is asked too.

The driver (below) classifies a symbolic byte first (SHAPE) and then switches on it over nine
case groups and the default; DECIDED keeps only digits, which one group takes, FREE lets the
byte be anything. Each runs twice, with the switch (-DSWITCH) and without, under
--merge=none: the difference in stats.json's "queries", less one model query for each test
the switch's extra paths write, is the switch's own, on the one path that reaches it. DECIDED: exactly 2 (asking case by case would take 10). FREE: 2 + 9 (the
nine targets besides the one the value names). The paths are the same either way: one per
feasible target. Prints `PASS what` / `FAIL what: why`, then `N passed, N failed`.
"""
import json
import os
import subprocess
import sys
import tempfile

from script_report import report

DRIVER = """#include <klee/klee.h>
int main(void) {
  unsigned char c;
  klee_make_symbolic(&c, sizeof c, "c");
#ifdef DECIDED
  if (c < '0' || c > '9')
    return 0;
#endif
  int r = 0;
#ifdef SWITCH
  switch (c) {
  case '0': case '1': case '2': case '3': case '4':
  case '5': case '6': case '7': case '8': case '9': r = 1; break;
  case 'a': r = 2; break;
  case 'b': r = 3; break;
  case 'c': r = 4; break;
  case 'd': r = 5; break;
  case 'e': r = 6; break;
  case 'f': r = 7; break;
  case 'x': r = 8; break;
  case '%': r = 9; break;
  default: r = 10; break;
  }
#endif
  return r;
}
"""


def run(symq, tmp, defines):
    name = "-".join(d[2:] for d in defines) or "plain"
    src = os.path.join(tmp, "switch.c")
    with open(src, "w") as f:
        f.write(DRIVER)
    out = os.path.join(tmp, name)
    p = subprocess.run([symq, "run", "--no-progress", "--merge=none", f"--output-dir={out}",
                        *defines, src], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{name}: exit {p.returncode}: {p.stderr[-300:]}")
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f)


def main():
    symq = sys.argv[1]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for shape, want_queries, want_paths in (("DECIDED", 2, 3), ("FREE", 11, 10)):
            try:
                plain = run(symq, tmp, [f"-D{shape}"] if shape == "DECIDED" else [])
                switched = run(symq, tmp, ([f"-D{shape}"] if shape == "DECIDED" else [])
                               + ["-DSWITCH"])
            except RuntimeError as e:
                results.append((f"{shape}: the runs", False, str(e)))
                continue
            tests = switched["completed_paths"] - plain["completed_paths"]
            asked = switched["queries"] - plain["queries"] - tests
            results.append((f"{shape}: the switch asks {want_queries} queries", asked == want_queries,
                            f"it asked {asked}"))
            results.append((f"{shape}: {want_paths} paths, one per feasible target",
                            switched["completed_paths"] == want_paths,
                            f"{switched['completed_paths']} paths"))
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
