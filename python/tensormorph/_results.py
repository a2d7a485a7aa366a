"""The analyses' JSON documents as DataFrames.

Each analysis returns the document its command writes with ``--format json`` (the same C++
serializer), and these functions only reshape it, so a column is named as its JSON field and holds
the same number:

* a document's ``rows`` become a DataFrame, one column per field; fields that hold lists or
  objects (ops' ``placements``, ``top_kernels``) stay Python objects in their cell;
* the document's other members go to ``DataFrame.attrs`` (``inputs``, ``total_ns``, ...);
* a timeline's per-device objects are flattened: nested objects give dotted column names
  (``gaps.by_cause.queued``, ``launch_latency.overhead.p50_ns``), and nested lists of objects
  become tables of their own, keyed by the device's ``input`` and ``label``.
"""

import pandas as pd

_INT64 = (-(1 << 63), (1 << 63) - 1)


def _column(values):
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


def frame_of(records):
    """Records (dicts) as a DataFrame, columns in first-seen order, each typed by _column."""
    names = {}
    for record in records:
        for name in record:
            names.setdefault(name, None)
    return pd.DataFrame({name: _column([r.get(name) for r in records]) for name in names},
                        index=pd.RangeIndex(len(records)))


def rows_frame(document, rows_key="rows"):
    frame = frame_of(document.get(rows_key) or [])
    frame.attrs.update({k: v for k, v in document.items() if k != rows_key})
    return frame


def _flatten(obj, prefix, flat, tables, keys):
    for name, value in obj.items():
        path = prefix + name
        if isinstance(value, dict):
            _flatten(value, path + ".", flat, tables, keys)
        elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
            table = tables.setdefault(path, [])
            for row in value:
                cells = dict(keys)
                nested = {}
                _flatten(row, "", cells, nested, keys)
                table.append(cells)
                for nested_path, nested_rows in nested.items():
                    tables.setdefault(path + "." + nested_path, []).extend(nested_rows)
        else:
            flat[path] = value


class Timeline:
    """``timeline``'s result: DataFrames per device and per part.

    devices: one row per device, nested figures flattened (``temporal_breakdown.idle_ns``,
    ``gaps.total_ns``, ``launch_latency.p50_ns``...). streams, copies, concurrency, gaps (every
    idle gap longer than the threshold, with its cause), steps, graph_launches, launch_bound (its
    top kernels): one row per item, with the device's ``input`` and ``label``. ranks: one row per
    rank when the inputs are several (its job verdict in ``ranks.attrs``). document: the JSON.
    """

    # Where each table lives in a device's JSON object (docs/timeline.md).
    TABLES = {
        "streams": "streams",
        "copies": "copies",
        "concurrency": "concurrency",
        "gaps": "gaps.rows",
        "steps": "steps",
        "graph_launches": "launch_latency.graph_launches",
        "launch_bound": "launch_latency.launch_bound.top",
    }

    def __init__(self, document):
        self.document = document
        device_rows = []
        tables = {}
        for device in document.get("devices", []):
            keys = {"input": device.get("input"), "label": device.get("label")}
            flat = {}
            _flatten(device, "", flat, tables, keys)
            device_rows.append(flat)
        self.devices = frame_of(device_rows)
        for name, path in self.TABLES.items():
            setattr(self, name, frame_of(tables.pop(path, [])))
        # A list the mapping does not name yet is kept under its JSON path, never dropped.
        self.other_tables = {path: frame_of(rows) for path, rows in tables.items()}
        ranks = document.get("ranks")
        self.ranks = rows_frame(ranks) if ranks else frame_of([])

    def __repr__(self):
        return (f"<tensormorph.Timeline: {len(self.devices)} devices, {len(self.gaps)} gaps, "
                f"{len(self.ranks)} ranks>")


def _flat_row(obj, prefix="", out=None):
    """A JSON object as one row: nested objects give dotted names, lists stay Python objects."""
    out = {} if out is None else out
    for name, value in obj.items():
        if isinstance(value, dict):
            _flat_row(value, f"{prefix}{name}.", out)
        else:
            out[prefix + name] = value
    return out


def _rows_at(document, path, keys, position=None):
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


class Result:
    """An analysis whose document holds several tables, each a DataFrame attribute (the spec
    names them: attribute -> (JSON path, parent key fields[, position column])); ``document`` is
    the JSON, and its other members are attributes too (``job``, ``warnings``...)."""

    def __init__(self, kind, document, tables):
        self.kind = kind
        self.document = document
        self.table_names = list(tables)
        for attr, spec in tables.items():
            setattr(self, attr, frame_of(_rows_at(document, *spec)))

    def __getattr__(self, name):
        document = self.__dict__.get("document", {})
        if name in document:
            return document[name]
        raise AttributeError(name)

    def __repr__(self):
        sizes = ", ".join(f"{name} {len(getattr(self, name))}" for name in self.table_names)
        return f"<tensormorph {self.kind}: {sizes}>"
