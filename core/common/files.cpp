#include "core/common/files.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "qnsim/error.h"

namespace qnsim {
namespace fs = std::filesystem;
namespace {

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<FILE, FileCloser>;

// Unique per process and call, so that two writers of the same path never share a temporary.
fs::path temporaryFor(const fs::path& path) {
  static std::atomic<int> counter{0};
  return path.string() + ".partial." + std::to_string(getpid()) + "." + std::to_string(counter++);
}

void renameInto(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) {
    fs::remove(from, ec);
    throw error(to.string(), ": could not write (", ec.message(), ")");
  }
}

}  // namespace

std::string readFileBytes(const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) throw error(path.string(), ": file not found");
  if (fs::is_directory(status)) throw error(path.string(), ": is a folder, not a file");
  if (!fs::is_regular_file(status)) throw error(path.string(), ": is not a regular file");
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) throw error(path.string(), ": could not open (", std::strerror(errno), ")");
  std::string bytes;
  char chunk[1 << 16];
  std::size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) bytes.append(chunk, n);
  if (std::ferror(file.get())) throw error(path.string(), ": could not read (", std::strerror(errno), ")");
  if (bytes.empty()) throw error(path.string(), ": the file is empty");
  return bytes;
}

void writeFileBytes(const fs::path& path, std::string_view bytes) {
  const fs::path temporary = temporaryFor(path);
  FilePtr file(std::fopen(temporary.c_str(), "wb"));
  if (!file) throw error(path.string(), ": could not write (", std::strerror(errno), ")");
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file.get()) == bytes.size();
  // fclose flushes; a full disk often shows up only there.
  if (!written || std::fclose(file.release()) != 0) {
    const std::string reason = std::strerror(errno);
    std::error_code ec;
    fs::remove(temporary, ec);
    throw error(path.string(), ": could not write (", reason, ")");
  }
  renameInto(temporary, path);
}

PartialFile::PartialFile(const fs::path& path) : path_(path), partial_(path.string() + ".partial"), out_(partial_) {
  if (!out_) throw error(path.string(), ": cannot be written");
}

void PartialFile::commit() {
  out_.close();
  if (out_.fail()) throw error(path_.string(), ": could not write (the disk refused the data)");
  renameInto(partial_, path_);
}

}  // namespace qnsim
