#!/usr/bin/env python3
"""One exploration in parts (issue 24): --split, --part, --jobs and symq merge-out.

    run_dist.py SYMQ_BINARY [--filter jobs|prebuilt|refuse|mergeout|resplit|maxtime]

jobs      `symq run --jobs 2` against the single run: on four e2e drivers (paths_branches5,
          err_div, mem_symbolic_size, paths_nested_loops), program_args and same_error (one
          error location found by several parts), on drivers/memspn.c
          and forks_then_memspn.c under --merge=pat, the same tests (as multisets of ktest
          bytes: a test's model is made canonical, engine/out/testmodel.h, so it does not
          depend on the queries a process asked before), the same errors (kind, message,
          file, line), the same path counts and `exhausted`; paths_branches5 really runs in
          parts, and every part of forks_then_memspn merges. mem_symbolic_size and
          paths_nested_loops, whose trees --jobs 2's splitter explores alone, split by hand
          into 2 and 4 parts (merge-out), and forks_then_memspn under pat into 4 (each part
          merging its memspn loop): the single run's tests byte for byte too. The inputs are compiled once:
          every process loads OUTDIR/dist/program.bc (--prebuilt) and records the program
          (info's input, cwd, cflags, runtime lines) as the single run does, with -D and
          --cflags too; `symq replay` passes on the merged output of err_div. --prebuilt with
          another key (options) or without its key file: exit 2, one line naming the file.
          The local parts' tests are placed in their own dist/part-NNNN/, the splitter's in
          OUTDIR, and renamed into OUTDIR: none left hidden or in dist/.
prebuilt  --prebuilt by hand gives the single run's tests; with other options, or without
          its key file, it is refused (exit 2, one line naming the file).
refuse    a part file that was changed, one made for another program, and one whose
          decision is no successor of its fork: exit 2, one line naming the file.
resplit   a part split again (--part=FILE --split=N): the sub-parts extend its prefix and
          together hold exactly its tests.
maxtime   --jobs 2 --max-time=10 on 2^40 paths: exit 0, `exhausted` false, its tests kept;
          while it runs, its parts' hidden tests are in their own dist/part-NNNN/, none in
          OUTDIR but the splitter's.
mergeout  symq merge-out alone: renumbering, .err files beside their tests, an error once
          per location (--keep-all-errors: every one), stats summed, `exhausted` only if
          every directory's, the same bytes twice.

Prints one line per check and exits 1 if one failed."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
E2E = os.path.join(ROOT, "test", "e2e")
SYMQ = os.path.abspath(sys.argv[1])
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-dist-")
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1


def run(*args, ok_codes=(0,)):
    p = subprocess.run([SYMQ, *args], capture_output=True, text=True, timeout=600)
    if p.returncode not in ok_codes:
        print(p.stderr[-2000:])
    return p


def out(name):
    return os.path.join(SCRATCH.name, name)


def ktests(d, errors_too=True):
    """The tests' bytes, sorted; without error tests' unless errors_too."""
    return sorted(open(f, "rb").read() for f in glob.glob(os.path.join(d, "*.ktest"))
                  if errors_too or not glob.glob(f[:-len(".ktest")] + ".*.err"))


def errors(d):
    found = []
    for f in glob.glob(os.path.join(d, "*.err")):
        lines = open(f).read().splitlines()
        found.append((f.split(".")[-2],) + tuple(
            l for l in lines if l.startswith(("Error:", "File:", "Line:"))))
    return sorted(found)


def stats(d):
    with open(os.path.join(d, "stats.json")) as f:
        return json.load(f)


def counts(d):
    s = stats(d)
    return (s["completed_paths"], s["error_paths"], s["early_paths"], s["tests"], s["exhausted"])


def program(d):
    """What info records of the program: the input, cwd, cflags and runtime lines."""
    keys = ("input:", "cwd:", "cflags:", "runtime:", "link_native:")
    return [l for l in open(os.path.join(d, "info")).read().splitlines() if l.startswith(keys)]


def compiled_once(single, jobs, name):
    """Every process of the --jobs run loaded the parent's program.bc and recorded the
    program as the single run did."""
    logs = sorted(glob.glob(os.path.join(jobs, "dist", "*", "info")))
    bc = os.path.join(jobs, "dist", "program.bc")
    argv = [open(f).read().splitlines()[0] for f in logs]
    check(len(logs) >= 1 and os.path.exists(bc) and
          all(a.endswith(" --prebuilt=" + bc) or " --prebuilt=" + bc + " " in a for a in argv),
          f"{name}: the {len(logs)} processes loaded dist/program.bc (--prebuilt), not clang")
    want = program(single)
    check(want and all(program(os.path.dirname(f)) == want for f in logs) and
          program(jobs) == want, f"{name}: every process records the program as the single run")


def jobs_vs_single(driver, *opts, program_args=(), any_error_path=False):
    """any_error_path: an error found on several paths may stand for its location by
    another path's test in the merged output (mergeout.h): error tests' bytes not compared."""
    name = os.path.basename(driver)[:-2] + "".join(o.replace("=", "_").replace(" ", "_") for o in opts)
    single, jobs = out("single-" + name), out("jobs-" + name)
    a = run("run", "--output-dir=" + single, *opts, driver, *program_args)
    b = run("run", "--jobs", "2", "--output-dir=" + jobs, *opts, driver, *program_args)
    check(a.returncode == 0 and b.returncode == 0, f"{name}: both runs end (exit 0)")
    if a.returncode or b.returncode:
        return jobs
    check(ktests(single, not any_error_path) == ktests(jobs, not any_error_path),
          f"{name}: the same {len(ktests(single, not any_error_path))} tests, byte for byte")
    check(errors(single) == errors(jobs), f"{name}: the same {len(errors(single))} errors")
    check(counts(single) == counts(jobs),
          f"{name}: the same completed/error/early paths, tests, exhausted {counts(single)}")
    compiled_once(single, jobs, name)
    placed_once(jobs, name)
    return jobs


def placed_once(jobs, name):
    """The local parts (in their own dist/part-NNNN/) and the splitter (in OUTDIR) wrote their
    tests under hidden .pNNNN- names (.p0000- the splitter's, listed in their placed-tests)
    and the merge renamed every one into OUTDIR: none left hidden, none in the parts' or the
    splitter's directories (a test's file made once, not linked from a part's copy)."""
    hidden = [f for f in os.listdir(jobs) if f.startswith(".p")] + \
        glob.glob(os.path.join(jobs, "dist", "part-*", ".p*"))
    in_parts = glob.glob(os.path.join(jobs, "dist", "part-*", "test*")) + \
        glob.glob(os.path.join(jobs, "dist", "split", "test*"))
    lists = glob.glob(os.path.join(jobs, "dist", "part-*", "placed-tests")) + \
        glob.glob(os.path.join(jobs, "dist", "split", "placed-tests"))
    check(not hidden and not in_parts and
          len(lists) == len(glob.glob(os.path.join(jobs, "dist", "part-*", "stats.json"))) + 1,
          f"{name}: the parts' and the splitter's tests placed and renamed into OUTDIR "
          f"({len(hidden)} left hidden, {len(in_parts)} in their directories, {len(lists)} lists)")


def parts_vs_single(driver, nparts, *opts):
    """The split into nparts by hand, each part run in a process of its own and merge-out:
    the single run's tests byte for byte (the drivers --jobs 2 explores in its splitter
    alone, their trees being narrower than 16 states, do run in parts here)."""
    base = os.path.basename(driver)[:-2]
    name, tag = f"{base}/{nparts}", f"{base}-{nparts}"
    single, split = out("hand-single-" + tag), out("hand-split-" + tag)
    run("run", "--output-dir=" + single, *opts, driver)
    run("run", f"--split={nparts}", "--output-dir=" + split, *opts, driver)
    files = sorted(glob.glob(os.path.join(split, "part-*.part")))
    dirs = [split]
    for k, f in enumerate(files):
        dirs.append(out(f"hand-part{k}-" + tag))
        run("run", "--part=" + f, "--output-dir=" + dirs[-1], *opts, driver)
    merged = out("hand-merged-" + tag)
    p = run("merge-out", *dirs, "-o", merged)
    check(len(files) == nparts and p.returncode == 0, f"{name}: {len(files)} parts merged")
    if p.returncode == 0:
        check(ktests(single) == ktests(merged),
              f"{name}: the same {len(ktests(single))} tests as the single run, byte for byte")
        check(errors(single) == errors(merged), f"{name}: the same {len(errors(single))} errors")


def test_jobs():
    # forking's tree split by hand (symq run merges by pattern unless told not to)
    parts_vs_single(os.path.join(E2E, "mem_symbolic_size.c"), 2, "--merge=none")
    parts_vs_single(os.path.join(E2E, "paths_nested_loops.c"), 2, "--merge=none")
    parts_vs_single(os.path.join(E2E, "paths_nested_loops.c"), 4, "--merge=none")
    parts_vs_single(os.path.join(HERE, "forks_then_memspn.c"), 4, "--merge=pat")
    jobs = jobs_vs_single(os.path.join(E2E, "paths_branches5.c"))
    parts = glob.glob(os.path.join(jobs, "dist", "part-*", "stats.json"))
    check(len(parts) >= 2, f"paths_branches5: explored in {len(parts)} parts")
    check(sum(stats(os.path.dirname(p))["completed_paths"] for p in parts) > 0,
          "paths_branches5: the parts ended paths themselves")
    jobs = jobs_vs_single(os.path.join(HERE, "same_error.c"), any_error_path=True)
    check(stats(jobs).get("errors_left_out", 0) > 0,
          "same_error: parts found the error the first part reported, and their tests were "
          "deleted from OUTDIR (left out)")
    jobs = jobs_vs_single(os.path.join(E2E, "err_div.c"))
    p = run("replay", jobs)
    check(p.returncode == 0, f"err_div: symq replay passes on the merged output (exit {p.returncode})")
    jobs_vs_single(os.path.join(HERE, "program_args.c"), "-DWIDTH=5",
                   "--cflags=-std=gnu11 -DNDEBUG", program_args=("--", "x"))
    # the solver's models depend on its query history (the single run's cache hands back
    # n = 5 where a part asks afresh and gets n = k + 1; m = 2 or 0 where n = 0): the
    # canonical model (engine/out/testmodel.h) gives the same bytes
    jobs_vs_single(os.path.join(E2E, "mem_symbolic_size.c"))
    jobs_vs_single(os.path.join(ROOT, "drivers", "memspn.c"), "--merge=pat")
    jobs_vs_single(os.path.join(E2E, "paths_nested_loops.c"))
    jobs = jobs_vs_single(os.path.join(HERE, "program_args.c"),
                          program_args=("--", "x", "yy", "z"))
    check(len(glob.glob(os.path.join(jobs, "dist", "part-*", "stats.json"))) >= 2,
          "program_args: its parts ran with the program's arguments")
    driver = os.path.join(HERE, "forks_then_memspn.c")
    jobs = jobs_vs_single(driver, "--merge=pat")
    # the split by hand: 4 parts, each merging its own memspn loop
    split = out("ftm-split")
    p = run("run", "--merge=pat", "--split=4", "--output-dir=" + split, driver)
    files = sorted(glob.glob(os.path.join(split, "part-*.part")))
    check(p.returncode == 0 and len(files) == 4, f"forks_then_memspn: split into {len(files)}")
    merged = []
    for k, f in enumerate(files):
        d = out(f"ftm-part{k}")
        run("run", "--merge=pat", "--part=" + f, "--output-dir=" + d, driver)
        merged.append(stats(d)["merge"]["merged_states"] if os.path.exists(d) else 0)
    check(all(m > 0 for m in merged), f"forks_then_memspn: every part merges ({merged})")


def rewrite_part(path, decisions):
    """The part file with other decisions and a check line that fits them (FNV-1a 64)."""
    lines = open(path).read().splitlines(keepends=True)
    head = "".join(lines[:2]) + f"decisions {len(decisions)}\n"
    if decisions:
        head += " ".join(str(d) for d in decisions) + "\n"
    h = 0xcbf29ce484222325
    for b in head.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    with open(path, "w") as f:
        f.write(head + f"check {h:016x}\n")


def refused(part, driver, what):
    p = run("run", "--part=" + part, "--output-dir=" + out("refused-" + what), driver,
            ok_codes=(2,))
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and lines and part in lines[-1] and lines[-1].startswith("symq: error:"),
          f"refused ({what}): exit {p.returncode}, '{lines[-1] if lines else ''}'")


