// tm_gen_nsys: writes a synthetic Nsight Systems export (`nsys export --type sqlite`) of a chosen
// size, for benchmarking the nsys importer.
//
//   tm_gen_nsys --size-mb N -o OUT.sqlite [--schema REAL.sqlite]... [--seed S]
//
// The tables are created with the CREATE TABLE text of real exports (--schema, first file that has
// the table wins), so column names, order, types and NOT NULL constraints are Nsight's own. Rows
// follow the mix of the real 2-GPU H100 export (nsysai_h100_2gpu_1s_2026.2.sqlite, PyTorch with
// emit_nvtx), per kernel: 1.68 runtime calls (one launch, plus cudaMemcpyAsync/cudaMemsetAsync for
// each copy/set and 0.39 others), 0.26 memcpys, 0.0064 memsets, 0.071 sync records and 4.88 NVTX
// push/pop ranges whose text is "aten::<op>, op_id = <n>" (unique per range, as emit_nvtx writes
// it). Kernel names: 300 distinct demangled names (223 characters on average) with skewed launch
// counts, a base shortName (shared, as in real exports) and a mangledName each. Everything is
// inserted in one transaction through prepared statements, and the file is renamed into place when
// complete.
#include <fmt/core.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr uint64_t kBytesPerMb = 1'000'000;

// Rows per kernel in the real export: 5796 runtime, 904 memcpy, 22 memset, 244 sync and 16782 NVTX
// rows for 3442 kernels. Runtime calls besides launches and copies make up the rest of the 5796.
constexpr double kMemcpyPerKernel = 904.0 / 3442;
constexpr double kMemsetPerKernel = 22.0 / 3442;
constexpr double kSyncPerKernel = 244.0 / 3442;
constexpr double kNvtxPerKernel = 16782.0 / 3442;
constexpr double kOtherApiPerKernel = (5796.0 - 3442 - 904 - 22) / 3442;
constexpr int kKernelNames = 300;

constexpr const char* kTables[] = {"StringIds",
                                   "CUPTI_ACTIVITY_KIND_KERNEL",
                                   "CUPTI_ACTIVITY_KIND_RUNTIME",
                                   "CUPTI_ACTIVITY_KIND_MEMCPY",
                                   "CUPTI_ACTIVITY_KIND_MEMSET",
                                   "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                                   "NVTX_EVENTS",
                                   "TARGET_INFO_GPU",
                                   "TARGET_INFO_SESSION_START_TIME",
                                   "META_DATA_EXPORT",
                                   "PROCESSES",
                                   "ThreadNames",
                                   "ENUM_CUDA_MEMCPY_OPER"};

void Check(sqlite3* db, int rc, std::string_view what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    throw std::runtime_error(fmt::format("{}: {}", what, sqlite3_errmsg(db)));
  }
}

void Exec(sqlite3* db, const std::string& sql) {
  Check(db, sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), sql.substr(0, 80));
}

// One prepared INSERT of the named columns.
class Insert {
 public:
  // `columns`: the column names, separated by spaces.
  Insert(sqlite3* db, std::string_view table, std::string_view columns) : db_(db) {
    std::string names, marks;
    for (size_t at = 0; at < columns.size();) {
      const size_t end = std::min(columns.find(' ', at), columns.size());
      if (end > at) {
        names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", columns.substr(at, end - at));
        marks += marks.empty() ? "?" : ", ?";
      }
      at = end + 1;
    }
    const std::string sql = fmt::format("INSERT INTO \"{}\" ({}) VALUES ({})", table, names, marks);
    Check(db, sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr), sql);
  }
  ~Insert() { sqlite3_finalize(stmt_); }
  Insert(const Insert&) = delete;
  Insert& operator=(const Insert&) = delete;

  // Binds the values to the columns in the order they were named, and inserts the row.
  template <typename... Values>
  void Row(const Values&... values) {
    int i = 0;
    (Bind(++i, values), ...);
    Check(db_, sqlite3_step(stmt_), "insert");
    sqlite3_reset(stmt_);
  }

 private:
  void Bind(int i, int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
  void Bind(int i, int v) { sqlite3_bind_int64(stmt_, i, v); }
  void Bind(int i, std::string_view v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void Bind(int i, const std::string& v) { Bind(i, std::string_view(v)); }
  void Bind(int i, const char* v) { Bind(i, std::string_view(v)); }

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// splitmix64: fast, and the output depends only on the seed.
struct Rng {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  int64_t Range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % (hi - lo + 1));
  }
};

