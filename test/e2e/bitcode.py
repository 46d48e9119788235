"""A C driver compiled to LLVM bitcode the way `symq run FILE.c` compiles it, for the checks
that run one driver in several modes: it is compiled once, by `symq compile`, and every
`symq run FILE.bc` loads the module symq would have compiled itself (same flags, same source
path in the debug info, so the same errors at the same lines). `symq compile` loads its
inputs with `symq run`'s own code (engine/cli/run.c, engine/core/bitcode.c), so the two
cannot drift apart. The .c input path stays covered by every test that runs a driver once
(e2e, sv, ...)."""
import subprocess


def compile_driver(symq, driver, out_bc, defines=()):
    """Compiles driver (a path, used as given, as symq uses it) with the -DNAME[=VALUE]
    options `defines` into out_bc with `symq compile`; raises RuntimeError with symq's
    one-line error on failure."""
    if any(not d.startswith("-D") for d in defines):
        raise RuntimeError(f"bitcode.py: only -D options are passed to clang, not {defines}")
    argv = [symq, "compile", *defines, "-o", out_bc, driver]
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"symq compile {driver}: {(p.stderr.strip().splitlines() or [''])[0]}")
    return out_bc
