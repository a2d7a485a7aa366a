"""The fleet's HTML report: one self-contained page (no script, no network), light and dark.

Sections: what was read (and what failed, with each error), stragglers, a ranks x work-category
heatmap of kernel time, the ranks furthest from the fleet's median per kernel, the slowest
collectives, the kernels, and every rank's figures. Every number comes from the FleetSummary's
DataFrames; the page only arranges them.
"""

from __future__ import annotations

import html
from collections.abc import Container, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ._result import FleetSummary

STYLE = """
:root { color-scheme: light dark; --fg: #1d232b; --bg: #ffffff; --muted: #5c6670;
  --line: #d5dbe1; --heat: 214, 82, 41; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e8ec; --bg: #15191e; --muted: #9aa5b0;
  --line: #2f3740; --heat: 255, 138, 92; } }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg);
  margin: 0 auto; max-width: 1400px; padding: 16px 24px; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
p.note { color: var(--muted); margin: 4px 0 8px; }
.box { overflow: auto; max-height: 560px; border: 1px solid var(--line); border-radius: 4px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--line); white-space: nowrap;
  text-align: right; }
th { position: sticky; top: 0; background: var(--bg); }
td.text, th.text { text-align: left; }
td.name { text-align: left; max-width: 46ch; overflow: hidden; text-overflow: ellipsis; }
.bad { color: #c0392b; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _ms(ns: Any) -> str:
    """Nanoseconds as milliseconds with three decimals; a dash for none."""
    if ns is None or (isinstance(ns, float) and np.isnan(ns)) or ns is pd.NA:
        return "–"
    return f"{float(ns) / 1e6:,.3f}"


def _short(name: object, keep: int = 60) -> str:
    """The name shortened in the middle; the whole name is the cell's title."""
    name = str(name)
    if len(name) <= keep:
        return _e(name)
    half = (keep - 1) // 2
    return _e(name[:half] + "…" + name[-half:])


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]],
           text_columns: Container[int] = ()) -> str:
    head = "".join(f'<th class="{"text" if i in text_columns else ""}">{_e(h)}</th>'
                   for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(rows_cells) + "</tr>" for rows_cells in rows)
    return (f'<div class="box"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>'
            f'</table></div>')


def _td(value: object, cls: str = "") -> str:
    return f'<td class="{cls}">{value}</td>'


def _name_td(name: object) -> str:
    return f'<td class="name" title="{_e(name)}">{_short(name)}</td>'


def _rank_label(row: pd.Series) -> str:
    rank = row["rank"]
    return f"rank {rank}" if rank is not None and not pd.isna(rank) else str(row["path"])


def _heatmap(fleet: FleetSummary) -> str:
    ranks = fleet.ranks
    columns = [c for c in ranks.columns if c.startswith("category.")]
    if ranks.empty or not columns:
        return "<p class='note'>No kernel time on any rank.</p>"
    maxima = {c: float(ranks[c].fillna(0).max()) or 1.0 for c in columns}
    rows = []
    for _, r in ranks.iterrows():
        cells = [_td(_e(_rank_label(r)), "text"), _td(_e(r["device"] or "–"), "text")]
        for c in columns:
            value = 0 if pd.isna(r[c]) else float(r[c])
            alpha = value / maxima[c]
            cells.append(f'<td style="background: rgba(var(--heat), {alpha * 0.85:.2f})" '
                         f'title="{_e(_rank_label(r))}, {_e(c[9:-3])}: {_ms(value)} ms">'
                         f"{_ms(value)}</td>")
        rows.append(cells)
    headers = ["rank", "device"] + [c[len("category."):-len("_ns")] for c in columns]
    return ("<p class='note'>Kernel time per work category (ms; compare's categories), shaded by "
            "the column's largest.</p>" + _table(headers, rows, text_columns=(0, 1)))


