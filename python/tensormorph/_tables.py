"""Loading traces, and their rows as pandas DataFrames.

The C++ module hands each table over column by column (NumPy arrays; names as codes into their
distinct strings), so a DataFrame costs no Python object per row.
"""

import functools
import glob
import os
import warnings

import pandas as pd

from . import _native
from ._errors import TraceWarning
from ._results import frame_of


def _frame(columns):
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

    def __init__(self, native):
        self._native = native

    path = property(lambda self: self._native.path)
    format = property(lambda self: self._native.format)
    format_version = property(lambda self: self._native.format_version)
    backends = property(lambda self: self._native.backends)
    rank = property(lambda self: self._native.rank)
    world_size = property(lambda self: self._native.world_size)
    warnings = property(lambda self: self._native.warnings)
    span_start_ns = property(lambda self: self._native.span_start_ns)
    span_end_ns = property(lambda self: self._native.span_end_ns)
    metadata = property(lambda self: self._native.metadata)

    @functools.cached_property
    def kernels(self):
        """One row per kernel launch: name, backend, device, device_label, stream, start_ns,
        end_ns, duration_ns, grid_x..block_z, registers_per_thread, shared_memory_bytes,
        correlation, external_id, op (the launching op or annotation), origin, graph."""
        return _frame(self._native.kernel_columns())

    @functools.cached_property
    def memcpys(self):
        """One row per copy or memset: name, kind, direction, src_memory, dst_memory, bytes,
        backend, device, device_label, stream, start_ns, end_ns, duration_ns, correlation,
        external_id."""
        return _frame(self._native.memcpy_columns())

    @functools.cached_property
    def runtime_calls(self):
        """One row per runtime, driver or synchronisation call: name, kind, pid, tid, start_ns,
        end_ns, duration_ns, correlation, external_id."""
        return _frame(self._native.runtime_call_columns())

    @functools.cached_property
    def ops(self):
        """One row per framework-op call: name, pid, tid, start_ns, end_ns, duration_ns,
        external_id."""
        return _frame(self._native.slice_columns(ops=True))

    @functools.cached_property
    def annotations(self):
        """The other host ranges: user annotations (record_function, ProfilerStep#N), their GPU
        mirrors and Python functions, with kind saying which."""
        return _frame(self._native.slice_columns(ops=False))

    @functools.cached_property
    def memory(self):
        """One row per allocator record (Kineto's ``[memory]`` instants, Nsight Systems' memory
        usage events, rocpd's allocations; docs/memory.md) in time order: ts_ns, pid, tid, device
        (index into ``devices``; <NA> for host memory), device_label, device_type and device_id
        (as the record wrote them), address, bytes (negative on free), total_allocated and
        total_reserved (the allocator's totals after it; <NA> where not recorded), op (the
        innermost op open on the thread) and module (its module path; None when the trace has
        none)."""
        return frame_of(self._native.memory_records())

    @functools.cached_property
    def devices(self):
        """One row per device that ran something, by the ``device`` index the tables use."""
        return pd.DataFrame(self._native.device_rows())

    def __repr__(self):
        return f"<tensormorph.Trace {self.path!r} ({self.format}, {', '.join(self.backends)})>"


class Job(list):
    """The traces of one job's ranks, in the order given (a list of Trace). Analyses that compare
    ranks treat them as one job when they look like one (each names its rank, the world sizes
    agree, the spans overlap); ``as_job=True`` insists, as the command line's --as-job does."""

    def __init__(self, traces, as_job=False):
        super().__init__(traces)
        self.as_job = as_job


def _max_input_bytes(max_input_size):
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


def _warn(trace, stacklevel):
    for message in trace.warnings:
        # Warnings with a position already start with the path ("FILE:LINE: ...").
        text = message if message.startswith(trace.path + ":") else f"{trace.path}: {message}"
        warnings.warn(TraceWarning(text), stacklevel=stacklevel + 1)


def _load_one(path, threads, input_format, max_input_size, skip_runs, stacklevel):
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


def load(path, threads=None, input_format=None, max_input_size=None, skip_runs=None):
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


def _expand(paths):
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out = []
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


def load_job(paths, as_job=False, threads=None, input_format=None, max_input_size=None,
             skip_runs=None):
    """Reads the rank traces of one job: files, folders of trace files (read as their files, as
    the command line does) or glob patterns. Returns a Job (a list of Trace)."""
    files = paths if input_format else _expand(paths)
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    traces = [_load_one(p, threads, input_format, max_input_size, skip_runs, stacklevel=2)
              for p in files]
    return Job(traces, as_job=as_job)
