"""PyTorch CUDA memory snapshots: the pickle ``torch.cuda.memory._dump_snapshot(path)`` writes.

A snapshot holds only builtin types (dicts, lists, tuples, strings, numbers, booleans, None), so it
is read with an unpickler that refuses every global: a pickle that asks for a class or a function
(``os.system`` in a crafted file) is an error before anything is called, never executed.

Layout (PyTorch 2.0 to 2.8; docs/memory.md "Snapshots"): ``segments`` (each with its ``device``,
``address``, ``total_size``, ``allocated_size``, ``active_size``, ``stream``, ``segment_type`` and
``blocks``: ``address``, ``size``, ``requested_size``, ``state`` active_allocated /
active_pending_free / inactive, ``frames``; blocks of 2.0 have no address and keep their frames
in ``history``), ``device_traces`` (per device, the allocator's last events: ``action`` alloc /
free_requested / free_completed / segment_alloc / segment_free / segment_map / segment_unmap /
snapshot / oom, ``addr``, ``size``, ``stream``, ``time_us`` since 2.2, ``frames`` when recorded)
and ``allocator_settings``. Files older than 2.0 are a bare list of segments.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
from collections.abc import Sequence
from typing import Any, NoReturn, Optional

import pandas as pd

from ._results import frame_of

_BLOCK_STATES = ("active_allocated", "active_pending_free", "inactive")


class SnapshotError(ValueError):
    """A file that is not a readable memory snapshot: ``path`` and what is wrong."""

    def __init__(self, message: str, path: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}")


class _BuiltinsOnly(pickle.Unpickler):
    """Refuses every global and persistent id: only the builtin types a snapshot holds load."""

    def find_class(self, module: str, name: str) -> NoReturn:
        raise pickle.UnpicklingError(
            f"asks for the global {module}.{name}; a memory snapshot holds only builtin types, "
            "so this file is not one (or was crafted to run code) and is not loaded")

    def persistent_load(self, pid: Any) -> NoReturn:
        raise pickle.UnpicklingError("asks for a persistent object; a memory snapshot has none")


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Snapshot:
    """A memory snapshot as DataFrames (``tm.load_snapshot``).

    * ``devices``: per device, what the allocator held when the snapshot was taken —
      reserved_bytes (segments' total), allocated_bytes (active_allocated blocks),
      active_bytes (allocated plus freed-but-pending blocks), requested_bytes (what the program
      asked for; the rest of allocated is rounding), inactive_bytes (reserved less active: cached
      blocks, fragmentation), largest_inactive_bytes (the largest request that fits without a new
      segment), segments, blocks; and from the event history: events, peak_active_bytes and
      peak_active_time_us (see ``history_basis``).
    * ``segments``, ``blocks``: one row each; a block's ``frame`` is the innermost frame of its
      allocation (``file:line function``), ``frames`` all of them.
    * ``events``: the allocator's recorded events per device in order, with ``time_us`` (since
      PyTorch 2.2; <NA> before) and ``frame``.
    * ``allocator_settings``: the allocator's configuration as recorded (empty before 2.3).
    """

    path: str
    devices: pd.DataFrame
    segments: pd.DataFrame
    blocks: pd.DataFrame
    events: pd.DataFrame
    allocator_settings: dict[str, Any]
    history_basis: str = (
        "active memory over the recorded events: alloc adds its size, free_completed subtracts "
        "it (a block freed but pending on another stream is still held), anchored so that "
        "after the last event it equals the snapshot's active bytes; the history is the "
        "allocator's ring buffer, so its first events may be missing")

    def __repr__(self) -> str:
        return (f"<tensormorph.Snapshot {self.path!r}: {len(self.devices)} devices, "
                f"{len(self.segments)} segments, {len(self.blocks)} blocks, "
                f"{len(self.events)} events>")


def _frame_text(frame: Any) -> Optional[str]:
    if not isinstance(frame, dict):
        return None
    return f"{frame.get('filename', '?')}:{frame.get('line', '?')} {frame.get('name', '?')}"


def _frames(value: Any) -> list[Optional[str]]:
    return [_frame_text(f) for f in value] if isinstance(value, list) else []


def _int(value: Any, what: str, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SnapshotError(f"{what} is {value!r}, not an integer", path)
    return value


def _segments_and_blocks(segments: list[Any],
                         path: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One row per segment and one per block, checking the types the rows rely on."""
    segment_rows: list[dict[str, Any]] = []
    block_rows: list[dict[str, Any]] = []
    for index, segment in enumerate(segments):
        if not isinstance(segment, dict):
            raise SnapshotError(f"segment {index} is a {type(segment).__name__}, not a dict", path)
        device = _int(segment.get("device", 0), f"segment {index}'s device", path)
        address = _int(segment.get("address", 0), f"segment {index}'s address", path)
        blocks = segment.get("blocks", [])
        if not isinstance(blocks, list):
            raise SnapshotError(f"segment {index}'s blocks are not a list", path)
        at = address  # blocks are in address order; 2.0's carry no address of their own
        for b, block in enumerate(blocks):
            if not isinstance(block, dict):
                raise SnapshotError(f"segment {index} block {b} is not a dict", path)
            size = _int(block.get("size", 0), f"segment {index} block {b}'s size", path)
            state = block.get("state")
            if state not in _BLOCK_STATES:
                raise SnapshotError(f"segment {index} block {b} has state {state!r}, not one of "
                                    f"{', '.join(_BLOCK_STATES)}", path)
            history = block.get("history") or []
            frames = block.get("frames")
            if frames is None and history and isinstance(history[0], dict):
                frames = history[0].get("frames")
            requested = block.get("requested_size")
            if requested is None and history and isinstance(history[0], dict):
                requested = history[0].get("real_size")
            frames = _frames(frames)
            block_rows.append({
                "device": device,
                "segment_address": address,
                "address": block.get("address", at),
                "size": size,
                "requested_size": requested if requested is not None else size,
                "state": state,
                "frame": frames[0] if frames else None,
                "frames": frames,
            })
            at += size
        segment_rows.append({
            "device": device,
            "address": address,
            "total_size": _int(segment.get("total_size", 0), f"segment {index}'s total_size",
                               path),
            "allocated_size": segment.get("allocated_size"),
            "active_size": segment.get("active_size"),
            "requested_size": segment.get("requested_size"),
            "stream": segment.get("stream"),
            "segment_type": segment.get("segment_type"),
            "is_expandable": segment.get("is_expandable"),
            "blocks": len(blocks),
        })
    return segment_rows, block_rows


