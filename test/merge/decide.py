#!/usr/bin/env python3
"""PAT's merge decisions (merge/decide.h, docs/merging.md "Merge decisions"), each on a driver
of test/merge/decide/ (or drivers/) where the decision logic, if wrong, shows (plain PAT:
every pat run with --incremental-merge=off, the decisions at a region's exits being what is
pinned):

1. fallback: states PAT cannot merge by pattern continue forked by default — memspn over "ab"
   (too many candidate patterns, nothing merged by pattern) gives exactly --merge=none's
   paths, tests and errors; on decide/fallback.c (some partitions merge by pattern, some
   states are left) no CFG merge happens by default and `--pat-fallback=cfg` makes them.
2. declined: decide/read_later.c (the exit's differing value is read by every later branch)
   and decide/forall_read.c (the ∀'s buffer is read after the loop) are declined with their
   reasons (read_later's at its release or early, on the first states at its exit: each
   iteration leaves by a path of its own) and behave as --merge=none; `--merge-decide=always` merges both by pattern. The
   values are weighed before the pattern synthesis: read_later's partitions, declined on
   their values, synthesize no formula (merge.pat.syntheses 0, 2 under always), forall_read's,
   declined only for the ∀'s reads, do.
3. a loop whose regions twice merged nothing (decide/barren.c) opens no more regions; memspn
   still merges by pattern (nothing after its loop reads what differs).
4. --dump-tree notes the decisions on the region's graph.
5. a region with more states waiting at its exits than --max-region-states gives up: memspn
   with a limit of 3 writes exactly --merge=none's tests (as a multiset of ktest objects).
6. the group size (issue 26's collapse_spaces regression): decide/big_group.c's fallback group
   (63 states, 6 distinct ends, a second scan after the loop that reads neither) is merged
   the CFG way by default, where --pat-fallback=fork explores --merge=none's paths; with
   -DREAD_LEN (only the end, constant in each forked state, is read afterwards) the same
   group is declined and pat behaves as none.
7. under --merge-loops=decoded a loop bounded by a length decoded from the input and checked
   against the input's size (decide/der_length.c) opens a region, and its pattern merge is
   taken; under the default it opens none.
8. big_group.c -DHASHED: a CFG merge whose disjunction is six times what a forked state carries
   is still taken, and asks under a third of --merge=none's queries (a proxy weighing a
   merged query by its path condition's size declines it, wrongly).
9. decide/barren_exit.c: the CFG fallback at an error exit (`return -1` from inside a loop
   PAT cannot merge by pattern) whose members have one query left after it (the caller's
   test of the result) is declined, "declined: nothing left to ask after the exit", and its
   states continue forked; the loop's normal exit still merges the CFG way;
   --merge-decide=always merges both.
10. decide/rewalk_call.c: the CFG fallback at the exit of a loop whose function main calls
   again on the same string is declined on the exit's first sample of states, "declined
   early: a later call walks the merged paths' bytes again", so that the states after it do
   not wait, and pat explores --merge=none's paths; --merge-decide=always merges it.
11. decide/rewalk_call.c -DTO_COLON: the same with a loop whose exit's states partition by pattern
   (each arrives by a path of its own length): the exit is declined on its first sample, by
   the rewalk, before any pattern is synthesized (merge.pat.syntheses 0), where the sample's
   partitions used to keep it waiting until the release declined them after synthesizing
   their ∀; pat explores --merge=none's paths; --merge-decide=always merges by pattern.
12. decide/pool.c (wget url_parse's c_strncasecmp in small): the exit's partitions by pattern,
   each declined on its values (their members' results differ member by member), join the
   exit's other leftovers, whose CFG merge pays: "fallback cfg (values declined in its
   partition)", and fewer paths than --merge=none (the old binary declined each partition and
   forked them).
Every merging run has --validate-merges and --validate-qsolver; errors (kind, line) must equal
--merge=none's.

    decide.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import glob
import json
import os
import subprocess
import sys
import tempfile

import outdir

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "e2e"))
import run_e2e  # noqa: E402  (parse_ktest)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-decide-")


def run(symq, driver, mode, *extra):
    out = tempfile.mkdtemp(dir=SCRATCH.name)
    os.rmdir(out)
    check = outdir.validation(mode) if mode != "none" else []
    plain = outdir.PLAIN if mode == "pat" else []
    p = subprocess.run([symq, "run", "--no-progress", f"--merge={mode}", f"--output-dir={out}",
                        *outdir.unhurried([*check, *plain, *extra]), driver],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{mode} {extra}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    problems = outdir.quantified_problems(stats)
    if problems or stats["merge"]["validation_failures"]:
        raise RuntimeError(f"{mode} {extra}: {problems} {stats['merge']}")
    return out, stats, outdir.errors(out)


def none_pat_always(symq, name, *extra):
    """decide/NAME.c under --merge=none, pat and pat --merge-decide=always (each with the
    options extra): each run's stats and errors."""
    driver = os.path.join(HERE, "decide", name + ".c")
    _, none, none_err = run(symq, driver, "none", *extra)
    _, pat, pat_err = run(symq, driver, "pat", *extra)
    _, always, always_err = run(symq, driver, "pat", *extra, "--merge-decide=always")
    return none, none_err, pat, pat_err, always, always_err


