#!/usr/bin/env python3
"""eval/real/instr's reading of a callgrind output file, on a hand-made one whose costs are
known: the total is the file's totals line, and Z3's share is the inclusive cost of the calls
entering libz3 from another object (a call naming no cob= targets the caller's own object;
Z3's calls into libc are inside the calls that entered it, so are not added twice)."""
import importlib.machinery
import importlib.util
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
loader = importlib.machinery.SourceFileLoader("instr", os.path.join(REPO, "eval/real/instr"))
spec = importlib.util.spec_from_loader("instr", loader)
instr = importlib.util.module_from_spec(spec)
loader.exec_module(instr)

CALLGRIND = """# callgrind format
version: 1
creator: hand
events: Ir
summary: 787

ob=(1) /work/build/symq
fl=(1) main.c
fn=(1) main
0 100
cob=(2) /usr/lib/libz3.so.4
cfi=(2) ???
cfn=(2) Z3_solver_check
calls=2 0
0 607
cfn=(3) helper
calls=1 0
0 50
cob=(3) /usr/lib/libc.so.6
cfn=(4) malloc
calls=1 0
0 30

ob=(2)
fn=(2)
0 500
cob=(3)
cfn=(4)
calls=4 0
0 100
cfn=(5) z3_internal
calls=1 0
0 7

ob=(1)
fn=(3)
0 50
ob=(3)
fn=(4)
0 130
ob=(2)
fn=(5)
0 7

totals: 787
"""

with tempfile.NamedTemporaryFile("w", suffix=".out", delete=False) as f:
    f.write(CALLGRIND)
try:
    got = instr.callgrind_costs(f.name)
finally:
    os.unlink(f.name)
# self: main 100, Z3 500 + 7, helper 50, malloc 130 (100 of it called by Z3)
want = (787, 607)
if got != want:
    sys.exit(f"callgrind_costs: got {got}, want {want}")
print("ok")
