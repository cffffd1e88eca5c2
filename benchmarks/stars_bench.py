"""Rolling Stock Stars engine speed: replay, random playouts, clone (same as `rolling bench stars`).

Usage: python benchmarks/stars_bench.py [SECONDS]
"""

import json
import sys

from rolling.games.stars.bench import run_bench

if __name__ == "__main__":
    print(json.dumps(run_bench(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0), indent=1))
