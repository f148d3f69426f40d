"""The launcher's command line (torchrun's flags) and the environment each rank gets."""

import sys

import pytest

from ember.distributed import _rank, run


def test_command_for_one_node():
    args = run.parse_args(["--nproc_per_node", "3", "--mpiexec", "mpiexec", "train.py", "--lr",
                           "0.1"])
    assert run._command(args) == ["mpiexec", "-n", "3", sys.executable, "-m",
                                 "ember.distributed._rank", "train.py", "--lr", "0.1"]


def test_command_for_several_nodes_and_a_module():
    args = run.parse_args(["--nnodes", "2", "--nproc-per-node", "4", "--hostfile", "hosts",
                           "--mpiexec", "mpiexec", "--node-rank", "0", "--master-addr", "h0",
                           "-m", "pkg.train", "x"])
    assert run._command(args) == ["mpiexec", "-n", "8", "-ppn", "4", "-f", "hosts",
                                 sys.executable, "-m", "ember.distributed._rank", "-m",
                                 "pkg.train", "x"]
    with pytest.raises(SystemExit, match="needs --hostfile or --hosts"):
        run._command(run.parse_args(["--nnodes", "2", "--mpiexec", "m", "t.py"]))


def test_rank_environment_from_mpich_and_open_mpi():
    mpich = {"PMI_RANK": "5", "PMI_SIZE": "8", "MPI_LOCALRANKID": "1", "MPI_LOCALNRANKS": "4"}
    ompi = {"OMPI_COMM_WORLD_RANK": "5", "OMPI_COMM_WORLD_SIZE": "8",
            "OMPI_COMM_WORLD_LOCAL_RANK": "1", "OMPI_COMM_WORLD_LOCAL_SIZE": "4"}
    for env in (mpich, ompi):
        got = _rank.torchrun_environment(env)
        assert (got["RANK"], got["WORLD_SIZE"], got["LOCAL_RANK"], got["LOCAL_WORLD_SIZE"],
                got["GROUP_RANK"]) == ("5", "8", "1", "4", "1")