def _furthest_from_median(fleet: FleetSummary, kernels: int = 10, per_kernel: int = 3) -> str:
    if fleet.rank_kernels.empty:
        return "<p class='note'>No kernels.</p>"
    labels = {r["path"]: _rank_label(r) for _, r in fleet.ranks.iterrows()}
    rows = []
    for _, k in fleet.kernels.head(kernels).iterrows():
        per_rank = fleet.rank_kernels[(fleet.rank_kernels["name"] == k["name"]) &
                                      (fleet.rank_kernels["backend"] == k["backend"])]
        totals = per_rank["total_ns"].astype("float64")
        median = float(np.median(totals))
        distance = (totals - median).abs().sort_values(ascending=False, kind="stable")
        for index in distance.index[:per_kernel]:
            total = float(per_rank.loc[index, "total_ns"])
            off = 100 * (total - median) / median if median else float("nan")
            rows.append([_name_td(k["name"]), _td(_e(labels.get(per_rank.loc[index, "path"],
                                                                 per_rank.loc[index, "path"])),
                                                  "text"),
                         _td(_ms(total)), _td(_ms(median)), _td(f"{off:+.1f} %"),
                         _td(len(per_rank))])
    return ("<p class='note'>For the kernels with the most fleet time: the ranks whose total for "
            "that kernel is furthest from the median over the ranks that ran it.</p>" +
            _table(["kernel", "rank", "rank's total ms", "median ms", "off median", "ranks"],
                   rows, text_columns=(0, 1)))


def _collectives(fleet: FleetSummary, top: int = 15) -> str:
    c = fleet.collectives
    if c.empty:
        return "<p class='note'>No collective was matched across ranks.</p>"
    slowest = c.sort_values(["duration_ns", "index"], ascending=[False, True], kind="stable")
    rows = [[_td(_e(r["job"] if not pd.isna(r["job"]) else "–")), _td(r["index"]),
             _td(_e(r["type"]), "text"), _name_td(r["name"]), _td(r["ranks"]),
             _td(_ms(r["duration_ns"])), _td(_ms(r["skew_ns"])), _td(_ms(r["transfer_ns"])),
             _td(_ms(r["wait_ns"])), _td(_e(r["last_rank"]))]
            for _, r in slowest.head(top).iterrows()]
    return ("<p class='note'>Duration: first arrival to last end, on aligned clocks; the last "
            "rank arrived last and the others waited for it.</p>" +
            _table(["job", "#", "type", "kernel", "ranks", "duration ms", "skew ms",
                    "transfer ms", "waits ms", "last rank"], rows, text_columns=(2, 3)))


def _kernels(fleet: FleetSummary, top: int = 40) -> str:
    rows = [[_name_td(k["name"]), _td(_e(k["backend"]), "text"), _td(f"{k['count']:,}"),
             _td(_ms(k["total_ns"])), _td(_ms(k["mean_ns"])), _td(_ms(k["stddev_ns"])),
             _td(_ms(k["median_ns"])), _td(_ms(k["p90_ns"])), _td(_ms(k["p99_ns"])),
             _td(_ms(k["min_ns"])), _td(_ms(k["max_ns"]))]
            for _, k in fleet.kernels.head(top).iterrows()]
    return (f"<p class='note'>Count, total, mean, stddev, min and max are exact; median, p90 and "
            f"p99 are within {fleet.relative_accuracy:.0%} of the exact values (a mergeable "
            f"sketch). The {min(top, len(fleet.kernels))} of {len(fleet.kernels)} kernels with "
            f"the most time.</p>" +
            _table(["kernel", "backend", "count", "total ms", "mean ms", "stddev ms", "median ms",
                    "p90 ms", "p99 ms", "min ms", "max ms"], rows, text_columns=(0, 1)))


