#include "engine/simhash/index/entry_ids.h"

#include "engine/simhash/index/reader_rep.h"

namespace simdex::simhash {

EntryIds::EntryIds(const IndexReader& reader) : rep_(reader.rep()) {}

Status EntryIds::Check() const { return rep_.InFile(rep_.CheckIds()); }

uint64_t EntryIds::AtRank(uint64_t rank) const { return rep_.IdAt(rank); }

Status EntryIds::InFile(Status s) const { return rep_.InFile(std::move(s)); }

}  // namespace simdex::simhash
