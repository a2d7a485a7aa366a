"""Loading traces, and their rows as pandas DataFrames.

The C++ module hands each table over column by column (NumPy arrays; names as codes into their
distinct strings), so a DataFrame costs no Python object per row.
"""

from __future__ import annotations

import functools
import glob
import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Optional, Union

import pandas as pd

from . import _native
from ._errors import TraceWarning
from ._results import frame_of

# A path as the functions take it: text or an os.PathLike (pathlib.Path).
PathLike = Union[str, "os.PathLike[str]"]


def _frame(columns: Mapping[str, Any]) -> pd.DataFrame:
    """A table the native module hands over column by column (_native.pyi's _Column) as a
    DataFrame: ("categorical", codes, categories) become pandas Categoricals."""
    data = {}
    for name, column in columns.items():
        if isinstance(column, tuple) and column and column[0] == "categorical":
            _, codes, categories = column
            data[name] = pd.Categorical.from_codes(codes, categories=pd.Index(categories, dtype=object))
        else:
            data[name] = column
    return pd.DataFrame(data, copy=False)


class Trace:
    """One trace file, read by the importer its content calls for.

    The tables are DataFrames, built on first use and kept: ``kernels``, ``ops``,
    ``runtime_calls``, ``memcpys``, ``annotations``, ``memory`` and ``devices``. Times are integer
    nanoseconds; ``device`` indexes ``devices``.
    """

    def __init__(self, native: _native.Trace) -> None:
        self._native = native

    @property
    def path(self) -> str:
        """The file, as given."""
        return self._native.path

    @property
    def format(self) -> str:
        """The format it was read as ("kineto", "nsys-sqlite", ...)."""
        return self._native.format

    @property
    def format_version(self) -> str:
        """The format's era or schema, in words."""
        return self._native.format_version

    @property
    def backends(self) -> list[str]:
        """The backends of the devices that ran something, and cpu."""
        return self._native.backends

    @property
    def rank(self) -> Optional[int]:
        """The rank the trace names (None: it names none)."""
        return self._native.rank

    @property
    def world_size(self) -> Optional[int]:
        """The job's world size the trace names (None: it names none)."""
        return self._native.world_size

    @property
    def warnings(self) -> list[str]:
        """What the importer recovered from, as the command line warns."""
        return self._native.warnings

    @property
    def span_start_ns(self) -> int:
        return self._native.span_start_ns

    @property
    def span_end_ns(self) -> int:
        return self._native.span_end_ns

    @property
    def metadata(self) -> dict[str, str]:
        """The trace's own metadata (Kineto's top-level fields, ...), as written."""
        return self._native.metadata

    @functools.cached_property
    def kernels(self) -> pd.DataFrame:
        """One row per kernel launch: name, backend, device, device_label, stream, start_ns,
        end_ns, duration_ns, grid_x..block_z, registers_per_thread, shared_memory_bytes,
        correlation, external_id, op (the launching op or annotation), origin, graph."""
        return _frame(self._native.kernel_columns())

    @functools.cached_property
    def memcpys(self) -> pd.DataFrame:
        """One row per copy or memset: name, kind, direction, src_memory, dst_memory, bytes,
        backend, device, device_label, stream, start_ns, end_ns, duration_ns, correlation,
        external_id."""
        return _frame(self._native.memcpy_columns())

    @functools.cached_property
    def runtime_calls(self) -> pd.DataFrame:
        """One row per runtime, driver or synchronisation call: name, kind, pid, tid, start_ns,
        end_ns, duration_ns, correlation, external_id."""
        return _frame(self._native.runtime_call_columns())

    @functools.cached_property
    def ops(self) -> pd.DataFrame:
        """One row per framework-op call: name, pid, tid, start_ns, end_ns, duration_ns,
        external_id."""
        return _frame(self._native.slice_columns(ops=True))

    @functools.cached_property
    def annotations(self) -> pd.DataFrame:
        """The other host ranges: user annotations (record_function, ProfilerStep#N), their GPU
        mirrors and Python functions, with kind saying which."""
        return _frame(self._native.slice_columns(ops=False))

    @functools.cached_property
    def memory(self) -> pd.DataFrame:
        """One row per allocator record (Kineto's ``[memory]`` instants, Nsight Systems' memory
        usage events, rocpd's allocations; docs/memory.md) in time order: ts_ns, pid, tid, device
        (index into ``devices``; <NA> for host memory), device_label, device_type and device_id
        (as the record wrote them), address, bytes (negative on free), total_allocated and
        total_reserved (the allocator's totals after it; <NA> where not recorded), op (the
        innermost op open on the thread) and module (its module path; None when the trace has
        none)."""
        return frame_of(self._native.memory_records())

    @functools.cached_property
    def devices(self) -> pd.DataFrame:
        """One row per device that ran something, by the ``device`` index the tables use."""
        return pd.DataFrame(self._native.device_rows())

    def __repr__(self) -> str:
        return f"<tensormorph.Trace {self.path!r} ({self.format}, {', '.join(self.backends)})>"


