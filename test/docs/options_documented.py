#!/usr/bin/env python3
"""options_documented.py SYMQ ROOT — every option a command's --help-all lists is in docs/.

The options table (engine/cli/options.c) generates each command's help; docs/usage.md is
written by hand. This keeps the two together: for `symq run`, `replay`, `cov` and `compare`,
every option name in `--help-all` (its `--name` or `-X`, without the value) must appear in
some docs/*.md file, and a help that lists no option at all fails too (a broken parser must
not pass for a documented one).
"""
import glob
import os
import re
import subprocess
import sys

COMMANDS = ["run", "replay", "cov", "compare"]
# An option at the start of a help line: "  --max-time=TIME", "  --[no-]progress", "  -I DIR".
OPTION = re.compile(r"^  (-[A-Za-z]|--(?:\[no-\])?[a-z0-9][a-z0-9-]*)")


def options_of(symq, command):
    out = subprocess.run([symq, command, "--help-all"], capture_output=True, text=True,
                         check=False)
    if out.returncode != 0:
        sys.exit(f"options_documented: symq {command} --help-all exited {out.returncode}")
    names = []
    for line in out.stdout.splitlines():
        m = OPTION.match(line)
        if m:
            names.append(m.group(1).replace("[no-]", ""))
    return names


def main():
    if len(sys.argv) != 3:
        print("usage: options_documented.py SYMQ ROOT", file=sys.stderr)
        return 2
    symq, root = sys.argv[1], sys.argv[2]
    docs = ""
    for path in sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        with open(path, encoding="utf-8") as f:
            docs += f.read()
    missing = []
    for command in COMMANDS:
        names = options_of(symq, command)
        if not names:
            missing.append(f"symq {command} --help-all lists no option")
        for name in names:
            # the name as a whole word: --max-time must not pass for --max-time-foo
            if not re.search(re.escape(name) + r"(?![a-z0-9-])", docs):
                missing.append(f"symq {command}: {name} is not in docs/")
    for m in missing:
        print(m)
    if missing:
        return 1
    print("options_documented: every option of " + ", ".join(COMMANDS) + " is in docs/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
