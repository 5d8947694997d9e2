"""The harness's resume records: merged across worker processes, reported, and split by
server restart (``bench_capacity.py storm --restarts K``)."""

from __future__ import annotations

import pytest

from loadtest.stats import Recorder, resumes_per_restart


def test_resumes_of_the_workers_are_merged_in_time_order() -> None:
    a, b = Recorder("game/w0"), Recorder("game/w1")
    a.resumed(1000.5004, 0.2, 1.5)
    a.resumed(1002.0, 0.4, 2.0)
    b.resumed(1001.0, 0.3, 1.75)
    b.reconnect_failures = 1

    m = Recorder.merged([a, b])

    assert m.resumes == [(1000.5004, 0.2, 1.5), (1001.0, 0.3, 1.75), (1002.0, 0.4, 2.0)]
    assert sorted(m.reconnects) == [1.5, 1.75, 2.0]
    assert sorted(m.resume_after_up) == [0.2, 0.3, 0.4]
    assert (m.resumed_first_epoch, m.resumed_last_epoch) == (1000.5004, 1002.0)
    assert m.reconnect_failures == 1
    rep = m.to_json()
    assert rep["resumes"] == [[1000.5, 0.2, 1.5], [1001.0, 0.3, 1.75], [1002.0, 0.4, 2.0]]
    assert rep["reconnects"]["count"] == 3 and rep["resume_after_up"]["max_ms"] == 400.0


def test_a_run_without_resumes_reports_an_empty_list() -> None:
    rep = Recorder.merged([Recorder("game/w0"), Recorder("game/w1")]).to_json()
    assert rep["resumes"] == [] and rep["reconnects"]["count"] == 0


# restarts: (stop epoch, up epoch); rows: (epoch, after_up s, loss s)
TWO_RESTARTS = [(100.0, 102.0), (130.0, 131.0)]
ROWS = [
    (50.0, 0.1, 0.2),  # a resume before the first stop (a network blip): no restart's
    (101.9, 0.05, 1.9),  # on the first restart's server before the orchestrator's up
    (102.5, 0.1, 2.5),
    (103.0, 0.2, 3.0),
    (104.0, 0.4, 4.0),
    (129.99, 0.3, 0.5),  # the first restart's window ends at the second stop
    (130.0, 0.01, 0.02),  # from the second stop on: the second restart's
    (131.25, 0.25, 1.25),
    (132.0, 1.0, 2.0),
]


@pytest.mark.parametrize(
    ("rows", "restarts", "expected"),
    [
        pytest.param(
            ROWS,
            TWO_RESTARTS,
            [
                # count, after_up p50/p95/p99/max ms, loss p50/p95/p99/max ms, before up, last
                (5, [200.0, 400.0, 400.0, 400.0], [2500.0, 4000.0, 4000.0, 4000.0], 1, 27.99),
                (3, [250.0, 1000.0, 1000.0, 1000.0], [1250.0, 2000.0, 2000.0, 2000.0], 1, 1.0),
            ],
            id="two-restarts",
        ),
        pytest.param(
            ROWS,
            [(100.0, 102.0)],
            [(8, [200.0, 1000.0, 1000.0, 1000.0], [1900.0, 4000.0, 4000.0, 4000.0], 1, 30.0)],
            id="one-restart-takes-every-later-resume",
        ),
        pytest.param(
            ROWS[:5],
            TWO_RESTARTS,
            [
                (4, [100.0, 400.0, 400.0, 400.0], [2500.0, 4000.0, 4000.0, 4000.0], 1, 2.0),
                (0, [None] * 4, [None] * 4, 0, None),
            ],
            id="a-restart-without-resumes",
        ),
        pytest.param(ROWS, [], [], id="no-restart"),
    ],
)
def test_resumes_are_split_by_restart(
    rows: list[tuple[float, float, float]],
    restarts: list[tuple[float, float]],
    expected: list[tuple[int, list[float | None], list[float | None], int, float | None]],
) -> None:
    got = resumes_per_restart(rows, restarts)

    def pick(s: dict[str, float | int | None]) -> list[float | int | None]:
        return [s[k] for k in ("p50_ms", "p95_ms", "p99_ms", "max_ms")]

    assert [
        (
            r["resume_after_up"]["count"],
            pick(r["resume_after_up"]),
            pick(r["reconnects"]),
            r["resumed_before_up"],
            r["up_to_last_resumed_s"],
        )
        for r in got
    ] == expected
    assert all(r["reconnects"]["count"] == r["resume_after_up"]["count"] for r in got)


def test_the_json_report_rows_split_like_the_recorder_rows() -> None:
    rec = Recorder("game")
    for row in ROWS:
        rec.resumed(*row)
    assert resumes_per_restart(rec.to_json()["resumes"], TWO_RESTARTS) == resumes_per_restart(
        rec.resumes, TWO_RESTARTS
    )


def test_restarts_out_of_order_are_refused() -> None:
    with pytest.raises(ValueError, match="out of order"):
        resumes_per_restart(ROWS, [(130.0, 131.0), (100.0, 102.0)])
    with pytest.raises(ValueError, match="out of order"):
        resumes_per_restart(ROWS, [(100.0, 99.0)])
