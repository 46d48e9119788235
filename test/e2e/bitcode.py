"""A C driver compiled to LLVM bitcode the way `symq run FILE.c` compiles it, for the checks
that run one driver in several modes: clang runs once, and every `symq run FILE.bc` loads the
module symq would have compiled itself (same flags, same source path in the debug info, so
the same errors at the same lines). clang's flags are read from engine/core/bitcode.c, where symq's
own are written, and the runtime's include directory from engine/cli/run.c: the two cannot drift
apart. The .c input path stays covered by every test that runs a driver once (e2e, sv, ...)."""
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _symq_flags():
    """clang's arguments before the include directories, and the runtime's include directory."""
    with open(os.path.join(ROOT, "engine", "core", "bitcode.c"), encoding="utf-8") as f:
        text = f.read()
    block = re.search(r'argv\[a\+\+\] = clang;\n(.*?)\n\s*for \(size_t i = 0; i < ninc;', text,
                      re.S)
    flags = re.findall(r'^\s*argv\[a\+\+\] = "([^"]*)";', block.group(1), re.M) if block else []
    with open(os.path.join(ROOT, "engine", "cli", "run.c"), encoding="utf-8") as f:
        include = re.search(r'includes\[0\] = SYMQ_SOURCE_DIR "([^"]+)";', f.read())
    if "-emit-llvm" not in flags or not include:
        raise RuntimeError("bitcode.py: cannot read clang's flags from engine/core/bitcode.c and "
                           "engine/cli/run.c (their shape changed: update bitcode.py)")
    return flags, ROOT + include.group(1)


def _clang(symq):
    """The clang symq was built with (its build directory's CMakeCache.txt), else clang-14."""
    cache = os.path.join(os.path.dirname(os.path.abspath(symq)), "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            m = re.search(r"^SYMQ_CLANG:FILEPATH=(.+)$", f.read(), re.M)
        if m:
            return m.group(1)
    return "clang-14"


def compile_driver(symq, driver, out_bc, defines=()):
    """Compiles driver (a path, used as given, as symq uses it) with the -DNAME[=VALUE]
    options `defines` into out_bc; raises RuntimeError with clang's first line on failure."""
    flags, include = _symq_flags()
    if any(not d.startswith("-D") for d in defines):
        raise RuntimeError(f"bitcode.py: only -D options are passed to clang, not {defines}")
    argv = [_clang(symq), *flags, "-I", include, *defines, "-o", out_bc, driver]
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"clang {driver}: {(p.stderr.strip().splitlines() or [''])[0]}")
    return out_bc
