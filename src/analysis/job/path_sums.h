// The pieces of one step's critical path summed by (rank, kind, name): the rows `critical-path`'s
// table lists as "on the path, by rank, kind and name" and the HTML report's Ranks section embeds
// as each step's top pieces (docs/critical-path.md, docs/report.md). Written once, here.
//
// Invariants of SumPathPieces(step): one sum per distinct (rank, kind, name) of step.path; their
// time_ns add up to step.length_ns() and their pieces to step.path.size(); ordered by time_ns,
// the most first, ties by (rank, kind, name) ascending (a piece without a rank before rank 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/job/critical_path.h"

namespace tensormorph {

struct PathPieceSum {
  std::optional<int64_t> rank;  // none for an input that is not a rank of a job
  PathKind kind = PathKind::kIdle;
  std::string name;
  int64_t time_ns = 0;  // the pieces' durations summed
  size_t pieces = 0;    // how many pieces of the path were summed
};

std::vector<PathPieceSum> SumPathPieces(const CriticalPathStep& step);

}  // namespace tensormorph
