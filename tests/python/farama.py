"""PettingZoo and Gymnasium for the tests that run them: an installed copy, else their
released sources in <repository>/../shared/vendor (beside the repository on the developers'
machines and in CI's clean clone). Import this module before `common` (and so before
`axio`, which looks for both when it is imported). A test is skipped (exit 77) only where
neither exists."""

import os
import sys

ROOT = os.environ.get("SRC") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
VENDOR = os.path.normpath(os.path.join(ROOT, "..", "shared", "vendor"))


def _importable(modules):
    try:
        for name in modules:
            __import__(name)
        return None
    except ImportError as e:
        return e


def require(*modules):
    """Makes `modules` importable, or exits 77 saying why."""
    missing = _importable(modules)
    if missing and os.path.isdir(VENDOR):
        sys.path.append(VENDOR)  # after any installed copy
        for name in list(sys.modules):  # forget failed partial imports
            if name.split(".")[0] in modules:
                del sys.modules[name]
        missing = _importable(modules)
        if missing:
            print(f"FAIL: {', '.join(modules)} do not import from {VENDOR} ({missing}): "
                  "scripts/install-deps.sh installs what they need from Debian")
            sys.exit(1)
    if missing:
        print(f"SKIP: this test needs {', '.join(modules)} ({missing}); install them "
              f"(pip install pettingzoo gymnasium), or keep their sources in {VENDOR}")
        sys.exit(77)
    where = sys.modules[modules[0]].__file__
    print(f"{', '.join(modules)} from {os.path.dirname(os.path.dirname(where))}")
