#pragma once
// Whole-file reading and writing with plain-words errors. Every file qnsim writes goes through a
// temporary file renamed into place, so an interrupted run never leaves a half-written file: the
// reader sees the old file or the new one.
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace qnsim {

// The whole file as bytes. Throws "<path>: file not found", "... is a folder", "... is empty".
std::string readFileBytes(const std::filesystem::path& path);

// Writes bytes to `path` atomically, throwing "<path>: could not write (reason)" on failure.
void writeFileBytes(const std::filesystem::path& path, std::string_view bytes);

// A file written as a stream over a long run (the frame CSV of `qnsim run`): the lines go to
// "<path>.partial", renamed to `path` by commit(). Destroyed without commit() (an error, a kill), the
// partial file stays beside the untouched target.
class PartialFile {
 public:
  explicit PartialFile(const std::filesystem::path& path);  // throws "<path>: cannot be written"
  std::ostream& stream() { return out_; }
  void commit();  // flushes, closes and renames; throws when the disk refused the data

 private:
  std::filesystem::path path_, partial_;
  std::ofstream out_;
};

}  // namespace qnsim
