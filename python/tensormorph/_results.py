"""The analyses' results: small typed objects (frozen dataclasses) holding the JSON document each
command writes with ``--format json`` (the same C++ serializer) and that document as DataFrames.

These classes only reshape the document, so a column is named as its JSON field and holds the
same number:

* a document's ``rows`` become the ``rows`` DataFrame, one column per field; fields that hold
  lists or objects (ops' ``placements``, ``top_kernels``) stay Python objects in their cell;
* the document's other members are typed fields of the result (``total_ns: int``, ``verdict:
  str``; nested objects as the JSON's dicts, ``None`` where the command leaves them out), and
  ``document`` is the JSON itself. Nothing is kept in ``DataFrame.attrs``, which pandas drops in
  most operations;
* a list of objects inside each item of another list is a table of its own, each row led by its
  parent's key (``collective_ranks`` by the collective's ``index``);
* a timeline's per-device objects are flattened: nested objects give dotted column names
  (``gaps.by_cause.queued``, ``launch_latency.overhead.p50_ns``), and nested lists of objects
  become tables of their own, keyed by the device's ``input`` and ``label``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Optional

import pandas as pd

JsonObject = dict[str, Any]
Record = Mapping[str, Any]

_INT64 = (-(1 << 63), (1 << 63) - 1)


def _column(values: Sequence[Any]) -> Any:
    """One column of JSON values, typed so that no number changes: integers stay int64 (the
    nullable Int64 when some rows have null, since float64 would round nanosecond timestamps past
    2^53), floats float64 (null as NaN), booleans bool or boolean, anything else object."""
    present = [v for v in values if v is not None]
    missing = len(present) < len(values)
    if present and all(isinstance(v, bool) for v in present):
        return pd.array(values, dtype="boolean") if missing else pd.array(values, dtype=bool)
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        if _INT64[0] <= min(present) and max(present) <= _INT64[1]:
            return pd.array(values, dtype="Int64") if missing else pd.array(values, dtype="int64")
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        if all(isinstance(v, float) or abs(v) < (1 << 53) for v in present):
            return pd.array([float("nan") if v is None else float(v) for v in values],
                            dtype="float64")
    column = pd.array([None] * len(values), dtype=object)
    for i, v in enumerate(values):
        column[i] = v
    return column


def frame_of(records: Sequence[Record]) -> pd.DataFrame:
    """Records (dicts) as a DataFrame, columns in first-seen order, each typed by _column."""
    names: dict[str, None] = {}
    for record in records:
        for name in record:
            names.setdefault(name, None)
    return pd.DataFrame({name: _column([r.get(name) for r in records]) for name in names},
                        index=pd.RangeIndex(len(records)))


def _flatten(obj: Record, prefix: str, flat: dict[str, Any],
             tables: dict[str, list[dict[str, Any]]], keys: Record) -> None:
    """`obj`'s scalars into `flat` under dotted names, its lists of objects into `tables` (by
    their dotted path), each row led by `keys`."""
    for name, value in obj.items():
        path = prefix + name
        if isinstance(value, dict):
            _flatten(value, path + ".", flat, tables, keys)
        elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
            table = tables.setdefault(path, [])
            for row in value:
                cells = dict(keys)
                nested: dict[str, list[dict[str, Any]]] = {}
                _flatten(row, "", cells, nested, keys)
                table.append(cells)
                for nested_path, nested_rows in nested.items():
                    tables.setdefault(path + "." + nested_path, []).extend(nested_rows)
        else:
            flat[path] = value


def _flat_row(obj: Record, prefix: str = "",
              out: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """A JSON object as one row: nested objects give dotted names, lists stay Python objects."""
    out = {} if out is None else out
    for name, value in obj.items():
        if isinstance(value, dict):
            _flat_row(value, f"{prefix}{name}.", out)
        else:
            out[prefix + name] = value
    return out


def _rows_at(document: Record, path: str, keys: Sequence[str] = (),
             position: Optional[str] = None) -> list[dict[str, Any]]:
    """The rows of the list at `path`: "collectives", or "collectives[].ranks" for the lists
    inside each item of a list, each child row led by its parent's `keys` fields and, when
    `position` names a column, its place in that list (compare's sides have no key of their own;
    a null there, a row absent on that side, gives no row)."""
    if "[]." not in path:
        return [_flat_row(item) for item in document.get(path) or []]
    parent_path, child = path.split("[].", 1)
    rows = []
    for parent in document.get(parent_path) or []:
        lead = {k: parent.get(k) for k in keys}
        for place, item in enumerate(parent.get(child) or []):
            if item is None:
                continue
            row = dict(lead)
            if position:
                row[position] = place
            rows.append(_flat_row(item, "", row))
    return rows


def _table(document: Record, path: str, keys: Sequence[str] = (),
           position: Optional[str] = None) -> pd.DataFrame:
    """The list at `path` as a DataFrame (see _rows_at)."""
    return frame_of(_rows_at(document, path, keys, position))


def _plain_rows(document: Record, key: str = "rows") -> pd.DataFrame:
    """The document's list at `key`, one column per field (nested values stay in their cell)."""
    return frame_of(document.get(key) or [])


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Result:
    """What the analyses return: ``document`` is the JSON the command writes with ``--format
    json``; each subclass holds the document's lists as DataFrame fields and its other members
    as typed fields."""

    document: JsonObject

    @property
    def schema(self) -> str:
        """The document's schema, such as ``tensormorph.kernels/1``."""
        return str(self.document["schema"])

    @property
    def inputs(self) -> list[JsonObject]:
        """The traces read: path, format, format_version, backends (empty for ``diff``, whose
        sides are ``base`` and ``new``)."""
        return list(self.document.get("inputs") or [])

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """The result's DataFrames by field name."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if isinstance(getattr(self, f.name), pd.DataFrame)}

    def __repr__(self) -> str:
        sizes = ", ".join(f"{name} {len(frame)}" for name, frame in self.tables.items())
        return f"<tensormorph.{type(self).__name__}: {sizes}>"


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class KernelsResult(Result):
    """``tm.kernels``: per kernel name (or device, or stream) in ``rows``: count, total_ns,
    mean_ns, median_ns, min_ns, max_ns, stddev_ns, percent, mangled_name."""

    rows: pd.DataFrame
    group_by: str
    total_ns: int
    kernel_count: int
    note: Optional[str]  # why there are no rows, when there are none

    @classmethod
    def from_document(cls, document: JsonObject) -> KernelsResult:
        return cls(document=document, rows=_plain_rows(document), group_by=document["group_by"],
                   total_ns=document["total_ns"], kernel_count=document["kernel_count"],
                   note=document.get("note"))


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class OpsResult(Result):
    """``tm.ops``: per framework op in ``rows`` (placements, top_kernels and predictions as
    Python objects in their cells); ``predict`` is the targets' description with predictions,
    else None."""

    rows: pd.DataFrame
    op_calls: int
    kernels: int
    kernel_ns: int
    attributed_kernels: int
    attributed_ns: int
    graph_kernels: int
    ranked_by: str
    predict: Optional[JsonObject]
    note: Optional[str]

    @classmethod
    def from_document(cls, document: JsonObject) -> OpsResult:
        return cls(document=document, rows=_plain_rows(document), op_calls=document["op_calls"],
                   kernels=document["kernels"], kernel_ns=document["kernel_ns"],
                   attributed_kernels=document["attributed_kernels"],
                   attributed_ns=document["attributed_ns"],
                   graph_kernels=document["graph_kernels"], ranked_by=document["ranked_by"],
                   predict=document.get("predict"), note=document.get("note"))


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class RooflineResult(Result):
    """``tm.roofline``: per kernel in ``rows``; ``skipped`` (reason, count) says which kernels
    had no counters."""

    rows: pd.DataFrame
    skipped: pd.DataFrame
    kernel_count: int
    row_count: int  # rows before top

    @classmethod
    def from_document(cls, document: JsonObject) -> RooflineResult:
        return cls(document=document, rows=_plain_rows(document),
                   skipped=_plain_rows(document, "skipped"),
                   kernel_count=document["kernel_count"], row_count=document["row_count"])


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class OccupancyResult(Result):
    """``tm.occupancy``: per kernel launch configuration in ``rows``."""

    rows: pd.DataFrame
    kernel_count: int
    computed_count: int
    reported_count: int
    row_count: int  # rows before top
    skipped: dict[str, int]  # launches without occupancy, by reason
    skipped_ns: dict[str, int]

    @classmethod
    def from_document(cls, document: JsonObject) -> OccupancyResult:
        return cls(document=document, rows=_plain_rows(document),
                   kernel_count=document["kernel_count"],
                   computed_count=document["computed_count"],
                   reported_count=document["reported_count"], row_count=document["row_count"],
                   skipped=dict(document["skipped"]), skipped_ns=dict(document["skipped_ns"]))


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class FindingsResult(Result):
    """``tm.findings``: the document's ``findings``, one row each in ``rows``, ranked by gain
    (``where`` flattened to where.device, where.op...; ``evidence`` and ``top`` as lists in
    their cells); ``gain_bases`` per input."""

    rows: pd.DataFrame
    gain_bases: pd.DataFrame
    total_gain_ns: int

    @classmethod
    def from_document(cls, document: JsonObject) -> FindingsResult:
        return cls(document=document, rows=_table(document, "findings"),
                   gain_bases=_plain_rows(document, "gain_bases"),
                   total_gain_ns=document["total_gain_ns"])


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class DiffResult(Result):
    """``tm.diff``: per kernel and op in ``rows``; the sides (``base``, ``new``), the totals,
    the counts and the verdict ("pass" or "fail") as fields."""

    rows: pd.DataFrame
    base: JsonObject
    new: JsonObject
    kind: str
    threshold_percent: float
    alpha: float
    basis: str
    noise_test: bool
    per_call_rows: int
    capture_lengths_differ: Optional[bool]
    total: JsonObject
    op_total: Optional[JsonObject]  # None for kind="kernel"
    counts: dict[str, int]
    row_count: int  # rows before top
    verdict: str

    @classmethod
    def from_document(cls, document: JsonObject) -> DiffResult:
        return cls(document=document, rows=_plain_rows(document), base=document["base"],
                   new=document["new"], kind=document["kind"],
                   threshold_percent=document["threshold_percent"], alpha=document["alpha"],
                   basis=document["basis"], noise_test=document["noise_test"],
                   per_call_rows=document["per_call_rows"],
                   capture_lengths_differ=document["capture_lengths_differ"],
                   total=document["total"], op_total=document.get("op_total"),
                   counts=dict(document["counts"]), row_count=document["row_count"],
                   verdict=document["verdict"])


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class MemoryResult(Result):
    """``tm.memory``: devices (peak allocated and reserved, basis, capacity), at_peak (what was
    alive at the peak, by op), by_op, largest and steps, each row led by its device's input and
    device."""

    devices: pd.DataFrame
    at_peak: pd.DataFrame
    by_op: pd.DataFrame
    largest: pd.DataFrame
    steps: pd.DataFrame
    records: int
    skipped: int

    @classmethod
    def from_document(cls, document: JsonObject) -> MemoryResult:
        keys = ("input", "device")
        return cls(document=document, devices=_table(document, "devices"),
                   at_peak=_table(document, "devices[].at_peak", keys),
                   by_op=_table(document, "devices[].by_op", keys),
                   largest=_table(document, "devices[].largest", keys),
                   steps=_table(document, "devices[].steps", keys),
                   records=document["records"], skipped=document["skipped"])


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class CollectivesResult(Result):
    """``tm.collectives``: ranks (clock offsets), collectives (one row per instance),
    collective_ranks (each rank's start, end and wait in each, by the instance's ``index``),
    by_type, per_rank (waits suffered and caused, late cause); ``job`` the job's description."""

    ranks: pd.DataFrame
    collectives: pd.DataFrame
    collective_ranks: pd.DataFrame
    by_type: pd.DataFrame
    per_rank: pd.DataFrame
    job: JsonObject
    matched_by: Optional[str]
    warnings: list[str]

    @classmethod
    def from_document(cls, document: JsonObject) -> CollectivesResult:
        return cls(document=document, ranks=_table(document, "ranks"),
                   collectives=_table(document, "collectives"),
                   collective_ranks=_table(document, "collectives[].ranks", ("index",)),
                   by_type=_table(document, "by_type"), per_rank=_table(document, "per_rank"),
                   job=document["job"], matched_by=document["matched_by"],
                   warnings=list(document["warnings"]))


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class CriticalPathResult(Result):
    """``tm.critical_path``: ranks, steps (length, end rank, composition.*), pieces (every piece
    of each step's path, by ``step`` and ``input``); ``job`` the job's description."""

    ranks: pd.DataFrame
    steps: pd.DataFrame
    pieces: pd.DataFrame
    job: JsonObject
    warnings: list[str]

    @classmethod
    def from_document(cls, document: JsonObject) -> CriticalPathResult:
        return cls(document=document, ranks=_table(document, "ranks"),
                   steps=_table(document, "steps"),
                   pieces=_table(document, "steps[].path", ("step", "input")),
                   job=document["job"], warnings=list(document["warnings"]))


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class WhatIfResult(Result):
    """``tm.whatif``: steps (measured, replayed with no change, unexplained), scenarios (name,
    kind, rule, measured, simulated, delta; steps summed), scenario_steps (each scenario's steps,
    by ``name``)."""

    steps: pd.DataFrame
    scenarios: pd.DataFrame
    scenario_steps: pd.DataFrame
    warnings: list[str]

    @classmethod
    def from_document(cls, document: JsonObject) -> WhatIfResult:
        scenarios = [{k: v for k, v in s.items() if k != "steps"} for s in document["scenarios"]]
        return cls(document=document, steps=_table(document, "steps"),
                   scenarios=pd.DataFrame(scenarios),
                   scenario_steps=_table(document, "scenarios[].steps", ("name",)),
                   warnings=list(document["warnings"]))


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class CompareResult(Result):
    """``tm.compare``: sides (each input's totals), rows (one per op, shape, stack or category;
    ``sides``, ``ratio`` and ``children`` as lists in their cells), row_sides (each row's cell on
    each side, by ``key`` and ``side``, 0 = the first trace), categories (device time per
    category and ``side``)."""

    sides: pd.DataFrame
    rows: pd.DataFrame
    row_sides: pd.DataFrame
    categories: pd.DataFrame
    by: str
    keys_include_stack: bool
    keys_are_nodes: bool
    verdict: str  # empty when the sides do not look like one workload (see warnings)
    warnings: list[str]
    row_count: int  # rows before top

    @classmethod
    def from_document(cls, document: JsonObject) -> CompareResult:
        return cls(document=document, sides=_table(document, "sides"),
                   rows=_table(document, "rows"),
                   row_sides=_table(document, "rows[].sides", ("key",), "side"),
                   categories=_table(document, "categories[].sides", ("category",), "side"),
                   by=document["by"], keys_include_stack=document["keys_include_stack"],
                   keys_are_nodes=document["keys_are_nodes"], verdict=document["verdict"],
                   warnings=list(document["warnings"]), row_count=document["row_count"])


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class PredictResult(Result):
    """``tm.predict``: rows (per op and input shapes; ``predictions`` as a list in the cell),
    predictions (one per row and target, by ``key``), categories (per category and target),
    totals (per target), targets; ``evaluation`` (with ``measured``), ``source_device`` and
    ``work_coverage`` (the share of the kernel time the work estimates cover)."""

    rows: pd.DataFrame
    predictions: pd.DataFrame
    categories: pd.DataFrame
    totals: pd.DataFrame
    targets: pd.DataFrame
    source_device: JsonObject
    row_count: int  # rows before top
    work_coverage: JsonObject
    evaluation: Optional[JsonObject]  # None without a measured trace
    memory: Optional[JsonObject]

    @classmethod
    def from_document(cls, document: JsonObject) -> PredictResult:
        return cls(document=document, rows=_table(document, "rows"),
                   predictions=_table(document, "rows[].predictions", ("key",)),
                   categories=_table(document, "categories[].predictions", ("category",)),
                   totals=_table(document, "totals"), targets=_table(document, "targets"),
                   source_device=document["source_device"], row_count=document["row_count"],
                   work_coverage=document["work_coverage"],
                   evaluation=document.get("evaluation"), memory=document.get("memory"))


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Timeline(Result):
    """``tm.timeline``: DataFrames per device and per part.

    devices: one row per device, nested figures flattened (``temporal_breakdown.idle_ns``,
    ``gaps.total_ns``, ``launch_latency.p50_ns``...). streams, copies, concurrency, gaps (every
    idle gap longer than the threshold, with its cause), steps, graph_launches, launch_bound (its
    top kernels): one row per item, with the device's ``input`` and ``label``. ranks: one row per
    rank when the inputs are several; ``job`` their verdict (is_job, complete_job, verdict,
    median_step_ns, ...; None for one input). other_tables: any list the mapping does not name
    yet, under its JSON path.
    """

    devices: pd.DataFrame
    streams: pd.DataFrame
    copies: pd.DataFrame
    concurrency: pd.DataFrame
    gaps: pd.DataFrame
    steps: pd.DataFrame
    graph_launches: pd.DataFrame
    launch_bound: pd.DataFrame
    ranks: pd.DataFrame
    other_tables: dict[str, pd.DataFrame]
    gap_threshold_ns: int
    job: Optional[JsonObject]
    note: Optional[str]

    # Where each table lives in a device's JSON object (docs/timeline.md).
    TABLES: ClassVar[dict[str, str]] = {
        "streams": "streams",
        "copies": "copies",
        "concurrency": "concurrency",
        "gaps": "gaps.rows",
        "steps": "steps",
        "graph_launches": "launch_latency.graph_launches",
        "launch_bound": "launch_latency.launch_bound.top",
    }

    @classmethod
    def from_document(cls, document: JsonObject) -> Timeline:
        device_rows = []
        tables: dict[str, list[dict[str, Any]]] = {}
        for device in document.get("devices", []):
            keys = {"input": device.get("input"), "label": device.get("label")}
            flat: dict[str, Any] = {}
            _flatten(device, "", flat, tables, keys)
            device_rows.append(flat)
        named = {name: frame_of(tables.pop(path, [])) for name, path in cls.TABLES.items()}
        ranks = document.get("ranks")
        return cls(
            document=document, devices=frame_of(device_rows), streams=named["streams"],
            copies=named["copies"], concurrency=named["concurrency"], gaps=named["gaps"],
            steps=named["steps"], graph_launches=named["graph_launches"],
            launch_bound=named["launch_bound"],
            ranks=frame_of(ranks.get("rows") or []) if ranks else frame_of([]),
            # A list the mapping does not name yet is kept under its JSON path, never dropped.
            other_tables={path: frame_of(rows) for path, rows in tables.items()},
            gap_threshold_ns=document["gap_threshold_ns"],
            job={k: v for k, v in ranks.items() if k != "rows"} if ranks else None,
            note=document.get("note"))

    def __repr__(self) -> str:
        return (f"<tensormorph.Timeline: {len(self.devices)} devices, {len(self.gaps)} gaps, "
                f"{len(self.ranks)} ranks>")