// How many events of a kind with `rate` per kernel happen at this kernel (carries the fraction).
int Due(double rate, double* carry) {
  *carry += rate;
  const int n = static_cast<int>(*carry);
  *carry -= n;
  return n;
}

struct KernelName {
  std::string demangled, short_name, mangled;
  int64_t mean_ns;
  int64_t grid, block, registers, static_smem, dynamic_smem;
};

// Demangled names in the shapes PyTorch and cuBLAS kernels have in the real export.
std::vector<KernelName> MakeKernelNames(Rng& rng) {
  const char* functors[] = {"MulFunctor", "AddFunctor", "DivFunctor", "CompareEqFunctor",
                            "MaxFunctor", "MinFunctor", "SubFunctor", "PowFunctor"};
  const char* ops[] = {"direct_copy_kernel_cuda", "rsqrt_kernel_cuda", "log_kernel_cuda",
                       "tanh_kernel_cuda",        "exp_kernel_cuda",   "sigmoid_kernel_cuda",
                       "gelu_kernel_cuda",        "silu_kernel_cuda",  "masked_fill_kernel"};
  const char* types[] = {"float", "c10::BFloat16", "c10::Half", "long", "bool"};
  std::vector<KernelName> names;
  std::set<std::string> seen;
  auto pick = [&](const auto& list) { return list[rng.Next() % std::size(list)]; };
  for (int i = 0; static_cast<int>(names.size()) < kKernelNames; ++i) {
    KernelName k;
    const char* type = pick(types);
    const int vec = 1 << rng.Range(1, 3);
    const int64_t n = rng.Range(1, 8);
    switch (rng.Next() % 5) {
      case 0:
        k.short_name = "vectorized_elementwise_kernel";
        k.demangled = fmt::format(
            "void at::native::vectorized_elementwise_kernel<(int){}, at::native::BinaryFunctor<{}, "
            "{}, {}, at::native::binary_internal::{}<{}>>, std::array<char *, (unsigned long)3>>"
            "(int, T2, T3)",
            vec, type, type, type, pick(functors), type);
        break;
      case 1:
        k.short_name = "elementwise_kernel";
        k.demangled = fmt::format(
            "void at::native::elementwise_kernel<(int)128, (int){}, void "
            "at::native::gpu_kernel_impl_nocast<at::native::{}(at::TensorIteratorBase "
            "&)::[lambda() "
            "(instance {})]::operator ()() const::[lambda({}) (instance "
            "1)]>(at::TensorIteratorBase "
            "&, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
            vec, pick(ops), n, type);
        break;
      case 2:
        k.short_name = "reduce_kernel";
        k.demangled = fmt::format(
            "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<{}, "
            "at::native::MeanOps<{}, {}, {}, {}>, unsigned int, {}, (int){}, (int)4>>(T3)",
            type, type, type, type, type, type, vec);
        break;
      case 3:
        k.short_name = fmt::format(
            "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize{}x{}x64_warpgroupsize1x1x1_"
            "execute_segment_k_off_kernel__5x_cublas",
            64 << rng.Range(0, 2), 64 << rng.Range(0, 2));
        k.demangled = k.short_name + (n % 2 ? "" : "_split_k");
        break;
      default:
        k.short_name = "softmax_warp_forward";
        k.demangled = fmt::format(
            "void <unnamed>::softmax_warp_forward<{}, {}, float, (int){}, (bool){}, (bool)0>(T2 *, "
            "const T1 *, int, int, int, const bool *, int, bool)",
            type, type, n + rng.Range(0, 3), n % 2);
        break;
    }
    if (!seen.insert(k.demangled).second) continue;  // kKernelNames distinct names
    k.mangled = fmt::format("_ZN2at6native{}{}I{}E{}", k.short_name.size(), k.short_name, i, vec);
    k.mean_ns = static_cast<int64_t>(1000 * std::exp(rng.Unit() * 5));  // 1 us .. 150 us
    k.grid = rng.Range(1, 4096);
    k.block = int64_t{32} << rng.Range(0, 5);
    k.registers = rng.Range(16, 128);
    k.static_smem = rng.Range(0, 1) * 1024 * rng.Range(0, 48);
    k.dynamic_smem = rng.Range(0, 1) * 1024 * rng.Range(0, 200);
    names.push_back(std::move(k));
  }
  return names;
}

