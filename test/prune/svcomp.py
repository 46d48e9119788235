#!/usr/bin/env python3
"""SV-COMP's unreach-call property (`--svcomp=FILE.prp`; issue 22 item 4; prune/svcomp.h):
the last line is `SV-COMP result: true|false(unreach-call)|unknown`, after the verdict line.

1. nondet_noise.c (reach_error unreachable): true, with --interpolate (validated) and plainly.
2. nondet_bug.c, the property file given as an input (FILE.prp, as --svcomp):
   false(unreach-call), the verdict at its reach_error.
3. svcomp_other.c: a division by zero ends a path and reach_error is unreachable: unknown
   under the property (the verdict says which error, "not in reach_error"), while without
   --svcomp the same run's verdict is false (the division).
4. ends_early.c: a path that ended early leaves the result unknown.
5. A property file that is not unreach-call (valid-memsafety), or that cannot be read, is
   refused with one line, exit 2.

    svcomp.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interpolation  # noqa: E402
from interpolation import SCRATCH, check, reach_line, run  # noqa: E402

UNREACH = os.path.join(SCRATCH.name, "unreach-call.prp")
MEMSAFETY = os.path.join(SCRATCH.name, "valid-memsafety.prp")


def result(symq, driver, options):
    p, s = run(symq, driver, 4, options)
    lines = p.stdout.strip().split("\n")
    return p, s, lines


def main():
    symq = sys.argv[1]
    with open(UNREACH, "w", encoding="utf-8") as f:
        f.write("CHECK( init(main()), LTL(G ! call(reach_error())) )\n")
    with open(MEMSAFETY, "w", encoding="utf-8") as f:
        f.write("CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n")
    prop = f"--svcomp={UNREACH}"
    for options in (["--interpolate", "--validate-interpolation", prop], [prop]):
        p, s, lines = result(symq, "nondet_noise", options)
        check(f"nondet_noise {' '.join(options[:-1]) or 'plain'}: SV-COMP result: true",
              p.returncode == 0 and lines[-1] == "SV-COMP result: true"
              and lines[-2] == "symq: verdict: true (every path explored or subsumed)", lines[-2:])
    p, s, lines = result(symq, "nondet_bug", ["--interpolate", "--validate-interpolation", UNREACH])
    check("nondet_bug (the .prp file given as an input): SV-COMP result: false(unreach-call) "
          "at its reach_error",
          lines[-1] == "SV-COMP result: false(unreach-call)" and s is not None
          and s["verdict"].endswith(f"nondet_bug.c:{reach_line('nondet_bug')})"), lines[-2:])
    p, s, lines = result(symq, "svcomp_other", ["--interpolate", "--validate-interpolation", prop])
    check("svcomp_other: another error leaves the result unknown",
          lines[-1] == "SV-COMP result: unknown" and s is not None
          and s["verdict"].startswith("unknown (a path ended in div at ")
          and s["verdict"].endswith(", not in reach_error)"), lines[-2:])
    p, s, lines = result(symq, "svcomp_other", ["--interpolate"])
    check("svcomp_other without --svcomp: verdict false (the division)",
          s is not None and s["verdict"].startswith("false (div at "), s and s["verdict"])
    p, s, lines = result(symq, "ends_early", ["--interpolate", prop])
    check("ends_early: SV-COMP result: unknown", lines[-1] == "SV-COMP result: unknown", lines[-2:])
    for path in (MEMSAFETY, os.path.join(SCRATCH.name, "missing.prp")):
        p, _, _ = result(symq, "nondet_noise", [f"--svcomp={path}"])
        err = p.stderr.strip().split("\n")
        check(f"refused: {os.path.basename(path)}",
              p.returncode == 2 and len(err) == 1 and err[0].startswith("symq: error: --svcomp: "),
              f"rc={p.returncode} {err}")
    print(f"{interpolation.passed} passed, {len(interpolation.failures)} failed")
    return 1 if interpolation.failures else 0


if __name__ == "__main__":
    sys.exit(main())
