"""The Python module waferscope (docs/python.md).

Its reports must be the CLI's: each comparison runs the real waferscope-cli with subprocess
and compares the parsed JSON, so that a field added to one and not the other fails here.
"""

import json
import os
import pathlib
import threading
import time

import pytest

import waferscope

# A TATP line of 4 dies with die 1 at 40% of its peak: a training step that simulates in
# milliseconds and has an advisor finding with a fix (load_imbalance).
SLOW_DIE = {
    "format": "waferscope.scenario",
    "version": 1,
    "name": "slow die",
    "wafer": {"rows": 1, "cols": 4, "die": {"task_overhead": 0, "gemm_tile": 1},
              "faults": {"slow_dies": {"1": 0.4}}},
    "workload": {"kind": "gemm", "m": 4096, "k": 2048, "n": 2048},
    "strategy": {"tatp": 4},
}

# The search's smallest example: every strategy of a 4x4 wafer for one GEMM.
GEMM_4X4 = {
    "format": "waferscope.scenario",
    "version": 1,
    "name": "GEMM on 4x4",
    "wafer": {"rows": 4, "cols": 4},
    "workload": {"kind": "gemm", "m": 4096, "k": 4096, "n": 4096},
    "strategy": {"dp": 1},
}

# The message waferscope-cli prints for this typo, after "FILE: ".
TYPO_MESSAGE = "strategy.tapt: unknown key 'tapt'; did you mean 'tatp'?"


def write_scenario(directory, name, document):
    path = pathlib.Path(directory) / name
    path.write_text(json.dumps(document, indent=2))
    return path


@pytest.fixture
def slow_die_file(tmp_path):
    return write_scenario(tmp_path, "slow_die.json", SLOW_DIE)


@pytest.fixture
def no_overrides(monkeypatch):
    """The CLI and the module in an environment without TCME_MAX_ITER & co."""
    for name in ("TCME_MAX_ITER", "TCME_ROUTING", "FSDP_ALLGATHER"):
        monkeypatch.delenv(name, raising=False)


# --- The reports are the CLI's ------------------------------------------------------------


def test_simulate_equals_the_cli_report(cli_json, scenario_dir, no_overrides):
    for path in (scenario_dir / "ring_allgather_line.json",
                 scenario_dir / "contention_fsdp_tatp_4x4.json"):
        assert waferscope.simulate(path) == cli_json("simulate", "--json", path), path


def test_simulate_summary_equals_the_cli_summary(cli_json, slow_die_file, no_overrides):
    report = waferscope.simulate(slow_die_file, detail="summary")
    assert report == cli_json("simulate", "--json=summary", slow_die_file)
    assert report["detail"] == "summary" and "flows" not in report


def test_optimize_equals_the_cli_report(cli_json, scenario_dir, no_overrides):
    path = scenario_dir / "contention_fsdp_tatp_4x4.json"
    report = waferscope.optimize(path)
    assert report == cli_json("optimize", "--json", path)
    assert len(report["iterations"]) >= 2
    capped = waferscope.optimize(path, max_iter=1)
    assert capped == cli_json("optimize", "--json", "--max-iter", "1", path)
    assert capped["warnings"] == ["--max-iter 1 overrides tcme.max_iter"]


def test_search_equals_the_cli_report(cli_json, scenario_dir, tmp_path, no_overrides):
    gemm = write_scenario(tmp_path, "gemm_4x4.json", GEMM_4X4)
    for path, budget, seed in ((gemm, 60, 7), (scenario_dir / "gpt3_6_7b_6x8_search.json", 100, 3)):
        report = waferscope.search(path, budget=budget, seed=seed, threads=1)
        assert report == cli_json("search", "--json", "--budget", budget, "--seed", seed,
                                  "--threads", "1", path), path
        assert (report["seed"], report["budget"]) == (seed, budget)


def test_advise_equals_the_cli_report(cli_json, scenario_dir, slow_die_file, no_overrides):
    report = waferscope.advise(slow_die_file)
    assert report == cli_json("advise", "--json", slow_die_file)
    fixes = {finding["id"]: finding["fix"] for finding in report["findings"]}
    assert fixes["load_imbalance"] == {"strategy.balance": "speed"}
    llama = scenario_dir / "llama2_7b_4x4_tp_vs_tatp.json"
    assert waferscope.advise(llama) == cli_json("advise", "--json", llama)


def test_validate_model_equals_the_cli_report(cli_json, validation_dir):
    suite = validation_dir / "suite.json"
    report = waferscope.validate_model(suite)
    assert report == cli_json("validate-model", "--json", suite)
    assert report["points"][0]["role"] == "calibration"
    assert report["predictions"] == len(report["points"]) - 1


def test_validate_model_names_the_suite_and_key_of_bad_input(tmp_path):
    suite = tmp_path / "suite.json"
    suite.write_text('{"format": "waferscope.validation", "version": 1, "calibration": "a", '
                     '"points": []}')
    with pytest.raises(ValueError) as raised:
        waferscope.validate_model(str(suite))
    assert str(raised.value) == f"{suite}: points: must be a non-empty list of points"


def test_environment_overrides_apply_as_in_the_cli(cli_json, scenario_dir, monkeypatch):
    path = scenario_dir / "contention_fsdp_tatp_4x4.json"
    monkeypatch.setenv("TCME_MAX_ITER", "1")
    report = waferscope.optimize(path)
    assert report == cli_json("optimize", "--json", path, env=dict(os.environ))
    assert len(report["iterations"]) == 1
    assert any("TCME_MAX_ITER" in warning for warning in report["warnings"])