struct Process {
  int64_t pid, global_pid, global_tid, device, stream, context;
  int64_t host_ns, gpu_ns, correlation, op_id = 0, grid_id = 0;
};

struct Options {
  uint64_t size_mb = 0;
  std::string out;
  std::vector<std::string> schemas;
  uint64_t seed = 1;
};

Options ParseArgs(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (i + 1 >= argc) throw std::runtime_error(fmt::format("{} needs a value", a));
    const char* v = argv[++i];
    if (a == "--size-mb") {
      o.size_mb = std::strtoull(v, nullptr, 10);
    } else if (a == "-o") {
      o.out = v;
    } else if (a == "--schema") {
      o.schemas.emplace_back(v);
    } else if (a == "--seed") {
      o.seed = std::strtoull(v, nullptr, 10);
    } else {
      throw std::runtime_error(fmt::format("unknown option {}", a));
    }
  }
#if defined(TM_DEFAULT_SCHEMA) && defined(TM_DEFAULT_GPU_SCHEMA)
  if (o.schemas.empty()) o.schemas = {TM_DEFAULT_SCHEMA, TM_DEFAULT_GPU_SCHEMA};
#endif
  if (o.size_mb == 0 || o.out.empty() || o.schemas.empty()) {
    throw std::runtime_error(
        "usage: tm_gen_nsys --size-mb N -o OUT.sqlite [--schema REAL.sqlite]... [--seed S]");
  }
  return o;
}

// Creates every table of kTables with the CREATE TABLE text of the first schema file that has it,
// and copies ENUM_CUDA_MEMCPY_OPER's rows from there.
void CopySchema(sqlite3* db, const std::vector<std::string>& schemas) {
  for (size_t i = 0; i < schemas.size(); ++i) {
    sqlite3_stmt* quote = nullptr;
    Check(db, sqlite3_prepare_v2(db, "SELECT quote(?1)", -1, &quote, nullptr), "quote");
    const std::string uri = "file:" + schemas[i] + "?immutable=1";
    sqlite3_bind_text(quote, 1, uri.c_str(), -1, SQLITE_TRANSIENT);
    Check(db, sqlite3_step(quote), "quote");
    Exec(db, fmt::format("ATTACH {} AS s{}",
                         reinterpret_cast<const char*>(sqlite3_column_text(quote, 0)), i));
    sqlite3_finalize(quote);
  }
  for (const char* table : kTables) {
    bool found = false;
    for (size_t i = 0; i < schemas.size() && !found; ++i) {
      sqlite3_stmt* get = nullptr;
      Check(db,
            sqlite3_prepare_v2(
                db, fmt::format("SELECT sql FROM s{}.sqlite_master WHERE name = ?1", i).c_str(), -1,
                &get, nullptr),
            "sqlite_master");
      sqlite3_bind_text(get, 1, table, -1, SQLITE_STATIC);
      if (sqlite3_step(get) == SQLITE_ROW) {
        Exec(db, reinterpret_cast<const char*>(sqlite3_column_text(get, 0)));
        if (std::string_view(table) == "ENUM_CUDA_MEMCPY_OPER") {
          Exec(db, fmt::format("INSERT INTO main.{0} SELECT * FROM s{1}.{0}", table, i));
        }
        found = true;
      }
      sqlite3_finalize(get);
    }
    if (!found) throw std::runtime_error(fmt::format("no schema file has table {}", table));
  }
  for (size_t i = 0; i < schemas.size(); ++i) Exec(db, fmt::format("DETACH s{}", i));
}

}  // namespace

