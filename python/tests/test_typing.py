"""The package is typed: every public function and method is annotated, the options are
keyword-only, the results are dataclasses whose fields hold what their types say (no
DataFrame.attrs), _native.pyi describes the compiled module as it is, mypy --strict passes over
the package as installed (with py.typed and the stub), and a user's code is checked against it."""

import ast
import dataclasses
import functools
import inspect
import os
import pathlib
import pickle
import re
import subprocess
import sys
import types
import typing
import warnings

import pandas as pd
import pytest

import tensormorph as tm
from tensormorph import _native

from conftest import SHARED_DATA

NCCL = SHARED_DATA / "kineto/hta/nccl_2rank_rank0_a100.json.gz"
PACKAGE = pathlib.Path(tm.__file__).parent
MYPY_CONFIG = pathlib.Path(__file__).with_name("mypy.ini")
PUBLIC_MODULES = (tm, tm.fleet)


def public_callables():
    """(qualified name, function) for every public function of the package and every public
    method, property, classmethod and __init__ of its public classes (their own, not inherited
    from list, Exception or object)."""
    for module in PUBLIC_MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                yield f"{module.__name__}.{name}", obj
            elif inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if attr.startswith("_") and attr != "__init__":
                        continue
                    if isinstance(member, property):
                        member = member.fget
                    elif isinstance(member, (classmethod, staticmethod)):
                        member = member.__func__
                    elif isinstance(member, functools.cached_property):
                        member = member.func
                    if inspect.isfunction(member):
                        yield f"{module.__name__}.{name}.{attr}", member


def missing_annotations(function):
    signature = inspect.signature(function)
    missing = [p.name for i, p in enumerate(signature.parameters.values())
               if p.annotation is inspect.Parameter.empty
               and not (i == 0 and p.name in ("self", "cls"))]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def test_every_public_function_and_method_is_annotated():
    found = dict(public_callables())
    assert len(found) > 60, sorted(found)  # the walk reaches the classes' methods too
    for name in ("tensormorph.kernels", "tensormorph.Trace.kernels", "tensormorph.Trace.rank",
                 "tensormorph.KernelsResult.from_document", "tensormorph.fleet.summarize",
                 "tensormorph.fleet.FleetSummary.report", "tensormorph.fleet.QuantileSketch.add"):
        assert name in found, name
    unannotated = {name: missing for name, function in found.items()
                   if (missing := missing_annotations(function))}
    assert unannotated == {}


def test_options_are_keyword_only():
    """After the traces (or the path, or the count of workers), every option is keyword-only."""
    for module in PUBLIC_MODULES:
        for name in module.__all__:
            function = getattr(module, name)
            if not inspect.isfunction(function):
                continue
            positional_with_default = [
                p.name for p in inspect.signature(function).parameters.values()
                if p.default is not inspect.Parameter.empty
                and p.kind is not inspect.Parameter.KEYWORD_ONLY]
            assert positional_with_default == [], f"{module.__name__}.{name}"
    with pytest.raises(TypeError, match="positional"):
        tm.kernels(NCCL, "name")
    with pytest.raises(TypeError, match="positional"):
        tm.load(NCCL, 1)


