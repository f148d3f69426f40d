"""``ember._logging``: torch's compiler logging switches; ember has no compiler to log."""

from __future__ import annotations

__all__ = ["set_logs"]


def set_logs(*, all=None, dynamo=None, aot=None, autograd=None, dynamic=None, inductor=None,
             distributed=None, c10d=None, ddp=None, fsdp=None, dtensor=None, onnx=None,
             bytecode=False, aot_graphs=False, aot_joint_graph=False, ddp_graphs=False,
             graph=False, graph_code=False, graph_code_verbose=False, graph_breaks=False,
             side_effects=False, graph_sizes=False, guards=False, recompiles=False,
             recompiles_verbose=False, trace_source=False, trace_call=False,
             trace_bytecode=False, output_code=False, kernel_code=False, schedule=False,
             perf_hints=False, pre_grad_graphs=False, post_grad_graphs=False,
             ir_pre_fusion=False, ir_post_fusion=False, onnx_diagnostics=False,
             fusion=False, overlap=False, export=None, modules=None, cudagraphs=False,
             sym_node=False, compiled_autograd=False, compiled_autograd_verbose=False,
             cudagraph_static_inputs=False, benchmarking=False, autotuning=False,
             incremental=False, graph_region_expansion=False, inductor_metrics=False,
             hierarchical_compile=False, compute_dependencies=False, caching=False):
    """Accept torch 2.13's logging options (``set_logs(dynamo=logging.INFO, graph_breaks=True)``).

    A misspelt option raises as in torch; none produces output, as ember compiles nothing.
    """
