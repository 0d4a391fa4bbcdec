#include "engine/io/text_record.h"

#include "engine/io/line_reader.h"
#include "simdex/front_end_text.h"

namespace simdex::io {

Status SplitTextRecord(std::string_view line, std::string_view value_name, TextRecord* out) {
  const size_t tab = line.find('\t');
  if (tab == std::string_view::npos) {
    return Status::InvalidArgument("expected '<id><TAB><" + std::string(value_name) +
                                   ">' or '<id><TAB>-<TAB><reason>', got " + simdex::Quoted(line));
  }
  const std::string_view id = line.substr(0, tab);
  if (ParseDecimalUint64(id, &out->id)) {
    out->id_string = {};
  } else {
    Status s = simdex::CheckStringId(id);
    if (!s.ok()) return Status::InvalidArgument("bad id " + simdex::Quoted(id) + ": " + s.message());
    out->id = 0;
    out->id_string = id;
  }
  const std::string_view rest = line.substr(tab + 1);
  if (rest.starts_with("-")) {
    if (rest.size() < 3 || rest[1] != '\t') {
      return Status::InvalidArgument("empty-document line without '<TAB><reason>': " + simdex::Quoted(line));
    }
    out->empty = true;
    out->reason = rest.substr(2);
    out->value = {};
    return Status::OK();
  }
  out->empty = false;
  out->reason = {};
  out->value = rest;
  return Status::OK();
}

bool IsHeaderName(std::string_view id) {
  for (std::string_view header : {kTextProfilePrefix, kSignatureHeaderPrefix}) {
    if (id == header.substr(0, header.size() - 1)) return true;  // less its tab
  }
  return false;
}

Status AppendIdField(uint64_t id, const std::string_view* id_string, bool first_line, std::string* out) {
  if (id_string == nullptr) {
    util::AppendDecimal(out, id);
  } else {
    if (first_line && IsHeaderName(*id_string)) {
      return Status::InvalidArgument("the id \"" + std::string(*id_string) +
                                     "\" cannot start a text file of ids (it marks a header line)");
    }
    if (first_line && id_string->starts_with(kUtf8Bom)) out->append(kUtf8Bom);
    out->append(*id_string);
  }
  out->push_back('\t');
  return Status::OK();
}

void AppendEmptyFields(std::string_view reason, std::string* out) {
  out->append("-\t").append(reason).push_back('\n');
}

}  // namespace simdex::io
