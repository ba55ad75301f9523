# Live edits between frames (pins, drags, materials, state) and stepping: without the GIL, interrupted by
# Ctrl+C between frames.
import os
import signal
import threading

import numpy as np
import pytest

import qnsim


def test_pin_and_unpin(bar):
    held = bar.attached_vertices
    assert len(held) > 0
    free = np.setdiff1d(np.arange(bar.vertex_count), held)[:5]
    bar.pin(free, 1e6)
    bar.finish_refactor()
    np.testing.assert_array_equal(bar.attached_vertices, np.union1d(held, free))
    bar.step()
    assert bar.last_frame.factorizations == 2  # A with the new attachments
    bar.unpin(held)  # the scene's handles let go too
    bar.finish_refactor()
    np.testing.assert_array_equal(bar.attached_vertices, free)


def test_pinned_vertices_stay_put():
    cloth = qnsim.Simulation(qnsim.catalog()["cloth"])
    cloth.unpin(cloth.attached_vertices)
    corner = [0]
    cloth.pin(corner, 1e6)
    cloth.finish_refactor()
    start = cloth.positions[corner].copy()
    cloth.step(10)
    assert np.linalg.norm(cloth.positions[corner] - start) < 1e-3
    assert cloth.last_frame.com_y < cloth.rest_positions[:, 1].mean()  # the rest falls


def test_drag_pulls_without_refactoring(bar):
    free = [int(np.argmin(np.abs(bar.positions[:, 0])))]  # in the middle of the bar, away from the handles
    target = bar.positions[free] + [0.0, 0.2, 0.0]
    other = qnsim.Simulation(bar.scene)
    bar.set_drag(free, target, 1e5)
    bar.step(3)
    other.step(3)
    assert bar.positions[free[0], 1] > other.positions[free[0], 1] + 0.1
    assert bar.last_frame.factorizations == 1 and not bar.refactor_pending
    bar.clear_drag()
    bar.set_drag(free, target, [1e5])  # one stiffness per vertex


def test_material_edits(bar):
    bar.set_material("bar", mu=2e5)
    bar.set("material.bar.lambda", 8e5)
    bar.finish_refactor()
    region = bar.regions[0]
    assert region["parameters"]["mu"] == 2e5 and bar.get("material.bar.lambda") == 8e5
    soft_k = region["stiffness"]
    bar.set_material(0, model="corotated", mu=1e6, **{"lambda": 4e6})
    bar.finish_refactor()
    assert bar.regions[0]["model"] == "corotated" and bar.regions[0]["stiffness"] > soft_k
    bar.step()


def test_save_and_load_state_round_trip(bar, tmp_path):
    bar.step(3)
    path = tmp_path / "state.json"
    bar.save_state(path)
    bar.step(2)
    later = bar.positions.copy(), bar.velocities.copy(), bar.last_frame.g
    bar.load_state(path)
    assert bar.frame == 3
    bar.step(2)
    assert bar.frame == 5
    np.testing.assert_array_equal(bar.positions, later[0])
    np.testing.assert_array_equal(bar.velocities, later[1])
    assert bar.last_frame.g == later[2]


def test_state_and_set_state(bar):
    bar.step(2)
    state = bar.state()
    assert state["frame"] == 2 and state["positions"].shape == (bar.vertex_count, 3)
    bar.step()
    bar.set_state(state["positions"], state["velocities"], frame=state["frame"], time=state["time"])
    assert bar.frame == 2 and bar.time == state["time"]
    np.testing.assert_array_equal(bar.positions, state["positions"])
    bar.reset()
    assert bar.frame == 0
    np.testing.assert_array_equal(bar.positions, bar.rest_positions)


def test_step_releases_the_gil_and_guards_the_simulation(bar):
    seen_busy, ticks = [], 0
    worker = threading.Thread(target=bar.step, args=(15,))
    worker.start()
    while worker.is_alive():
        ticks += 1  # Python runs while the frames are solved
        try:
            bar.frame
        except qnsim.Error as e:
            seen_busy.append(str(e))
    worker.join()
    assert bar.frame == 15 and ticks > 15
    assert seen_busy and "stepping in another thread" in seen_busy[0]


def test_ctrl_c_stops_between_frames(bar):
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        bar.step(100000)
    timer.join()
    assert 0 < bar.frame < 100000
    frame = bar.frame
    bar.step()  # usable afterwards, from the last finished frame
    assert bar.frame == frame + 1 and np.isfinite(bar.positions).all()


