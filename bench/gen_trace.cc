// tm_gen_trace: makes a large Kineto trace by repeating a real sample's events.
//
//   tm_gen_trace --sample PATH(.json|.json.gz) (--size-mb N | --repetitions N) -o OUT.json
//                [--period-ms MS] [--renumber-steps]
//
// Repetition k shifts every "ts" by k * (sample span + 1 ms) and every id (flow "id",
// args "correlation", "External id", ...) by k * (max id + 1), so events stay distinct and
// the links between them (runtime call -> kernel, flow start -> finish) stay intact.
// The ranks of one job are made alike, so that their collectives still meet: the same
// --repetitions and the same --period-ms (at least every rank's span; the shift is then
// k * period), and --renumber-steps so that repetition k's ProfilerStep#N is
// ProfilerStep#(N + k * (the sample's step numbers' range)).
// Metadata events (ph "M") are written once. Each event keeps its original text; only the
// shifted values are rewritten, in integer nanoseconds so no timestamp goes through a double.
#include <fmt/core.h>
#include <simdjson.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace ondemand = simdjson::ondemand;

constexpr int64_t kGapNs = 1'000'000;
constexpr uint64_t kBytesPerMb = 1'000'000;
constexpr std::string_view kIdArgs[] = {"correlation", "External id", "Record function id",
                                        "Sequence number"};

enum class PatchKind : uint8_t { kTs, kId, kStep };

// A value inside Event::text that changes with the repetition.
struct Patch {
  uint32_t offset;
  uint32_t length;
  PatchKind kind;
  int64_t value;  // ts in ns, the id, or the step number
};

struct Event {
  std::string text;
  std::vector<Patch> patches;  // in text order
  bool metadata = false;
  bool kernel = false;
  bool has_ts = false;
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
};

struct Sample {
  std::vector<std::pair<std::string, std::string>> meta;  // top-level key, raw JSON value
  std::vector<Event> events;
};

std::string ReadMaybeGzipped(const std::string& path) {
  // gzread passes uncompressed files through unchanged, so one path serves .json and .json.gz.
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw std::runtime_error("cannot open " + path);
  }
  std::string text;
  std::vector<char> buf(1 << 20);
  int n = 0;
  while ((n = gzread(file, buf.data(), static_cast<unsigned>(buf.size()))) > 0) {
    text.append(buf.data(), static_cast<size_t>(n));
  }
  gzclose(file);
  if (n < 0) {
    throw std::runtime_error("cannot read " + path);
  }
  return text;
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int64_t ParseInt(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) {
    throw std::runtime_error(fmt::format("bad integer '{}'", s));
  }
  return v;
}

// Microseconds as decimal text -> nanoseconds. `used` gets the length of the text that the
// nanoseconds cover; digits below 1 ns are left in place and stay unchanged.
int64_t MicrosToNanos(std::string_view s, size_t* used) {
  size_t dot = s.find('.');
  std::string_view whole = s.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? "" : s.substr(dot + 1);
  if (!AllDigits(whole) || (!frac.empty() && !AllDigits(frac))) {
    throw std::runtime_error(fmt::format("unsupported time value '{}'", s));
  }
  frac = frac.substr(0, 3);
  int64_t ns = ParseInt(whole) * 1000;
  for (size_t i = 0; i < 3; ++i) {
    ns += (i < frac.size() ? frac[i] - '0' : 0) * (i == 0 ? 100 : i == 1 ? 10 : 1);
  }
  *used = dot == std::string_view::npos ? whole.size() : dot + 1 + frac.size();
  return ns;
}

std::string_view Token(ondemand::value value) {
  return TrimRight(value.raw_json_token());
}

std::string_view RawValue(ondemand::value value) {
  switch (value.type()) {
    case ondemand::json_type::object: {
      ondemand::object object = value.get_object();
      return TrimRight(object.raw_json());
    }
    case ondemand::json_type::array: {
      ondemand::array array = value.get_array();
      return TrimRight(array.raw_json());
    }
    default:
      return Token(value);
  }
}

