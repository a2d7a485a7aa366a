"""The options' defaults are written once, in the library's options structs: the package's
signatures read them from the native module (option_defaults), the command line from the same
structs; so each default the package shows is the one `tensormorph COMMAND --help` shows."""

import inspect
import re
import subprocess

import pytest

import tensormorph as tm
from tensormorph import _native

from conftest import BINARY, require_environment

# (package function, its argument, the command, the command's option)
SAME_OPTION = [
    (tm.timeline, "gap_us", "timeline", "--gap"),
    (tm.timeline, "straggler_threshold_percent", "timeline", "--straggler-threshold"),
    (tm.timeline, "queue_limit", "timeline", "--queue-limit"),
    (tm.findings, "gap_us", "findings", "--gap"),
    (tm.findings, "attainable_roof_percent", "findings", "--attainable-roof"),
    (tm.findings, "slow_copy_percent", "findings", "--slow-copy"),
    (tm.findings, "straggler_threshold_percent", "findings", "--straggler-threshold"),
    (tm.findings, "top_items", "findings", "--top-items"),
    (tm.memory, "top", "memory", "--top"),
    (tm.diff, "threshold_percent", "diff", "--threshold"),
    (tm.diff, "alpha", "diff", "--alpha"),
    (tm.report, "gap_us", "report", "--gap"),
    (tm.report, "threshold_percent", "report", "--threshold"),
    (tm.report, "max_boxes", "report", "--max-boxes"),
    (tm.ops, "top_kernels", "ops", "--top-kernels"),
]


def help_default(command, option):
    """The default `tensormorph COMMAND --help` shows for OPTION ("--gap FLOAT:... =100")."""
    require_environment()
    text = subprocess.run([BINARY, command, "--help"], capture_output=True, text=True,
                          check=True, timeout=60).stdout
    match = re.search(rf"^\s+{re.escape(option)} [^\n=]*=(\S+)", text, re.MULTILINE)
    assert match, f"{command} {option}: no default in --help"
    return float(match.group(1))


@pytest.mark.parametrize("function,argument,command,option", SAME_OPTION,
                         ids=[f"{f.__name__}.{a}" for f, a, _, _ in SAME_OPTION])
def test_package_default_is_the_commands(function, argument, command, option):
    default = inspect.signature(function).parameters[argument].default
    assert default == help_default(command, option)


def test_option_defaults_name_the_native_arguments():
    """Each default is keyed by a native function and one of its argument names, so that a
    renamed argument cannot leave a default behind."""
    defaults = _native.option_defaults()
    assert set(defaults) == {"ops_json", "timeline_json", "findings_json", "memory_json",
                             "diff_json", "report_html"}
    for function, options in defaults.items():
        signature = getattr(_native, function).__doc__.strip().splitlines()[0]
        for name, value in options.items():
            assert re.search(rf"\b{name}: ", signature), (function, name)
            assert isinstance(value, (int, float)) and not isinstance(value, bool), (function, name)
    # A fresh dict each call: the package's copy cannot be changed through the module.
    assert _native.option_defaults() is not defaults
    assert defaults["timeline_json"]["min_gap_ns"] == 100_000  # docs/timeline.md's 100 µs