int main(int argc, char** argv) try {
  const Options options = ParseArgs(argc, argv);
  const std::string tmp = options.out + ".tmp";
  std::filesystem::remove(tmp);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(tmp.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
                      nullptr) != SQLITE_OK) {
    throw std::runtime_error(fmt::format("cannot create {}", tmp));
  }
  Exec(db,
       "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
       "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -131072");
  CopySchema(db, options.schemas);
  Exec(db, "BEGIN");

  Rng rng{options.seed};
  const std::vector<KernelName> kernels = MakeKernelNames(rng);
  const char* other_apis[] = {"cudaStreamIsCapturing_v10000",    "cudaStreamWaitEvent_v3020",
                              "cudaEventRecordWithFlags_v11010", "cudaEventDestroy_v3020",
                              "cudaEventCreateWithFlags_v3020",  "cudaStreamSynchronize_v3020"};
  const char* aten_ops[] = {
      "aten::as_strided", "aten::to",        "aten::copy_",
      "aten::view",       "aten::reshape",   "aten::empty_strided",
      "aten::permute",    "aten::_to_copy",  "aten::mul",
      "aten::add",        "aten::unsqueeze", "aten::empty",
      "aten::linear",     "aten::matmul",    "aten::softmax",
      "aten::layer_norm", "aten::gelu",      "aten::scaled_dot_product_attention"};

  // StringIds: API names, kernel names (demangled, short, mangled), thread names.
  Insert string(db, "StringIds", "id value");
  int64_t next_id = 1;
  auto add_string = [&](std::string_view text) {
    string.Row(next_id, text);
    return next_id++;
  };
  const int64_t launch_id = add_string("cudaLaunchKernel_v7000");
  const int64_t launch_ex_id = add_string("cudaLaunchKernelExC_v11060");
  const int64_t memcpy_id = add_string("cudaMemcpyAsync_v3020");
  const int64_t memset_id = add_string("cudaMemsetAsync_v3020");
  std::vector<int64_t> other_ids;
  for (const char* api : other_apis) other_ids.push_back(add_string(api));
  std::vector<int64_t> demangled_ids, short_ids, mangled_ids;
  for (const KernelName& k : kernels) {
    demangled_ids.push_back(add_string(k.demangled));
    const auto same = std::find_if(kernels.begin(), kernels.end(), [&](const KernelName& o) {
      return o.short_name == k.short_name;
    });
    short_ids.push_back(same == kernels.begin() + static_cast<ptrdiff_t>(short_ids.size())
                            ? add_string(k.short_name)
                            : short_ids[static_cast<size_t>(same - kernels.begin())]);
    mangled_ids.push_back(add_string(k.mangled));
  }
  const int64_t thread_name_id = add_string("python3");

  // Two ranks, one GPU each, as in the real export (deviceId 0/1, streams 7/15).
  std::vector<Process> procs;
  for (int64_t d = 0; d < 2; ++d) {
    const int64_t pid = 111 + 2 * d;
    const int64_t gpid = (int64_t{1} << 48) | (pid << 24);
    procs.push_back({pid, gpid, gpid | pid, d, 7 + 8 * d, 1 + d, 1'000'000'000, 1'000'000'000,
                     1'400'000 + 40'000 * d});
  }
  Insert gpu(db, "TARGET_INFO_GPU",
             "vmId id name busLocation isDiscrete l2CacheSize totalMemory memoryBandwidth "
             "clockRate smCount chipName cuDevice maxShmemPerBlock maxShmemPerBlockOptin "
             "maxShmemPerSm maxRegistersPerSm threadsPerWarp maxWarpsPerSm maxBlocksPerSm "
             "maxThreadsPerBlock computeMajor computeMinor");
  Insert process(db, "PROCESSES", "globalPid pid name");
  Insert thread(db, "ThreadNames", "nameId priority globalTid");
  for (const Process& p : procs) {
    gpu.Row(0, p.device, "NVIDIA H100 80GB HBM3", fmt::format("0000:{:02x}:00.0", 0x18 + p.device),
            1, 52428800, 85520809984, 3352320000000, 1980000000, 132, "GH100", p.device, 49152,
            232448, 233472, 65536, 32, 64, 32, 1024, 9, 0);
    process.Row(p.global_pid, p.pid, "python3");
    thread.Row(thread_name_id, 20, p.global_tid);
  }
  Exec(db,
       "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1779630014975716426, "
       "'2026-05-24T13:40:14', '2026-05-24T13:40:14', 35255823190)");
  Exec(db,
       "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'), "
       "('EXPORT_PRODUCT_VERSION', '2026.2.1.210'), ('EXPORT_SCHEMA_VERSION', '3.25.0'), "
       "('EXPORT_SCHEMA_VERSION_MAJOR', '3'), ('EXPORT_SCHEMA_VERSION_MINOR', '25'), "
       "('EXPORT_PARAM_EXPORT_TYPE', 'SQLite'), ('DERIVED_BY', 'bench/gen_nsys.cc')");

  Insert kernel(db, "CUPTI_ACTIVITY_KIND_KERNEL",
                "start end deviceId contextId greenContextId streamId correlationId globalPid "
                "demangledName shortName mangledName launchType cacheConfig registersPerThread "
                "gridX gridY gridZ blockX blockY blockZ staticSharedMemory dynamicSharedMemory "
                "localMemoryPerThread localMemoryTotal gridId sharedMemoryExecuted "
                "sharedMemoryLimitConfig clusterX clusterY clusterZ clusterSchedulingPolicy "
                "maxPotentialClusterSize maxActiveClusters tensorSizeMinusOneElements");
  Insert runtime(db, "CUPTI_ACTIVITY_KIND_RUNTIME",
                 "start end eventClass globalTid correlationId nameId returnValue");
  Insert memcpy(db, "CUPTI_ACTIVITY_KIND_MEMCPY",
                "start end deviceId contextId greenContextId streamId correlationId globalPid "
                "bytes copyKind srcKind dstKind copyCount");
  Insert memset(db, "CUPTI_ACTIVITY_KIND_MEMSET",
                "start end deviceId contextId greenContextId streamId correlationId globalPid "
                "value bytes memKind");
  Insert sync(db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
              "start end deviceId contextId greenContextId streamId correlationId globalPid "
              "syncType eventId");
  Insert nvtx(db, "NVTX_EVENTS", "start end eventType text globalTid domainId");

  auto api = [&](Process& p, int64_t name_id, int64_t dur) {
    runtime.Row(p.host_ns, p.host_ns + dur, 0, p.global_tid, ++p.correlation, name_id, 0);
    p.host_ns += dur + rng.Range(200, 2000);
    return p.correlation;
  };
  // A GPU activity's start: after the GPU's previous one and after its launch.
  auto gpu_start = [&](Process& p) {
    return std::max(p.gpu_ns, p.host_ns + rng.Range(2000, 8000));
  };

  const uint64_t target = options.size_mb * kBytesPerMb;
  uint64_t n_kernels = 0, n_api = 0, n_memcpy = 0, n_memset = 0, n_sync = 0, n_nvtx = 0;
  double memcpy_carry = 0, memset_carry = 0, sync_carry = 0, nvtx_carry = 0, other_carry = 0;
  std::string text;
  sqlite3_stmt* pages = nullptr;
  Check(db, sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &pages, nullptr), "page_count");
  for (uint64_t unit = 0;; ++unit) {
    if (unit % 4096 == 0) {
      sqlite3_step(pages);
      const uint64_t bytes = static_cast<uint64_t>(sqlite3_column_int64(pages, 0)) * 4096;
      sqlite3_reset(pages);
      if (bytes >= target) break;
    }
    Process& p = procs[unit % 2];
    for (int i = Due(kNvtxPerKernel, &nvtx_carry); i > 0; --i, ++n_nvtx) {
      const int64_t dur = rng.Range(2000, 60000);
      text = fmt::format("{}, op_id = {}", aten_ops[rng.Next() % std::size(aten_ops)], ++p.op_id);
      nvtx.Row(p.host_ns, p.host_ns + dur, 59, text, p.global_tid, 0);
      p.host_ns += dur / 4;
    }
    for (int i = Due(kOtherApiPerKernel, &other_carry); i > 0; --i, ++n_api) {
      api(p, other_ids[rng.Next() % other_ids.size()], rng.Range(800, 5000));
    }
    // Launch counts follow u^3: a few kernels take most launches, as in a real step.
    const size_t which = static_cast<size_t>(std::pow(rng.Unit(), 3) * kKernelNames);
    const KernelName& k = kernels[which];
    const int64_t correlation =
        api(p, rng.Range(0, 5) == 0 ? launch_ex_id : launch_id, rng.Range(3000, 9000));
    ++n_api;
    const int64_t start = gpu_start(p);
    const int64_t dur = std::max<int64_t>(800, k.mean_ns / 2 + rng.Range(0, k.mean_ns));
    kernel.Row(start, start + dur, p.device, p.context, 0, p.stream, correlation, p.global_pid,
               demangled_ids[which], short_ids[which], mangled_ids[which], 1, 1, k.registers,
               k.grid, 1, 1, k.block, 1, 1, k.static_smem, k.dynamic_smem, 0, 250871808,
               ++p.grid_id, 32768, 0, 0, 0, 0, 0, 1, 0, "[]");
    p.gpu_ns = start + dur + rng.Range(500, 3000);
    ++n_kernels;
    for (int i = Due(kMemcpyPerKernel, &memcpy_carry); i > 0; --i, ++n_memcpy, ++n_api) {
      const int64_t bytes = rng.Range(4, 256 << 20);
      const bool htod = rng.Next() % 2 == 0;
      const int64_t c = api(p, memcpy_id, rng.Range(4000, 20000));
      const int64_t s = gpu_start(p);
      const int64_t d = std::max<int64_t>(1000, bytes / (htod ? 25 : 1500));  // ~25 / 1500 GB/s
      memcpy.Row(s, s + d, p.device, p.context, 0, p.stream, c, p.global_pid, bytes, htod ? 1 : 8,
                 htod ? 1 : 2, 2, 1);
      p.gpu_ns = s + d;
    }
    for (int i = Due(kMemsetPerKernel, &memset_carry); i > 0; --i, ++n_memset, ++n_api) {
      const int64_t c = api(p, memset_id, rng.Range(3000, 8000));
      const int64_t s = gpu_start(p);
      memset.Row(s, s + 1200, p.device, p.context, 0, p.stream, c, p.global_pid, 0,
                 rng.Range(4, 1 << 20), 2);
      p.gpu_ns = s + 1200;
    }
    for (int i = Due(kSyncPerKernel, &sync_carry); i > 0; --i, ++n_sync) {
      sync.Row(p.host_ns, p.host_ns + 5000, p.device, p.context, 0, p.stream, p.correlation,
               p.global_pid, 1, 0);
    }
  }
  sqlite3_finalize(pages);
  Exec(db, "COMMIT");
  sqlite3_close(db);
  std::filesystem::rename(tmp, options.out);
  fmt::print(stderr,
             "tm_gen_nsys: {} ({:.1f} MB): {} kernels, {} runtime calls, {} memcpys, {} memsets, "
             "{} sync records, {} NVTX ranges, {} kernel names\n",
             options.out, std::filesystem::file_size(options.out) / 1e6, n_kernels, n_api, n_memcpy,
             n_memset, n_sync, n_nvtx, kernels.size());
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "tm_gen_nsys: {}\n", e.what());
  return 1;
}
