#include "analysis/job/path_sums.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace tensormorph {

std::vector<PathPieceSum> SumPathPieces(const CriticalPathStep& step) {
  using Key = std::tuple<std::optional<int64_t>, PathKind, std::string>;
  std::map<Key, PathPieceSum> sums;  // by key: the order ties keep
  for (const PathPiece& p : step.path) {
    auto [at, added] = sums.try_emplace({p.rank, p.kind, p.name});
    PathPieceSum& sum = at->second;
    if (added) {
      sum.rank = p.rank;
      sum.kind = p.kind;
      sum.name = p.name;
    }
    sum.time_ns += p.end_ns - p.start_ns;
    ++sum.pieces;
  }
  std::vector<PathPieceSum> rows;
  rows.reserve(sums.size());
  for (auto& [key, sum] : sums) rows.push_back(std::move(sum));
  std::stable_sort(rows.begin(), rows.end(), [](const PathPieceSum& a, const PathPieceSum& b) {
    return a.time_ns > b.time_ns;
  });
  return rows;
}

}  // namespace tensormorph
