# Shared fixtures of the module's tests. CTest runs them with PYTHONPATH at the built module and QNSIM_CLI
# at the built program (python/CMakeLists.txt).
import csv
import os
import subprocess
from pathlib import Path

import pytest

import qnsim

# The paper's convergence scene: 3458 vertices, 10569 tets, a few ms per frame.
BAR = qnsim.catalog()["twisting_bar"]


@pytest.fixture(scope="session")
def cli() -> Path:
    path = os.environ.get("QNSIM_CLI")
    if not path:
        pytest.skip("QNSIM_CLI (the qnsim program) is not set; CTest sets it")
    return Path(path).resolve()  # tests may change the working folder


@pytest.fixture
def bar() -> qnsim.Simulation:
    return qnsim.Simulation(qnsim.load_scene(BAR))


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run_cli(cli: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli), *args], capture_output=True, text=True)
