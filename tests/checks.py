"""Checks: counts the checks of a test script and prints each failure.

Shared by the Python test scripts under tests/ (json, ci, man, html): each
ends with the 'N passed, N failed' line and a non-zero exit on a failure.
"""


class Checks:
    """Counts checks; prints failures; finish() ends with the 'N passed, N failed' line."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")
        return ok

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1
