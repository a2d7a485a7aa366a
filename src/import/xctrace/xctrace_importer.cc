#include "import/xctrace/xctrace_importer.h"

#include <fmt/format.h>

#include "import/xctrace/trace_builder.h"
#include "import/xctrace/xml_tables.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph::xctrace {
namespace {

// The content after a BOM, whitespace, an XML declaration and comments: where the document
// element starts.
std::string_view DocumentElement(std::string_view head) {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  for (;;) {
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    head.remove_prefix(first);
    std::string_view close;
    if (head.starts_with("<?")) {
      close = "?>";
    } else if (head.starts_with("<!--")) {
      close = "-->";
    } else if (head.starts_with("<!DOCTYPE")) {
      close = ">";
    } else {
      return head;
    }
    const size_t end = head.find(close);
    if (end == std::string_view::npos) return {};
    head.remove_prefix(end + close.size());
  }
}

bool StartsWithElement(std::string_view s, std::string_view name) {
  if (!s.starts_with("<") || !s.substr(1).starts_with(name)) return false;
  const size_t after = 1 + name.size();
  return after < s.size() && std::string_view(" \t\r\n>/").find(s[after]) != std::string_view::npos;
}

}  // namespace

int XctraceImporter::Sniff(std::string_view head) const {
  const std::string_view root = DocumentElement(head);
  return StartsWithElement(root, "trace-query-result") || StartsWithElement(root, "trace-toc") ? 100
                                                                                               : 0;
}

StatusOr<Trace> XctraceImporter::Import(const Input& input, const ImportOptions& options) const {
  const std::string& path = input.path();
  TM_ASSIGN_OR_RETURN(std::unique_ptr<BlockReader> opened, input.Blocks());
  XmlTableReader reader;
  std::vector<char> block;
  while (opened->Next(&block)) {
    TM_RETURN_IF_ERROR(reader.Feed(std::string_view(block.data(), block.size())));
    if (options.progress) options.progress(opened->file_bytes_consumed(), opened->file_size());
  }
  TM_RETURN_IF_ERROR(opened->status());
  TM_ASSIGN_OR_RETURN(XmlDocument doc, reader.Finish());
  if (doc.root == "trace-toc") {
    return UnreadableInput(
        fmt::format("this is the table of contents of a trace (xctrace export --toc), not a "
                    "table; export the GPU intervals table instead: {}",
                    kExportCommand),
        SourcePosition{1, 1});
  }
  if (doc.root != "trace-query-result") {
    return UnreadableInput(
        fmt::format("not an xctrace export: the document element is <{}>, expected "
                    "<trace-query-result> (from {})",
                    doc.root, kExportCommand),
        SourcePosition{1, 1});
  }
  Trace trace;
  trace.path = path;
  trace.format = "xctrace";
  TM_RETURN_IF_ERROR(BuildXctraceTrace(doc, options, &trace));
  if (!opened->warning().empty()) trace.warnings.insert(trace.warnings.begin(), opened->warning());
  return trace;
}

}  // namespace tensormorph::xctrace
