// The files the HTML report is made of, embedded into the binary at build time
// (cmake/embed_files_script.cmake, listed in src/report/CMakeLists.txt): the page template,
// its style and scripts (src/report/html/), and uPlot's minified script, style, license and
// package.json (node_modules/uplot).
#pragma once

#include <string_view>
#include <vector>

namespace refract::report {

struct EmbeddedFile {
  std::string_view name;     ///< the file name, e.g. "report.css", "uPlot.iife.min.js"
  std::string_view content;  ///< its bytes
};

/// Every embedded file, in the order CMake lists them.
const std::vector<EmbeddedFile>& EmbeddedFiles();

/// The content of the embedded file `name`; throws refract::Error when there is none.
std::string_view EmbeddedFileContent(std::string_view name);

}  // namespace refract::report