def matches(value, hint):
    """Whether `value` is of type `hint` (unions, None, Any; containers by their own type)."""
    if hint is typing.Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(matches(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is not None:
        return isinstance(value, origin)
    return isinstance(value, hint)


def check_result(result):
    """A frozen dataclass whose every field holds its type; its DataFrames carry no attrs."""
    assert dataclasses.is_dataclass(result) and not isinstance(result, type)
    hints = typing.get_type_hints(type(result))
    for field in dataclasses.fields(result):
        value = getattr(result, field.name)
        assert matches(value, hints[field.name]), \
            f"{type(result).__name__}.{field.name}: {type(value).__name__}, not {hints[field.name]}"
        frames = value.values() if isinstance(value, dict) else [value]
        for frame in frames:
            if isinstance(frame, pd.DataFrame):
                assert frame.attrs == {}, f"{type(result).__name__}.{field.name}.attrs"
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, dataclasses.fields(result)[0].name, None)
    assert repr(result).startswith("<tensormorph")


def test_results_are_typed_dataclasses(tmp_path):
    trace = tm.load(NCCL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tm.TraceWarning)  # one rank of two: the job analyses warn
        results = [tm.kernels(trace), tm.ops(trace), tm.timeline(trace), tm.roofline(trace),
                   tm.occupancy(trace), tm.findings(trace), tm.memory(trace),
                   tm.collectives(trace), tm.critical_path(trace),
                   tm.predict(trace, devices="mi300x"), tm.diff(trace, trace),
                   tm.compare([trace, trace]), tm.whatif(trace)]
    kinds = {type(r) for r in results}
    assert kinds == {c for c in vars(tm).values()
                     if isinstance(c, type) and issubclass(c, tm.Result) and c is not tm.Result}
    for result in results:
        check_result(result)
        assert isinstance(result, tm.Result) and result.schema.startswith("tensormorph.")
    check_result(tm.fleet.summarize(NCCL))
    snapshot = tmp_path / "snapshot.pickle"
    snapshot.write_bytes(pickle.dumps({"segments": [], "device_traces": []}))
    check_result(tm.load_snapshot(snapshot))


# The native module's argument lists, as pybind11 writes them in the first line of each
# docstring: "name(a: T, *, b: T = default) -> R".
SIGNATURE = re.compile(r"^(\w+)\((.*)\) -> (.+)$")


def split_top_level(text):
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += char == "["
        depth -= char == "]"
        if char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text.strip():
        parts.append(text[start:].strip())
    return parts


def pybind_type(text):
    """pybind11's type text in the stub's spelling: list[...], X | None, no module prefix."""
    text = text.replace("tensormorph._native.", "")
    for old, new in (("List[", "list["), ("Dict[", "dict["), ("Tuple[", "tuple[")):
        text = text.replace(old, new)
    return re.sub(r"Optional\[([^\[\]]+)\]", r"\1 | None", text)


def pybind_signature(function):
    """[(name, type, default text or None, keyword-only)], return type; `self` left out."""
    first = function.__doc__.strip().splitlines()[0]
    name, arguments, returns = SIGNATURE.match(first).groups()
    assert name == function.__name__
    out, keyword_only = [], False
    for argument in split_top_level(arguments):
        if argument == "*":
            keyword_only = True
            continue
        declared, _, default = argument.partition(" = ")
        arg_name, _, arg_type = declared.partition(": ")
        if arg_name != "self":
            out.append((arg_name, pybind_type(arg_type), default or None, keyword_only))
    return out, pybind_type(returns)


def stub_signature(node):
    arguments = node.args
    out = []
    positional = arguments.posonlyargs + arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + arguments.defaults
    for arg, default in zip(positional, defaults):
        if arg.arg != "self":
            out.append((arg.arg, ast.unparse(arg.annotation), default, False))
    for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults):
        out.append((arg.arg, ast.unparse(arg.annotation), default, True))
    return out, ast.unparse(node.returns), len(arguments.posonlyargs)


def type_agrees(stub, pybind):
    """The stub's type says what pybind11's does, or more: a pointer argument or result may be
    None (pybind11 does not say so), and a bare dict, list or tuple has its item types."""
    return (stub == pybind or stub == f"{pybind} | None" or
            (pybind in ("dict", "list", "tuple") and stub.startswith(pybind + "[")))


def assert_stub_matches(where, stub_node, function):
    stub_args, stub_returns, positional_only = stub_signature(stub_node)
    runtime_args, runtime_returns = pybind_signature(function)
    assert len(stub_args) == len(runtime_args), where
    for (name, annotation, default, keyword_only), (r_name, r_type, r_default, r_kw) in zip(
            stub_args, runtime_args):
        # Arguments bound without a name are arg0, arg1...: the stub makes them positional-only.
        assert name == r_name or (r_name.startswith("arg") and positional_only), (where, name)
        assert type_agrees(annotation, r_type), (where, name, annotation, r_type)
        assert (default is None) == (r_default is None), (where, name)
        if default is not None:
            assert ast.literal_eval(default) == ast.literal_eval(r_default), (where, name)
        assert keyword_only == r_kw, (where, name)
    assert type_agrees(stub_returns, runtime_returns), (where, stub_returns, runtime_returns)


