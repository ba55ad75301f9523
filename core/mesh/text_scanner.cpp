#include "core/mesh/text_scanner.h"

#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace qnsim::io {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

std::string quoted(std::string_view token) {
  constexpr std::size_t max_shown = 24;
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < max_shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (token.size() > max_shown) out += "...";
  return out + "'";
}

Scanner::Scanner(std::string name, std::string_view text, char comment) : name_(std::move(name)), text_(text), comment_(comment) {}

void Scanner::skipSpaceAndComments(bool cross_lines) {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (isSpace(c)) {
      ++pos_;
    } else if (c == '\n') {
      if (!cross_lines) return;
      ++pos_;
      ++line_;
    } else if (comment_ != '\0' && c == comment_) {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

std::string_view Scanner::takeToken() {
  const std::size_t start = pos_;
  while (pos_ < text_.size() && !isSpace(text_[pos_]) && text_[pos_] != '\n' && !(comment_ != '\0' && text_[pos_] == comment_))
    ++pos_;
  token_line_ = line_;
  return text_.substr(start, pos_ - start);
}

bool Scanner::atEnd() {
  skipSpaceAndComments(true);
  return pos_ >= text_.size();
}

std::string_view Scanner::token(std::string_view what) {
  if (atEnd()) fail("unexpected end of file, expected ", what);
  return takeToken();
}

std::string_view Scanner::field(std::string_view what) {
  if (atEndOfLine()) {
    token_line_ = line_;
    fail("the line ends early, expected ", what);
  }
  return takeToken();
}

bool Scanner::atEndOfLine() {
  skipSpaceAndComments(false);
  return pos_ >= text_.size() || text_[pos_] == '\n';
}

void Scanner::endLine() {
  if (!atEndOfLine()) {
    const std::string_view extra = takeToken();
    fail("unexpected extra value ", quoted(extra), " at the end of the line");
  }
}

void Scanner::skipLine() {
  while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
}

long long Scanner::integer(std::string_view token, std::string_view what) const {
  long long value = 0;
  const char* end = token.data() + token.size();
  const char* first = token.data() + (!token.empty() && token[0] == '+' ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(first, end, value);
  if (ec == std::errc::result_out_of_range) fail("the number ", quoted(token), " is too large for ", what);
  if (ec != std::errc() || ptr != end) fail("expected ", what, " (an integer), found ", quoted(token));
  return value;
}

double Scanner::real(std::string_view token, std::string_view what) const {
  double value = 0;
  const char* end = token.data() + token.size();
  const char* first = token.data() + (!token.empty() && token[0] == '+' ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(first, end, value);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    // from_chars reports underflow (1e-400) like overflow; strtod tells them apart.
    value = std::strtod(std::string(token).c_str(), nullptr);
    if (std::isfinite(value)) return value;
    fail("the number ", quoted(token), " is out of range for ", what);
  }
  if (ec != std::errc() || ptr != end) fail("expected ", what, " (a number), found ", quoted(token));
  return value;
}

double Scanner::coordinate(std::string_view token) {
  const double value = real(token, "a coordinate");
  if (!std::isfinite(value)) fail("vertex coordinate ", quoted(token), " is not a finite number");
  return value;
}

int Scanner::count(std::string_view token, std::string_view what) const {
  const long long value = integer(token, what);
  if (value < 0) fail("negative ", what, " (", value, ")");
  if (value > INT_MAX) fail(what, " ", value, " is too large");
  return static_cast<int>(value);
}

std::size_t Scanner::reserveFor(long long claimed, std::size_t min_bytes) const {
  if (claimed <= 0) return 0;
  const std::size_t room = (text_.size() - pos_) / (min_bytes == 0 ? 1 : min_bytes) + 1;
  return std::min(static_cast<std::size_t>(claimed), room);
}

void appendReal(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void appendInt(std::string& out, long long value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t hash = seed;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace qnsim::io
