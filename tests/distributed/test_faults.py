"""A rank that fails, exits or hangs ends the whole job quickly with a clear error; nothing
is left running (``run_ranks`` checks the job's process group is empty afterwards)."""

import pytest

pytest.importorskip("mpi4py")

from ._launch import check_ok, run_ranks  # noqa: E402

TIMEOUT = "2"      # the process group's timeout in the job, seconds
LIMIT = 45         # the test's own bound on the whole job


def test_healthy_job_passes():
    check_ok(run_ranks(2, "faults.py", "none", TIMEOUT, timeout=LIMIT), 2)


@pytest.mark.parametrize("mode, status, messages", [
    ("raise", 1, ["ValueError: boom on rank 1",
                  "ember.distributed: rank 1 failed (uncaught exception); aborting all 2 ranks"]),
    ("exit-status", 3, ["ember.distributed: rank 1 failed (exit status 3); aborting all"]),
    ("exit-early", 1, ["did not complete within 2 s (the process group's timeout)"]),
    ("hang", 1, ["[rank 0] all_reduce(dtype=torch.float32, shape=[3], op=SUM) did not complete "
                 "within 2 s"]),
    ("mismatch", 1, ["Detected mismatch between collectives on ranks. Rank 1 is running "
                     "collective: all_reduce(dtype=torch.float32, shape=[4], op=SUM), but Rank "
                     "0 is running collective: all_reduce(dtype=torch.float32, shape=[3], "
                     "op=SUM)"]),
    ("other-collective", 1, ["is running collective: broadcast(dtype=torch.float32, shape=[3], "
                             "src=0)"]),
    # a rank gone without its exit handlers (os._exit(4)): mpiexec (MPICH's hydra) reports
    # whichever failure it registers first, the rank's own status 4 or SIGKILL (9) of the
    # peer it then kills; both end the job at once
    ("killed", (4, 9), []),
])
def test_a_failing_rank_ends_the_job(mode, status, messages):
    job = run_ranks(2, "faults.py", mode, TIMEOUT, timeout=LIMIT)
    assert job.returncode in (status if isinstance(status, tuple) else (status,)), job.output
    assert "OK rank 0" not in job.output, job.output
    for m in messages:
        assert m in job.output, job.output
