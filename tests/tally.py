"""tally.py - the pass/fail count the Python test scripts share.

    from tally import check, finish
    check(cond, "what was expected")   # prints "FAIL: ..." when cond is false
    finish()                           # prints "N passed, N failed"; exits 1 on any failure
"""
import sys

counts = {"passed": 0, "failed": 0}


def check(cond, what):
    """Count one check; print what was expected when it fails.  Returns cond."""
    if cond:
        counts["passed"] += 1
    else:
        counts["failed"] += 1
        print("FAIL:", what)
    return bool(cond)


def finish():
    """Print the closing line ctest's log shows and exit 1 if any check failed."""
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    sys.exit(1 if counts["failed"] else 0)
