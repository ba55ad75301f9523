#pragma once
// The typeface of the picture files: DejaVu Sans (Debian's fonts-dejavu-core), rasterised with
// stb_truetype, so the PNGs carry the anti-aliased face and the widths that the SVGs name. Without the
// font file the pictures fall back to stb's easy font (a coarse bitmap face) and say so once on stderr.
#include <functional>
#include <memory>
#include <string>

namespace qnsim::plot {

class Font {
 public:
  // The sans-serif face, loaded on first use (thread-safe).
  static const Font& sans();

  // Width in pixels of UTF-8 text at a size given as the em height in pixels.
  double width(const std::string& text, double size) const;

  // Calls cover(x, y, coverage) for each pixel the text covers, coverage in (0, 1]; the text's top-left
  // corner is at (x, y) in pixels, its em `size` pixels tall.
  void draw(const std::string& text, double x, double y, double size, const std::function<void(int, int, double)>& cover) const;

  bool isTrueType() const { return face_ != nullptr; }

 private:
  Font();
  ~Font();
  // Pixels from one glyph's origin to the next's: its advance and the kerning with the next (0 = none).
  double advance(int code_point, int next, double scale) const;

  std::string data_;  // the .ttf file, which the face reads from
  struct Face;
  std::unique_ptr<Face> face_;  // null when no font file was found
};

}  // namespace qnsim::plot
