#include "import/chrome/chrome_importer.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <map>
#include <mutex>
#include <thread>

#include "import/chrome/chunk_merger.h"
#include "import/chrome/chunk_parser.h"
#include "import/chrome/event_splitter.h"
#include "import/chrome/trace_builder.h"
#include "import/chrome/trace_metadata.h"
#include "io/bounded_queue.h"
#include "io/buffer_pool.h"
#include "io/positions.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph::chrome {
namespace {

// Warnings about individual events: this many are spelled out with their position, the rest are
// counted, so that a trace with a million bad events does not print a million lines.
constexpr size_t kDetailedWarnings = 20;

// Parsed chunks wait here until every earlier chunk has been merged. Merging as soon as possible
// keeps only a few chunk results alive at a time: peak memory is the model plus a few chunks.
class OrderedResults {
 public:
  void Put(uint64_t index, ChunkResult result) {
    std::lock_guard lock(mutex_);
    ready_.emplace(index, std::move(result));
  }
  // Merges every result that is next in file order.
  void MergeReady(ChunkMerger* merger) {
    for (;;) {
      ChunkResult result;
      {
        std::lock_guard lock(mutex_);
        auto it = ready_.find(next_);
        if (it == ready_.end()) return;
        result = std::move(it->second);
        ready_.erase(it);
        ++next_;
      }
      merger->Append(std::move(result));
    }
  }

 private:
  std::mutex mutex_;
  std::map<uint64_t, ChunkResult> ready_;
  uint64_t next_ = 0;
};

// Parser threads: pop chunks, parse, hand results back by index and buffers back to the pool.
class ParserPool {
 public:
  ParserPool(int threads, OrderedResults* results, BufferPool* buffers)
      : queue_(static_cast<size_t>(threads)) {
    for (int i = 0; i < threads; ++i) {
      workers_.emplace_back([this, results, buffers] {
        ChunkParser parser;
        while (std::optional<EventChunk> chunk = queue_.Pop()) {
          // An exception must not leave the thread (that would terminate the process): record it,
          // keep the merge order with an empty result, and let the importer report the failure.
          try {
            results->Put(chunk->index, parser.Parse(*chunk));
          } catch (const std::exception& e) {
            RecordFailure(e.what());
            results->Put(chunk->index, ChunkResult());
          }
          buffers->Give(std::move(chunk->text));
        }
      });
    }
  }
  ~ParserPool() { Join(); }
  void Submit(EventChunk chunk) { queue_.Push(std::move(chunk)); }
  // What went wrong in a parser thread, if anything; read after Join().
  const std::string& failure() const { return failure_; }
  void Join() {
    queue_.Close();
    for (std::thread& t : workers_) {
      if (t.joinable()) t.join();
    }
  }

 private:
  void RecordFailure(const char* what) {
    std::lock_guard lock(failure_mutex_);
    if (failure_.empty()) failure_ = what;
  }

  BoundedQueue<EventChunk> queue_;
  std::vector<std::thread> workers_;
  std::mutex failure_mutex_;
  std::string failure_;
};

void AddEventWarnings(const std::string& path, std::vector<PendingWarning>& pending, Trace* trace) {
  if (pending.empty()) return;
  const size_t shown = std::min(pending.size(), kDetailedWarnings);
  std::vector<uint64_t> offsets;
  for (size_t i = 0; i < shown; ++i) offsets.push_back(pending[i].content_offset);
  std::vector<SourcePosition> positions = ResolveOffsets(path, offsets);
  for (size_t i = 0; i < shown; ++i) {
    trace->warnings.push_back(
        fmt::format("{}:{}: {}", positions[i].line, positions[i].column, pending[i].message));
  }
  if (pending.size() > shown) {
    trace->warnings.push_back(fmt::format(
        "... and {} more events skipped for the same kinds of reasons", pending.size() - shown));
  }
}

}  // namespace

