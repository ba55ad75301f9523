#pragma once
// A JSON value together with where it came from (file and JSON path), so that every error about a
// scene names the file and the field: "twist.json: /bodies/0/density: expected a number > 0, got -3".
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "qnsim/types.h"

namespace qnsim {

class JsonField {
 public:
  JsonField(const nlohmann::json& value, std::string file, std::string path = "")
      : value_(value), file_(std::move(file)), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& message) const;
  const std::string& path() const { return path_; }
  const nlohmann::json& json() const { return value_; }

  bool has(const char* key) const { return value_.is_object() && value_.contains(key); }
  JsonField operator[](const char* key) const;                  // required member
  std::optional<JsonField> find(const std::string& key) const;  // optional member (a JSON key may hold a NUL)
  std::vector<JsonField> items() const;                         // elements of an array
  // Rejects members other than `allowed`, naming the closest allowed key.
  void allowOnly(std::initializer_list<const char*> allowed) const;
  void expectObject() const;

  double number(double min = -1e300, double max = 1e300) const;
  int integer(int min, int max) const;
  bool boolean() const;
  std::string string() const;
  Vec2 vec2(double min = -1e300, double max = 1e300) const;
  Vec3 vec3(double min = -1e300, double max = 1e300) const;

  // Optional members with defaults.
  double numberOr(const char* key, double fallback, double min = -1e300, double max = 1e300) const;
  std::string stringOr(const char* key, const std::string& fallback) const;
  Vec3 vec3Or(const char* key, const Vec3& fallback) const;

 private:
  Eigen::VectorXd numbers(int count, double min, double max) const;
  JsonField child(const nlohmann::json& value, const std::string& key) const;
  const nlohmann::json& value_;
  std::string file_, path_;
};

}  // namespace qnsim
