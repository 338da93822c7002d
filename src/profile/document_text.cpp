#include "profile/document_text.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

namespace refract::profile::document {
namespace {

namespace fs = std::filesystem;

/// What kind of thing `status` is, when it is no regular file: "a folder", "a named pipe", ….
std::optional<std::string> NotARegularFile(const fs::file_status& status) {
  switch (status.type()) {
    case fs::file_type::regular:
      return std::nullopt;
    case fs::file_type::directory:
      return "a folder";
    case fs::file_type::fifo:
      return "a named pipe";
    case fs::file_type::character:
    case fs::file_type::block:
      return "a device";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "not a regular file";
  }
}

/// The length of the UTF-8 sequence starting at `text[at]`, or 0 when it is not one (RFC 3629:
/// no overlong forms, no surrogates, nothing past U+10FFFF).
size_t Utf8Length(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  }
  return length;
}

/// Follows a JSON text's values and keeps the path of the one being read, so that a parse that
/// fails can say in which field.
class PathTracker : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit PathTracker(std::string root) : root_(std::move(root)) {}

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override {
    levels_.push_back({.array = false, .key = "", .index = 0});
    return true;
  }
  bool key(string_t& name) override {
    levels_.back().key = name;
    return true;
  }
  bool end_object() override {
    levels_.pop_back();
    return Value();
  }
  bool start_array(std::size_t) override {
    levels_.push_back({.array = true, .key = "", .index = 0});
    return true;
  }
  bool end_array() override {
    levels_.pop_back();
    return Value();
  }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception&) override {
    failure_ = Path();
    return false;
  }

  const std::string& failure() const { return failure_; }

 private:
  struct Level {
    bool array;
    std::string key;  ///< an object's current key
    size_t index;     ///< an array's current element
  };

  /// A value ended: an array moves on to its next element.
  bool Value() {
    if (!levels_.empty() && levels_.back().array) ++levels_.back().index;
    return true;
  }

  std::string Path() const {
    std::string path = root_;
    for (const Level& level : levels_) {
      path += level.array ? "[" + std::to_string(level.index) + "]" : "." + level.key;
    }
    return path;
  }

  std::string root_;
  std::vector<Level> levels_;
  std::string failure_;
};

}  // namespace

FileText ReadFile(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error) return {.text = "", .problem = "cannot be opened: " + error.message()};
  if (const std::optional<std::string> kind = NotARegularFile(status)) {
    return {.text = "", .problem = "is " + *kind + ", not a file"};
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return {.text = "", .problem = std::string("cannot be opened: ") + std::strerror(errno)};
  FileText read;
  char chunk[1 << 16];
  while (file) {
    file.read(chunk, sizeof chunk);
    read.text.append(chunk, static_cast<size_t>(file.gcount()));
    if (read.text.size() > kMaxBytes) {
      return {.text = "", .problem = "larger than 64 MiB: no refract document"};
    }
  }
  if (file.bad()) return {.text = "", .problem = "read failed"};
  return read;
}

std::optional<std::string> TextProblem(std::string_view text) {
  if (text.size() > kMaxBytes) return "larger than 64 MiB: no refract document";
  // One leading mark is ignored; JSON parsers that skip one themselves must not see a second.
  if (WithoutByteOrderMark(WithoutByteOrderMark(text)).size() + 6 == text.size()) {
    return "not JSON: a second byte order mark at byte 3";
  }
  for (size_t at = 0; at < text.size();) {
    if (text[at] == '\0') {
      return "a NUL character at byte " + std::to_string(at) + ": not a JSON text";
    }
    const size_t length = Utf8Length(text, at);
    if (length == 0) return "not valid UTF-8 at byte " + std::to_string(at);
    at += length;
  }
  return std::nullopt;
}

std::string_view WithoutByteOrderMark(std::string_view text) {
  constexpr std::string_view kMark = "\xEF\xBB\xBF";
  return text.substr(0, kMark.size()) == kMark ? text.substr(kMark.size()) : text;
}

std::string FailurePath(std::string_view text, const std::string& root) {
  PathTracker tracker(root);
  nlohmann::json::sax_parse(text, &tracker);
  return tracker.failure().empty() ? root : tracker.failure();
}

}  // namespace refract::profile::document
