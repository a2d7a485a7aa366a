"""What the package's tests share: where the built binary and the shared samples are, and the
command line run as the independent side of each comparison. CMake sets TM_BINARY,
TM_SHARED_DATA and TM_SOURCE_DIR (python/CMakeLists.txt); PYTHONPATH points at the build tree."""

import json
import os
import pathlib
import subprocess

import pytest

BINARY = os.environ.get("TM_BINARY", "")
SHARED_DATA = pathlib.Path(os.environ.get("TM_SHARED_DATA", ""))
SOURCE_DIR = pathlib.Path(os.environ.get("TM_SOURCE_DIR", ""))


def require_environment():
    missing = [name for name, value in (("TM_BINARY", BINARY),
                                         ("TM_SHARED_DATA", str(SHARED_DATA)))
               if not value or not pathlib.Path(value).exists()]
    if missing:
        pytest.fail(f"run through ctest (python_package): {', '.join(missing)} not set or missing",
                    pytrace=False)


class CliRun:
    """One run of the command line: exit code, parsed JSON (when it wrote JSON), stderr lines."""

    def __init__(self, args):
        require_environment()
        done = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=600)
        self.args = args
        self.exit_code = done.returncode
        self.stderr = done.stderr
        writes_json = "--format" in args and args[args.index("--format") + 1] == "json"
        self.document = json.loads(done.stdout) if writes_json and done.returncode == 0 else None

    def error(self):
        """The message of `tensormorph: error: MESSAGE`, as TraceError's str() must read."""
        prefix = "tensormorph: error: "
        line = self.stderr.splitlines()[0] if self.stderr else ""
        assert line.startswith(prefix), f"{self.args}: not an error line: {self.stderr!r}"
        return line[len(prefix):]

    def warnings(self):
        prefix = "tensormorph: warning: "
        return [line[len(prefix):] for line in self.stderr.splitlines() if line.startswith(prefix)]


def cli(*args):
    return CliRun([str(a) for a in args])


def sample_files():
    """Every file of the shared data folder, as the every-sample tests of the C++ suite see it."""
    require_environment()
    return sorted(p for p in SHARED_DATA.rglob("*") if p.is_file())