def _ranks(fleet: FleetSummary) -> str:
    gap_columns = [c for c in fleet.ranks.columns if c.startswith("idle_gaps.")]
    rows = []
    for _, r in fleet.ranks.iterrows():
        get = r.get
        rows.append([_td(_e(_rank_label(r)), "text"), _td(_e(r["device"] or "–"), "text"),
                     _td(_ms(r["busy_ns"])), _td(_ms(r["span_ns"])),
                     _td(_e(f"{r['utilization_percent']:.1f} %")
                         if not pd.isna(r["utilization_percent"]) else "–"),
                     *[_td(_ms(r[c])) for c in gap_columns],
                     _td(_e(f"{r['comm_comp_overlap_percent']:.1f} %")
                         if not pd.isna(r["comm_comp_overlap_percent"]) else "–"),
                     _td(r["steps"]), _td(_ms(r["median_step_ns"])),
                     _td(_ms(get("clock_offset_ns"))), _td(_ms(get("wait_suffered_ns"))),
                     _td(_ms(get("wait_caused_ns")))])
    headers = (["rank", "device", "busy ms", "span ms", "utilization"] +
               [f"idle gaps: {c[len('idle_gaps.'):-3].replace('_', ' ')} ms"
                for c in gap_columns] +
               ["comm/comp overlap", "steps", "median step ms", "clock offset ms",
                "wait suffered ms", "wait caused ms"])
    return _table(headers, rows, text_columns=(0, 1))


def render_fleet_report(fleet: FleetSummary, title: str) -> str:
    """The page: every section in order, from the summary's DataFrames."""
    failed = fleet.failed
    jobs = sorted({j for j in fleet.ranks.get("job", pd.Series(dtype=object)).dropna()})
    launches = int(fleet.kernels["count"].sum()) if len(fleet.kernels) else 0
    kernel_ns = int(fleet.kernels["total_ns"].sum()) if len(fleet.kernels) else 0
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{_e(title)}</h1>",
             f"<p>{len(fleet.ranks)} rank traces summarised"
             f"{f', in {len(jobs)} jobs' if len(jobs) > 1 else ''}; "
             f"<span class='{'bad' if len(failed) else ''}'>{len(failed)} could not be read"
             f"</span>. {len(fleet.kernels)} kernels, {launches:,} launches, {_ms(kernel_ns)} "
             f"ms of kernel time.</p>"]
    for warning in fleet.warnings:
        parts.append(f"<p class='note'>Warning: {_e(warning)}</p>")
    if len(failed):
        parts.append("<h2 id='failed'>Traces not read</h2>")
        parts.append(_table(["path", "error"], [[_td(_e(f["path"]), "text"),
                                                 _td(_e(f["error"]), "text")]
                                                for _, f in failed.iterrows()], (0, 1)))
    parts.append("<h2 id='stragglers'>Stragglers</h2>")
    if fleet.stragglers.empty:
        parts.append("<p class='note'>None: no rank kept the others waiting for more than "
                     f"{fleet.straggler_threshold_percent} % of a step, and none computed more "
                     f"than {fleet.slow_rank_threshold_percent} % above its job's median.</p>")
    else:
        parts.append(_table(["job", "rank", "device", "median step ms", "wait caused ms", "why"],
                            [[_td(_e(s["job"])), _td(_e(_rank_label(s)), "text"),
                              _td(_e(s["device"]), "text"), _td(_ms(s["median_step_ns"])),
                              _td(_ms(s["wait_caused_ns"])), _td(_e(s["reason"]), "text")]
                             for _, s in fleet.stragglers.iterrows()], (1, 2, 5)))
    parts += ["<h2 id='heatmap'>Kernel time per rank and category</h2>", _heatmap(fleet),
              "<h2 id='outliers'>Ranks furthest from the median, per kernel</h2>",
              _furthest_from_median(fleet),
              "<h2 id='collectives'>Slowest collectives</h2>", _collectives(fleet),
              "<h2 id='kernels'>Kernels</h2>", _kernels(fleet),
              "<h2 id='ranks'>Ranks</h2>", _ranks(fleet), "</body></html>"]
    return "\n".join(parts)
