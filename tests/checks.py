"""Checks: counts the checks of a test script and prints each failure.

Shared by the Python test scripts under tests/ (json, ci, man, html): each
ends with the 'N passed, N failed' line and a non-zero exit on a failure.
"""


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")
        return ok