class Job(list[Trace]):
    """The traces of one job's ranks, in the order given (a list of Trace). Analyses that compare
    ranks treat them as one job when they look like one (each names its rank, the world sizes
    agree, the spans overlap); ``as_job=True`` insists, as the command line's --as-job does."""

    def __init__(self, traces: Iterable[Trace], *, as_job: bool = False) -> None:
        super().__init__(traces)
        self.as_job = as_job


# What the analyses take: a Trace, a path (a file, a folder of rank traces, a glob), or several
# of them (a Job, a list).
TraceLike = Union[Trace, PathLike]
Traces = Union[TraceLike, Iterable[TraceLike]]


def _max_input_bytes(max_input_size: Union[int, str, None]) -> int:
    if max_input_size is None:
        return _native.default_max_input_bytes
    if isinstance(max_input_size, int) and not isinstance(max_input_size, bool):
        if max_input_size < 0:
            raise ValueError(f"max_input_size must be 0 (no limit) or more, not {max_input_size}")
        return max_input_size
    parsed = _native.parse_byte_size(str(max_input_size))
    if parsed is None:
        raise ValueError(f"max_input_size {max_input_size!r} is not a size such as 512M, 32G or 0")
    return parsed


def _warn(trace: Trace, stacklevel: int) -> None:
    for message in trace.warnings:
        # Warnings with a position already start with the path ("FILE:LINE: ...").
        text = message if message.startswith(trace.path + ":") else f"{trace.path}: {message}"
        warnings.warn(TraceWarning(text), stacklevel=stacklevel + 1)


def _load_one(path: PathLike, threads: Optional[int], input_format: Optional[str],
              max_input_size: Union[int, str, None], skip_runs: Optional[int],
              stacklevel: int) -> Trace:
    if threads is not None and not 0 <= threads <= 256:
        raise ValueError(f"threads must be 0 (one per core) to 256, not {threads}")
    if skip_runs is not None and skip_runs < 0:
        raise ValueError(f"skip_runs must be 0 or more, not {skip_runs}")
    native = _native.load(
        os.fspath(path),
        threads=threads or 0,
        input_format=input_format or "",
        max_input_bytes=_max_input_bytes(max_input_size),
        skip_runs=-1 if skip_runs is None else skip_runs,
    )
    trace = Trace(native)
    _warn(trace, stacklevel + 1)
    return trace


def load(path: PathLike, *, threads: Optional[int] = None, input_format: Optional[str] = None,
         max_input_size: Union[int, str, None] = None, skip_runs: Optional[int] = None) -> Trace:
    """Reads one trace file (any format tensormorph reads, detected by content; gzip too).

    threads: parser threads (None or 0 = one per core). input_format: skip detection (the names
    of ``tensormorph --help``'s --input-format). max_input_size: refuse larger content (bytes, or
    a size such as "512M"; 0 = no limit; default 32G). skip_runs: ONNX Runtime profiles' warm-up
    runs to leave out. Raises TraceError (file, line, column) for a file it cannot read; the
    importer's warnings go through ``warnings`` as TraceWarning.
    """
    path = os.fspath(path)
    if not input_format and os.path.isdir(path):
        files = _native.trace_files_in_folder(path)
        if files:
            raise ValueError(
                f"{path} is a folder of {len(files)} trace files: tensormorph.load_job reads them "
                "as the ranks of one job"
            )
    return _load_one(path, threads, input_format, max_input_size, skip_runs, stacklevel=2)


def _expand(paths: Union[PathLike, Iterable[PathLike]]) -> list[str]:
    """Paths, folders (their trace files) and glob patterns (sorted matches) as files."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out: list[str] = []
    for entry in paths:
        entry = os.fspath(entry)
        if glob.has_magic(entry) and not os.path.exists(entry):
            matched = sorted(glob.glob(entry))
            if not matched:
                raise FileNotFoundError(f"{entry}: no file matches")
            out.extend(matched)
        elif os.path.isdir(entry):
            out.extend(_native.trace_files_in_folder(entry) or [entry])
        else:
            out.append(entry)
    return out


def load_job(paths: Union[PathLike, Iterable[PathLike]], *, as_job: bool = False,
             threads: Optional[int] = None, input_format: Optional[str] = None,
             max_input_size: Union[int, str, None] = None,
             skip_runs: Optional[int] = None) -> Job:
    """Reads the rank traces of one job: files, folders of trace files (read as their files, as
    the command line does) or glob patterns. Returns a Job (a list of Trace)."""
    files: Sequence[PathLike]
    if not input_format:
        files = _expand(paths)
    else:  # named files, as they are: no folder or glob is a trace of that format
        files = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    traces = [_load_one(p, threads, input_format, max_input_size, skip_runs, stacklevel=2)
              for p in files]
    return Job(traces, as_job=as_job)
