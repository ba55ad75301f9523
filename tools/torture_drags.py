#!/usr/bin/env python3
"""Long torture run by hand (docs/reliability.md): random scripted drags and pins on a scene.

Every 15 frames a new action: drag 1-3 random surface vertices towards random targets up to half the
model's size away (stiffness log-uniform over four decades), pin or unpin a few vertices, or let go.
Checks every frame that the positions stay finite and that the energy stays bounded; prints a summary
and exits non-zero when either fails.

    PYTHONPATH=build/python /usr/bin/python3 tools/torture_drags.py scenes/squirrel_head.json --frames 10000
"""
import argparse
import math
import sys
import time

import numpy as np

import qnsim


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scene")
    parser.add_argument("--frames", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--energy-bound", type=float, default=1e6, help="largest kinetic + elastic energy allowed (J)")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    sim = qnsim.Simulation(args.scene)
    rest = sim.rest_positions
    size = float(np.linalg.norm(rest.max(axis=0) - rest.min(axis=0)))
    surface = np.unique(sim.surface_triangles)
    pinned = []
    worst_energy, rolled_back, drags, pins = 0.0, 0, 0, 0
    start = time.time()
    for frame in range(1, args.frames + 1):
        if frame % 15 == 1:
            action = rng.integers(4)
            if action <= 1:  # drag
                count = int(rng.integers(1, 4))
                vertices = rng.choice(surface, count, replace=False)
                targets = sim.positions[vertices] + rng.uniform(-0.5, 0.5, (count, 3)) * size
                sim.set_drag(vertices, targets, float(10 ** rng.uniform(1, 5)))
                drags += 1
            elif action == 2 and len(pinned) < 40:  # pin where they are
                new = [int(v) for v in rng.choice(surface, 5, replace=False)]
                sim.pin(new, float(10 ** rng.uniform(2, 5)))
                pinned += new
                pins += 1
            else:  # let go of everything
                sim.clear_drag()
                if pinned:
                    sim.unpin(pinned)
                    pinned = []
        sim.step()
        record = sim.last_frame
        rolled_back += record.rolled_back
        energy = record.kinetic_energy + record.elastic_energy
        worst_energy = max(worst_energy, energy)
        if not np.isfinite(sim.positions).all() or not math.isfinite(energy) or energy > args.energy_bound:
            print(f"FAILED at frame {frame}: energy {energy:.3g} J, finite positions {np.isfinite(sim.positions).all()}")
            return 1
        if frame % 1000 == 0:
            print(f"frame {frame}: largest energy so far {worst_energy:.3g} J, {rolled_back} rolled back, "
                  f"{time.time() - start:.0f} s", flush=True)
    print(f"{args.scene}: {args.frames} frames, {drags} drags, {pins} pin actions, no NaN, largest kinetic + elastic energy "
          f"{worst_energy:.3g} J, {rolled_back} frames rolled back, {time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
