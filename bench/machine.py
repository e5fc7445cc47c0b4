"""What the benchmarks record about the machine they ran on, and their pinning to one core.

Imported by the scripts in bench/ (run as ``python bench/<script>.py``, so this folder is on
``sys.path``).
"""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine() -> dict:
    """CPU model and count, Python version and implementation, platform."""
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpu": model,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
    }


def pin_to_one_cpu() -> int:
    """Pin this process to one CPU (the lowest allowed) and return it; -1 where the OS
    does not allow it (the process then runs unpinned)."""
    if not hasattr(os, "sched_setaffinity"):
        return -1
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu
