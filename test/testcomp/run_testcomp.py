#!/usr/bin/env python3
"""run_testcomp.py — symq's Test-Comp test suites, checked end to end: runs symq on each
SV-COMP-style task, has the suite written, validates it, and compares it with the ktests.

    run_testcomp.py SYMQ_BINARY SUITE_WRITER [--filter NAME] [--keep] [--verbose]

Tasks are test/testcomp/tasks/*.c and test/e2e/svcomp_*.c (NAME: the file name without .c;
shell wildcards allowed). Per task, in a fresh temporary directory:

  1. `symq run --output-dir=OUT TASK.c` writes the tests. When `symq run --help` lists
     --testcomp, the run itself writes the suite (`--testcomp`, plus
     `--testcomp-property=FILE.prp` for a task that names a property); otherwise
     SUITE_WRITER (the testcomp_suite helper: `testcomp_suite OUT TASK.c [FILE.prp]`) does.
  2. OUT/test-suite holds metadata.xml and exactly one testNNNNNN.xml per testNNNNNN.ktest.
  3. xmllint --dtdvalid validates metadata.xml against test-metadata-1.1.dtd and every test
     case against testcase-1.1.dtd (both in this directory); no network is used.
  4. metadata.xml: sourcecodelang C, producer "symq ...", the task's specification, the
     program path as given, programhash = SHA-256 of the task file (hashlib), entryfunction
     main, architecture 64bit, creationtime YYYY-MM-DDTHH:MM:SSZ.
  5. Each test case: its <input>s are the ktest's objects in order, decoded here
     independently (struct / int.from_bytes): one input per nondet_X object with the C type
     and the value printed signed or unsigned, floats that read back to the same bits, one
     unsigned char input per byte of nondet_memory and of any other object; a nondet_bool
     object is 0 or 1. coversError="true" exactly when the test has a reach_error .err (or
     an .err whose stack passes through reach_error).

Directives in a task (comment lines):
  // TESTCOMP-PROPERTY: coverage-branches|coverage-error-call   (default coverage-branches)
  // TESTCOMP-EXPECT: tests=N covers=N                           (optional)

One line per task, `PASS name` or `FAIL name: reason`, then `N passed, N failed`. Exit
status 1 if anything failed (or nothing matched), 0 otherwise. Standard library only.
"""

import argparse
import fnmatch
import glob
import hashlib
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
E2E = os.path.join(os.path.dirname(HERE), "e2e")
PROPERTIES = os.path.join(HERE, "properties")
RUN_TIMEOUT = 120

# name -> (C type, size, kind): written from the Test-Comp rules and x86-64's sizes, on
# purpose not read from engine/out/testcomp.c, so that the two are checked against each other.
TYPES = {
    "nondet_bool": ("_Bool", 1, "bool"),
    "nondet_char": ("char", 1, "s"),
    "nondet_uchar": ("unsigned char", 1, "u"),
    "nondet_short": ("short", 2, "s"),
    "nondet_ushort": ("unsigned short", 2, "u"),
    "nondet_int": ("int", 4, "s"),
    "nondet_uint": ("unsigned int", 4, "u"),
    "nondet_unsigned": ("unsigned int", 4, "u"),
    "nondet_long": ("long", 8, "s"),
    "nondet_ulong": ("unsigned long", 8, "u"),
    "nondet_longlong": ("long long", 8, "s"),
    "nondet_ulonglong": ("unsigned long long", 8, "u"),
    "nondet_int128": ("__int128", 16, "s"),
    "nondet_uint128": ("unsigned __int128", 16, "u"),
    "nondet_float": ("float", 4, "f"),
    "nondet_double": ("double", 8, "f"),
    "nondet_size_t": ("unsigned long", 8, "u"),
    "nondet_loff_t": ("long long", 8, "s"),
    "nondet_sector_t": ("unsigned long", 8, "u"),
    "nondet_pthread_t": ("unsigned long", 8, "u"),
    "nondet_u8": ("unsigned char", 1, "u"),
    "nondet_u16": ("unsigned short", 2, "u"),
    "nondet_u32": ("unsigned int", 4, "u"),
    "nondet_u64": ("unsigned long long", 8, "u"),
    "nondet_pointer": ("void *", 8, "u"),
    "nondet_pchar": ("char *", 8, "u"),
}
SPECS = {
    "coverage-branches": "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )",
    "coverage-error-call": "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )",
}
METADATA_ORDER = ["sourcecodelang", "producer", "specification", "programfile",
                  "programhash", "entryfunction", "architecture", "creationtime"]
DIRECTIVE_RE = re.compile(r"^\s*//\s*(TESTCOMP-[A-Z]+)\s*:\s*(.*)$")


class Bad(Exception):
    pass


def parse_task(path):
    spec = {"property": "coverage-branches", "expect": {}}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = DIRECTIVE_RE.match(line)
            if not m:
                continue
            name, value = m.group(1), m.group(2).strip()
            if name == "TESTCOMP-PROPERTY":
                if value not in SPECS:
                    raise Bad(f"unknown property '{value}'")
                spec["property"] = value
            elif name == "TESTCOMP-EXPECT":
                for word in value.split():
                    k, _, v = word.partition("=")
                    if k not in ("tests", "covers") or not v.isdigit():
                        raise Bad(f"bad TESTCOMP-EXPECT word '{word}'")
                    spec["expect"][k] = int(v)
            else:
                raise Bad(f"unknown directive {name}")
    return spec