Event ParseEvent(ondemand::parser& parser, std::string_view raw) {
  Event event;
  event.text = raw;
  simdjson::padded_string buf(event.text);
  ondemand::document doc = parser.iterate(buf);
  auto offset_of = [&](std::string_view token) {
    return static_cast<uint32_t>(token.data() - buf.data());
  };
  auto add_id = [&](std::string_view token) {
    if (AllDigits(token)) {  // string or negative ids are left as they are
      event.patches.push_back(
          {offset_of(token), static_cast<uint32_t>(token.size()), PatchKind::kId, ParseInt(token)});
    }
  };
  for (auto field : doc.get_object()) {
    std::string_view key = field.unescaped_key();
    if (key == "ph") {
      event.metadata = std::string_view(field.value().get_string()) == "M";
    } else if (key == "cat") {
      event.kernel = std::string_view(field.value().get_string()) == "kernel";
    } else if (key == "ts") {
      std::string_view token = Token(field.value());
      size_t used = 0;
      event.ts_ns = MicrosToNanos(token, &used);
      event.has_ts = true;
      event.patches.push_back(
          {offset_of(token), static_cast<uint32_t>(used), PatchKind::kTs, event.ts_ns});
    } else if (key == "dur") {
      size_t used = 0;
      event.dur_ns = MicrosToNanos(Token(field.value()), &used);
    } else if (key == "name" && field.value().type() == ondemand::json_type::string) {
      // "ProfilerStep#N": the digits, for --renumber-steps.
      constexpr std::string_view kStep = "\"ProfilerStep#";
      const std::string_view token = Token(field.value());
      const std::string_view digits =
          token.starts_with(kStep) ? token.substr(kStep.size(), token.size() - kStep.size() - 1)
                                   : std::string_view();
      if (AllDigits(digits)) {
        event.patches.push_back({offset_of(digits), static_cast<uint32_t>(digits.size()),
                                 PatchKind::kStep, ParseInt(digits)});
      }
    } else if (key == "id") {
      add_id(Token(field.value()));
    } else if (key == "args" && field.value().type() == ondemand::json_type::object) {
      for (auto arg : field.value().get_object()) {
        std::string_view arg_key = arg.unescaped_key();
        if (std::find(std::begin(kIdArgs), std::end(kIdArgs), arg_key) != std::end(kIdArgs)) {
          add_id(Token(arg.value()));
        }
      }
    }
  }
  return event;
}

Sample ParseSample(const std::string& path) {
  simdjson::padded_string json(ReadMaybeGzipped(path));
  ondemand::parser parser;
  ondemand::parser event_parser;
  ondemand::document doc = parser.iterate(json);
  Sample sample;
  for (auto field : doc.get_object()) {
    std::string key(field.unescaped_key().value());
    if (key == "traceEvents") {
      for (ondemand::object event : field.value().get_array()) {
        sample.events.push_back(ParseEvent(event_parser, TrimRight(event.raw_json())));
      }
    } else {
      sample.meta.emplace_back(key, RawValue(field.value()));
    }
  }
  if (sample.events.empty()) {
    throw std::runtime_error(path + ": no traceEvents");
  }
  return sample;
}

// Buffered writer: the output can be many GB, so it goes to disk in 4 MiB chunks.
class Writer {
 public:
  explicit Writer(const std::string& path) : file_(std::fopen(path.c_str(), "wb")) {
    if (file_ == nullptr) {
      throw std::runtime_error("cannot write " + path);
    }
    buf_.reserve(kChunk + 4096);
  }
  ~Writer() {
    if (file_ != nullptr) {
      std::fclose(file_);
    }
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void Put(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kChunk) {
      Flush();
    }
  }
  void PutInt(int64_t v) {
    char digits[24];
    auto res = std::to_chars(digits, digits + sizeof(digits), v);
    Put(std::string_view(digits, static_cast<size_t>(res.ptr - digits)));
  }
  // Kineto's form: integer microseconds, '.', exactly three digits.
  void PutMicros(int64_t ns) {
    PutInt(ns / 1000);
    char frac[4] = {'.', static_cast<char>('0' + ns / 100 % 10),
                    static_cast<char>('0' + ns / 10 % 10), static_cast<char>('0' + ns % 10)};
    Put(std::string_view(frac, 4));
  }
  uint64_t Size() const { return written_ + buf_.size(); }
  void Close() {
    Flush();
    if (std::fclose(file_) != 0) {
      file_ = nullptr;
      throw std::runtime_error("write failed");
    }
    file_ = nullptr;
  }

 private:
  static constexpr size_t kChunk = 4 << 20;
  void Flush() {
    if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) {
      throw std::runtime_error("write failed");
    }
    written_ += buf_.size();
    buf_.clear();
  }
  std::FILE* file_;
  std::string buf_;
  uint64_t written_ = 0;
};

struct Shift {
  int64_t ts = 0, id = 0, step = 0;
};

void WriteEvent(Writer& out, const Event& event, const Shift& shift) {
  std::string_view text = event.text;
  size_t pos = 0;
  for (const Patch& p : event.patches) {
    out.Put(text.substr(pos, p.offset - pos));
    switch (p.kind) {
      case PatchKind::kTs:
        out.PutMicros(p.value + shift.ts);
        break;
      case PatchKind::kId:
        out.PutInt(p.value + shift.id);
        break;
      case PatchKind::kStep:
        out.PutInt(p.value + shift.step);
        break;
    }
    pos = p.offset + p.length;
  }
  out.Put(text.substr(pos));
}

struct Options {
  std::string sample;
  uint64_t size_mb = 0;
  int64_t repetitions = 0;
  int64_t period_ns = 0;
  bool renumber_steps = false;
  std::string out;
};

[[noreturn]] void Usage(const std::string& msg) {
  fmt::print(stderr,
             "tm_gen_trace: {}\nusage: tm_gen_trace [--sample PATH] (--size-mb N | --repetitions "
             "N) -o OUT [--period-ms MS] [--renumber-steps]\n",
             msg);
  std::exit(2);
}

