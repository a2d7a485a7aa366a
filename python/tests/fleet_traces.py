"""A fleet of rank traces made from real ones, for the fleet tests and benchmark.

* 31 copies of PARAM's 8 DLRM ranks make one job of 248 ranks (world size 248): copy k's rank i
  becomes rank 8k + i, and its clock is shifted by k * SHIFT_US microseconds, so the fleet's
  clock alignment must find offsets of exactly that much plus the real ranks' own.
* 4 copies of HTA's sampled 2-rank NCCL pair make a second job of 8 ranks (world size 8).
* HTA's single NCCL rank (of a 2-rank job whose other rank is not given) is a rank alone.
* One DLRM rank is a straggler: its whole timeline is stretched by STRETCH about its first
  event, as on a node whose host and GPU are that much slower.
* One file is corrupt: a DLRM rank whose gzip stream has 64 bytes in the middle overwritten, as a
  copy damaged in transit (the importer refuses it: the data check fails).

Timestamps are rewritten in the decimal text (integer microseconds plus the fraction kept as
written), so every time stays exact. Written gzip'd (level 1) to keep the folder small.
"""

import gzip
import re
from decimal import Decimal, Inexact, localcontext
from fractions import Fraction

DLRM_COPIES = 31
SAMPLED_COPIES = 4
SHIFT_US = 7_000_003
STRETCH = Fraction(3, 2)
STRAGGLER = (5, 3)  # (copy, DLRM rank) -> rank 8 * 5 + 3 = 43
CORRUPT = (9, 6)    # this copy of this rank is written corrupt instead

_TS = re.compile(rb'("ts"\s*:\s*)(-?\d+(?:\.\d+)?)')
_DUR = re.compile(rb'("dur"\s*:\s*)(-?\d+(?:\.\d+)?)')
_INFO = re.compile(rb'("distributedInfo"\s*:\s*\{[^{}]*?"rank"\s*:\s*)(\d+)'
                   rb'([^{}]*?"world_size"\s*:\s*)(\d+)')


def _decimal_text(value):
    """A Fraction with a finite decimal expansion, written exactly."""
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return text.encode()


def _with_rank(text, rank, world_size):
    out, n = _INFO.subn(lambda m: m.group(1) + str(rank).encode() + m.group(3) +
                        str(world_size).encode(), text, count=1)
    assert n == 1, "the trace names its rank and world size in distributedInfo"
    return out


def _shifted(text, shift_us):
    shift = Decimal(shift_us)
    with localcontext() as exact:
        exact.traps[Inexact] = True  # a sum that needed rounding raises instead
        return _TS.sub(lambda m: m.group(1) + format(Decimal(m.group(2).decode()) + shift,
                                                     "f").encode(), text)


def _stretched(text, factor):
    first = min(Fraction(m.group(2).decode()) for m in _TS.finditer(text))
    text = _TS.sub(lambda m: m.group(1) + _decimal_text(
        first + (Fraction(m.group(2).decode()) - first) * factor), text)
    return _DUR.sub(lambda m: m.group(1) + _decimal_text(Fraction(m.group(2).decode()) * factor),
                    text)


def _corrupted(compressed):
    damaged = bytearray(compressed)
    middle = len(damaged) // 2
    damaged[middle:middle + 64] = b"\xff" * 64
    return bytes(damaged)


def write_fleet(shared_data, folder):
    """Writes the fleet into `folder`; returns {"files", "straggler", "corrupt", "shifts_ns"}
    (shifts_ns: path -> (DLRM rank, clock shift in ns) for the DLRM copies)."""
    folder.mkdir(parents=True, exist_ok=True)
    dlrm = sorted((shared_data / "kineto/param_dlrm_8rank").glob("*.json.gz"))
    sampled = sorted((shared_data / "kineto/hta/multirank_sampled").glob("*.json.gz"))
    lone = shared_data / "kineto/hta/nccl_2rank_rank0_a100.json.gz"
    assert len(dlrm) == 8 and len(sampled) == 2
    sources = [gzip.decompress(p.read_bytes()) for p in dlrm]
    files, shifts, straggler, corrupt = [], {}, None, None

    def write(name, text, damage=False):
        path = folder / name
        compressed = gzip.compress(text, compresslevel=1)
        path.write_bytes(_corrupted(compressed) if damage else compressed)
        files.append(str(path))
        return str(path)

    for copy in range(DLRM_COPIES):
        for i, source in enumerate(sources):
            rank = 8 * copy + i
            text = _shifted(_with_rank(source, rank, 8 * DLRM_COPIES), copy * SHIFT_US)
            name = f"dlrm_rank{rank:04d}.json.gz"
            if (copy, i) == STRAGGLER:
                straggler = write(name, _stretched(text, STRETCH))
            elif (copy, i) == CORRUPT:
                corrupt = write(name, text, damage=True)
            else:
                shifts[write(name, text)] = (i, copy * SHIFT_US * 1000)
    pair = [gzip.decompress(p.read_bytes()) for p in sampled]
    for copy in range(SAMPLED_COPIES):
        for i, source in enumerate(pair):
            rank = 2 * copy + i
            write(f"sampled_rank{rank:02d}.json.gz",
                  _shifted(_with_rank(source, rank, 2 * SAMPLED_COPIES), copy * SHIFT_US))
    files.append(str(lone))
    return {"files": files, "straggler": straggler, "corrupt": corrupt, "shifts_ns": shifts}