int ChromeImporter::Sniff(std::string_view head) const {
  size_t i = 0;
  if (head.starts_with("\xEF\xBB\xBF")) i = 3;
  while (i < head.size() &&
         (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
    ++i;
  if (i >= head.size() || (head[i] != '{' && head[i] != '[')) return 0;
  if (head.find("\"traceEvents\"") != std::string_view::npos) return 100;
  if (head.find("\"ph\"") != std::string_view::npos) return 90;
  return 10;  // JSON, but nothing trace-like in the first bytes
}

StatusOr<Trace> ChromeImporter::Import(const Input& input, const ImportOptions& options) const {
  const std::string& path = input.path();
  TM_ASSIGN_OR_RETURN(std::unique_ptr<BlockReader> opened, input.Blocks());
  BlockReader& reader = *opened;

  Trace trace;
  trace.path = path;
  MergedChunks merged;
  ChunkMerger merger(&trace, &merged);
  OrderedResults results;
  BufferPool buffers(options.chunk_bytes + 2 * kReadBlockBytes + simdjson::SIMDJSON_PADDING);
  EventSplitter splitter(options.chunk_bytes, &buffers);

  const int threads =
      options.threads > 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  // One thread: parse inline, no pool. More: the calling thread splits and merges.
  std::optional<ParserPool> pool;
  ChunkParser inline_parser;
  if (threads > 1) pool.emplace(threads, &results, &buffers);

  // For a plain file the content is the file; for gzip the compressed position is an estimate.
  auto fraction_through = [&](const EventChunk& chunk) {
    if (reader.file_size() == 0) return 0.0;
    const double done = reader.compressed()
                            ? static_cast<double>(reader.file_bytes_consumed())
                            : static_cast<double>(chunk.content_offset + chunk.json_length);
    return std::min(1.0, done / static_cast<double>(reader.file_size()));
  };
  auto dispatch = [&](std::vector<EventChunk>& chunks) {
    for (EventChunk& chunk : chunks) {
      chunk.input_fraction = fraction_through(chunk);
      if (pool) {
        pool->Submit(std::move(chunk));
      } else {
        results.Put(chunk.index, inline_parser.Parse(chunk));
        buffers.Give(std::move(chunk.text));
      }
    }
    chunks.clear();
    results.MergeReady(&merger);
  };

  std::vector<char> block;
  std::vector<EventChunk> chunks;
  Status status;
  while (reader.Next(&block)) {
    status = splitter.Feed(block.data(), block.size(), &chunks);
    dispatch(chunks);
    if (!status.ok()) break;
    if (options.progress) options.progress(reader.file_bytes_consumed(), reader.file_size());
  }
  if (status.ok() && !reader.status().ok()) status = reader.status();
  if (status.ok()) status = splitter.Finish(&chunks);
  dispatch(chunks);
  if (pool) pool->Join();
  results.MergeReady(&merger);
  if (!status.ok()) {
    // Damaged compression explains damaged JSON: say both.
    if (!reader.warning().empty()) {
      return Status(status.code(), status.message() + " (" + reader.warning() + ")",
                    status.position());
    }
    return status;
  }
  if (pool && !pool->failure().empty()) {
    return UnreadableInput("reading failed: " + pool->failure() +
                           " (out of memory? try --threads 1, or a machine with more memory)");
  }

  TM_ASSIGN_OR_RETURN(TopLevelMetadata meta, ParseTopLevelMetadata(splitter.metadata_json()));
  if (!reader.warning().empty()) trace.warnings.push_back(reader.warning());
  if (splitter.truncated_bytes() > 0) {
    trace.warnings.push_back(fmt::format(
        "the trace is cut off (a job that died while writing?): read every complete event and "
        "skipped the last {} bytes, an incomplete event",
        splitter.truncated_bytes()));
  }
  for (const std::string& note : splitter.notes()) trace.warnings.push_back(note);
  for (const std::string& w : meta.warnings) trace.warnings.push_back(w);
  AddEventWarnings(path, merged.warnings, &trace);
  BuildChromeTrace(meta, merged, &trace);
  return trace;
}

}  // namespace tensormorph::chrome