# --- Three ways to give a scenario --------------------------------------------------------


def test_load_takes_a_path_a_pathlike_or_a_dict(slow_die_file, no_overrides):
    from_str = waferscope.load(str(slow_die_file))
    from_path = waferscope.load(slow_die_file)
    from_dict = waferscope.load(SLOW_DIE)
    assert isinstance(from_dict, waferscope.Scenario)
    assert from_str.source == from_path.source == str(slow_die_file)
    assert from_dict.source == "<dict>"
    assert from_str.name == from_dict.name == "slow die"
    assert waferscope.load(from_dict) is from_dict
    assert "slow die" in repr(from_dict)
    assert from_dict.to_dict()["strategy"]["tatp"] == 4
    expected = waferscope.simulate(slow_die_file)
    for scenario in (from_str, from_path, from_dict, SLOW_DIE, str(slow_die_file)):
        assert waferscope.simulate(scenario) == expected


def test_a_dicts_relative_paths_resolve_against_the_current_directory(tmp_path, monkeypatch):
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({
        "model_type": "llama", "hidden_size": 512, "intermediate_size": 1376,
        "num_attention_heads": 8, "num_hidden_layers": 2, "vocab_size": 1000,
        "max_position_embeddings": 1024}))
    document = {
        "format": "waferscope.scenario", "version": 1, "name": "hf config",
        "wafer": {"rows": 2, "cols": 2},
        "workload": {"kind": "transformer", "hf_config": "model/config.json", "seq_len": 512,
                     "global_batch": 4},
        "strategy": {"dp": 4},
    }
    monkeypatch.chdir(tmp_path)
    assert waferscope.load(document).name == "hf config"
    monkeypatch.chdir(model)
    with pytest.raises(ValueError, match=r"^<dict>: workload\.hf_config: "):
        waferscope.load(document)


# --- Bad input ----------------------------------------------------------------------------


def test_bad_input_raises_value_error_with_the_cli_message(run_cli, tmp_path):
    document = dict(SLOW_DIE, strategy={"tapt": 4})
    path = write_scenario(tmp_path, "typo.json", document)
    done = run_cli("simulate", "--json", path)
    assert done.returncode == 2
    assert done.stderr == f"{path}: {TYPO_MESSAGE}\n"
    for function in (waferscope.load, waferscope.simulate, waferscope.optimize,
                     waferscope.search, waferscope.advise):
        with pytest.raises(ValueError) as raised:
            function(str(path))
        assert str(raised.value) == f"{path}: {TYPO_MESSAGE}"
    with pytest.raises(ValueError) as raised:
        waferscope.simulate(document)
    assert str(raised.value) == f"<dict>: {TYPO_MESSAGE}"


def test_a_missing_file_is_named_as_the_cli_names_it(run_cli, tmp_path):
    path = tmp_path / "missing.json"
    done = run_cli("advise", "--json", path)
    assert done.returncode == 2
    with pytest.raises(ValueError) as raised:
        waferscope.load(path)
    assert f"{raised.value}\n" == done.stderr


def test_a_scenario_that_does_not_simulate_is_bad_input(run_cli, tmp_path):
    # 3 TATP ranks cannot split the GEMM's 2048 columns evenly: a ScenarioError at run time.
    document = dict(SLOW_DIE, strategy={"tatp": 3})
    path = write_scenario(tmp_path, "uneven.json", document)
    done = run_cli("simulate", "--json", path)
    assert done.returncode == 2, done.stdout
    with pytest.raises(ValueError) as raised:
        waferscope.simulate(path)
    assert f"{raised.value}\n" == done.stderr


def test_options_out_of_range_are_value_errors():
    with pytest.raises(ValueError, match="max_iter takes an integer from 1 to 1000, not 0"):
        waferscope.optimize(SLOW_DIE, max_iter=0)
    with pytest.raises(ValueError, match="budget takes an integer from 1 to 10000000, not 0"):
        waferscope.search(SLOW_DIE, budget=0)
    with pytest.raises(ValueError, match="threads takes an integer from 1 to 256"):
        waferscope.search(SLOW_DIE, threads=0)
    with pytest.raises(ValueError, match="seed takes an integer from 0 to"):
        waferscope.search(SLOW_DIE, seed=-1)
    with pytest.raises(ValueError, match="detail takes full or summary, not 'brief'"):
        waferscope.simulate(SLOW_DIE, detail="brief")
    with pytest.raises(TypeError, match="expected a waferscope.Scenario, a path or a dict"):
        waferscope.simulate(42)


# --- The GIL ------------------------------------------------------------------------------


def test_runs_release_the_gil(scenario_dir, no_overrides):
    """Another Python thread keeps running while the module simulates.

    With the GIL held for the whole call, the ticker could record no time strictly inside it;
    GPT-3 175B's step simulates for tenths of a second (Debug), in which a free ticker records
    many.
    """
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    try:
        time.sleep(0.01)
        started = time.perf_counter()
        waferscope.simulate(scenario_dir / "gpt3_175b_6x8_fsdp_tatp.json", detail="summary")
        finished = time.perf_counter()
    finally:
        stop.set()
        thread.join()
    margin = (finished - started) / 4
    inside = [tick for tick in ticks if started + margin < tick < finished - margin]
    assert inside, f"no tick during a {finished - started:.3f} s call"
