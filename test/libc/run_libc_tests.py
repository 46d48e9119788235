#!/usr/bin/env python3
"""run_libc_tests.py — checks symq's libc model (runtime/lib) against glibc, function group
by function group.

    run_libc_tests.py SYMQ_BINARY [--filter NAME] [-j N] [--keep] [--verbose]
                      [--work-dir DIR] [--cc CLANG] [--timeout SECONDS]

Each test/libc/<group>.c (every .c here but harness.c) is a driver that makes small inputs
symbolic and calls the group's functions, recording results with harness.h's check_*.
For each group:

  1. `symq run` explores the driver (the model is linked in as for any run). The run must
     succeed with no error path and no early path (unless EXPECT says otherwise) and write
     at least one test.
  2. The driver is compiled natively twice: against glibc, and against the model compiled
     natively (every symbol the model defines is renamed model_NAME, in the model's object
     files and in the driver's, with objcopy --redefine-syms; the driver's source is the
     same). Both are linked with harness.c.
  3. Both run every .ktest of step 1 (harness.c replays the objects) and must print the
     same thing: the same check_* records, the same bytes on stdout and stderr, the same
     exit status. One input per explored path of the model, so every path is checked.

Directives — comment lines in a driver:
  // EXPECT: [completed=N] [errors=N] [early=N] [tests=N]
        stats.json's completed_paths, error_paths, early_paths, tests. errors and early
        are 0 unless given; completed and tests are checked only when given (path counts
        document where the model forks: a regression there fails the test).
  // EXPECT-EARLY: SUBSTRING      some early path's reason contains it (repeatable)
  // EXPECT-STDOUT: TEXT          symq's stdout contains TEXT (\\n means a newline)
  // ARGS: OPTION ...             extra `symq run` options (`--merge=none` where EXPECT counts
                                forking's paths: symq run merges by pattern by default)

The native model build is cached under --work-dir (default: a temporary directory), keyed
by a hash of the model's sources and the compiler flags, so parallel CTest runs share it.
Prints `PASS group` or `FAIL group: why` per group, then exactly `N passed, N failed`.
Exit status 1 if anything failed or no group matched.
"""

import argparse
import concurrent.futures
import fnmatch
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RUNTIME_LIB = os.path.join(REPO, "runtime", "lib")
RUNTIME_INCLUDE = os.path.join(REPO, "runtime", "include")

# The model natively: runtime/CMakeLists.txt's flags, without -emit-llvm.
MODEL_FLAGS = ["-c", "-g", "-O0", "-std=c11", "-fno-builtin", "-D__NO_CTYPE",
               "-D_FORTIFY_SOURCE=0", "-w", "-I" + RUNTIME_INCLUDE]
# A driver natively: the flags engine/core/bitcode.c gives clang for a driver (keep in sync).
DRIVER_FLAGS = ["-c", "-g", "-O0", "-fno-builtin", "-D__NO_CTYPE", "-DLIBC_NATIVE",
                "-Werror=implicit-function-declaration",
                "-Dmain=libc_test_main", "-I" + RUNTIME_INCLUDE, "-I" + HERE]


class Fail(Exception):
    pass


