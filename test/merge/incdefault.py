#!/usr/bin/env python3
"""--merge=pat merges into the region's tree as it grows by default (issue 26: pat-inc is the
mode that pays on the real libraries), and stats.json's `incremental_merge` says which was
taken (and the output directory's `info`, an `incremental_merge: on|off` line). On
drivers/memspn_ab.c (capacity 6, whose loop branches two ways per byte):

- `--merge=pat` is `--merge=pat --incremental-merge=on`: incremental_merge true, the same
  Z3 effort, paths, tests, decisions and nodes merged;
- `--merge=pat --incremental-merge=off` is plain PAT: incremental_merge false, no snapshot
  and no node merged;
- `--merge=cfg` stays plain (incremental_merge false, no snapshot), `--merge=cfg
  --incremental-merge` is incremental; `--merge=pat --interpolate` stays plain (interpolation
  needs a merged state joined to the node above its loop: docs/interpolation.md);
- `symq compare --modes=pat,pat-plain` runs the two: its pat run's stats.json says
  incremental_merge true, its pat-plain run's false;
- every run is validated (--validate-merges, and --validate-qsolver under pat) and finds
  --merge=none's errors.

    incdefault.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import json
import os
import subprocess
import sys
import tempfile

import outdir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DRIVER = os.path.join(ROOT, "drivers", "memspn_ab.c")
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-incdefault-")
CAP = ["-DCAPACITY=6", "--solver-timeout=300"]


def run(*options):
    mode = next(o for o in options if o.startswith("--merge=")).split("=")[1]
    checks = outdir.validation(mode)
    stats, out = outdir.run_options(symq, DRIVER, SCRATCH.name, [*CAP, *checks, *options])
    assert stats["exhausted"], f"{' '.join(options)}: exploration incomplete"
    assert stats["merge"]["validation_failures"] == 0, stats["merge"]
    assert outdir.errors(out) == NONE_ERRORS, f"{' '.join(options)}: errors differ from none's"
    with open(os.path.join(out, "info")) as f:  # the run's record says what ran, as stats.json
        said = [line.split(": ", 1)[1] for line in f.read().splitlines()
                if line.startswith("incremental_merge: ")]
    assert said == ["on" if stats["incremental_merge"] else "off"], (options, said)
    return stats


def inc(stats):
    return stats["merge"]["incremental"]


def summary(s):
    return (s["solver_effort"], s["completed_paths"], s["error_paths"], s["tests"],
            s["merge"]["decisions"], inc(s)["nodes_merged"], inc(s)["snapshots"])


def default_is_inc():
    default, given = run("--merge=pat"), run("--merge=pat", "--incremental-merge=on")
    assert default["incremental_merge"] and given["incremental_merge"]
    assert inc(default)["snapshots"] > 0 and inc(default)["nodes_merged"] > 0, inc(default)
    assert summary(default) == summary(given), (summary(default), summary(given))
    return f"effort {default['solver_effort']}, {inc(default)['nodes_merged']} nodes merged"


def off_is_plain():
    plain = run("--merge=pat", "--incremental-merge=off")
    assert not plain["incremental_merge"]
    assert inc(plain)["snapshots"] == 0 and inc(plain)["nodes_merged"] == 0, inc(plain)
    return f"effort {plain['solver_effort']}, decisions {plain['merge']['decisions']}"


def cfg_and_interpolate():
    cfg, cfg_inc = run("--merge=cfg"), run("--merge=cfg", "--incremental-merge")
    assert not cfg["incremental_merge"] and inc(cfg)["snapshots"] == 0, inc(cfg)
    assert cfg_inc["incremental_merge"] and inc(cfg_inc)["snapshots"] > 0, inc(cfg_inc)
    interp = run("--merge=pat", "--interpolate")
    assert not interp["incremental_merge"] and inc(interp)["snapshots"] == 0, inc(interp)
    return "cfg plain, cfg --incremental-merge incremental, pat --interpolate plain"


def compare_modes():
    out = os.path.join(SCRATCH.name, "compare")
    p = subprocess.run([symq, "compare", DRIVER, "--modes=pat,pat-plain", "--no-coverage",
                        f"--output-dir={out}", "--", *CAP], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-300:]
    took = {}
    for mode in ("pat", "pat-plain"):
        with open(os.path.join(out, mode, "stats.json")) as f:
            took[mode] = json.load(f)["incremental_merge"]
    assert took == {"pat": True, "pat-plain": False}, took
    assert "running pat mode (with incremental merging" in p.stderr, p.stderr[-300:]
    return f"incremental_merge {took}"


def main():
    global symq, NONE_ERRORS
    symq = sys.argv[1]
    _, none_out = outdir.run_options(symq, DRIVER, SCRATCH.name, [*CAP, "--merge=none"])
    NONE_ERRORS = outdir.errors(none_out)
    results = []
    outdir.check("--merge=pat is --incremental-merge=on", default_is_inc, results)
    outdir.check("--merge=pat --incremental-merge=off is plain PAT", off_is_plain, results)
    outdir.check("cfg and --interpolate keep it off unless given", cfg_and_interpolate, results)
    outdir.check("symq compare's pat and pat-plain", compare_modes, results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
