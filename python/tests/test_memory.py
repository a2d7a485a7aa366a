"""Trace.memory (every allocator record) against the trace's own [memory] events, and
tm.load_snapshot against snapshots built here with Python's pickle from builtin types in the
layouts PyTorch writes (2.2+ with time_us, 2.0 with block history, pre-2.0 bare segment lists),
and its refusal of a pickle that asks for a global."""

import gzip
import json
import pickle

import pandas as pd
import pytest

import tensormorph as tm

from conftest import SHARED_DATA

QWEN_H100 = SHARED_DATA / "kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz"
GIB, MIB = 1 << 30, 1 << 20


def test_trace_memory_is_every_record_in_time_order():
    with gzip.open(QWEN_H100, "rt") as f:
        raw = json.load(f)
    records = [e for e in raw["traceEvents"] if e.get("name") == "[memory]"]
    frame = tm.load(QWEN_H100).memory
    assert len(frame) == len(records) > 1000
    # The same multiset of (bytes, address, device type, device id, total allocated).
    expected = sorted((r["args"]["Bytes"], r["args"]["Addr"], r["args"]["Device Type"],
                       r["args"]["Device Id"], r["args"].get("Total Allocated", -1))
                      for r in records)
    got = sorted((int(b), int(a), int(t), int(i), -1 if pd.isna(total) else int(total))
                 for b, a, t, i, total in zip(frame["bytes"], frame["address"],
                                              frame["device_type"], frame["device_id"],
                                              frame["total_allocated"]))
    assert got == expected
    assert list(frame["ts_ns"]) == sorted(frame["ts_ns"])
    # GPU records carry their device's index and label; host records none.
    gpu = frame[frame["device_type"] == 1]
    assert set(gpu["device_label"]) == {"cuda:0 NVIDIA H100 80GB HBM3"}
    assert frame[frame["device_type"] == 0]["device"].isna().all()
    # The allocator's total after the largest record equals `memory`'s peak for the GPU.
    peak = tm.memory(QWEN_H100).devices
    gpu_peak = peak[peak["device"] != "cpu"]["peak_allocated_bytes"].iloc[0]
    assert gpu["total_allocated"].max() == gpu_peak


def frame(name, line=1):
    return {"filename": f"/src/{name}.py", "line": line, "name": name}


def snapshot_2_2():
    """A snapshot as PyTorch 2.2+ writes it: one device, two segments, a pending free, events with
    time_us, allocator settings; every value chosen here."""
    base = 0x7F0000000000
    return {
        "segments": [
            {"device": 0, "address": base, "total_size": 2 * GIB, "allocated_size": GIB + 512 * MIB,
             "active_size": GIB + 768 * MIB, "requested_size": GIB + 500 * MIB, "stream": 0,
             "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": False,
             "frames": [],
             "blocks": [
                 {"address": base, "size": GIB, "requested_size": GIB - 12 * MIB,
                  "state": "active_allocated", "frames": [frame("forward", 10), frame("main")]},
                 {"address": base + GIB, "size": 512 * MIB, "requested_size": 512 * MIB,
                  "state": "active_allocated", "frames": [frame("optimizer")]},
                 {"address": base + GIB + 512 * MIB, "size": 256 * MIB, "requested_size": 256 * MIB,
                  "state": "active_pending_free", "frames": []},
                 {"address": base + GIB + 768 * MIB, "size": 256 * MIB, "requested_size": 0,
                  "state": "inactive", "frames": []},
             ]},
            {"device": 0, "address": base + 4 * GIB, "total_size": 2 * MIB, "allocated_size": 0,
             "active_size": 0, "requested_size": 0, "stream": 0, "segment_type": "small",
             "segment_pool_id": (0, 0), "is_expandable": False, "frames": [],
             "blocks": [{"address": base + 4 * GIB, "size": 2 * MIB, "requested_size": 0,
                         "state": "inactive", "frames": []}]},
        ],
        "device_traces": [[
            {"action": "segment_alloc", "addr": base, "size": 2 * GIB, "stream": 0,
             "time_us": 1000},
            {"action": "alloc", "addr": base, "size": GIB, "stream": 0, "time_us": 1001,
             "frames": [frame("forward", 10)]},
            {"action": "alloc", "addr": base + GIB + 768 * MIB, "size": 256 * MIB, "stream": 0,
             "time_us": 1002},
            {"action": "alloc", "addr": base + GIB + 512 * MIB, "size": 256 * MIB, "stream": 0,
             "time_us": 1003},
            {"action": "free_requested", "addr": base + GIB + 768 * MIB, "size": 256 * MIB,
             "stream": 0, "time_us": 1004},
            {"action": "free_completed", "addr": base + GIB + 768 * MIB, "size": 256 * MIB,
             "stream": 0, "time_us": 1005},
            {"action": "alloc", "addr": base + GIB, "size": 512 * MIB, "stream": 0,
             "time_us": 1006, "frames": [frame("optimizer")]},
            {"action": "free_requested", "addr": base + GIB + 512 * MIB, "size": 256 * MIB,
             "stream": 0, "time_us": 1007},
        ]],
        "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:False",
                               "max_split_size": -1, "expandable_segments": False},
    }


