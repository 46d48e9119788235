"""script_report — the last lines of test/e2e's check scripts (z3_seed.py, fork_sites.py):
`PASS what` or `FAIL what: why` per check, then `N passed, N failed`, as CI parses them."""


def report(results):
    """results: [(what, ok, why)]. Prints them; returns the exit status (1 on a failure)."""
    failed = 0
    for what, ok, why in results:
        print(f"PASS {what}" if ok else f"FAIL {what}: {why}")
        failed += not ok
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0