def test_refuse():
    driver = os.path.join(E2E, "paths_branches5.c")
    split = out("refuse-split")
    run("run", "--split=4", "--output-dir=" + split, driver)
    part = os.path.join(split, "part-0002.part")
    good = run("run", "--part=" + part, "--output-dir=" + out("refuse-good"), driver)
    check(good.returncode == 0, "the part as written runs (exit 0)")
    changed = out("changed.part")
    text = open(part).read()
    with open(changed, "w") as f:
        f.write(text.replace("\n0 1\n", "\n1 1\n").replace("\n1 0\n", "\n0 0\n"))
    check(open(changed).read() != text, "the changed part differs from the original")
    refused(changed, driver, "changed")
    refused(part, os.path.join(E2E, "err_div.c"), "another program")
    p = run("run", "--part=" + part, "--capacity=7", "--output-dir=" + out("refused-opts"),
            driver, ok_codes=(2,))
    check(p.returncode == 2 and part in p.stderr, "refused (another --capacity): exit 2")
    wrong = out("wrong.part")
    shutil.copy(part, wrong)
    rewrite_part(wrong, [0, 7])
    refused(wrong, driver, "no such successor")
    short = out("short.part")
    shutil.copy(part, short)
    rewrite_part(short, [0, 1, 0, 1, 0, 1, 0, 1])
    refused(short, driver, "longer than the path")


