# qnsim.experiment runs the experiments library and returns the CSV's table: the same as `qnsim experiment`.
import numpy as np

import qnsim
from conftest import read_csv, run_cli


def test_quick_experiment_equals_the_cli(cli, tmp_path, monkeypatch):
    assert list(qnsim.experiments())[:3] == ["teaser", "fig2", "fig3"]  # the paper's order: Fig. 1 first
    monkeypatch.chdir(tmp_path)
    table = qnsim.experiment("fig14", quick=True)  # the quickest figure (Armijo against Wolfe)
    assert list(tmp_path.iterdir()) == []  # without out, no file is kept
    assert table.dtype.names == ("method", "frame", "iter", "time_ms", "rel_error")
    result = run_cli(cli, "experiment", "fig14", "--quick", "--out", str(tmp_path / "cli"))
    assert result.returncode == 0, result.stderr
    rows = read_csv(tmp_path / "cli" / "fig14.csv")
    assert len(rows) == len(table)
    assert list(table["method"]) == [r["method"] for r in rows]
    np.testing.assert_array_equal(table["frame"], [int(r["frame"]) for r in rows])
    np.testing.assert_array_equal(table["iter"], [int(r["iter"]) for r in rows])
    np.testing.assert_array_equal(table["rel_error"], [float(r["rel_error"]) for r in rows])
    assert (table["rel_error"][table["iter"] == 0] == 1).all()