def test_compare_next_frame(bar):
    bar.step(3)
    before = bar.positions.copy()
    traces = bar.compare_next_frame({"pd": {"solver.method": "pd"}, "lbfgs_m5": {}, "m2": {"solver.lbfgs_window": 2}})
    assert list(traces) == ["pd", "lbfgs_m5", "m2"] and bar.frame == 3
    np.testing.assert_array_equal(bar.positions, before)  # nothing advanced
    for table in traces.values():
        assert table.dtype == qnsim.ITERATION_DTYPE and (table["frame"] == 4).all() and table["rel_error"][0] == 1
    assert traces["lbfgs_m5"]["rel_error"][-1] < traces["pd"]["rel_error"][-1]
    with pytest.raises(qnsim.Error, match="compare: method 'x': time_step is not a solver setting"):
        bar.compare_next_frame({"x": {"time_step": 0.01}})
    with pytest.raises(qnsim.Error, match="unknown parameter 'solver.lbfgs_windw'"):
        bar.compare_next_frame({"x": {"solver.lbfgs_windw": 1}})


def test_compare_next_frame_takes_every_solver_method():
    bar = qnsim.Simulation(qnsim.catalog()["shaking_bar"])
    bar.step(2)
    methods = qnsim.parameters()["solver.method"].choices
    newer = {"newton_abs", "vbd", "anderson", "jacobi", "admm"}  # docs/solvers.md
    assert newer <= set(methods)
    traces = bar.compare_next_frame({m: {"solver.method": m, "solver.iterations": 3} for m in methods})
    assert list(traces) == methods
    for method, table in traces.items():
        assert np.isfinite(table["g"]).all() and table["rel_error"][0] == 1, method
        assert method not in newer or table["rel_error"][-1] < 1, method


def test_cut_removes_elements_and_the_state_keeps_them(tmp_path):
    cloth = qnsim.Simulation(qnsim.catalog()["cloth"])
    x = cloth.positions
    c = float(np.unique(x[:, 0])[40]) + 1e-4  # just past a column of vertices
    apex = [c, float(x[:, 1].max()) + 1.0, 0.0]
    removed = cloth.cut(apex, [0.0, -1.0, -10.0], [0.0, -1.0, 10.0])  # a wedge across the whole cloth
    assert removed > 0
    assert len(cloth.removed_springs) == removed and len(cloth.removed_tets) == 0
    assert cloth.cut(apex, [0.0, -1.0, -10.0], [0.0, -1.0, 10.0]) == 0  # nothing left to cut there
    cloth.step()
    assert cloth.last_frame.removed == removed and cloth.last_frame.torn == 0
    assert cloth.last_frame.factorizations == 1  # tearing.matrix=keep
    cloth.save_state(tmp_path / "cut.json")
    fresh = qnsim.Simulation(qnsim.catalog()["cloth"])
    fresh.load_state(tmp_path / "cut.json")
    np.testing.assert_array_equal(fresh.removed_springs, cloth.removed_springs)
    fresh.set_state(fresh.positions, fresh.velocities)  # keeps the removed elements
    np.testing.assert_array_equal(fresh.removed_springs, cloth.removed_springs)
    with pytest.raises(qnsim.Error):
        cloth.cut([0.0, 0.0], [0.0, -1.0, 0.0], [1.0, -1.0, 0.0])


def test_save_scene_runs_as_the_edited_simulation_after_a_reset(tmp_path):
    cloth = qnsim.Simulation(qnsim.load_scene(qnsim.catalog()["cloth"], ["threads=1"]))
    cloth.step(2)
    cloth.set("material.stretch.k", 2500.0)
    cloth.set("solver.lbfgs_window", 3)
    cloth.pin([40, 41], 5e3)
    cloth.save_scene(tmp_path / "edited.json")
    fresh = qnsim.Simulation(tmp_path / "edited.json")
    cloth.reset()
    cloth.step(3)
    fresh.step(3)
    np.testing.assert_array_equal(cloth.positions, fresh.positions)
    assert fresh.get("material.stretch.k") == 2500.0


def test_scene_save_keeps_overrides(tmp_path):
    scene = qnsim.load_scene(qnsim.catalog()["twisting_bar"], ["solver.iterations=7"])
    name = next(iter(scene.materials))
    scene.set(f"material.{name}.mu", 3.5e5)
    scene.save(tmp_path / "bar.json")
    again = qnsim.load_scene(tmp_path / "bar.json")
    assert again.get("solver.iterations") == 7
    assert again.get(f"material.{name}.mu") == 3.5e5
    with pytest.raises(qnsim.Error, match="no such folder"):
        scene.save(tmp_path / "no such folder" / "bar.json")
