"""A training set for a learned heuristic: 10^6 uniformly random 3x4 configurations with their
exact distances, and its depth histogram against the exact distribution.

    pip install ./python matplotlib
    python examples/training_set.py [DIR]      # DIR: where the files go (default: training-set)

Writes DIR/3x4.tst (the table, 60 MB; kept, and used again by the next run), DIR/training-3x4.npz
(boards: uint8 (N, 12), distances: uint8 (N,)) and DIR/training-3x4.png (the histogram; a text
table without matplotlib).
"""

import os
import sys
import time

import numpy as np

import tilespace

N = 1_000_000


def main(out: str) -> None:
    table_path = os.path.join(out, "3x4.tst")
    if not os.path.exists(table_path):
        t = time.perf_counter()
        a = tilespace.analyze("3x4", save_table=table_path)
        print(f"3x4: {a.states} states, eccentricity {a.eccentricity}, mean {a.mean} "
              f"({float(a.mean):.4f}), searched in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    table = tilespace.Table.open(table_path)

    t = time.perf_counter()
    boards, distances = table.sample(N, seed=2026)
    took = time.perf_counter() - t
    print(f"{N} boards with their distances in {took:.2f} s ({N / took / 1e6:.2f} M/s)", file=sys.stderr)
    np.savez_compressed(os.path.join(out, "training-3x4.npz"), boards=boards, distances=distances)

    # Each depth's share of the sample against its share of the 12!/2 states: Pearson's
    # chi-square over the depths expected at least 5 times (the rarer ones pooled).
    seen = np.bincount(distances, minlength=len(table.depths))
    exact = N * table.depths / table.depths.sum()
    common = exact >= 5
    observed = np.append(seen[common], seen[~common].sum())
    expected = np.append(exact[common], exact[~common].sum())
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    df = len(observed) - 1
    print(f"chi-square {chi2:.1f} on {df} degrees of freedom (mean {df}, standard deviation "
          f"{np.sqrt(2 * df):.1f} for a uniform sample)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("depth  sampled  exact")
        for d, (s, e) in enumerate(zip(seen, exact)):
            print(f"{d:5}  {s:7}  {e:9.1f}")
        return
    fig, ax = plt.subplots(figsize=(8, 4.5))
    depth = np.arange(len(seen))
    ax.bar(depth, seen, color="#9ab", label=f"sample of {N:,} (seed 2026)")
    ax.plot(depth, exact, "k.-", lw=1, label="exact: every state, by BFS")
    ax.set_xlabel("moves to the goal (single-tile)")
    ax.set_ylabel("boards")
    ax.set_title("3x4 training set: sampled depths against the exact distribution")
    ax.legend()
    png = os.path.join(out, "training-3x4.png")
    fig.savefig(png, dpi=120, bbox_inches="tight")
    print(f"wrote {png}", file=sys.stderr)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "training-set"
    os.makedirs(out, exist_ok=True)
    main(out)
