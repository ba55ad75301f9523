#include "plot/font.h"

#include <stb_easy_font.h>
#include <stb_truetype.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace qnsim::plot {

struct Font::Face {
  stbtt_fontinfo info;
};

namespace {

constexpr const char* kFontFiles[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf"};

// The code points of UTF-8 text; a malformed byte reads as '?'.
std::vector<int> codePoints(const std::string& text) {
  std::vector<int> out;
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const int length = byte < 0x80 ? 1 : (byte >> 5) == 6 ? 2 : (byte >> 4) == 14 ? 3 : (byte >> 3) == 30 ? 4 : 0;
    if (length == 0 || i + length > text.size()) {
      out.push_back('?');
      ++i;
      continue;
    }
    int c = length == 1 ? byte : byte & (0x7f >> length);
    for (int k = 1; k < length; ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
    out.push_back(c);
    i += length;
  }
  return out;
}

// stb's easy font: 7 pixels tall at scale 1, ASCII only.
constexpr double kEasyHeight = 7.0;

std::string ascii(const std::string& text) {
  std::string out;
  for (int c : codePoints(text)) out += c < 128 ? static_cast<char>(c) : '?';
  return out;
}

}  // namespace

Font::Font() {
  for (const char* path : kFontFiles) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::ostringstream bytes;
    bytes << in.rdbuf();
    data_ = bytes.str();
    const auto* ttf = reinterpret_cast<const unsigned char*>(data_.data());
    auto face = std::make_unique<Face>();
    if (stbtt_InitFont(&face->info, ttf, stbtt_GetFontOffsetForIndex(ttf, 0))) {
      face_ = std::move(face);
      return;
    }
  }
  data_.clear();
  std::fprintf(stderr, "qnsim: DejaVuSans.ttf not found (apt-get install fonts-dejavu-core); pictures use a bitmap font\n");
}

Font::~Font() = default;

double Font::advance(int code_point, int next, double scale) const {
  int advance = 0, bearing = 0;
  stbtt_GetCodepointHMetrics(&face_->info, code_point, &advance, &bearing);
  return (advance + (next ? stbtt_GetCodepointKernAdvance(&face_->info, code_point, next) : 0)) * scale;
}

const Font& Font::sans() {
  static const Font font;
  return font;
}

double Font::width(const std::string& text, double size) const {
  if (!face_) {
    std::string s = ascii(text);
    return stb_easy_font_width(s.data()) * size / kEasyHeight;
  }
  const float scale = stbtt_ScaleForMappingEmToPixels(&face_->info, static_cast<float>(size));
  const std::vector<int> cps = codePoints(text);
  double w = 0;
  for (size_t i = 0; i < cps.size(); ++i) w += advance(cps[i], i + 1 < cps.size() ? cps[i + 1] : 0, scale);
  return w;
}

void Font::draw(const std::string& text, double x, double y, double size, const std::function<void(int, int, double)>& cover) const {
  if (!face_) {  // the easy font's quads, scaled; whole quads cover whole pixels
    std::string s = ascii(text);
    std::vector<char> quads(1024 * (s.size() + 1));
    const int count = stb_easy_font_print(0, 0, s.data(), nullptr, quads.data(), static_cast<int>(quads.size()));
    const double k = size / kEasyHeight;
    for (int q = 0; q < count; ++q) {
      const float* v = reinterpret_cast<const float*>(quads.data() + 64 * q);
      for (int py = static_cast<int>(std::floor(y + v[1] * k)); py < y + v[9] * k; ++py)
        for (int px = static_cast<int>(std::floor(x + v[0] * k)); px < x + v[8] * k; ++px) cover(px, py, 1.0);
    }
    return;
  }
  const float scale = stbtt_ScaleForMappingEmToPixels(&face_->info, static_cast<float>(size));
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(&face_->info, &ascent, &descent, &gap);
  const double baseline = y + ascent * scale;
  const std::vector<int> cps = codePoints(text);
  double pen = x;
  for (size_t i = 0; i < cps.size(); ++i) {
    const float shift_x = static_cast<float>(pen - std::floor(pen)), shift_y = static_cast<float>(baseline - std::floor(baseline));
    int w = 0, h = 0, ox = 0, oy = 0;
    unsigned char* bitmap = stbtt_GetCodepointBitmapSubpixel(&face_->info, scale, scale, shift_x, shift_y, cps[i], &w, &h, &ox, &oy);
    for (int by = 0; by < h; ++by)
      for (int bx = 0; bx < w; ++bx)
        if (const int a = bitmap[by * w + bx]; a > 0)
          cover(static_cast<int>(std::floor(pen)) + ox + bx, static_cast<int>(std::floor(baseline)) + oy + by, a / 255.0);
    stbtt_FreeBitmap(bitmap, nullptr);
    pen += advance(cps[i], i + 1 < cps.size() ? cps[i + 1] : 0, scale);
  }
}

}  // namespace qnsim::plot