def decisions(stats):
    return stats["merge"]["decisions"]


def main():
    symq = sys.argv[1]
    results = []

    def fork_like_none():
        ab = os.path.join(ROOT, "drivers", "memspn_ab.c")
        _, none, none_err = run(symq, ab, "none", "-DCAPACITY=4")
        _, pat, pat_err = run(symq, ab, "pat", "-DCAPACITY=4", "--pat-fallback=fork")
        d = decisions(pat)
        assert d and all(k.startswith("fallback fork (") for k in d), d
        assert pat["merge"]["merges"] == 0, pat["merge"]
        for key in ("completed_paths", "error_paths", "tests"):
            assert pat[key] == none[key], (key, pat[key], none[key])
        assert pat_err == none_err, (pat_err, none_err)
        _, cfg, cfg_err = run(symq, ab, "pat", "-DCAPACITY=4", "--pat-fallback=cfg",
                              "--merge-decide=always")
        assert cfg["merge"]["merges"] >= 1 and cfg_err == none_err, (cfg["merge"], cfg_err)
        assert all(k.startswith("fallback cfg (") for k in decisions(cfg)), decisions(cfg)
        return f"{d}; {pat['completed_paths']} paths as none; with cfg {decisions(cfg)}"
    outdir.check("fallback=fork: memspn_ab forks as --merge=none does", fork_like_none, results)

    def fallback_mixed():
        driver = os.path.join(HERE, "decide", "fallback.c")
        _, none, none_err = run(symq, driver, "none")
        _, pat, pat_err = run(symq, driver, "pat", "--pat-fallback=fork")
        # (--merge-decide=always: the estimate would decline these CFG merges, main branches
        # on the merged result; here the fallback itself is under test)
        _, cfg, cfg_err = run(symq, driver, "pat", "--pat-fallback=cfg", "--merge-decide=always")
        d, m = decisions(pat), pat["merge"]
        assert any(k.startswith("fallback fork (") for k in d), d
        assert not any(k.startswith("fallback cfg") for k in d), d
        assert m["merges"] == m["pat"]["merges"], m  # no CFG merge by default
        assert cfg["merge"]["merges"] > cfg["merge"]["pat"]["merges"], cfg["merge"]
        assert pat_err == none_err == cfg_err, (none_err, pat_err, cfg_err)
        assert cfg["completed_paths"] < pat["completed_paths"] <= none["completed_paths"]
        return (f"fork: {d}, {pat['completed_paths']} paths; cfg: {cfg['merge']['merges']} "
                f"merges, {cfg['completed_paths']} paths; none {none['completed_paths']}")
    outdir.check("fallback: decide/fallback.c forks under fork, merges under cfg", fallback_mixed,
                 results)

    def declined(name, reason, synthesized):
        def fn():
            driver = os.path.join(HERE, "decide", name + ".c")
            _, none, none_err = run(symq, driver, "none")
            _, pat, pat_err = run(symq, driver, "pat")
            _, always, always_err = run(symq, driver, "pat", "--merge-decide=always")
            d = decisions(pat)
            assert sum(d.get(r, 0) for r in reason) >= 1 and "merged by pattern" not in d, d
            assert pat["merge"]["merges"] == 0, pat["merge"]
            for key in ("completed_paths", "error_paths", "tests"):
                assert pat[key] == none[key], (key, pat[key], none[key])
            assert always["merge"]["pat"]["merges"] >= 1, always["merge"]
            assert pat_err == none_err == always_err, (none_err, pat_err, always_err)
            # the value part of the decision comes before the synthesis (issue 26): a
            # partition declined on its values synthesizes nothing
            syn, syn_always = pat["merge"]["pat"]["syntheses"], always["merge"]["pat"]["syntheses"]
            assert syn_always >= always["merge"]["pat"]["merges"], always["merge"]["pat"]
            assert (syn >= 1) if synthesized else (syn == 0), (syn, pat["merge"]["pat"])
            return (f"{d}, {syn} syntheses; --merge-decide=always: {decisions(always)}, "
                    f"{syn_always} syntheses")
        return fn
    outdir.check("declined: read_later's values feed later branches",
                 declined("read_later", ("declined: merged values read by later queries",
                                         "declined early: merged values read by later queries"),
                          False),
                 results)
    outdir.check("declined: forall_read's buffer is read after the loop",
                 declined("forall_read", ("declined: quantified array read by later queries",),
                          True),
                 results)

    def barren():
        driver = os.path.join(HERE, "decide", "barren.c")
        _, none, none_err = run(symq, driver, "none")
        _, pat, pat_err = run(symq, driver, "pat")
        m = pat["merge"]
        assert m["regions_opened"] == 2, m  # the third call's loop no longer opens one
        assert m["regions_skipped"].get("the loop's earlier regions merged nothing", 0) > 0, m
        assert m["merges"] == 0 and pat_err == none_err, (m, pat_err, none_err)
        for key in ("completed_paths", "error_paths", "tests"):
            assert pat[key] == none[key], (key, pat[key], none[key])
        return f"{m['regions_opened']} regions, then {m['regions_skipped']}"
    outdir.check("a loop whose regions merged nothing opens no more", barren, results)

    def memspn_merges():
        out, pat, _ = run(symq, os.path.join(ROOT, "drivers", "memspn.c"), "pat",
                          "-DCAPACITY=6", "--dump-tree")
        assert decisions(pat) == {"merged by pattern": 2}, decisions(pat)
        dots = sorted(glob.glob(os.path.join(out, "region*.dot")))
        assert dots, "no region graph"
        with open(dots[0]) as f:
            dot = f.read()
        assert "decisions [shape=note" in dot and "merged by pattern" in dot, dot[-400:]
        return f"{decisions(pat)}, noted in {os.path.basename(dots[0])}"
    outdir.check("memspn still merges by pattern; --dump-tree notes it", memspn_merges, results)

    def gives_up():
        memspn = os.path.join(ROOT, "drivers", "memspn.c")
        none_out, none, none_err = run(symq, memspn, "none", "-DCAPACITY=6")
        pat_out, pat, pat_err = run(symq, memspn, "pat", "-DCAPACITY=6",
                                    "--max-region-states=3")
        reason = "gave up: more states waiting at the exits than --max-region-states"
        assert decisions(pat) == {reason: 1}, decisions(pat)
        assert pat["merge"]["merges"] == 0 and pat_err == none_err, (pat["merge"], pat_err)

        # The same paths, so as many tests; not byte for byte: a test's model may come from
        # the solver's caches (independence slices a path's size bound apart from its bytes,
        # qsolver/bounds.h), whose contents depend on the order the paths were asked in.
        def objects(out):
            return sorted(len(run_e2e.parse_ktest(k))
                          for k in glob.glob(os.path.join(out, "*.ktest")))
        assert objects(pat_out) == objects(none_out), "other tests than --merge=none's"
        for key in ("completed_paths", "error_paths", "tests"):
            assert pat[key] == none[key], (key, pat[key], none[key])
        return f"{decisions(pat)}; {pat['tests']} tests, as none's"
    outdir.check("a region with too many waiting states gives up: none's tests", gives_up,
                 results)

    def big_group():
        driver = os.path.join(HERE, "decide", "big_group.c")
        _, none, none_err = run(symq, driver, "none")
        _, fork, fork_err = run(symq, driver, "pat", "--pat-fallback=fork")
        _, pat, pat_err = run(symq, driver, "pat")
        d = decisions(pat)
        assert any(k.startswith("fallback cfg (") for k in d), d
        assert not any(k.startswith("declined") for k in d), d
        # the paths fork explores, a merged state counting for its members: later loops may
        # still merge by pattern (which depends on the order states resume in)
        paths = fork["completed_paths"] + fork["merge"]["merged_states"] - fork["merge"]["merges"]
        assert paths == none["completed_paths"], (fork, none)
        assert 10 * pat["completed_paths"] < none["completed_paths"], pat["completed_paths"]
        assert pat_err == none_err == fork_err, (none_err, pat_err, fork_err)
        return (f"{d}: {pat['completed_paths']} paths against none's and fork's "
                f"{none['completed_paths']}")
    outdir.check("group size: big_group's 63 states merge the CFG way", big_group, results)

    def big_group_read_len():
        driver = os.path.join(HERE, "decide", "big_group.c")
        _, none, none_err = run(symq, driver, "none", "-DREAD_LEN")
        _, pat, pat_err = run(symq, driver, "pat", "-DREAD_LEN")
        d = decisions(pat)
        reason = "declined: merged values read by later queries (too many candidate patterns)"
        assert d.get(reason, 0) >= 1 and pat["merge"]["merges"] == 0, d
        for key in ("completed_paths", "error_paths", "tests"):
            assert pat[key] == none[key], (key, pat[key], none[key])
        assert pat_err == none_err, (pat_err, none_err)
        return f"{d}; {pat['completed_paths']} paths as none"
    outdir.check("group size: big_group -DREAD_LEN is declined (only the end is read)",
                 big_group_read_len, results)

    def der_length():
        driver = os.path.join(HERE, "decide", "der_length.c")
        _, none, none_err = run(symq, driver, "none")
        _, pat, pat_err = run(symq, driver, "pat", "--merge-loops=decoded")
        _, size, _ = run(symq, driver, "pat")
        assert size["merge"]["regions_opened"] == 0, size["merge"]
        m = pat["merge"]
        assert m["regions_opened"] >= 1 and not m["regions_skipped"], m
        assert decisions(pat).get("merged by pattern", 0) >= 1, decisions(pat)
        assert pat["completed_paths"] < none["completed_paths"], (pat, none)
        assert pat_err == none_err, (pat_err, none_err)
        return (f"{m['regions_opened']} region, {decisions(pat)}; {pat['completed_paths']} "
                f"paths against {none['completed_paths']}")
    outdir.check("a loop over a decoded, size-checked length opens a region", der_length,
                 results)

    def big_group_hashed():
        driver = os.path.join(HERE, "decide", "big_group.c")
        _, none, none_err = run(symq, driver, "none", "-DHASHED")
        _, pat, pat_err = run(symq, driver, "pat", "-DHASHED")
        d = decisions(pat)
        assert any(k.startswith("fallback cfg (") for k in d), d
        assert not any(k.startswith("declined") for k in d), d
        assert 3 * pat["queries"] < none["queries"], (pat["queries"], none["queries"])
        assert pat_err == none_err, (pat_err, none_err)
        return f"{d}: {pat['queries']} queries against none's {none['queries']}"
    outdir.check("big_group -DHASHED's disjunction, six times a forked pc, still merges (pays)",
                 big_group_hashed, results)
    def barren_exit():
        none, none_err, pat, pat_err, always, always_err = none_pat_always(symq, "barren_exit")
        d = decisions(pat)
        barren = [k for k in d if k.startswith("declined: nothing left to ask after the exit (")]
        assert barren and sum(d[k] for k in barren) >= 1, d
        assert any(k.startswith("fallback cfg (") for k in d), d  # the normal exit still merges
        assert not any(k.startswith("declined") for k in decisions(always)), decisions(always)
        assert pat["completed_paths"] > always["completed_paths"], (pat["completed_paths"],
                                                                    always["completed_paths"])
        assert pat_err == none_err == always_err, (none_err, pat_err, always_err)
        return (f"{d}: {pat['completed_paths']} paths; always {always['completed_paths']}, "
                f"none {none['completed_paths']}")
    outdir.check("barren_exit: a fallback with one query left after its exit is declined",
                 barren_exit, results)

    def rewalk_call():
        none, none_err, pat, pat_err, always, always_err = none_pat_always(symq, "rewalk_call")
        d = decisions(pat)
        # declined on the exit's first sample (its paths met again, so only a rewalk, which
        # more members cannot reverse, declines it that early): the states do not wait
        rewalk = [k for k in d
                  if k == "declined early: a later call walks the merged paths' bytes again"]
        assert rewalk and not any(k.startswith("fallback cfg") for k in d), d
        assert not any(k.startswith("declined: ") for k in d), d
        assert pat["merge"]["merges"] == 0, pat["merge"]
        for key in ("completed_paths", "error_paths", "tests"):
            assert pat[key] == none[key], (key, pat[key], none[key])
        assert any(k.startswith("fallback cfg (") for k in decisions(always)), decisions(always)
        assert pat_err == none_err == always_err, (none_err, pat_err, always_err)
        return (f"{d}: {pat['completed_paths']} paths as none; always {decisions(always)}")
    outdir.check("rewalk_call: a fallback whose bytes a later call walks again is declined",
                 rewalk_call, results)

    def rewalk_pattern():
        none, none_err, pat, pat_err, always, always_err = none_pat_always(symq, "rewalk_call",
                                                                           "-DTO_COLON")
        d = decisions(pat)
        # the rewalk stands however the sample partitions: declined on the first 8 states,
        # nothing left for the release to decide, no ∀ synthesized for it
        assert d == {"declined early: a later call walks the merged paths' bytes again": 1}, d
        assert pat["merge"]["pat"]["syntheses"] == 0, pat["merge"]["pat"]
        assert pat["merge"]["merges"] == 0, pat["merge"]
        for key in ("completed_paths", "error_paths", "tests"):
            assert pat[key] == none[key], (key, pat[key], none[key])
        assert decisions(always).get("merged by pattern"), decisions(always)
        assert pat_err == none_err == always_err, (none_err, pat_err, always_err)
        return (f"{d}: {pat['completed_paths']} paths as none; always {decisions(always)}")
    outdir.check("rewalk_call -DTO_COLON: a pattern-partitioned sample whose bytes a later call walks "
                 "again is declined early", rewalk_pattern, results)

    def pool():
        none, none_err, pat, pat_err, always, always_err = none_pat_always(symq, "pool")
        d = decisions(pat)
        # its partitions, each declined on its values, join the leftovers' CFG merge
        assert d.get("fallback cfg (values declined in its partition)"), d
        assert pat["completed_paths"] < none["completed_paths"], \
            (pat["completed_paths"], none["completed_paths"])
        assert pat_err == none_err == always_err, (none_err, pat_err, always_err)
        return f"{d}: {pat['completed_paths']} paths against none's {none['completed_paths']}"
    outdir.check("pool: partitions declined on their values merge with the leftovers the CFG way",
                 pool, results)

    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