def test_mergeout():
    driver = os.path.join(E2E, "err_dedup.c")
    a = out("mo-a")
    run("run", "--output-dir=" + a, driver)
    b = out("mo-b")
    shutil.copytree(a, b)
    s = stats(b)
    s["exhausted"] = False
    with open(os.path.join(b, "stats.json"), "w") as f:
        json.dump(s, f)
    m1, m2 = out("mo-m1"), out("mo-m2")
    p = run("merge-out", a, b, "-o", m1)
    run("merge-out", a, b, "-o", m2)
    check(p.returncode == 0, "merge-out exits 0")
    names = sorted(os.listdir(m1))
    tests = sorted(n for n in names if n.endswith(".ktest"))
    src_tests = sorted(n for n in os.listdir(a) if n.endswith(".ktest"))
    src_errs = [n for n in os.listdir(a) if n.endswith(".err")]
    want = 2 * len(src_tests) - len(src_errs)
    check(tests == [f"test{k:06d}.ktest" for k in range(1, want + 1)],
          f"tests renumbered 1..{want} (an error once per location)")
    for e in (n for n in names if n.endswith(".err")):
        ident = e.split(".")[0]
        src = [n for n in src_errs if open(os.path.join(a, n)).read() ==
               open(os.path.join(m1, e)).read()]
        same = src and open(os.path.join(a, src[0].split(".")[0] + ".ktest"), "rb").read() == \
            open(os.path.join(m1, ident + ".ktest"), "rb").read()
        check(bool(same), f"{e} sits beside its own test")
    sm, sa = stats(m1), stats(a)
    check(sm["completed_paths"] == 2 * sa["completed_paths"] and
          sm["instructions"] == 2 * sa["instructions"], "stats.json: counters summed")
    check(sm["states_max"] == sa["states_max"], "stats.json: maxima kept as maxima")
    check(sm["tests"] == want and sm["merged_outputs"] == 2, "stats.json: tests as written")
    check(sm["exhausted"] is False, "exhausted only if every directory's is")
    same = all(open(os.path.join(m1, n), "rb").read() == open(os.path.join(m2, n), "rb").read()
               for n in names)
    check(same and names == sorted(os.listdir(m2)), "the same bytes twice")
    m3 = out("mo-m3")
    run("merge-out", "--keep-all-errors", a, a, "-o", m3)
    check(len(glob.glob(os.path.join(m3, "*.ktest"))) == 2 * len(src_tests),
          "--keep-all-errors keeps every error test")
    p = run("merge-out", a, out("no-such-dir"), "-o", out("mo-bad"), ok_codes=(2,))
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and
          "no-such-dir" in p.stderr, "a directory without stats.json: exit 2, one line")


