# Writes every shader in SHADER_DIR into one header of raw string literals (run at build time by the
# qnsim_render target), so the program needs no data folder at run time.
file(GLOB shaders "${SHADER_DIR}/*.vert" "${SHADER_DIR}/*.frag")
list(SORT shaders)
set(text "// Generated from shaders/ by cmake/embed_shaders.cmake; do not edit.\n#pragma once\n\nnamespace qnsim::render::shaders {\n")
foreach(path IN LISTS shaders)
  get_filename_component(name "${path}" NAME)
  string(REPLACE "." "_" name "${name}")
  file(READ "${path}" source)
  string(APPEND text "inline constexpr const char* ${name} = R\"qnsim_glsl(${source})qnsim_glsl\";\n")
endforeach()
string(APPEND text "}  // namespace qnsim::render::shaders\n")
file(WRITE "${OUTPUT}" "${text}")
