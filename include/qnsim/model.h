#pragma once
// The discrete model of a scene (the constant half of a simulation, as MuJoCo's mjModel; what changes
// from frame to frame is a SimState): rest positions X, lumped masses, elements (tetrahedra, springs,
// attachment springs) laid out as flat arrays for streaming, material regions and bodies. Read it through
// Simulation::model(); it changes only through Simulation::apply (materials, pins, removed elements).
// The per-element weights k (Eq. 11) live in the regions; L = sum_i V_i k_i G_i^T G_i (Sec. 4.1).
// Units: metres, kilograms; k in the units of its material's constants (Pa, N/m for springs).
#include <memory>
#include <string>
#include <vector>

#include "qnsim/material.h"
#include "qnsim/types.h"

namespace qnsim {

struct Region {
  std::string name;
  std::shared_ptr<const Material> material;  // a SolidMaterial for tets, a SpringMaterial for springs
  Fiber fiber;                               // tets only
  double stiffness = 0.0;                    // k: Eq. 11 for solids, the spring constant for springs
  bool is_solid() const { return dynamic_cast<const SolidMaterial*>(material.get()) != nullptr; }
};

// F = Ds Dm^-1 with Ds = [x1 - x0, x2 - x0, x3 - x0]; equivalently F = sum_a x_a g_a^T with g_a the
// rows of Dm^-1 for a = 1..3 and g_0 = -(g_1 + g_2 + g_3) (the operator G_i of the paper).
struct TetElements {
  std::vector<Eigen::Vector4i> vertices;
  std::vector<Mat3> rest_inverse;  // Dm^-1
  std::vector<double> volume;      // rest volume V_i
  std::vector<int> region;
  std::vector<char> removed;  // 1 once torn or cut (removal.h): out of g, grad g, the Hessian and L
  int size() const { return static_cast<int>(vertices.size()); }

  // Ds of tet e at positions x (its sign of det is the tet's orientation).
  Mat3 deformedEdges(const VecX& x, int e) const {
    const Eigen::Vector4i& t = vertices[e];
    const Vec3 x0 = vertex(x, t[0]);
    Mat3 Ds;
    Ds << vertex(x, t[1]) - x0, vertex(x, t[2]) - x0, vertex(x, t[3]) - x0;
    return Ds;
  }
  // F = Ds Dm^-1.
  Mat3 deformationGradient(const VecX& x, int e) const { return deformedEdges(x, e) * rest_inverse[e]; }
};

struct SpringElements {
  std::vector<Eigen::Vector2i> vertices;
  std::vector<double> rest_length;
  std::vector<int> region;
  // A cloth's bending spring bends over the two springs (a, m) and (m, b) of its hinge and is removed with
  // either of them; (-1, -1) for the other springs.
  std::vector<Eigen::Vector2i> hinge;
  std::vector<char> removed;  // as for tets
  int size() const { return static_cast<int>(vertices.size()); }
};

// A zero-length spring E = k/2 |x_v - target|^2 pulling a vertex to a (moving) target. It is part of L,
// so the attached vertex set is fixed while A stays factored; targets may move freely.
struct Attachment {
  int vertex;
  double stiffness;
  Vec3 target;
  int handle;  // which handle drives the target
};

// A detailed surface drawn in place of a tet body's own (BodyDesc::render_mesh): each of its vertices
// follows the tet of the body that contains it at rest (or the nearest, for a vertex just outside) with
// fixed barycentric weights, p = sum_k weights[k] x[tet_vertices[k]] (core/mesh/embedding.h).
struct RenderMesh {
  std::string source;  // the file, for messages
  TriIndices F;        // triangles as indices into the render vertices
  MatX2 uv;            // texture coordinates, one row per render vertex, or empty
  std::vector<Eigen::Vector4i> tet_vertices;  // global model vertices of each render vertex's tet
  std::vector<Eigen::Vector4d> weights;       // their barycentric weights (summing to 1)
  std::vector<double> outside;                // how far outside its tet each vertex is at rest (m; 0 inside)
  int vertexCount() const { return static_cast<int>(weights.size()); }
};

// One simulated object: a range of the model's vertices and elements plus the triangles to draw it with,
// or for strands (brush bristles) the segments, drawn as tubes of the strands' radius.
struct Body {
  std::string name;
  int first_vertex = 0, vertex_count = 0;
  TriIndices surface;  // global vertex indices, outward facing; follows removed elements (removal.h)
  bool is_cloth = false;
  int first_tet = 0, tet_count = 0, first_spring = 0, spring_count = 0;
  // Tet bodies: the model keeps a body's tets in a spatially coherent order (nearby tets at nearby
  // indices, which keeps a pass over them in cache), not the mesh's: tet first_tet + i is the mesh's tet
  // mesh_tet[i]. The vertices keep the mesh's order.
  std::vector<int> mesh_tet;
  // Cloth: every triangle, and the spring along each of its edges (a-b, b-c, c-a). A triangle is drawn
  // while its three edge springs are there.
  TriIndices triangles, triangle_springs;
  // Strands: the segments still present (their stretch springs), global indices; follows removed elements.
  EdgeIndices segments;
  double strand_radius = 0;
  // Tet bodies: the render mesh drawn and exported in place of `surface` (null when there is none).
  std::shared_ptr<const RenderMesh> render;
};

struct Model {
  VecX rest;  // X, 3n
  VecX mass;  // n, lumped
  TetElements tets;
  SpringElements springs;
  std::vector<Attachment> attachments;
  std::vector<Region> regions;
  std::vector<Body> bodies;

  int vertexCount() const { return static_cast<int>(mass.size()); }
  const SolidMaterial& solid(int region) const { return static_cast<const SolidMaterial&>(*regions[region].material); }
};

}  // namespace qnsim
