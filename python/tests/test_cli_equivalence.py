# The module's results equal the CLI's for the same scene and settings: every column of the frame CSV and
# the iteration CSV, bit for bit (the CSVs print 17 significant digits), except wall times.
import math

import pytest

import qnsim
from conftest import BAR, read_csv, run_cli

TIMINGS = {"frame_ms", "reference_ms", "time_ms"}


def cli_run(cli, tmp_path, scene, frames, overrides, reference=False):
    frame_csv, iter_csv = tmp_path / "frames.csv", tmp_path / "iterations.csv"
    args = ["run", str(scene), "--frames", str(frames), "--frame-csv", str(frame_csv), "--iter-csv", str(iter_csv), "-q"]
    for key, value in overrides:
        args += ["--set", f"{key}={value}"]
    if reference:
        args.append("--reference")
    result = run_cli(cli, *args)
    assert result.returncode == 0, result.stderr
    return read_csv(frame_csv), read_csv(iter_csv)


def same(ours, text):
    """A value equal to the CSV's text: exactly for numbers (17 digits round-trip), empty = NaN."""
    if text == "":
        return math.isnan(ours)
    return float(ours) == float(text)


def assert_same_run(sim, frames, cli_frames, cli_iterations, skip=()):
    for f in range(frames):
        sim.step()
        ours = sim.last_frame.as_dict()
        theirs = cli_frames[f]
        assert list(ours) == list(theirs)
        for column, text in theirs.items():
            if column not in TIMINGS and column not in skip:
                assert same(ours[column], text), (f + 1, column, ours[column], text)
        rows = [r for r in cli_iterations if int(r["frame"]) == sim.frame]
        table = sim.last_iterations
        assert len(table) == len(rows)
        for k, row in enumerate(rows):
            for column, text in row.items():
                if column not in TIMINGS:
                    assert same(table[column][k], text), (sim.frame, k, column, table[column][k], text)


def test_scene_set_matches_cli_with_reference(cli, tmp_path):
    shaking_bar = qnsim.catalog()["shaking_bar"]  # small (568 vertices): the reference solves are cheap
    overrides = [("solver.lbfgs_window", 3), ("material.bar.mu", 5e5), ("gravity", (0, -5, 0))]
    frames = 3
    cli_frames, cli_iterations = cli_run(
        cli, tmp_path, shaking_bar, frames, [(k, qnsim_text(v)) for k, v in overrides], reference=True)
    scene = qnsim.load_scene(shaking_bar)
    for key, value in overrides:
        scene.set(key, value)
    sim = qnsim.Simulation(scene, reference=True)
    assert_same_run(sim, frames, cli_frames, cli_iterations)
    assert not any(math.isnan(e) for e in sim.last_iterations["rel_error"])


def test_live_set_matches_cli(cli, tmp_path):
    # Edits of a running simulation (before its first frame) give the CLI's run; a material edit refactors
    # A once more, so only the factorisation count differs.
    overrides = [("solver.method", "pd"), ("solver.iterations", 7), ("material.bar.lambda", 2e6)]
    frames = 4
    cli_frames, cli_iterations = cli_run(cli, tmp_path, BAR, frames, [(k, qnsim_text(v)) for k, v in overrides])
    sim = qnsim.Simulation(BAR)
    for key, value in overrides:
        sim.set(key, value)
    sim.finish_refactor()
    assert_same_run(sim, frames, cli_frames, cli_iterations, skip={"factorizations"})


@pytest.mark.parametrize("scene,frames", [("cube_isotropic", 10), ("cloth", 3)])
def test_contact_and_cloth_scenes_match_cli(cli, tmp_path, scene, frames):
    path = qnsim.catalog()[scene]
    cli_frames, cli_iterations = cli_run(cli, tmp_path, path, frames, [])
    assert_same_run(qnsim.Simulation(path), frames, cli_frames, cli_iterations)
    if scene == "cube_isotropic":
        assert int(cli_frames[-1]["active_contacts"]) > 0  # the cube has landed: contacts are compared too


def qnsim_text(value):
    """The text --set gets for a value, as a user would type it."""
    if isinstance(value, tuple):
        return ",".join(repr(float(v)) for v in value)
    return str(value)
