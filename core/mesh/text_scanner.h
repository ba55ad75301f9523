#pragma once
// Shared machinery of the mesh readers and writers (internal to core/mesh): whole-file reading with
// plain-words errors, a tokenizer that tracks line numbers, and fast number formatting.
//
// The scanner never reads past its buffer and never trusts a count from a file: readers call
// reserveFor() so a header claiming 2^40 records cannot allocate more than the file could hold.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/common/files.h"
#include "qnsim/error.h"

namespace qnsim::io {

// A token shown inside an error message: quoted, shortened, non-printable bytes escaped.
std::string quoted(std::string_view token);

class Scanner {
 public:
  // `comment` starts a comment that runs to the end of the line; '\0' means the format has none.
  Scanner(std::string name, std::string_view text, char comment = '#');

  const std::string& name() const { return name_; }
  // The line of the last token read, e.g. for a locator "bunny.ele:17".
  int line() const { return token_line_; }
  std::string here() const { return name_ + ":" + std::to_string(token_line_); }

  // True when only whitespace and comments remain.
  bool atEnd();
  // The next token, on this line or a later one. At the end of the file: "unexpected end of file,
  // expected <what>".
  std::string_view token(std::string_view what);
  // The next token on the current line only; a short line is an error naming what is missing.
  std::string_view field(std::string_view what);
  // True when only spaces and a comment remain on the current line.
  bool atEndOfLine();
  // Errors if anything but spaces and a comment remain on the current line.
  void endLine();
  // Skips whatever remains of the current line.
  void skipLine();

  // Number parsing of a token already read; `what` names the expected value in errors.
  long long integer(std::string_view token, std::string_view what) const;
  double real(std::string_view token, std::string_view what) const;
  // Shorthands: the next token (any line) or field (this line) as a number.
  long long nextInteger(std::string_view what) { return integer(token(what), what); }
  long long fieldInteger(std::string_view what) { return integer(field(what), what); }
  double fieldReal(std::string_view what) { return real(field(what), what); }
  double nextReal(std::string_view what) { return real(token(what), what); }
  // A finite coordinate (NaN and Inf are errors).
  double coordinate(std::string_view token);
  // A record count from a header: non-negative and small enough for an int.
  int count(std::string_view token, std::string_view what) const;

  // How many records to reserve for `claimed` records of at least `min_bytes` each: never more than
  // the rest of the file could hold.
  std::size_t reserveFor(long long claimed, std::size_t min_bytes) const;

  // Throws "<name>:<line of the last token>: <parts...>". At the end of the file that is the last
  // line with data, the natural place for "expected 1200 vertices, the file ends after 37".
  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    throw error(name_, ":", token_line_, ": ", parts...);
  }

 private:
  void skipSpaceAndComments(bool cross_lines);
  std::string_view takeToken();

  std::string name_;
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;        // line at pos_
  int token_line_ = 1;  // line of the last token returned
  char comment_;
};

// Appends numbers to a text buffer. Doubles use the shortest form that reads back bit-exactly
// (std::to_chars), which is what %.17g guarantees, without the noise digits.
void appendReal(std::string& out, double value);
void appendInt(std::string& out, long long value);

// 64-bit FNV-1a: small, stable across platforms and runs; enough for cache keys.
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace qnsim::io
