#include "reference/llm_embedding.h"

#include <algorithm>

#include "base/error.h"

namespace refract::reference {

std::vector<float> Embedding(std::span<const uint32_t> ids, std::span<const float> table,
                             uint32_t hidden) {
  REFRACT_THROW_IF(hidden == 0 || table.size() % hidden != 0, Error,
                   "Embedding: the table is not a whole number of rows");
  const size_t vocab = table.size() / hidden;
  std::vector<float> out(ids.size() * hidden);
  for (size_t t = 0; t < ids.size(); ++t) {
    REFRACT_THROW_IF(ids[t] >= vocab, Error,
                     "Embedding: id " + std::to_string(ids[t]) + " outside the table");
    std::copy_n(table.data() + size_t{ids[t]} * hidden, hidden, out.data() + t * hidden);
  }
  return out;
}

}  // namespace refract::reference