def write(tmp_path, name, obj, protocol=4):
    path = tmp_path / name
    path.write_bytes(pickle.dumps(obj, protocol=protocol))
    return path


def test_snapshot_of_pytorch_2_2(tmp_path):
    snap = tm.load_snapshot(write(tmp_path, "snapshot.pickle", snapshot_2_2()))
    device = snap.devices.iloc[0]
    assert device["reserved_bytes"] == 2 * GIB + 2 * MIB
    assert device["allocated_bytes"] == GIB + 512 * MIB     # the two active_allocated blocks
    assert device["active_bytes"] == GIB + 768 * MIB        # and the pending free
    assert device["requested_bytes"] == GIB - 12 * MIB + 512 * MIB
    assert device["inactive_bytes"] == 256 * MIB + 2 * MIB  # reserved less active
    assert device["largest_inactive_bytes"] == 256 * MIB
    assert (device["segments"], device["blocks"], device["events"]) == (2, 5, 8)
    # Replay: 1 GiB, +256 MiB, +256 MiB (peak 1.5 GiB at 1003), -256 MiB, +512 MiB (1.75 GiB at
    # 1006); the pending free is still held. It ends at the snapshot's active bytes.
    assert device["peak_active_bytes"] == GIB + 768 * MIB
    assert device["peak_active_time_us"] == 1006
    assert list(snap.blocks["state"]) == ["active_allocated", "active_allocated",
                                          "active_pending_free", "inactive", "inactive"]
    assert snap.blocks["frame"].iloc[0] == "/src/forward.py:10 forward"
    assert snap.events["action"].iloc[1] == "alloc" and snap.events["time_us"].iloc[1] == 1001
    assert snap.allocator_settings["PYTORCH_CUDA_ALLOC_CONF"] == "expandable_segments:False"
    assert "free_completed" in snap.history_basis


def test_snapshot_of_pytorch_2_0_with_block_history(tmp_path):
    """2.0's blocks have no address or frames: the address is the segment's plus the blocks
    before it, the frames and requested size the first history entry's."""
    old = {"segments": [{"device": 1, "address": 4096, "total_size": 3 * MIB,
                         "allocated_size": MIB, "active_size": MIB, "stream": 0,
                         "segment_type": "large",
                         "blocks": [{"size": 2 * MIB, "state": "inactive"},
                                    {"size": MIB, "state": "active_allocated",
                                     "history": [{"addr": 4096 + 2 * MIB, "real_size": 1000,
                                                  "frames": [frame("layer", 7)]}]}]}],
           "device_traces": [[], []]}
    snap = tm.load_snapshot(write(tmp_path, "old.pickle", old, protocol=2))
    assert list(snap.blocks["address"]) == [4096, 4096 + 2 * MIB]
    assert snap.blocks["requested_size"].iloc[1] == 1000
    assert snap.blocks["frame"].iloc[1] == "/src/layer.py:7 layer"
    assert snap.devices.iloc[0]["device"] == 1
    assert snap.devices.iloc[0]["allocated_bytes"] == MIB
    # A bare list of segments (before 2.0) is the same segments without a history.
    bare = tm.load_snapshot(write(tmp_path, "bare.pickle", old["segments"]))
    assert bare.devices.iloc[0]["reserved_bytes"] == 3 * MIB
    assert bare.devices.iloc[0]["events"] == 0


class RunsCode:
    """Pickles as a call of os.system: what a crafted 'snapshot' would do on load."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        import os
        return (os.system, (f"touch {self.marker}",))


def test_snapshot_that_asks_for_a_global_is_refused_not_run(tmp_path):
    marker = tmp_path / "ran"
    doc = snapshot_2_2()
    doc["segments"][0]["frames"] = [RunsCode(marker)]
    path = write(tmp_path, "crafted.pickle", doc)
    with pytest.raises(tm.SnapshotError, match="asks for the global .*system"):
        tm.load_snapshot(path)
    assert not marker.exists()
    # The same data loads with the standard unpickler, which would have run it (not done here).
    assert b"system" in path.read_bytes()


@pytest.mark.parametrize("content, message", [
    (b"", "not a readable memory snapshot"),
    (b"not a pickle", "not a readable memory snapshot"),
    (pickle.dumps({"device_traces": []}), "no list of segments"),
    (pickle.dumps({"segments": [{"blocks": [{"size": 1, "state": "gone"}]}]}), "state 'gone'"),
    (pickle.dumps({"segments": [{"total_size": "big"}]}), "not an integer"),
])
def test_bad_snapshots_are_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.pickle"
    path.write_bytes(content)
    with pytest.raises(tm.SnapshotError, match=message) as error:
        tm.load_snapshot(path)
    assert error.value.path == str(path)
    with pytest.raises(tm.SnapshotError, match="cannot read"):
        tm.load_snapshot(tmp_path / "missing.pickle")
