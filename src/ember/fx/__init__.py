"""``torch.fx``: capture a program as a graph of operations, rewrite it, and run it again.

:func:`symbolic_trace` runs a module or function on :class:`Proxy` inputs and records
what they meet into a :class:`Graph` of :class:`Node`; a :class:`GraphModule` turns the
graph back into a module with generated Python code (``gm.code``). :class:`Interpreter`
and :class:`Transformer` run or rebuild a graph node by node.
"""

from . import passes, subgraph_rewriter
from ._symbolic_trace import PH, Tracer, symbolic_trace, wrap
from .graph import CodeGen, Graph
from .graph_module import GraphModule
from .interpreter import Interpreter, Transformer
from .node import Node, map_arg
from .proxy import Proxy
from .subgraph_rewriter import replace_pattern

__all__ = ["symbolic_trace", "Tracer", "wrap", "Graph", "GraphModule", "Interpreter",
           "Transformer", "Node", "Proxy", "CodeGen", "map_arg", "PH", "passes",
           "replace_pattern"]