def test_prebuilt():
    driver = os.path.join(E2E, "paths_branches5.c")
    jobs = out("pb-jobs")
    run("run", "--jobs", "2", "--output-dir=" + jobs, driver)
    bc = os.path.join(jobs, "dist", "program.bc")
    p = run("run", "--prebuilt=" + bc, "--output-dir=" + out("pb-same"), driver)
    single = out("pb-single")
    run("run", "--output-dir=" + single, driver)
    check(p.returncode == 0 and ktests(out("pb-same")) == ktests(single),
          "--prebuilt by hand: the single run's tests")
    p = run("run", "--prebuilt=" + bc, "--capacity=7", "--output-dir=" + out("pb-other"), driver,
            ok_codes=(2,))
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and lines and bc in lines[-1] and "other inputs or options" in lines[-1],
          f"--prebuilt for other options: exit {p.returncode}, '{lines[-1] if lines else ''}'")
    os.unlink(bc + ".key")
    p = run("run", "--prebuilt=" + bc, "--output-dir=" + out("pb-nokey"), driver, ok_codes=(2,))
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and lines and bc + ".key" in lines[-1],
          f"--prebuilt without its key file: exit {p.returncode}, '{lines[-1] if lines else ''}'")


def test_resplit():
    driver = os.path.join(E2E, "paths_branches5.c")
    top, whole, again = out("rs-top"), out("rs-whole"), out("rs-again")
    run("run", "--split=2", "--output-dir=" + top, driver)
    part = os.path.join(top, "part-0001.part")
    run("run", "--part=" + part, "--output-dir=" + whole, driver)
    p = run("run", "--part=" + part, "--split=4", "--output-dir=" + again, driver)
    files = sorted(glob.glob(os.path.join(again, "part-*.part")))
    check(p.returncode == 0 and len(files) == 4, f"a part split again into {len(files)} parts")
    first = open(part).read().split("\n")[3].split()
    check(all(open(f).read().split("\n")[3].split()[:len(first)] == first for f in files),
          "their prefixes extend the part's")
    dirs = [again]
    for k, f in enumerate(files):
        dirs.append(out(f"rs-sub{k}"))
        run("run", "--part=" + f, "--output-dir=" + dirs[-1], driver)
    merged = out("rs-merged")
    run("merge-out", *dirs, "-o", merged)
    check(ktests(merged) == ktests(whole) and counts(merged) == counts(whole),
          f"the sub-parts hold the part's {len(ktests(whole))} tests exactly")


