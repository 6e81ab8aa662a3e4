"""What the Python module's tests share: where the CLI and the example scenarios are.

ctest (tests/python/CMakeLists.txt) sets WAFERSCOPE_CLI, WAFERSCOPE_SCENARIO_DIR,
WAFERSCOPE_VALIDATION_DIR and a PYTHONPATH holding the module. A missing one is an error, never
a skip: a test run that checks nothing must not pass.
"""

import json
import os
import pathlib
import subprocess

import pytest

# In an ASan build ctest preloads the sanitizer's runtime into python for the module
# (tests/python/CMakeLists.txt). The CLI run from here links its own copy statically and exits
# with "incompatible ASan runtimes" when a second one is preloaded: its processes go without.
if "asan" in os.environ.get("LD_PRELOAD", ""):
    del os.environ["LD_PRELOAD"]


def _required_environment(name):
    value = os.environ.get(name)
    if not value:
        raise pytest.UsageError(f"{name} is not set: run these tests from ctest (python_module)")
    return value


@pytest.fixture(scope="session")
def scenario_dir():
    return pathlib.Path(_required_environment("WAFERSCOPE_SCENARIO_DIR"))


@pytest.fixture(scope="session")
def validation_dir():
    return pathlib.Path(_required_environment("WAFERSCOPE_VALIDATION_DIR"))


@pytest.fixture(scope="session")
def run_cli():
    """Runs the real waferscope-cli: run_cli("optimize", "--json", path) -> CompletedProcess."""
    cli = _required_environment("WAFERSCOPE_CLI")

    def run(*args, env=None):
        return subprocess.run([cli, *map(str, args)], capture_output=True, text=True, env=env,
                              check=False)

    return run


@pytest.fixture(scope="session")
def cli_json(run_cli):
    """The parsed stdout of a CLI --json command that must succeed."""

    def report(*args, env=None):
        done = run_cli(*args, env=env)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return report


def pytest_sessionfinish(session, exitstatus):
    # pytest's exit 5 ("no tests collected") would let ctest pass with nothing checked.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