def _events(device_traces: Any, path: str) -> list[dict[str, Any]]:
    """One row per recorded allocator event, per device in order."""
    rows: list[dict[str, Any]] = []
    if not isinstance(device_traces, list):
        raise SnapshotError("device_traces is not a list", path)
    for device, entries in enumerate(device_traces):
        if not isinstance(entries, list):
            raise SnapshotError(f"device_traces[{device}] is not a list", path)
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("action"), str):
                raise SnapshotError(f"device_traces[{device}][{i}] has no action", path)
            frames = _frames(entry.get("frames"))
            rows.append({
                "device": device,
                "action": entry["action"],
                "address": entry.get("addr"),
                "size": entry.get("size"),
                "stream": entry.get("stream"),
                "time_us": entry.get("time_us"),
                "frame": frames[0] if frames else None,
            })
    return rows


def _device_rows(segment_rows: Sequence[dict[str, Any]], block_rows: Sequence[dict[str, Any]],
                 event_rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per device: what the allocator held at the snapshot, and the peak over its events."""
    devices = sorted({r["device"] for r in segment_rows} | {r["device"] for r in event_rows})
    out: list[dict[str, Any]] = []
    for device in devices:
        blocks = [b for b in block_rows if b["device"] == device]
        reserved = sum(s["total_size"] for s in segment_rows if s["device"] == device)
        allocated = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
        active = sum(b["size"] for b in blocks if b["state"] != "inactive")
        inactive = [b["size"] for b in blocks if b["state"] == "inactive"]
        row: dict[str, Any] = {
            "device": device,
            "reserved_bytes": reserved,
            "allocated_bytes": allocated,
            "active_bytes": active,
            "requested_bytes": sum(b["requested_size"] for b in blocks
                                   if b["state"] == "active_allocated"),
            "inactive_bytes": reserved - active,
            "largest_inactive_bytes": max(inactive, default=0),
            "segments": sum(1 for s in segment_rows if s["device"] == device),
            "blocks": len(blocks),
        }
        # Active memory after each event, anchored to the snapshot's active bytes at the end.
        steps: list[int] = []
        held = 0
        events = [e for e in event_rows if e["device"] == device]
        for e in events:
            size = e["size"] if isinstance(e["size"], int) else 0
            if e["action"] == "alloc":
                held += size
            elif e["action"] == "free_completed":
                held -= size
            steps.append(held)
        row["events"] = len(events)
        values = [0] + steps  # before the first event, then after each
        peak = max(range(len(values)), key=values.__getitem__)
        row["peak_active_bytes"] = active - steps[-1] + values[peak] if steps else None
        row["peak_active_time_us"] = events[peak - 1]["time_us"] if peak > 0 else None
        out.append(row)
    return out


def load_snapshot(path: str | os.PathLike[str]) -> Snapshot:
    """Reads a PyTorch memory snapshot (``torch.cuda.memory._dump_snapshot``) into a
    :class:`Snapshot`, refusing any pickle that asks for a global (it is never executed)."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = _BuiltinsOnly(f).load()
    except OSError as error:
        raise SnapshotError(f"cannot read: {error.strerror or error}", path) from None
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError,
            KeyError, AttributeError, MemoryError, RecursionError) as error:
        raise SnapshotError(f"not a readable memory snapshot pickle: {error}", path) from None
    if isinstance(data, list):  # before PyTorch 2.0: the segments alone
        data = {"segments": data}
    if not isinstance(data, dict) or not isinstance(data.get("segments"), list):
        raise SnapshotError("not a memory snapshot: no list of segments (expected the file "
                            "torch.cuda.memory._dump_snapshot writes)", path)
    segment_rows, block_rows = _segments_and_blocks(data["segments"], path)
    event_rows = _events(data.get("device_traces", []), path)
    settings = data.get("allocator_settings")
    return Snapshot(
        path=path,
        devices=frame_of(_device_rows(segment_rows, block_rows, event_rows)),
        segments=frame_of(segment_rows),
        blocks=frame_of(block_rows),
        events=frame_of(event_rows),
        allocator_settings=dict(settings) if isinstance(settings, dict) else {},
    )