Options ParseArgs(int argc, char** argv) {
  Options opt;
#ifdef TM_DEFAULT_SAMPLE
  opt.sample = TM_DEFAULT_SAMPLE;
#endif
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--renumber-steps") {
      opt.renumber_steps = true;
      continue;
    }
    if (arg != "--sample" && arg != "--size-mb" && arg != "--repetitions" && arg != "--period-ms" &&
        arg != "-o") {
      Usage("unknown argument " + std::string(arg));
    }
    if (i + 1 >= argc) {
      Usage("missing value after " + std::string(arg));
    }
    if (arg == "--sample") {
      opt.sample = argv[++i];
    } else if (arg == "--size-mb") {
      opt.size_mb = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--repetitions") {
      opt.repetitions = std::strtoll(argv[++i], nullptr, 10);
    } else if (arg == "--period-ms") {
      opt.period_ns = std::llround(std::strtod(argv[++i], nullptr) * 1e6);
    } else {
      opt.out = argv[++i];
    }
  }
  if (opt.sample.empty() || (opt.size_mb == 0) == (opt.repetitions <= 0) || opt.out.empty()) {
    Usage("--sample, one of --size-mb and --repetitions (> 0), and -o are required");
  }
  return opt;
}

}  // namespace

int main(int argc, char** argv) try {
  Options opt = ParseArgs(argc, argv);
  Sample sample = ParseSample(opt.sample);

  int64_t first_ns = std::numeric_limits<int64_t>::max();
  int64_t last_ns = std::numeric_limits<int64_t>::min();
  int64_t max_id = 0;
  int64_t min_step = std::numeric_limits<int64_t>::max(), max_step = 0;
  size_t kernels = 0;
  size_t metadata = 0;
  for (const Event& e : sample.events) {
    for (const Patch& p : e.patches) {
      if (p.kind == PatchKind::kId) max_id = std::max(max_id, p.value);
      if (p.kind == PatchKind::kStep) {
        min_step = std::min(min_step, p.value);
        max_step = std::max(max_step, p.value);
      }
    }
    kernels += e.kernel ? 1 : 0;
    metadata += e.metadata ? 1 : 0;
    if (!e.metadata && e.has_ts) {
      first_ns = std::min(first_ns, e.ts_ns);
      last_ns = std::max(last_ns, e.ts_ns + e.dur_ns);
    }
  }
  if (first_ns > last_ns) {
    throw std::runtime_error("sample has no timed events");
  }
  int64_t ts_step = last_ns - first_ns + kGapNs;
  if (opt.period_ns > 0) {
    if (opt.period_ns <= last_ns - first_ns) {
      throw std::runtime_error(
          fmt::format("--period-ms {} is shorter than the sample's span ({} ns)",
                      opt.period_ns / 1e6, last_ns - first_ns));
    }
    ts_step = opt.period_ns;
  }
  const int64_t id_step = max_id + 1;
  const int64_t step_stride =
      opt.renumber_steps && min_step <= max_step ? max_step - min_step + 1 : 0;

  // Written to a temporary name first, so an interrupted run never leaves a plausible but
  // truncated trace behind.
  const std::string tmp = opt.out + ".tmp";
  Writer out(tmp);
  out.Put("{\n");
  for (const auto& [key, value] : sample.meta) {
    out.Put(fmt::format("  \"{}\": ", key));  // Kineto's top-level keys need no escaping
    out.Put(value);
    out.Put(",\n");
  }
  out.Put("  \"traceEvents\": [\n  ");
  constexpr std::string_view kTail = "\n  ]\n}\n";
  const uint64_t target = opt.size_mb * kBytesPerMb;
  int64_t reps = 0;
  bool first = true;
  const auto more = [&] {
    return opt.repetitions > 0 ? reps < opt.repetitions
                               : reps == 0 || out.Size() + kTail.size() < target;
  };
  for (; more(); ++reps) {
    for (const Event& e : sample.events) {
      if (e.metadata && reps > 0) {
        continue;
      }
      if (!first) {
        out.Put(",\n  ");
      }
      first = false;
      WriteEvent(out, e, {reps * ts_step, reps * id_step, reps * step_stride});
    }
  }
  out.Put(kTail);
  const uint64_t bytes = out.Size();
  out.Close();
  std::filesystem::rename(tmp, opt.out);

  const size_t events = metadata + (sample.events.size() - metadata) * reps;
  fmt::print(stderr,
             "tm_gen_trace: sample {} events ({} kernels, {} metadata), span {:.3f} ms, max id {}\n"
             "tm_gen_trace: wrote {} ({} bytes): {} repetitions, {} events, {} kernels\n",
             sample.events.size(), kernels, metadata, (last_ns - first_ns) / 1e6, max_id, opt.out,
             bytes, reps, events, kernels * reps);
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "tm_gen_trace: {}\n", e.what());
  return 1;
}
