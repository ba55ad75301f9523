# Exports read back by a real reader: meshio reads the .vtu files (points, cells and fields as the simulation
# has them), the .pvd lists their times, an OBJ frame holds the drawn surfaces, and the CLI writes the same
# files as the module.
import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import meshio  # Debian's python3-meshio (tools/debian-packages.txt)
import numpy as np
import pytest

import qnsim

# A box of two materials on a ground plane, and a cloth above it: tets and triangles in one grid.
SCENE = {
    "version": 1, "frames": 4, "time_step": 0.02,
    "bodies": [
        {"name": "box", "shape": {"type": "box", "size": [0.4, 0.2, 0.2], "cells": [4, 2, 2]}, "translate": [0, 0.25, 0],
         "velocity": [0.5, 0, 0],
         "materials": [{"name": "soft", "model": "neo_hookean", "mu": 2e4, "lambda": 5e4},
                       {"name": "hard", "model": "corotated", "mu": 1e5, "lambda": 1e5,
                        "select": {"box": {"min": [0, -1, -1], "max": [1, 1, 1]}}}]},
        {"name": "sheet", "shape": {"type": "cloth", "size": [0.5, 0.5], "vertices": [6, 6]}, "translate": [0, 0.5, 0],
         "materials": [{"region": "stretch", "model": "spring", "k": 500}, {"region": "bend", "model": "spring", "k": 5}]},
    ],
    "colliders": [{"type": "plane"}],
}


@pytest.fixture
def scene_file(tmp_path: Path) -> Path:
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(SCENE))
    return path


def blocks(mesh: meshio.Mesh) -> dict[str, np.ndarray]:
    return {block.type: block.data for block in mesh.cells}


def test_meshio_reads_the_vtu_as_the_simulation_has_it(scene_file: Path, tmp_path: Path):
    sim = qnsim.Simulation(scene_file)
    sim.step(3)
    path = tmp_path / "frame.vtu"
    qnsim.write_vtu(path, sim)
    mesh = meshio.read(path)
    fields = qnsim.frame_fields(sim)

    np.testing.assert_array_equal(mesh.points, sim.positions)
    cells = blocks(mesh)
    assert set(cells) == {"tetra", "triangle"}
    np.testing.assert_array_equal(cells["tetra"], sim.tets)  # nothing torn: every tet, in order
    assert len(cells["triangle"]) == 50
    np.testing.assert_array_equal(mesh.point_data["velocity"], sim.velocities)
    np.testing.assert_array_equal(mesh.point_data["displacement"], sim.positions - sim.rest_positions)
    np.testing.assert_array_equal(mesh.point_data["contact_distance"], sim.positions[:, 1])  # the plane y = 0

    tets = len(sim.tets)
    for name in ("region", "body", "det_F", "strain_energy_density", "stress_norm", "strain"):
        tet_block, triangle_block = mesh.cell_data[name]
        np.testing.assert_array_equal(tet_block, fields[name][:tets], err_msg=name)
        np.testing.assert_array_equal(triangle_block, fields[name][tets:], err_msg=name)
    np.testing.assert_array_equal(mesh.cell_data["stress"][0].reshape(-1, 3, 3), fields["stress"][:tets])
    assert set(mesh.cell_data["region"][0]) == {0, 1}  # both materials of the box
    assert np.all(mesh.cell_data["body"][1] == 1)
    assert np.all(np.isnan(mesh.cell_data["det_F"][1]))  # no tet fields on the cloth

    # det F from the positions alone: det(Ds) / det(Dm) per tet.
    x, X, T = sim.positions, sim.rest_positions, sim.tets
    Ds = np.stack([x[T[:, k]] - x[T[:, 0]] for k in (1, 2, 3)], axis=2)
    Dm = np.stack([X[T[:, k]] - X[T[:, 0]] for k in (1, 2, 3)], axis=2)
    np.testing.assert_allclose(mesh.cell_data["det_F"][0], np.linalg.det(Ds) / np.linalg.det(Dm), rtol=1e-12)
    assert np.all(mesh.cell_data["strain_energy_density"][0] >= -1e-9)  # zero at rest, up to round-off


def test_the_pvd_lists_every_exported_frame_with_its_time(scene_file: Path, tmp_path: Path):
    sim = qnsim.Simulation(scene_file)
    with qnsim.Exporter(tmp_path / "vtk", "vtu", every=2) as exporter:
        exporter.add(sim)
        for _ in range(4):
            sim.step()
            exporter.add(sim)
    assert exporter.exported_frames == 3
    root = ET.parse(tmp_path / "vtk" / "frames.pvd").getroot()
    assert root.get("type") == "Collection"
    datasets = root.find("Collection").findall("DataSet")
    assert [d.get("file") for d in datasets] == ["frame_00000.vtu", "frame_00002.vtu", "frame_00004.vtu"]
    np.testing.assert_allclose([float(d.get("timestep")) for d in datasets], [0.0, 0.04, 0.08], rtol=1e-12)
    last = meshio.read(tmp_path / "vtk" / datasets[-1].get("file"))
    np.testing.assert_array_equal(last.points, sim.positions)
    assert not list((tmp_path / "vtk").glob("*.partial*"))


def test_an_obj_frame_holds_the_drawn_surfaces(scene_file: Path, tmp_path: Path):
    sim = qnsim.Simulation(scene_file)
    sim.step(2)
    qnsim.write_obj(tmp_path / "frame.obj", sim)
    mesh = meshio.read(tmp_path / "frame.obj")
    drawn = np.unique(sim.surface_triangles)  # each body's surface vertices in increasing order, body after body
    np.testing.assert_allclose(mesh.points, sim.positions[drawn], rtol=1e-6, atol=1e-7)
    assert sum(len(b.data) for b in mesh.cells) == len(sim.surface_triangles)
    text = (tmp_path / "frame.obj").read_text()
    assert text.count("\nvn ") == len(drawn)
    assert "o box\n" in text and "o sheet\n" in text


def test_the_cli_exports_what_the_module_does(scene_file: Path, tmp_path: Path, cli: Path):
    done = subprocess.run([str(cli), "run", str(scene_file), "--frames", "4", "--quiet", "--export", str(tmp_path / "cli"),
                           "--format", "vtu"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    sim = qnsim.Simulation(scene_file)
    sim.step(4)
    mesh = meshio.read(tmp_path / "cli" / "frame_00004.vtu")
    np.testing.assert_array_equal(mesh.points, sim.positions)
    np.testing.assert_array_equal(mesh.cell_data["stress_norm"][0], qnsim.frame_fields(sim)["stress_norm"][: len(sim.tets)])


def test_a_glb_starts_with_its_header(scene_file: Path, tmp_path: Path):
    sim = qnsim.Simulation(scene_file)
    exporter = qnsim.Exporter(tmp_path / "glb", "glb")
    exporter.add(sim)
    sim.step(2)
    exporter.add(sim)
    files = exporter.finish()
    assert files == [tmp_path / "glb" / "animation.glb"]
    data = files[0].read_bytes()
    assert data[:4] == b"glTF" and int.from_bytes(data[8:12], "little") == len(data)
    with pytest.raises(qnsim.Error, match="unknown export format 'fbx'"):
        qnsim.Exporter(tmp_path / "x", "fbx")
