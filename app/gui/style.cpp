#include "app/gui/style.h"

#include <imgui.h>

#include <filesystem>

namespace qnsim::gui {

void applyStyle() {
  ImGuiIO& io = ImGui::GetIO();
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::exists(font)) io.Fonts->AddFontFromFileTTF(font, 15.0f);
  else io.FontGlobalScale = 1.2f;  // ImGui's built-in 13 px font, enlarged

  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 0.0f;
  s.FrameRounding = 3.0f;
  s.GrabRounding = 3.0f;
  s.TabRounding = 3.0f;
  s.WindowBorderSize = 0.0f;
  s.FramePadding = {6, 4};
  s.ItemSpacing = {8, 5};
  s.WindowPadding = {10, 10};
  s.ScrollbarSize = 12.0f;
  ImVec4* c = s.Colors;
  // Transparent: the panels' background is the framebuffer clear colour (see kPanelColor), which software
  // renderers fill far faster than a blended quad over half the window.
  c[ImGuiCol_WindowBg] = {0.11f, 0.12f, 0.14f, 0.00f};
  c[ImGuiCol_PopupBg] = {0.09f, 0.10f, 0.12f, 0.97f};
  c[ImGuiCol_ChildBg] = {0.09f, 0.10f, 0.12f, 1.00f};
  c[ImGuiCol_FrameBg] = {0.18f, 0.20f, 0.24f, 1.00f};
  c[ImGuiCol_FrameBgHovered] = {0.24f, 0.27f, 0.33f, 1.00f};
  c[ImGuiCol_Header] = {0.20f, 0.28f, 0.40f, 1.00f};
  c[ImGuiCol_HeaderHovered] = {0.26f, 0.36f, 0.52f, 1.00f};
  c[ImGuiCol_Button] = {0.20f, 0.30f, 0.45f, 1.00f};
  c[ImGuiCol_ButtonHovered] = {0.27f, 0.40f, 0.60f, 1.00f};
  c[ImGuiCol_Tab] = {0.16f, 0.20f, 0.26f, 1.00f};
  c[ImGuiCol_TabActive] = {0.25f, 0.37f, 0.55f, 1.00f};
  c[ImGuiCol_TabHovered] = {0.30f, 0.44f, 0.64f, 1.00f};
  c[ImGuiCol_TitleBgActive] = {0.14f, 0.18f, 0.24f, 1.00f};
}

}  // namespace qnsim::gui
