#include "report/text_table.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace refract::report {

size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b') {  // skip "ESC [ ... letter"
      while (i < text.size() && !std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
      continue;
    }
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++width;  // not a continuation
  }
  return width;
}

TextTable::TextTable(std::vector<bool> right_aligned) : right_aligned_(std::move(right_aligned)) {}

void TextTable::AddRow(std::vector<std::string> cells) {
  rows_.push_back(Row{.cells = std::move(cells), .last_overflows = false});
}

void TextTable::AddOverflowRow(std::vector<std::string> cells) {
  rows_.push_back(Row{.cells = std::move(cells), .last_overflows = true});
}

std::vector<std::string> TextTable::Lines() const {
  std::vector<size_t> widths;
  for (const Row& row : rows_) {
    const size_t measured = row.cells.size() - (row.last_overflows && !row.cells.empty() ? 1 : 0);
    widths.resize(std::max(widths.size(), measured), 0);
    for (size_t i = 0; i < measured; ++i) {
      widths[i] = std::max(widths[i], DisplayWidth(row.cells[i]));
    }
  }
  std::vector<std::string> lines;
  for (const Row& row : rows_) {
    std::string line;
    for (size_t i = 0; i < row.cells.size(); ++i) {
      if (i > 0) line += "  ";
      if (row.last_overflows && i + 1 == row.cells.size()) {
        line += row.cells[i];
        break;
      }
      const std::string padding(widths[i] - DisplayWidth(row.cells[i]), ' ');
      bool right = i < right_aligned_.size() && right_aligned_[i];
      line += right ? padding + row.cells[i] : row.cells[i] + padding;
    }
    line.erase(line.find_last_not_of(' ') + 1);
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace refract::report
