// Bodies of a scene file: shape or mesh, placement, materials per region, handles.
#include <algorithm>
#include <cmath>

#include "core/common/memory_budget.h"
#include "core/material/spline.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/shapes.h"
#include "core/mesh/tetgen_parameters.h"
#include "core/params/parameter_json.h"
#include "core/scene/readers.h"
#include "qnsim/error.h"

namespace qnsim::scene_detail {
namespace {

constexpr double kHuge = 1e12;

// A body's "tetgen" object: the declared controls (core/mesh/tetgen_parameters.h), each optional.
TetgenOptions readTetgenOptions(const JsonField& tetgen) {
  tetgen.expectObject();
  TetgenOptions options;
  for (const auto& [key, value] : tetgen.json().items()) {
    const JsonField member = *tetgen.find(key);
    const auto& all = tetgenParameters();
    const auto p = std::find_if(all.begin(), all.end(), [&](const TetgenParameter& t) { return t.key == key; });
    if (p == all.end()) {
      std::string known;
      for (const TetgenParameter& t : all) known += (known.empty() ? "" : ", ") + t.key;
      member.fail("unknown field (expected one of: " + known + ")");
    }
    try {
      p->assign(options, parameterFromJson(*p, value));
    } catch (const Error& e) {
      member.fail(e.what());
    }
  }
  return options;
}

TetMesh readMesh(const JsonField& body, const std::filesystem::path& scene_dir, const TetgenOptions& options,
                 const MeshLoader& load_mesh) {
  const JsonField mesh = body["mesh"];
  std::filesystem::path path = mesh.string();
  if (path.is_relative()) path = scene_dir / path;
  if (!load_mesh && !std::filesystem::exists(path)) mesh.fail("mesh file '" + path.string() + "' does not exist");
  try {
    return load_mesh ? load_mesh(path, options) : readTetMesh(path, options);
  } catch (const Error& e) {
    mesh.fail(e.what());
  }
}

void checkShapeBudget(const JsonField& counts, const ModelSize& size, double memory_share) {
  try {
    checkMemoryBudget(size, memory_share, "this shape");
  } catch (const Error& e) {
    counts.fail(e.what());
  }
}

// Procedural shapes: {"type": "box", "size": [x, y, z], "cells": [i, j, k]},
// {"type": "cloth", "size": [x, z], "vertices": [i, j]} or
// {"type": "strands", "size": [x, z], "strands": [i, j], "length": l, "segments": k, "radius": r}.
// The model's size is checked against the memory budget before the shape is generated.
void readShape(const JsonField& shape, BodyDesc& body, double memory_share) {
  const std::string type = shape["type"].string();
  if (type == "box") {
    shape.allowOnly({"type", "size", "cells"});
    const Vec3 cells = shape["cells"].vec3(1, 1000);
    if (cells != cells.array().round().matrix()) shape["cells"].fail("cell counts must be whole numbers");
    checkShapeBudget(shape["cells"], {(cells.array() + 1).prod(), 5 * cells.prod(), 0, 0}, memory_share);
    body.mesh = makeBox(shape["size"].vec3(1e-9, kHuge), cells.cast<int>());
    body.source = "box";
  } else if (type == "cloth") {
    shape.allowOnly({"type", "size", "vertices"});
    const Vec2 counts = shape["vertices"].vec2(2, 2000);
    if (counts != counts.array().round().matrix()) shape["vertices"].fail("vertex counts must be whole numbers");
    checkShapeBudget(shape["vertices"], {0, 0, counts.prod(), 6 * counts.prod()}, memory_share);  // about 6 springs per vertex
    body.springs = makeClothGrid(shape["size"].vec2(1e-9, kHuge), counts.cast<int>());
    body.mass_spring = true;
    body.source = "cloth";
  } else if (type == "strands") {
    shape.allowOnly({"type", "size", "strands", "length", "segments", "radius"});
    const Vec2 counts = shape["strands"].vec2(1, 1000);
    if (counts != counts.array().round().matrix()) shape["strands"].fail("strand counts must be whole numbers");
    const int segments = shape["segments"].integer(2, 10000);
    checkShapeBudget(shape["segments"], {0, 0, counts.prod() * (segments + 1), 2 * counts.prod() * segments}, memory_share);
    body.springs = makeStrands(shape["size"].vec2(0, kHuge), counts.cast<int>(), shape["length"].number(1e-9, kHuge), segments);
    body.strand_radius = shape["radius"].number(1e-9, kHuge);
    body.mass_spring = true;
    body.source = "strands";
  } else {
    shape["type"].fail("unknown shape '" + type + "' (known: box, cloth, strands)");
  }
}

// scale, then rotate, then translate, applied to the rest positions.
void place(const JsonField& field, MatX3& V) {
  if (const auto scale = field.find("scale")) {
    const Vec3 s = scale->json().is_array() ? scale->vec3(1e-9, kHuge) : Vec3::Constant(scale->number(1e-9, kHuge));
    V = V * s.asDiagonal();
  }
  if (const auto rotate = field.find("rotate")) V = V * readRotation(*rotate).transpose();
  if (const auto translate = field.find("translate")) V.rowwise() += translate->vec3().transpose();
}

// A render mesh (BodyDesc::render), read from disk and placed like the body's mesh; its normals turn with
// the rotation and follow a non-uniform scale (by its inverse).
// `render` names the file: the body's "render_mesh", or its "mesh" when that surface is carried by a cage.
void readRenderMesh(const JsonField& field, const JsonField& render, const std::filesystem::path& scene_dir, BodyDesc& body) {
  if (body.mass_spring) render.fail("a render mesh needs a tet body (a mesh or a box shape), not a " + body.source);
  body.render_source = render.string();
  std::filesystem::path path = body.render_source;
  if (path.is_relative()) path = scene_dir / path;
  if (!std::filesystem::exists(path)) render.fail("render mesh file '" + path.string() + "' does not exist");
  try {
    body.render = readRenderSurface(path);
  } catch (const Error& e) {
    render.fail(e.what());
  }
  place(field, body.render.V);
  if (body.render.N.rows() > 0) {
    MatX3& N = body.render.N;
    if (const auto scale = field.find("scale"))
      N = N * (scale->json().is_array() ? scale->vec3(1e-9, kHuge) : Vec3::Constant(scale->number(1e-9, kHuge))).cwiseInverse().asDiagonal();
    if (const auto rotate = field.find("rotate")) N = N * readRotation(*rotate).transpose();
    N.rowwise().normalize();
  }
}

// A surface "mesh" simulated on a cage ("tetgen": {"cage": n}) is drawn as the body's render mesh, unless
// the body names another; read from the file when it exists (the fuzz tests' loader makes up its meshes).
bool drawnOverACage(const JsonField& field, const std::filesystem::path& scene_dir, const TetgenOptions& tetgen) {
  if (!field.has("mesh") || field.has("render_mesh") || tetgen.cage_cells == 0) return false;
  std::filesystem::path path = field["mesh"].string();
  if (path.is_relative()) path = scene_dir / path;
  return isSurfaceFile(path) && std::filesystem::exists(path);
}

int readRegionTag(const JsonField& field, bool mass_spring) {
  if (mass_spring && field.json().is_string()) {
    const std::string name = field.string();
    if (name == "stretch") return 0;
    if (name == "bend") return 1;
    field.fail("unknown spring region '" + name + "' (known: stretch, bend)");
  }
  return field.integer(0, 1000000);
}

Selection readSelection(const JsonField& field);

MaterialDesc readMaterial(const JsonField& field, const BodyDesc& body) {
  MaterialDesc m;
  m.region = field.find("region") ? readRegionTag(field["region"], body.mass_spring) : -1;
  m.name = field.stringOr("name", m.region < 0 ? body.name : body.name + "." + std::to_string(m.region));
  std::unique_ptr<Material> material;
  try {
    material = makeMaterial(field["model"].string());
  } catch (const Error& e) {
    field["model"].fail(e.what());
  }
  const bool solid = dynamic_cast<SolidMaterial*>(material.get()) != nullptr;
  if (solid == body.mass_spring)
    field["model"].fail(body.mass_spring ? "a " + body.source + " body needs the 'spring' model" : "a tet body needs a solid model, not 'spring'");
  for (const auto& [key, value] : field.json().items()) {
    if (key == "name" || key == "region" || key == "model") continue;
    const JsonField member = *field.find(key);
    if (key == "select") {
      m.select = readSelection(member);
    } else if (key == "fiber") {
      member.allowOnly({"direction", "kappa"});
      const Vec3 d = member["direction"].vec3();
      if (!(d.norm() > 0)) member["direction"].fail("the fibre direction must not be zero");
      m.fiber = Fiber{d.normalized(), member["kappa"].number(0, kHuge)};
    } else if (key == "preset" || key == "points") {
      auto* spline = dynamic_cast<SplineMaterial*>(material.get());
      if (!spline) member.fail("only the 'spline' model has " + key);
      try {
        if (key == "preset") spline->setPreset(member.string());
        else {
          std::vector<Vec2> points;
          for (const JsonField& p : member.items()) points.push_back(p.vec2());
          spline->setControlPoints(points);
        }
      } catch (const Error& e) {
        member.fail(e.what());
      }
    } else {
      try {
        material->set(key, member.number());
      } catch (const Error& e) {
        member.fail(e.what());
      }
    }
  }
  if (m.fiber.kappa > 0 && body.mass_spring) field["fiber"].fail("a " + body.source + " body has no fibres");
  m.material = std::move(material);
  return m;
}

Selection readSelection(const JsonField& field) {
  field.expectObject();
  if (field.json().size() != 1) field.fail("expected exactly one of: all, box, sphere, indices, region");
  Selection s;
  if (const auto box = field.find("box")) {
    box->allowOnly({"min", "max"});
    s.kind = Selection::Kind::Box;
    s.min = (*box)["min"].vec3();
    s.max = (*box)["max"].vec3();
  } else if (const auto sphere = field.find("sphere")) {
    sphere->allowOnly({"center", "radius"});
    s.kind = Selection::Kind::Sphere;
    s.center = (*sphere)["center"].vec3();
    s.radius = (*sphere)["radius"].number(0, kHuge);
  } else if (const auto indices = field.find("indices")) {
    s.kind = Selection::Kind::Indices;
    for (const JsonField& i : indices->items()) s.indices.push_back(i.integer(0, 100000000));
  } else if (const auto region = field.find("region")) {
    s.kind = Selection::Kind::Region;
    s.region = region->integer(0, 1000000);
  } else if (const auto all = field.find("all")) {
    if (!all->boolean()) all->fail("use \"all\": true");
  } else {
    field.allowOnly({"all", "box", "sphere", "indices", "region"});
  }
  return s;
}

HandleDesc readHandle(const JsonField& field, int index) {
  field.allowOnly({"name", "select", "stiffness", "center", "motion", "positions"});
  HandleDesc h;
  h.name = field.stringOr("name", "handle" + std::to_string(index));
  h.select = readSelection(field["select"]);
  h.stiffness = field.numberOr("stiffness", h.stiffness, 1e-9, kHuge);
  if (const auto center = field.find("center")) h.has_center = true, h.center = center->vec3();
  if (const auto motion = field.find("motion")) h.motion = readMotionList(*motion);
  if (const auto positions = field.find("positions")) {
    if (h.select.kind != Selection::Kind::Indices) positions->fail("positions go with a selection by \"indices\", one for each");
    for (const JsonField& p : positions->items()) h.positions.push_back(p.vec3());
    if (h.positions.size() != h.select.indices.size())
      positions->fail(std::to_string(h.positions.size()) + " positions for " + std::to_string(h.select.indices.size()) + " indices");
  }
  return h;
}

// {"tets": [..], "springs": [..]}: elements removed from the start, body-local indices.
ElementSet readRemoved(const JsonField& field, const BodyDesc& body) {
  field.allowOnly({"tets", "springs"});
  const int tets = static_cast<int>(body.mesh.T.rows());
  const int springs = static_cast<int>(body.springs.stretch_springs.rows() + body.springs.bend_springs.rows());
  ElementSet removed;
  const auto read = [&](const char* key, int count, std::vector<int>& out) {
    if (const auto list = field.find(key))
      for (const JsonField& i : list->items()) {
        out.push_back(i.integer(0, 100000000));
        if (out.back() >= count) i.fail("the body has " + std::to_string(count) + " " + key);
        if (out.size() > 1 && out.back() <= out[out.size() - 2]) i.fail("indices must increase");
      }
  };
  read("tets", tets, removed.tets);
  read("springs", springs, removed.springs);
  return removed;
}

// {"type": "random", "seed": s, "amplitude": a} | {"type": "uniform_box", "seed": s, "scale": f}
PerturbDesc readPerturb(const JsonField& field) {
  PerturbDesc p;
  const std::string type = field["type"].string();
  if (type == "random") {
    field.allowOnly({"type", "seed", "amplitude"});
    p.kind = PerturbDesc::Kind::Random;
    p.amplitude = field["amplitude"].number(0, kHuge);
  } else if (type == "uniform_box") {
    field.allowOnly({"type", "seed", "scale"});
    p.kind = PerturbDesc::Kind::UniformBox;
    p.scale = field.numberOr("scale", 1.0, 0.0, 1e3);
  } else {
    field["type"].fail("unknown perturbation '" + type + "' (known: random, uniform_box)");
  }
  if (const auto seed = field.find("seed")) p.seed = static_cast<std::uint64_t>(seed->integer(0, 2147483647));
  return p;
}

}  // namespace

Mat3 readRotation(const JsonField& field) {
  field.allowOnly({"axis", "degrees"});
  const Vec3 axis = field["axis"].vec3();
  if (!(axis.norm() > 0)) field["axis"].fail("the rotation axis must not be zero");
  return Eigen::AngleAxisd(field["degrees"].number(-1e6, 1e6) * M_PI / 180.0, axis.normalized()).toRotationMatrix();
}

BodyDesc readBody(const JsonField& field, const std::filesystem::path& scene_dir, int index, double memory_share,
                  const MeshLoader& load_mesh) {
  field.allowOnly(
      {"name", "shape", "mesh", "tetgen", "scale", "rotate", "translate", "velocity", "perturb", "density", "materials", "handles",
       "removed", "render_mesh"});
  BodyDesc body;
  body.name = field.stringOr("name", "body" + std::to_string(index));
  if (field.has("shape") == field.has("mesh")) field.fail("a body needs exactly one of 'shape' or 'mesh'");
  const TetgenOptions tetgen = field.has("tetgen") ? readTetgenOptions(field["tetgen"]) : TetgenOptions{};
  if (field.has("shape")) readShape(field["shape"], body, memory_share);
  else body.mesh = readMesh(field, scene_dir, tetgen, load_mesh), body.source = field["mesh"].string();
  place(field, body.mass_spring ? body.springs.surface.V : body.mesh.V);
  if (field.has("render_mesh") && !load_mesh) readRenderMesh(field, field["render_mesh"], scene_dir, body);  // the fuzz tests' loader reads no files
  else if (drawnOverACage(field, scene_dir, tetgen)) readRenderMesh(field, field["mesh"], scene_dir, body);
  body.velocity = field.vec3Or("velocity", Vec3::Zero());
  if (const auto perturb = field.find("perturb")) body.perturb = readPerturb(*perturb);
  const double default_density = body.source == "cloth" ? 0.1 : body.source == "strands" ? 1e-3 : 1000.0;
  body.density = field.numberOr("density", default_density, 1e-12, kHuge);
  for (const JsonField& m : field["materials"].items()) body.materials.push_back(readMaterial(m, body));
  if (body.materials.empty()) field["materials"].fail("a body needs at least one material");
  if (const auto handles = field.find("handles")) {
    int i = 0;
    for (const JsonField& h : handles->items()) body.handles.push_back(readHandle(h, i++));
  }
  if (const auto removed = field.find("removed")) body.removed = readRemoved(*removed, body);
  return body;
}

}  // namespace qnsim::scene_detail
