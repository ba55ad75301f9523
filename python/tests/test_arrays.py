# Arrays have the documented shapes and dtypes; positions and velocities are read-only views that follow
# the simulation without copies; telemetry has the CSVs' columns.
import gc

import numpy as np
import pytest

import qnsim


def test_shapes_and_dtypes(bar):
    n = bar.vertex_count
    assert n == 3458
    for name in ("positions", "velocities", "rest_positions"):
        array = getattr(bar, name)
        assert array.shape == (n, 3) and array.dtype == np.float64, name
    assert bar.masses.shape == (n,) and bar.masses.dtype == np.float64
    assert bar.tets.shape == (10569, 4) and bar.tets.dtype == np.int32
    assert bar.surface_triangles.ndim == 2 and bar.surface_triangles.shape[1] == 3 and bar.surface_triangles.dtype == np.int32
    assert bar.tets.min() == 0 and bar.tets.max() == n - 1
    assert bar.surface_triangles.max() < n
    assert bar.bodies == [{"name": "bar", "first_vertex": 0, "vertex_count": n, "is_cloth": False}]
    np.testing.assert_array_equal(bar.positions, bar.rest_positions)


def test_arrays_are_read_only(bar):
    for name in ("positions", "velocities", "rest_positions", "masses", "tets", "surface_triangles"):
        array = getattr(bar, name)
        assert not array.flags.writeable, name
        with pytest.raises(ValueError):
            array[0] = 0


def test_positions_are_views_that_follow_the_simulation(bar):
    x, v = bar.positions, bar.velocities
    assert np.shares_memory(x, bar.positions) and np.shares_memory(v, bar.velocities)
    start = x.copy()
    bar.step(2)
    assert not np.array_equal(x, start)  # the same view now shows frame 2
    np.testing.assert_array_equal(bar.state()["positions"], x)
    assert not np.shares_memory(bar.state()["positions"], x)  # state() copies


def test_a_view_keeps_its_simulation_alive():
    sim = qnsim.Simulation(qnsim.catalog()["twisting_bar"])
    sim.step()
    x, expected = sim.positions, sim.positions.copy()
    del sim
    gc.collect()
    np.testing.assert_array_equal(x, expected)


def test_cloth_has_no_tets_and_several_bodies_concatenate():
    cloth = qnsim.Simulation(qnsim.catalog()["cloth"])
    assert cloth.tets.shape == (0, 4)
    assert cloth.surface_triangles.shape[0] > 0
    assert all(b["is_cloth"] for b in cloth.bodies)


def test_last_frame_has_the_frame_csv_columns(bar):
    bar.step()
    record = bar.last_frame
    assert list(record.as_dict()) == list(qnsim.FRAME_CSV_COLUMNS)
    assert qnsim.FRAME_CSV_COLUMNS[:3] == ("frame", "time", "iterations")
    for column in qnsim.FRAME_CSV_COLUMNS:
        assert getattr(record, column) == record.as_dict()[column]
    assert record.frame == 1 and record.iterations == 10 and record.factorizations == 1
    assert isinstance(record.frame, int) and isinstance(record.g, float)
    assert set(record.times) == {"gradient", "linear_solve", "lbfgs", "line_search", "contacts", "projection"}
    bar.step()
    assert record.frame == 1  # a copy: it does not change with the simulation


def test_last_iterations_is_the_iteration_table(bar):
    bar.step()
    table = bar.last_iterations
    assert table.dtype == qnsim.ITERATION_DTYPE
    assert table.dtype.names == ("frame", "iter", "g", "grad_norm", "alpha", "ls_trials", "time_ms", "rel_error", "residual", "fallback")
    assert table.dtype["frame"] == np.int32 and table.dtype["g"] == np.float64 and table.dtype["fallback"] == np.bool_
    assert len(table) == 11
    np.testing.assert_array_equal(table["iter"], np.arange(11))
    assert (table["frame"] == 1).all() and np.isnan(table["rel_error"]).all()
    assert table["g"][-1] == bar.last_frame.g


def test_reference_gives_relative_errors(bar):
    bar.reference = True
    assert bar.reference
    bar.step()
    errors = bar.last_iterations["rel_error"]
    assert errors[0] == 1.0 and 0 <= errors[-1] < errors[0]
    assert bar.last_frame.reference_ms > 0


def test_parameters_describe_the_registry(cli):
    params = qnsim.parameters()
    window = params["solver.lbfgs_window"]
    assert (window.type, window.default, window.min, window.effect) == ("integer", 5, 0.0, "live")
    method = params["solver.method"]
    assert method.type == "choice" and "qn" in method.choices and method.min is None
    assert params["gravity"].type == "vector3" and params["gravity"].default == (0.0, -9.81, 0.0)
    assert params["time_step"].effect == "new_system_matrix"
    # The same keys as `qnsim params` lists, in the same order.
    from conftest import run_cli

    listed = run_cli(cli, "params").stdout.split("Material models")[0]
    keys = [line.split()[0] for line in listed.splitlines() if line.startswith("  ") and not line.startswith("      ")]
    assert keys == list(params)
    models = qnsim.material_models()
    assert models["neo_hookean"]["solid"] and not models["spring"]["solid"]
    assert "mu" in models["neo_hookean"]["parameters"]


def test_get_returns_python_values(bar):
    assert bar.get("solver.method") == "qn"
    assert bar.get("solver.lbfgs_window") == 5
    assert bar.get("gravity") == (0.0, -9.81, 0.0)
    assert bar.get("material.bar.mu") == 1e6
    assert bar.settings["time_step"] == bar.get("time_step")
    bar.set("solver.lbfgs_window", np.int64(2))
    bar.set("gravity", np.array([0.0, -1.0, 0.0]))
    bar.set("solver.line_search", "wolfe")
    assert (bar.get("solver.lbfgs_window"), bar.get("gravity"), bar.get("solver.line_search")) == (2, (0.0, -1.0, 0.0), "wolfe")