def test_native_stub_is_the_module():
    """_native.pyi names what the compiled module has, nothing else, with the bindings' argument
    names, defaults, keyword-only markers and types (from pybind11's docstrings)."""
    stub = ast.parse((PACKAGE / "_native.pyi").read_text())
    assert (PACKAGE / "py.typed").is_file()
    stub_functions = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    stub_classes = {n.name: n for n in stub.body if isinstance(n, ast.ClassDef)}
    stub_values = {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)}
    runtime = {name: value for name, value in vars(_native).items() if not name.startswith("_")}
    assert set(runtime) == set(stub_functions) | set(stub_classes) | stub_values
    for name in stub_values:
        assert not callable(runtime[name]), name
    assert isinstance(_native.version, str) and isinstance(_native.default_max_input_bytes, int)
    for name, node in stub_functions.items():
        assert_stub_matches(name, node, runtime[name])
    for name, node in stub_classes.items():
        cls = runtime[name]
        assert isinstance(cls, type)
        members = {n.name: n for n in node.body if isinstance(n, ast.FunctionDef)}
        properties = {m for m, n in members.items()
                      if any(isinstance(d, ast.Name) and d.id == "property"
                             for d in n.decorator_list)}
        own = {m: v for m, v in vars(cls).items() if not m.startswith("_")}
        assert set(own) == set(members), name
        for member, value in own.items():
            assert isinstance(value, property) == (member in properties), (name, member)
            if member not in properties:
                assert_stub_matches(f"{name}.{member}", members[member], value)
    # The functions the package calls with keywords accept them (pybind11 names them).
    with pytest.raises(TypeError):
        _native.load(str(NCCL), 0)  # options are keyword-only, as the stub says


def run_mypy(args, cwd, environ=None):
    try:
        import mypy  # noqa: F401  (Debian's python3-mypy; scripts/setup.sh installs it)
    except ImportError:
        pytest.fail("mypy is not installed for this interpreter: scripts/setup.sh installs "
                    "Debian's python3-mypy", pytrace=False)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(MYPY_CONFIG), "--no-error-summary",
         "--hide-error-context", "--no-color-output", *args],
        capture_output=True, text=True, cwd=cwd, env=environ, timeout=600)
    return done.returncode, done.stdout.splitlines()


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("mypy-cache"))


def test_mypy_strict_passes_over_the_package(mypy_cache, tmp_path):
    """The package as installed (the build tree's copy, with py.typed and _native.pyi beside the
    compiled module), under mypy --strict (mypy.ini)."""
    code, lines = run_mypy(["--cache-dir", mypy_cache, str(PACKAGE)], cwd=tmp_path)
    assert (code, lines) == (0, [])


CLIENT = '''\
import tensormorph as tm

trace = tm.load("trace.json.gz")
kernels = tm.kernels(trace, top=3)
reveal_type(kernels.total_ns)
reveal_type(kernels.note)
reveal_type(trace.rank)
reveal_type(tm.timeline(trace).job)
reveal_type(tm.fleet.summarize("ranks/").relative_accuracy)
reveal_type(tm.collectives(tm.load_job("ranks/", as_job=True)).matched_by)
tm.kernels(trace, "name")
verdict: int = tm.diff(trace, trace).verdict
'''


def test_user_code_is_checked_against_the_package(mypy_cache, tmp_path):
    """A user's file, type-checked with the package found on PYTHONPATH as a PEP 561 typed
    package: the results' fields have their types, and an option passed by position or a field
    used as the wrong type is an error."""
    (tmp_path / "client.py").write_text(CLIENT)
    environ = dict(os.environ, PYTHONPATH=str(PACKAGE.parent))
    code, lines = run_mypy(["--cache-dir", mypy_cache, "client.py"], cwd=tmp_path,
                           environ=environ)
    assert code == 1
    assert lines == [
        'client.py:5: note: Revealed type is "builtins.int"',
        'client.py:6: note: Revealed type is "Union[builtins.str, None]"',
        'client.py:7: note: Revealed type is "Union[builtins.int, None]"',
        'client.py:8: note: Revealed type is '
        '"Union[builtins.dict[builtins.str, Any], None]"',
        'client.py:9: note: Revealed type is "builtins.float"',
        'client.py:10: note: Revealed type is "Union[builtins.str, None]"',
        'client.py:11: error: Too many positional arguments for "kernels"  [misc]',
        'client.py:12: error: Incompatible types in assignment (expression has type "str", '
        'variable has type "int")  [assignment]',
    ]
