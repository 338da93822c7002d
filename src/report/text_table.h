// Column layout for the terminal tables: pads cells to aligned columns, counting display
// width (UTF-8 code points, ANSI color codes excluded).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace refract::report {

/// Columns of text cells laid out with two spaces between columns.
class TextTable {
 public:
  /// `right_aligned[i]` right-aligns column i; missing entries mean left-aligned.
  explicit TextTable(std::vector<bool> right_aligned = {});

  /// Adds a row of cells (they may carry ANSI color codes).
  void AddRow(std::vector<std::string> cells);

  /// Adds a row whose last cell runs on past the columns (its width does not count), e.g. a
  /// message in place of the measurement columns. A single cell makes a free-standing line.
  void AddOverflowRow(std::vector<std::string> cells);

  /// One string per row, padded to the column widths, with no trailing spaces.
  std::vector<std::string> Lines() const;

 private:
  struct Row {
    std::vector<std::string> cells;
    bool last_overflows = false;
  };
  std::vector<bool> right_aligned_;
  std::vector<Row> rows_;
};

/// Width of `text` on a terminal: UTF-8 code points, ANSI escape sequences not counted.
size_t DisplayWidth(std::string_view text);

}  // namespace refract::report