def parse_ktest(path):
    """The objects (name, bytes) of a ktest file, decoded from the format description."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 0

    def take(n):
        nonlocal pos
        if pos + n > len(data):
            raise Bad(f"{os.path.basename(path)}: truncated")
        chunk = data[pos:pos + n]
        pos += n
        return chunk

    def u32():
        return struct.unpack(">I", take(4))[0]

    if take(5) != b"KTEST":
        raise Bad(f"{os.path.basename(path)}: bad magic")
    if u32() != 3:
        raise Bad(f"{os.path.basename(path)}: not version 3")
    for _ in range(u32()):
        take(u32())
    u32()
    u32()
    objects = []
    for _ in range(u32()):
        name = take(u32()).decode("utf-8", "replace")
        objects.append((name, take(u32())))
    return objects


def expected_inputs(objects, label):
    """[(type, value text or float)] the suite must hold for these ktest objects."""
    out = []
    for name, data in objects:
        row = TYPES.get(name)
        if row is None:  # nondet_memory, or a harness's own object: one input per byte
            out.extend(("unsigned char", str(b)) for b in data)
            continue
        ctype, size, kind = row
        if len(data) != size:
            raise Bad(f"{label}: object {name} has {len(data)} bytes, expected {size}")
        if kind == "f":
            value = struct.unpack("<f" if size == 4 else "<d", data)[0]
            out.append((ctype, value))
            continue
        if kind == "bool" and data[0] not in (0, 1):
            raise Bad(f"{label}: nondet_bool object holds {data[0]}, not 0 or 1")
        value = int.from_bytes(data, "little", signed=(kind == "s"))
        out.append((ctype, str(value)))
    return out


def covers_error(out, test_base):
    for err in glob.glob(os.path.join(out, test_base + ".*.err")):
        kind = os.path.basename(err)[len(test_base) + 1:-len(".err")]
        if kind == "reach_error":
            return True
        with open(err, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("\t#") and (" in reach_error (" in line or
                                               " in __VERIFIER_error (" in line):
                    return True
    return False


def xmllint(dtd, files):
    cmd = ["xmllint", "--noout", "--nonet", "--dtdvalid", os.path.join(HERE, dtd)] + files
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        # the DOCTYPE's https system identifier is not fetched (--nonet) and xmllint warns
        # about that over three lines on every file: report the first error line instead
        lines = (p.stderr + p.stdout).decode("utf-8", "replace").strip().split("\n")
        errors = [l for l in lines if " error" in l] or lines[-1:] or ["failed"]
        raise Bad(f"xmllint --dtdvalid {dtd}: {errors[0]}")


def symq_has_testcomp(symq):
    p = subprocess.run([symq, "run", "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return b"--testcomp" in p.stdout + p.stderr


def check_metadata(path, task_path, program_arg, spec_text):
    root = ET.parse(path).getroot()
    if root.tag != "test-metadata":
        raise Bad(f"metadata.xml: root is <{root.tag}>")
    tags = [c.tag for c in root]
    if tags != METADATA_ORDER:
        raise Bad(f"metadata.xml: elements {tags}")
    m = {c.tag: (c.text or "") for c in root}
    with open(task_path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    want = {"sourcecodelang": "C", "specification": spec_text, "programfile": program_arg,
            "programhash": digest, "entryfunction": "main", "architecture": "64bit"}
    for k, v in want.items():
        if m[k] != v:
            raise Bad(f"metadata.xml: <{k}> is '{m[k]}', expected '{v}'")
    if not m["producer"].startswith("symq "):
        raise Bad(f"metadata.xml: producer '{m['producer']}'")
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", m["creationtime"]):
        raise Bad(f"metadata.xml: creationtime '{m['creationtime']}'")


def check_testcase(path, objects, covers, label):
    root = ET.parse(path).getroot()
    if root.tag != "testcase":
        raise Bad(f"{label}: root is <{root.tag}>")
    got_covers = root.get("coversError", "false") == "true"
    if got_covers != covers:
        raise Bad(f"{label}: coversError={str(got_covers).lower()}, expected "
                  f"{str(covers).lower()}")
    inputs = [(c.get("type"), c.text or "") for c in root]
    if any(c.tag != "input" for c in root):
        raise Bad(f"{label}: an element other than <input>")
    want = expected_inputs(objects, label)
    if len(inputs) != len(want):
        raise Bad(f"{label}: {len(inputs)} inputs, the ktest gives {len(want)}")
    for k, ((gtype, gtext), (wtype, wvalue)) in enumerate(zip(inputs, want)):
        if gtype != wtype:
            raise Bad(f"{label}: input {k} has type '{gtype}', expected '{wtype}'")
        if isinstance(wvalue, float):
            try:
                g = float(gtext)
            except ValueError:
                raise Bad(f"{label}: input {k} '{gtext}' is not a number")
            size = 4 if wtype == "float" else 8
            fmt = "<f" if size == 4 else "<d"
            same = (math.isnan(g) and math.isnan(wvalue)) or \
                struct.pack(fmt, g) == struct.pack(fmt, wvalue)
            if not same:
                raise Bad(f"{label}: input {k} is {gtext}, the ktest holds {wvalue!r}")
        elif gtext != wvalue:
            raise Bad(f"{label}: input {k} is '{gtext}', the ktest holds {wvalue}")


def check_task(symq, writer, task, keep, verbose, builtin):
    spec = parse_task(task)
    prp = os.path.join(PROPERTIES, spec["property"] + ".prp")
    tmp = tempfile.mkdtemp(prefix="symq-testcomp-")
    out = os.path.join(tmp, "out")
    try:
        # a generous solver timeout: an outcome must not depend on how loaded the machine is
        cmd = [symq, "run", f"--output-dir={out}", "--solver-timeout=120s"]
        if builtin:
            cmd += ["--testcomp", f"--testcomp-property={prp}"]
        cmd.append(task)
        if verbose:
            print("  $ " + " ".join(cmd), flush=True)
        try:
            p = subprocess.run(cmd, cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Bad(f"symq did not finish in {RUN_TIMEOUT}s")
        if p.returncode != 0:
            tail = p.stderr.decode("utf-8", "replace").strip().split("\n")[-1]
            raise Bad(f"symq exit status {p.returncode}: {tail}")
        if not builtin:
            w = [writer, out, task, prp]
            if verbose:
                print("  $ " + " ".join(w), flush=True)
            p = subprocess.run(w, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if p.returncode != 0:
                raise Bad(f"testcomp_suite failed: {p.stderr.decode('utf-8', 'replace').strip()}")

        suite = os.path.join(out, "test-suite")
        if not os.path.isdir(suite):
            raise Bad("no test-suite directory")
        ktests = sorted(n[:-len(".ktest")] for n in os.listdir(out) if n.endswith(".ktest"))
        xmls = sorted(os.listdir(suite))
        want_files = sorted(["metadata.xml"] + [k + ".xml" for k in ktests])
        if xmls != want_files:
            raise Bad(f"test-suite holds {xmls}, expected {want_files}")

        xmllint("test-metadata-1.1.dtd", [os.path.join(suite, "metadata.xml")])
        cases = [os.path.join(suite, k + ".xml") for k in ktests]
        if cases:
            xmllint("testcase-1.1.dtd", cases)

        check_metadata(os.path.join(suite, "metadata.xml"), task, task,
                       SPECS[spec["property"]])
        ncovers = 0
        for k in ktests:
            objects = parse_ktest(os.path.join(out, k + ".ktest"))
            covers = covers_error(out, k)
            ncovers += covers
            check_testcase(os.path.join(suite, k + ".xml"), objects, covers, k + ".xml")
        exp = spec["expect"]
        if "tests" in exp and len(ktests) != exp["tests"]:
            raise Bad(f"expected tests={exp['tests']}, got {len(ktests)}")
        if "covers" in exp and ncovers != exp["covers"]:
            raise Bad(f"expected covers={exp['covers']}, got {ncovers}")
    finally:
        if keep:
            print(f"  kept {tmp}", flush=True)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description="symq Test-Comp suites (see the docstring)")
    ap.add_argument("symq")
    ap.add_argument("writer", help="the testcomp_suite helper")
    ap.add_argument("--filter", help="task name (file name without .c); wildcards allowed")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--verbose", "-v", action="store_true")
    opts = ap.parse_args()
    symq = os.path.abspath(opts.symq)
    writer = os.path.abspath(opts.writer)

    tasks = sorted(glob.glob(os.path.join(HERE, "tasks", "*.c")) +
                   glob.glob(os.path.join(E2E, "svcomp_*.c")))
    if opts.filter:
        tasks = [t for t in tasks
                 if fnmatch.fnmatchcase(os.path.basename(t)[:-2], opts.filter)]
    if not tasks:
        print(f"FAIL: no task matches '{opts.filter}'")
        print("0 passed, 1 failed")
        return 1
    problem = None
    if shutil.which("xmllint") is None:
        problem = "xmllint not found (Debian package libxml2-utils)"
    elif not os.access(symq, os.X_OK):
        problem = f"{symq} is not executable"
    builtin = problem is None and symq_has_testcomp(symq)
    if problem is None and not builtin and not os.access(writer, os.X_OK):
        problem = f"{writer} is not executable"

    passed = failed = 0
    for task in tasks:
        name = os.path.basename(task)[:-2]
        try:
            if problem:
                raise Bad(problem)
            check_task(symq, writer, task, opts.keep, opts.verbose, builtin)
            passed += 1
            print(f"PASS {name}", flush=True)
        except Bad as e:
            failed += 1
            print(f"FAIL {name}: {e}", flush=True)
        except Exception as e:  # a bug here or an unreadable file: still one line
            failed += 1
            print(f"FAIL {name}: internal error: {type(e).__name__}: {e}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
