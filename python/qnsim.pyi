# Type stubs of the qnsim module (python/*.cpp), copied next to the built module so that editors and type
# checkers complete and check calls. Keep in step with the bindings; docs/python.md shows them in use.
import os
from pathlib import Path
from typing import Any, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
sparse_backend: str  # "CHOLMOD" or "Eigen SimplicialLDLT"

FRAME_CSV_COLUMNS: Tuple[str, ...]  # the frame CSV's header (docs/cli.md), FrameRecord's attributes
ITERATION_DTYPE: np.dtype  # frame, iter, g, grad_norm, alpha, ls_trials, time_ms, rel_error, fallback

PathLike = Union[str, os.PathLike[str]]
ParameterValue = Union[float, int, bool, str, Tuple[float, ...]]
# What set() accepts: a value of the parameter's type, or text as after --set ("0.5", "qn", "0,-9.81,0").
ParameterInput = Union[float, int, bool, str, Sequence[float], npt.ArrayLike]

class Error(RuntimeError, ValueError):
    """A failure reported by qnsim, with the message the CLI prints."""

class Parameter:
    """A parameter's declaration: key, type, default, range, description and the cost of an edit."""
    @property
    def key(self) -> str: ...
    @property
    def group(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def type(self) -> Literal["real", "integer", "boolean", "choice", "vector2", "vector3"]: ...
    @property
    def default(self) -> ParameterValue: ...
    @property
    def min(self) -> Optional[float]: ...
    @property
    def max(self) -> Optional[float]: ...
    @property
    def choices(self) -> list[str]: ...
    @property
    def range(self) -> str: ...
    @property
    def effect(self) -> Literal["live", "new_direction_solver", "new_system_matrix"]: ...

def parameters() -> dict[str, Parameter]:
    """Every simulation setting by key, in the order `qnsim params` lists them."""

def material_models() -> dict[str, dict[str, Any]]:
    """Every material model by name: {"solid": bool, "parameters": {name: Parameter}}."""

class Scene:
    """A scene file with its meshes loaded; edit it with set() before making a Simulation of it."""
    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def path(self) -> Path: ...
    @property
    def frames(self) -> int: ...
    @property
    def materials(self) -> dict[str, str]:
        """The material entries by NAME (of "material.NAME.PARAMETER" keys) and their models."""
    def set(self, key: str, value: ParameterInput) -> None:
        """Sets a parameter or "material.NAME.PARAMETER" exactly as `qnsim run --set KEY=VALUE`; raises Error."""
    def get(self, key: str) -> ParameterValue: ...
    def copy(self) -> Scene: ...
    def __copy__(self) -> Scene: ...
    def __deepcopy__(self, memo: Any) -> Scene: ...

def load_scene(path: PathLike, overrides: Sequence[str] = ...) -> Scene:
    """Loads a scene file (.json) or a bare mesh dropped on a ground plane, with --set style overrides;
    raises Error naming the problem."""

def catalog() -> dict[str, Path]:
    """The scenes of the source tree's scenes/ folder: {name: path}."""

class FrameRecord:
    """What a frame reports: the frame CSV's columns as attributes."""
    @property
    def frame(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def iterations(self) -> int: ...
    @property
    def ls_trials(self) -> int: ...
    @property
    def frame_ms(self) -> float: ...
    @property
    def g(self) -> float: ...
    @property
    def elastic_energy(self) -> float: ...
    @property
    def kinetic_energy(self) -> float: ...
    @property
    def min_det_f(self) -> float: ...
    @property
    def inverted(self) -> int: ...
    @property
    def active_contacts(self) -> int: ...
    @property
    def max_penetration(self) -> float: ...
    @property
    def self_contacts(self) -> int: ...
    @property
    def max_self_penetration(self) -> float: ...
    @property
    def bbox_diagonal(self) -> float: ...
    @property
    def com_x(self) -> float: ...
    @property
    def com_y(self) -> float: ...
    @property
    def com_z(self) -> float: ...
    @property
    def factorizations(self) -> int: ...
    @property
    def reference_ms(self) -> float: ...
    @property
    def rolled_back(self) -> int: ...
    @property
    def times(self) -> dict[str, float]:
        """Wall time (ms) per phase: gradient, linear_solve, lbfgs, line_search, contacts."""
    def as_dict(self) -> dict[str, float | int]:
        """The frame CSV's row, {column: value} in the CSV's order."""

class Simulation:
    """A running simulation of a Scene, stepped one frame (time step h) at a time."""
    @overload
    def __init__(self, scene: Scene, reference: bool = False) -> None: ...
    @overload
    def __init__(self, path: PathLike, reference: bool = False) -> None: ...
    def step(self, n: int = 1) -> None:
        """Advances n frames without the GIL; Ctrl+C stops between frames (KeyboardInterrupt)."""
    def reset(self) -> None: ...
    @property
    def frame(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def vertex_count(self) -> int: ...
    @property
    def scene(self) -> Scene: ...
    @property
    def positions(self) -> npt.NDArray[np.float64]:
        """(n, 3), a read-only view that follows the simulation."""
    @property
    def velocities(self) -> npt.NDArray[np.float64]:
        """(n, 3), a read-only view that follows the simulation."""
    @property
    def rest_positions(self) -> npt.NDArray[np.float64]: ...
    @property
    def masses(self) -> npt.NDArray[np.float64]: ...
    @property
    def tets(self) -> npt.NDArray[np.int32]:
        """(m, 4) vertex indices, read-only."""
    @property
    def surface_triangles(self) -> npt.NDArray[np.int32]:
        """(k, 3) vertex indices, read-only."""
    @property
    def bodies(self) -> list[dict[str, Any]]: ...
    def set(self, key: str, value: ParameterInput) -> None:
        """Sets a parameter or "material.NAME.PARAMETER" between frames, checked as --set; raises Error."""
    def get(self, key: str) -> ParameterValue: ...
    @property
    def settings(self) -> dict[str, ParameterValue]: ...
    reference: bool
    @property
    def last_frame(self) -> FrameRecord: ...
    @property
    def last_warning(self) -> str:
        """Why the last frame was rolled back (its solve diverged), or '' when it was not."""
    @property
    def last_iterations(self) -> np.ndarray:
        """The last frame's iteration table, a structured array of ITERATION_DTYPE."""
    def compare_next_frame(self, methods: dict[str, dict[str, ParameterInput]]) -> dict[str, np.ndarray]:
        """The next frame solved by each method ({label: {solver key: value}}) and exactly, without advancing:
        {label: iteration table with rel_error}."""
    # Live edits
    def pin(self, vertices: Sequence[int] | npt.NDArray[np.integer], stiffness: float) -> None: ...
    def unpin(self, vertices: Sequence[int] | npt.NDArray[np.integer]) -> None: ...
    @property
    def attached_vertices(self) -> npt.NDArray[np.int32]: ...
    def set_drag(
        self,
        vertices: Sequence[int] | npt.NDArray[np.integer],
        targets: npt.ArrayLike,
        stiffness: float | Sequence[float] | npt.NDArray[np.float64],
    ) -> None: ...
    def clear_drag(self) -> None: ...
    @property
    def regions(self) -> list[dict[str, Any]]: ...
    def set_material(self, region: int | str, model: Optional[str] = None, **constants: float) -> None: ...
    @property
    def refactor_pending(self) -> bool: ...
    def finish_refactor(self) -> None: ...
    def save_state(self, path: PathLike) -> None: ...
    def load_state(self, path: PathLike) -> None: ...
    def state(self) -> dict[str, Any]:
        """frame, time, positions (n, 3) and velocities (n, 3), copies."""
    def set_state(
        self,
        positions: npt.ArrayLike,
        velocities: npt.ArrayLike,
        frame: Optional[int] = None,
        time: Optional[float] = None,
    ) -> None: ...

def experiments() -> dict[str, str]:
    """The paper's figures `qnsim experiment NAME` reproduces: {name: title}."""

def experiment(name: str, quick: bool = False, out: Optional[PathLike] = None) -> np.ndarray:
    """Runs a figure of the paper and returns its CSV's table (method, frame, iter, time_ms, rel_error)."""
