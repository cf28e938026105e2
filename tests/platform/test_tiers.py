"""Every test is in exactly one tier (tests/conftest.py), and ``-m quick`` is the pure and adapter
tiers: the whole suite collected in a child process, each test's tier marks written out."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_every_test_is_in_exactly_one_tier_and_quick_is_pure_and_adapter(tmp_path):
    report = tmp_path / "tiers.json"
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           f"--tier-report={report}"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    tests = json.loads(report.read_text())
    assert len(tests) > 1000  # the whole suite, not a folder of it
    several = {name: test["tiers"] for name, test in tests.items() if len(test["tiers"]) != 1}
    assert several == {}
    tiers = {test["tiers"][0] for test in tests.values()}
    assert tiers == {"pure", "adapter", "discord", "slow"}
    assert all(test["quick"] == (test["tiers"][0] in ("pure", "adapter")) for test in tests.values())
    here = next(test for name, test in tests.items() if name.endswith(
        "test_every_test_is_in_exactly_one_tier_and_quick_is_pure_and_adapter"))
    assert here["tiers"] == ["slow"]
