#include "import/rocprof/common/rocminfo.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace tensormorph::rocprof {
namespace {

// "32(0x20)" / "64" -> 32 / 64: rocminfo's numbers; 0 when unreadable.
int64_t LeadingInt(std::string_view text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && v >= 0 ? v : 0;
}

// "gfx1201" -> 120001, "gfx90a" -> 90010, "gfx942" -> 90402: major*10000 + minor*100 +
// stepping, as rocprofv3's Gfx_Target_Version (the last two characters are hex digits); 0 when
// the name is not a gfx target.
int64_t GfxTargetVersion(const std::string& gfx) {
  if (!gfx.starts_with("gfx") || gfx.size() < 6) return 0;
  const std::string_view digits = std::string_view(gfx).substr(3);
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  const int minor = hex(digits[digits.size() - 2]), stepping = hex(digits.back());
  const int64_t major = LeadingInt(digits.substr(0, digits.size() - 2));
  if (minor < 0 || stepping < 0 || major <= 0) return 0;
  return major * 10000 + minor * 100 + stepping;
}

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

std::string WithoutSpaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ') out += c;
  }
  return out;
}

// "Agent 12" (trailing spaces allowed) -> 12; -1 otherwise.
int64_t AgentHeading(std::string_view line) {
  line = Trimmed(line);
  if (!line.starts_with("Agent ")) return -1;
  line.remove_prefix(6);
  int64_t n = -1;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), n);
  return ec == std::errc() && end == line.data() + line.size() ? n : -1;
}

}  // namespace

bool LooksLikeRocminfoText(std::string_view head) {
  return head.starts_with("CMD: rocminfo") ||
         (head.find("HSA System Attributes") != std::string_view::npos &&
          head.find("HSA Agents") != std::string_view::npos);
}

RocminfoAgents ParseRocminfoText(std::string_view text) {
  RocminfoAgents agents;
  int64_t agent = -1;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (const int64_t heading = AgentHeading(line); heading >= 0) {
      agent = heading;
      continue;
    }
    // An agent's own field: exactly two spaces, then "Name:   value".
    if (agent < 0 || !line.starts_with("  ") || line.size() < 3 || line[2] == ' ') continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string key = WithoutSpaces(Trimmed(line.substr(0, colon)));
    if (key.empty()) continue;
    agents[agent].emplace(key, std::string(Trimmed(line.substr(colon + 1))));
  }
  return agents;
}

void AddFlattenedRocminfoKey(std::string_view key, const std::string& value,
                             RocminfoAgents* agents) {
  if (!key.starts_with("Agent")) return;
  const size_t dot = key.find('.');
  if (dot == std::string_view::npos) return;
  int64_t number = 0;
  const auto [end, ec] = std::from_chars(key.data() + 5, key.data() + dot, number);
  if (ec != std::errc() || end != key.data() + dot) return;
  std::string_view field = key.substr(dot + 1);
  if (field.starts_with("MemoryProperties.")) field.remove_prefix(17);
  (*agents)[number].emplace(std::string(field), value);
}

std::vector<AgentInfo> AgentsFromRocminfo(const RocminfoAgents& agents) {
  std::vector<AgentInfo> out;
  for (const auto& agent : agents) {
    // Not a structured binding: clang 14 cannot capture one in the lambda below.
    const std::map<std::string, std::string>& f = agent.second;
    auto get = [&](const char* name) {
      auto it = f.find(name);
      return it == f.end() ? std::string() : it->second;
    };
    const std::string node = get("Node");
    if (node.empty() || (node[0] < '0' || node[0] > '9')) continue;
    AgentInfo a;
    a.node_id = a.logical_node_id = LeadingInt(node);
    a.gpu = get("DeviceType") == "GPU";
    a.gfx = get("Name");
    a.product = get("MarketingName");
    a.gfx_target_version = GfxTargetVersion(a.gfx);
    a.cu_count = LeadingInt(get("ComputeUnit"));
    a.wave_front_size = LeadingInt(get("WavefrontSize"));
    a.max_waves_per_cu = LeadingInt(get("MaxWavesPerCU"));
    out.push_back(std::move(a));
  }
  NumberGpus(&out);
  return out;
}

std::string SysinfoPathBeside(const std::string& path) {
  std::filesystem::path p(path);
  std::string stem = p.filename().string();
  for (std::string_view suffix : {".gz", ".csv", ".db", ".json"}) {
    if (stem.ends_with(suffix)) stem.resize(stem.size() - suffix.size());
  }
  return (p.parent_path() / (stem + ".sysinfo.txt")).string();
}

}  // namespace tensormorph::rocprof
