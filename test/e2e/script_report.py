"""script_report — the last lines of the check scripts (test/e2e's z3_seed.py and
fork_sites.py, test/robust's halt_order.py): `PASS what` or `FAIL what: why` per check, then
`N passed, N failed`, as CI parses them."""


def report(results):
    """results: [(what, ok, why)]. Prints them; returns the exit status (1 on a failure)."""
    failed = 0
    for what, ok, why in results:
        print(f"PASS {what}" if ok else f"FAIL {what}: {why}")
        failed += not ok
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0
