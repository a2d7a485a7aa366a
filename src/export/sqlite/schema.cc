#include "export/sqlite/schema.h"

namespace tensormorph::sqlite_export {

// Every time is integer nanoseconds (*_ns), as in the model; ids are row ids starting at 0 that
// other tables refer to. Columns are documented in docs/sqlite-export.md.
const char* const kCreateTables = R"sql(
CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE devices (
  id INTEGER PRIMARY KEY, backend TEXT NOT NULL, vendor TEXT, name TEXT, ordinal INTEGER,
  trace_id INTEGER, compute_major INTEGER, compute_minor INTEGER, sm_count INTEGER,
  warp_size INTEGER, max_threads_per_sm INTEGER, registers_per_sm INTEGER,
  shared_memory_per_sm INTEGER, shared_memory_per_block INTEGER, total_memory_bytes INTEGER,
  described INTEGER NOT NULL);
CREATE TABLE device_peaks (
  device_id INTEGER NOT NULL REFERENCES devices(id), name TEXT NOT NULL, value REAL);
CREATE TABLE streams (
  id INTEGER PRIMARY KEY, device_id INTEGER REFERENCES devices(id), stream INTEGER NOT NULL,
  kernel_count INTEGER NOT NULL, memcpy_count INTEGER NOT NULL);
CREATE TABLE threads (
  id INTEGER PRIMARY KEY, pid INTEGER, tid INTEGER, pid_name TEXT, tid_name TEXT,
  thread_name TEXT);
CREATE TABLE api_calls (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,
  thread_id INTEGER REFERENCES threads(id), start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  duration_ns INTEGER NOT NULL, correlation INTEGER, external_id INTEGER);
CREATE TABLE ops (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, thread_id INTEGER REFERENCES threads(id),
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, duration_ns INTEGER NOT NULL,
  external_id INTEGER, parent_op_id INTEGER REFERENCES ops(id), input_dims TEXT,
  input_types TEXT, concrete_inputs TEXT);
CREATE TABLE annotations (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,
  thread_id INTEGER REFERENCES threads(id), start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  duration_ns INTEGER NOT NULL, external_id INTEGER);
CREATE TABLE kernels (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, device_id INTEGER REFERENCES devices(id),
  stream INTEGER NOT NULL, stream_id INTEGER REFERENCES streams(id), start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL, duration_ns INTEGER NOT NULL, correlation INTEGER,
  external_id INTEGER, grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, block_x INTEGER,
  block_y INTEGER, block_z INTEGER, registers_per_thread INTEGER, shared_memory_bytes INTEGER,
  accum_registers_per_thread INTEGER, scalar_registers INTEGER, wave_size INTEGER,
  achieved_occupancy_percent INTEGER, launch_id INTEGER REFERENCES api_calls(id),
  op_id INTEGER REFERENCES ops(id), annotation_id INTEGER REFERENCES annotations(id),
  link TEXT NOT NULL, graph INTEGER NOT NULL);
CREATE TABLE memcpy (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL,
  device_id INTEGER REFERENCES devices(id), stream INTEGER NOT NULL,
  stream_id INTEGER REFERENCES streams(id), start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  duration_ns INTEGER NOT NULL, bytes INTEGER NOT NULL, correlation INTEGER, external_id INTEGER,
  launch_id INTEGER REFERENCES api_calls(id), op_id INTEGER REFERENCES ops(id),
  annotation_id INTEGER REFERENCES annotations(id), link TEXT NOT NULL);
CREATE TABLE kernel_counters (
  kernel_id INTEGER NOT NULL REFERENCES kernels(id), section TEXT, name TEXT NOT NULL,
  unit TEXT, value REAL);
CREATE TABLE flows (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, phase TEXT NOT NULL, flow_id INTEGER NOT NULL,
  thread_id INTEGER REFERENCES threads(id), ts_ns INTEGER NOT NULL,
  binds_enclosing INTEGER NOT NULL);
CREATE TABLE warnings (id INTEGER PRIMARY KEY, message TEXT NOT NULL);
)sql";

const char* const kCreateIndexes = R"sql(
CREATE INDEX kernels_by_place ON kernels(device_id, stream, start_ns);
CREATE INDEX kernels_by_name ON kernels(name);
CREATE INDEX kernels_by_correlation ON kernels(correlation);
CREATE INDEX memcpy_by_place ON memcpy(device_id, stream, start_ns);
CREATE INDEX memcpy_by_correlation ON memcpy(correlation);
CREATE INDEX api_calls_by_correlation ON api_calls(correlation);
CREATE INDEX ops_by_name ON ops(name);
CREATE INDEX ops_by_external_id ON ops(external_id);
CREATE INDEX annotations_by_name ON annotations(name);
CREATE INDEX kernel_counters_by_kernel ON kernel_counters(kernel_id);
)sql";

}  // namespace tensormorph::sqlite_export
