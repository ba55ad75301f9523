# Errors raise qnsim.Error (a RuntimeError and a ValueError) with the messages of the CLI, and a failed
# edit leaves the simulation as it was.
import math

import numpy as np
import pytest

import qnsim
from conftest import BAR, run_cli

# (key, value from Python, the same value as typed after --set)
BAD_ASSIGNMENTS = [
    ("solver.lbfgs_windw", 3, "3"),                       # unknown key
    ("solver.lbfgs_window", -1, "-1"),                    # out of range
    ("solver.iterations", 2.5, "2.5"),                    # not a whole number
    ("time_step", math.nan, "nan"),                       # not finite
    ("time_step", math.inf, "inf"),
    ("gravity", (0, math.nan, 0), "0,nan,0"),             # a vector with a NaN
    ("gravity", (0, 1), "0,1"),                           # a vector of the wrong size
    ("solver.method", "newtn", "newtn"),                  # not a choice
    ("solver.stiffness_interval", (1.5, 0.5), "1.5,0.5"),
    ("material.bar.mu", -1.0, "-1.0"),                    # a material constant out of range
    ("material.bar.mue", 1.0, "1.0"),                     # no such constant
    ("material.rubber.mu", 1.0, "1.0"),                   # no such material
]


def cli_error(cli, key, text):
    result = run_cli(cli, "run", str(BAR), "--frames", "1", "-q", "--set", f"{key}={text}")
    assert result.returncode == 1
    prefix = "qnsim: error: "
    assert result.stderr.startswith(prefix)
    return result.stderr[len(prefix):].rstrip("\n")


@pytest.mark.parametrize("key,value,text", BAD_ASSIGNMENTS)
def test_bad_assignments_raise_the_cli_message(cli, key, value, text):
    message = cli_error(cli, key, text)
    scene = qnsim.load_scene(BAR)
    with pytest.raises(qnsim.Error) as raised:
        scene.set(key, value)
    assert str(raised.value) == message
    sim = qnsim.Simulation(scene)
    before = sim.settings
    with pytest.raises(qnsim.Error) as raised:
        sim.set(key, value)
    assert str(raised.value) == message
    assert sim.settings == before
    assert not sim.refactor_pending


def test_error_is_runtime_and_value_error():
    assert issubclass(qnsim.Error, RuntimeError) and issubclass(qnsim.Error, ValueError)


def test_missing_scene_raises_the_cli_message(cli, tmp_path):
    missing = tmp_path / "missing.json"
    result = run_cli(cli, "run", str(missing), "-q")
    with pytest.raises(qnsim.Error) as raised:
        qnsim.load_scene(missing)
    assert result.stderr == f"qnsim: error: {raised.value}\n"
    with pytest.raises(qnsim.Error):
        qnsim.Simulation(str(missing))


def test_broken_scene_names_file_and_line(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "qnsim-scene",\n "version": 1,\n "bodies": [}\n')
    with pytest.raises(qnsim.Error, match=r"broken\.json:3:"):
        qnsim.load_scene(broken)


def test_bad_edits_raise(bar):
    n = bar.vertex_count
    with pytest.raises(qnsim.Error, match=f"pin: vertex {n} does not exist"):
        bar.pin([0, n], 1e5)
    with pytest.raises(qnsim.Error, match="stiffness must be positive"):
        bar.pin([0], math.nan)
    with pytest.raises(qnsim.Error, match="drag: vertex -1 does not exist"):
        bar.set_drag([-1], [[0, 0, 0]], 1.0)
    with pytest.raises(qnsim.Error, match="drag: 2 vertices but 1 targets"):
        bar.set_drag([0, 1], [[0, 0, 0]], 1.0)
    with pytest.raises(qnsim.Error, match="not finite"):
        bar.set_drag([0], [[0, math.nan, 0]], 1.0)
    with pytest.raises(qnsim.Error, match="region 3 does not exist"):
        bar.set_material(3, mu=1.0)
    with pytest.raises(qnsim.Error, match="needs a solid material"):
        bar.set_material("bar", model="spring")
    with pytest.raises(qnsim.Error, match="parameter mu: nan is not"):
        bar.set_material("bar", mu=math.nan)
    with pytest.raises(qnsim.Error, match="material edit: the scene has no material named 'rubber'"):
        bar.set_material("rubber", mu=1.0)
    with pytest.raises(qnsim.Error, match="state: it has 1 vertices"):
        bar.set_state(np.zeros((1, 3)), np.zeros((1, 3)))
    with pytest.raises(qnsim.Error, match=r"shape \(n, 3\)"):
        bar.set_state(np.zeros(3 * n), np.zeros(3 * n))
    with pytest.raises(qnsim.Error, match="n must be 0 or more"):
        bar.step(-1)
    with pytest.raises(qnsim.Error, match="unknown experiment|no experiment"):
        qnsim.experiment("fig99")
    # Nothing above changed the model.
    assert len(bar.attached_vertices) > 0 and bar.regions[0]["parameters"]["mu"] == 1e6
    assert not bar.refactor_pending


def test_bad_state_file_raises(bar, tmp_path):
    bad = tmp_path / "state.json"
    bad.write_text('{"format": "qnsim-state", "frame": 1}')
    with pytest.raises(qnsim.Error, match="field 'time'"):
        bar.load_state(bad)
