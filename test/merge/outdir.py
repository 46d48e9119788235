"""What the merge tests read from a symq output directory."""
import glob
import os
import re


def errors(out):
    """The errors found, as a set of (kind, line): `testN.KIND.err` and its `Line:`."""
    found = set()
    for err in glob.glob(os.path.join(out, "*.err")):
        with open(err) as f:
            line = re.search(r"^Line: (\d+)$", f.read(), re.M)
        found.add((os.path.basename(err).split(".")[1], int(line.group(1)) if line else 0))
    return found