PLACED = ".p[0-9][0-9][0-9][0-9]-test*"  # a placed test's hidden name (engine/out/output.h)


def test_maxtime():
    # 2^40 paths: no machine ends them within the limit, so the run must say it is incomplete
    # (each path's concrete loop keeps the tests to a few thousand: 100,000 in 10 s without it);
    # the limit is 10 s, not 1, so that a busy machine (the sanitized build, clang and the
    # part processes starting) still has parts run and write tests before it
    src = out("wide.c")
    with open(src, "w") as f:
        f.write("#include <klee/klee.h>\nint main(void) {\n  unsigned char b[40];\n"
                "  klee_make_symbolic(b, sizeof b, \"b\");\n  int n = 0;\n"
                "  for (int i = 0; i < 40; i++)\n    if (b[i] > 100) n++;\n"
                "  for (volatile int k = 0; k < 20000; k++)\n    ;\n  return n;\n}\n")
    d = out("maxtime")
    p = subprocess.Popen([SYMQ, "run", "--jobs", "2", "--max-time=10", "--output-dir=" + d, src],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # while its parts run (they end at the limit, so their tests wait to be merged), a part's
    # tests are in its own directory, not in OUTDIR: two processes creating files in one
    # directory take turns at its lock, spinning on the CPU meanwhile (engine/cli/dist.c)
    in_own = in_outdir = 0
    while p.poll() is None:
        if not in_own:
            in_own = len(glob.glob(os.path.join(d, "dist", "part-*", PLACED)))
        in_outdir += sum(1 for f in glob.glob(os.path.join(d, PLACED))
                         if not os.path.basename(f).startswith(".p0000-"))
        time.sleep(0.2)
    err = p.stderr.read()
    if p.returncode:
        print(err[-2000:])
    check(p.returncode == 0, "--jobs 2 --max-time=10 ends (exit 0)")
    check(in_own and not in_outdir,
          f"its parts placed their tests in their own directories ({in_own} there when first "
          f"seen, {in_outdir} sightings in OUTDIR)")
    s = stats(d) if p.returncode == 0 else {}
    check(s.get("exhausted") is False, "and says the exploration is incomplete")
    check(s.get("tests", 0) == len(glob.glob(os.path.join(d, "*.ktest"))) > 0,
          f"with the tests its parts wrote ({s.get('tests')})")


TESTS = {"jobs": test_jobs, "prebuilt": test_prebuilt, "refuse": test_refuse, "mergeout": test_mergeout,
         "resplit": test_resplit, "maxtime": test_maxtime}
if __name__ == "__main__":
    chosen = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--filter" else None
    for name, fn in TESTS.items():
        if chosen in (None, name):
            fn()
    print(f"{'FAILED' if failures else 'passed'}: {failures} failed")
    sys.exit(1 if failures else 0)
