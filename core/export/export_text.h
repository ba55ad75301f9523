#pragma once
// Text helpers of the exporters (internal to core/export).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qnsim {

// The shortest text that reads back as the same double.
void appendNumber(std::string& out, double value);
// As a float (9 significant digits at most: the precision of OBJ files).
void appendFloat(std::string& out, float value);
void appendBase64(std::string& out, std::string_view bytes);
// Text safe inside an XML attribute ("..."), and inside a comment (no "--").
std::string xmlAttribute(std::string_view text);
std::string xmlComment(std::string_view text);

// The .pvd collection of (time, file) pairs.
std::string pvdText(const std::vector<std::pair<double, std::string>>& frames);

}  // namespace qnsim