def run(cmd, cwd=None, timeout=300, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace",
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise Fail(f"timed out after {timeout}s: {shlex.join(cmd)}")
    return p


def must(cmd, what, cwd=None):
    p = run(cmd, cwd=cwd)
    if p.returncode != 0:
        raise Fail(f"{what} failed: {shlex.join(cmd)}\n{p.stdout}{p.stderr}")
    return p


# ---- the native model build (cached) ----------------------------------------------------

def model_build(cc, work_dir):
    """Returns (object files of the renamed model, redefine-syms file, harness.o)."""
    sources = sorted(glob.glob(os.path.join(RUNTIME_LIB, "*.c")))
    inputs = sources + sorted(glob.glob(os.path.join(RUNTIME_LIB, "*.h")))
    inputs += [os.path.join(HERE, "harness.c"), os.path.join(HERE, "harness.h"),
               os.path.join(RUNTIME_INCLUDE, "klee", "klee.h")]
    h = hashlib.sha256()
    h.update(repr((cc, MODEL_FLAGS, DRIVER_FLAGS)).encode())
    for path in inputs:
        h.update(path.encode())
        with open(path, "rb") as f:
            h.update(f.read())
    final = os.path.join(work_dir, "model-" + h.hexdigest()[:16])
    if not os.path.isdir(final):
        tmp = tempfile.mkdtemp(prefix="model-tmp-", dir=work_dir)
        objects = []
        for src in sources:
            obj = os.path.join(tmp, os.path.basename(src)[:-2] + ".o")
            must([cc] + MODEL_FLAGS + ["-o", obj, src], "compiling the model natively")
            objects.append(obj)
        names = set()
        for obj in objects:
            p = must(["nm", "--defined-only", "--extern-only", "--format=just-symbols",
                      obj], "listing the model's symbols")
            names.update(line.strip() for line in p.stdout.splitlines() if line.strip())
        syms = os.path.join(tmp, "rename.syms")
        with open(syms, "w") as f:
            for name in sorted(names):
                f.write(f"{name} model_{name}\n")
        for obj in objects:
            must(["objcopy", "--redefine-syms=" + syms, obj], "renaming the model's symbols")
        must([cc, "-c", "-g", "-O0", "-I" + RUNTIME_INCLUDE, "-I" + HERE, "-DLIBC_NATIVE",
              "-o", os.path.join(tmp, "harness.o"), os.path.join(HERE, "harness.c")],
             "compiling harness.c")
        try:
            os.rename(tmp, final)
        except OSError:  # another run got there first: use its build
            shutil.rmtree(tmp, ignore_errors=True)
    objects = sorted(glob.glob(os.path.join(final, "*.o")))
    harness = os.path.join(final, "harness.o")
    objects.remove(harness)
    return objects, os.path.join(final, "rename.syms"), harness


# ---- directives ----------------------------------------------------------------------------

def directives(path):
    d = {"expect": {}, "early": [], "stdout": [], "args": []}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*//\s*([A-Z][A-Z-]*):\s*(.*?)\s*$", line)
            if not m:
                continue
            key, value = m.group(1), m.group(2)
            if key == "EXPECT":
                for item in value.split():
                    k, _, v = item.partition("=")
                    if k not in ("completed", "errors", "early", "tests") or not v.isdigit():
                        raise Fail(f"bad EXPECT item {item!r}")
                    d["expect"][k] = int(v)
            elif key == "EXPECT-EARLY":
                d["early"].append(value)
            elif key == "EXPECT-STDOUT":
                d["stdout"].append(value.replace("\\n", "\n"))
            elif key == "ARGS":
                d["args"] += shlex.split(value)
            else:
                raise Fail(f"unknown directive {key}")
    return d


# ---- one group ---------------------------------------------------------------------------

def parse_blocks(text):
    blocks, name = {}, None
    for line in text.splitlines():
        if line.startswith("== "):
            name = line[3:]
            blocks[name] = []
        elif name is not None:
            blocks[name].append(line)
    return blocks


def ktest_objects(path):
    """[(name, bytes)] of a ktest, for messages."""
    with open(path, "rb") as f:
        data = f.read()
    at = 5
    version = int.from_bytes(data[at:at + 4], "big"); at += 4
    nargs = int.from_bytes(data[at:at + 4], "big"); at += 4
    for _ in range(nargs):
        n = int.from_bytes(data[at:at + 4], "big"); at += 4 + n
    if version >= 2:
        at += 8
    nobj = int.from_bytes(data[at:at + 4], "big"); at += 4
    objs = []
    for _ in range(nobj):
        n = int.from_bytes(data[at:at + 4], "big"); at += 4
        name = data[at:at + n].decode(errors="replace"); at += n
        n = int.from_bytes(data[at:at + 4], "big"); at += 4
        objs.append((name, data[at:at + n])); at += n
    return objs


def check_group(driver, args, model):
    name = os.path.basename(driver)[:-2]
    d = directives(driver)
    tmp = tempfile.mkdtemp(prefix=f"libc-{name}-")
    try:
        out = os.path.join(tmp, "out")
        # a generous solver timeout first (the driver's ARGS may override it): an outcome must
        # not depend on how loaded the machine is
        cmd = [args.symq, "run", f"--output-dir={out}", "--solver-timeout=120s", "-I", HERE] \
            + d["args"] + [driver]
        p = run(cmd, cwd=tmp, timeout=args.timeout)
        if p.returncode != 0:
            raise Fail(f"symq exited with {p.returncode}: {p.stderr.strip()[-2000:]}")
        with open(os.path.join(out, "stats.json")) as f:
            stats = json.load(f)
        expect = dict(errors=0, early=0)
        expect.update(d["expect"])
        keys = dict(completed="completed_paths", errors="error_paths", early="early_paths",
                    tests="tests")
        for k, want in expect.items():
            got = stats.get(keys[k])
            if got != want:
                extra = ""
                if k == "early":
                    extra = f" (reasons: {stats.get('early_reasons')})"
                if k == "errors":
                    errs = sorted(glob.glob(os.path.join(out, "*.err")))
                    if errs:
                        with open(errs[0], errors="replace") as f:
                            extra = f" (first: {f.read().strip()[:600]})"
                raise Fail(f"{k}: expected {want}, got {got}{extra}")
        text = json.dumps(stats)
        for reason in d["early"]:
            if reason not in text:
                raise Fail(f"no early path with reason {reason!r}")
        for want in d["stdout"]:
            if want not in p.stdout:
                raise Fail(f"symq's stdout lacks {want!r}: {p.stdout[-1000:]!r}")
        ktests = sorted(glob.glob(os.path.join(out, "*.ktest")))
        if not ktests:
            raise Fail("no tests written")

        objects, syms, harness = model
        obj = os.path.join(tmp, "driver.o")
        must([args.cc] + DRIVER_FLAGS + ["-o", obj, driver], "compiling the driver natively")
        obj_model = os.path.join(tmp, "driver-model.o")
        must(["objcopy", "--redefine-syms=" + syms, obj, obj_model], "renaming in the driver")
        exe_glibc = os.path.join(tmp, "glibc")
        exe_model = os.path.join(tmp, "model")
        must([args.cc, "-o", exe_glibc, obj, harness], "linking against glibc")
        must([args.cc, "-o", exe_model, obj_model] + objects + [harness],
             "linking against the model")
        results = {}
        env = dict(os.environ, LIBC_FATAL_STDERR_="1")  # glibc's fatal messages on stderr
        for label, exe in (("glibc", exe_glibc), ("model", exe_model)):
            r = run([exe] + ktests, cwd=tmp, timeout=args.timeout, env=env)
            if r.returncode != 0:
                raise Fail(f"native {label} run failed ({r.returncode}): {r.stderr[-1000:]}")
            results[label] = parse_blocks(r.stdout)
        mismatches = []
        for kt in ktests:
            t = os.path.basename(kt)
            g, m = results["glibc"].get(t), results["model"].get(t)
            if g is None or m is None:
                mismatches.append(f"{t}: no output")
                continue
            for line in g + m:
                if line.startswith("klee_assume violated") or line.startswith("ktest:"):
                    mismatches.append(f"{t}: {line}")
                    break
            else:
                if g != m:
                    diff = [f"    glibc: {a}\n    model: {b}" for a, b in
                            zip(g + ["<end>"] * len(m), m + ["<end>"] * len(g)) if a != b]
                    inputs = ", ".join(f"{n}={v.hex()}" for n, v in ktest_objects(kt))
                    mismatches.append(f"{t} ({inputs}):\n" + "\n".join(diff[:3]))
        if mismatches:
            raise Fail(f"{len(mismatches)} of {len(ktests)} tests disagree with glibc:\n  "
                       + "\n  ".join(mismatches[:5]))
        return f"{len(ktests)} tests, {stats.get('completed_paths')} completed paths"
    finally:
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("symq")
    ap.add_argument("--filter", default="*")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--work-dir")
    ap.add_argument("--cc", default="clang-14")
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    args.symq = os.path.abspath(args.symq)

    drivers = sorted(p for p in glob.glob(os.path.join(HERE, "*.c"))
                     if os.path.basename(p) != "harness.c"
                     and fnmatch.fnmatch(os.path.basename(p)[:-2], args.filter))
    if not drivers:
        print(f"no driver matches {args.filter!r}")
        print("0 passed, 0 failed")
        return 1
    own_work = args.work_dir is None
    work = tempfile.mkdtemp(prefix="libc-work-") if own_work else args.work_dir
    os.makedirs(work, exist_ok=True)
    passed = failed = 0
    try:
        try:
            model = model_build(args.cc, work)
        except Fail as e:
            for drv in drivers:
                print(f"FAIL {os.path.basename(drv)[:-2]}: {e}")
            print(f"0 passed, {len(drivers)} failed")
            return 1
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
            futures = [(drv, pool.submit(check_group, drv, args, model)) for drv in drivers]
            for drv, fut in futures:
                name = os.path.basename(drv)[:-2]
                try:
                    info = fut.result()
                    passed += 1
                    print(f"PASS {name}" + (f" ({info})" if args.verbose else ""))
                except Fail as e:
                    failed += 1
                    print(f"FAIL {name}: {e}")
                sys.stdout.flush()
    finally:
        if own_work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
