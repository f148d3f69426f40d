"""``torch.distributed.tensor.parallel.style``: how ``parallelize_module`` lays a module's
parameters out and which layouts its inputs and outputs are given (Megatron's column- and
row-parallel linear layers, sequence parallelism, and input and output preparation)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import partial

from .... import nn
from .._api import DTensor, distribute_module, distribute_tensor
from ..placement_types import Placement, Replicate, Shard

__all__ = ["ParallelStyle", "RowwiseParallel", "SequenceParallel", "ColwiseParallel",
           "PrepareModuleInput", "PrepareModuleInputOutput", "PrepareModuleOutput"]


class ParallelStyle(ABC):
    """What ``parallelize_module`` applies to a module: its ``_apply(module, mesh)``."""

    src_data_rank: int | None = 0

    @abstractmethod
    def _apply(self, module, device_mesh): ...


def _to_dtensor(tensor, mesh, layouts, desired):
    if not isinstance(tensor, DTensor):
        tensor = DTensor.from_local(tensor, mesh, layouts, run_check=False)
    if tuple(layouts) != tuple(desired):
        tensor = tensor.redistribute(placements=desired)
    return tensor


def _distribute_params(module, mesh, placements, names=None, src_data_rank=0) -> None:
    for name, param in list(module.named_parameters(recurse=False)):
        if names is not None and name not in names:
            continue
        module.register_parameter(name, nn.Parameter(
            distribute_tensor(param, mesh, placements, src_data_rank=src_data_rank),
            requires_grad=param.requires_grad))


class _SplitLinear(ParallelStyle):
    """What the column- and row-wise styles share: the input made a DTensor of
    ``input_layouts`` and redistributed to what the layer needs, the parameters split by
    ``_partition_linear_fn`` / ``_partition_embedding_fn``, the output redistributed to
    ``output_layouts`` (a local tensor with ``use_local_output``)."""

    def __init__(self, input_layouts, output_layouts, use_local_output: bool) -> None:
        super().__init__()
        self.input_layouts = (input_layouts,)
        self.output_layouts = (output_layouts,)
        self.use_local_output = use_local_output

    @staticmethod
    def _prepare_input_fn(input_layouts, desired_input_layouts, mod, inputs, device_mesh):
        return _to_dtensor(inputs[0], device_mesh, input_layouts, desired_input_layouts)

    @staticmethod
    def _prepare_output_fn(output_layouts, use_local_output, mod, outputs, device_mesh):
        if outputs.placements != tuple(output_layouts):
            outputs = outputs.redistribute(placements=output_layouts)
        return outputs.to_local() if use_local_output else outputs

    def _desired_inputs(self, module):
        raise NotImplementedError

    def _apply(self, module, device_mesh):
        if isinstance(module, nn.Linear):
            partition_fn = self._partition_linear_fn
        elif isinstance(module, nn.Embedding):
            partition_fn = self._partition_embedding_fn
        else:
            raise NotImplementedError(f"{self.__class__.__name__} currently only support "
                                      "nn.Linear and nn.Embedding!")
        self.desired_input_layouts = self._desired_inputs(module)
        return distribute_module(
            module, device_mesh, partition_fn,
            partial(self._prepare_input_fn, self.input_layouts, self.desired_input_layouts),
            partial(self._prepare_output_fn, self.output_layouts, self.use_local_output))

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(input_layouts={self.input_layouts}, "
                f"output_layouts={self.output_layouts}, "
                f"use_local_output={self.use_local_output})")


class ColwiseParallel(_SplitLinear):
    """Split an ``nn.Linear``'s output features (weight and bias ``Shard(0)``) or an
    ``nn.Embedding``'s embedding dimension (``Shard(1)``): the input is taken replicated, the
    output comes sharded on its last dimension (as a local tensor by default)."""

    def __init__(self, *, input_layouts: Placement | None = None,
                 output_layouts: Placement | None = None, use_local_output: bool = True):
        super().__init__(input_layouts or Replicate(), output_layouts or Shard(-1),
                         use_local_output)
        self.desired_input_layouts = (Replicate(),)

    def _desired_inputs(self, module):
        return (Replicate(),)

    def _partition_linear_fn(self, name, module, device_mesh):
        _distribute_params(module, device_mesh, [Shard(0)], src_data_rank=self.src_data_rank)

    def _partition_embedding_fn(self, name, module, device_mesh):
        _distribute_params(module, device_mesh, [Shard(1)], src_data_rank=self.src_data_rank)


class RowwiseParallel(_SplitLinear):
    """Split an ``nn.Linear``'s input features (weight ``Shard(1)``, bias replicated) or an
    ``nn.Embedding``'s rows (``Shard(0)``): the input is taken sharded on its last dimension
    (replicated for an embedding), the partial sums are reduced to a replicated output."""

    def __init__(self, *, input_layouts: Placement | None = None,
                 output_layouts: Placement | None = None, use_local_output: bool = True):
        super().__init__(input_layouts or Shard(-1), output_layouts or Replicate(),
                         use_local_output)

    def _desired_inputs(self, module):
        return (Shard(-1),) if isinstance(module, nn.Linear) else (Replicate(),)

    def _partition_linear_fn(self, name, module, device_mesh):
        _distribute_params(module, device_mesh, [Shard(1)], ("weight",), self.src_data_rank)
        _distribute_params(module, device_mesh, [Replicate()], ("bias",), self.src_data_rank)

    def _partition_embedding_fn(self, name, module, device_mesh):
        _distribute_params(module, device_mesh, [Shard(0)], src_data_rank=self.src_data_rank)


class SequenceParallel(ParallelStyle):
    """Replicate a norm or dropout module's parameters and run it on its input sharded on
    the sequence dimension (``sequence_dim``); the output stays sharded there."""

    def __init__(self, *, sequence_dim: int = 1, use_local_output: bool = False):
        super().__init__()
        self.sequence_sharding = (Shard(sequence_dim),)
        self.use_local_output = use_local_output

    def _replicate_module_fn(self, name, module, device_mesh):
        for p_name, param in list(module.named_parameters(recurse=False)):
            module.register_parameter(p_name, nn.Parameter(
                DTensor.from_local(param.detach(), device_mesh, [Replicate()], run_check=False),
                requires_grad=param.requires_grad))

    @staticmethod
    def _prepare_input_fn(sequence_sharding, mod, inputs, device_mesh):
        x = inputs[0]
        if isinstance(x, DTensor):
            if x.placements != sequence_sharding:
                x = x.redistribute(placements=sequence_sharding)
            return x
        if hasattr(x, "shape"):
            return DTensor.from_local(x, device_mesh, sequence_sharding, run_check=False)
        raise ValueError(f"expecting input of {mod} to be a torch.Tensor or DTensor, but got "
                         f"{x}")

    @staticmethod
    def _prepare_output_fn(use_local_output, mod, outputs, device_mesh):
        return outputs.to_local() if use_local_output else outputs

    def _apply(self, module, device_mesh):
        return distribute_module(module, device_mesh, self._replicate_module_fn,
                                 partial(self._prepare_input_fn, self.sequence_sharding),
                                 partial(self._prepare_output_fn, self.use_local_output))

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(sequence_dim={self.sequence_sharding[0].dim}, "
                f"use_local_output={self.use_local_output})")


def _as_tuple(layouts):
    return (layouts,) if isinstance(layouts, Placement) else layouts


class PrepareModuleInput(ParallelStyle):
    """Give a module's positional (``input_layouts``) and keyword (``input_kwarg_layouts``)
    inputs their layouts as DTensors, redistributed to the desired layouts (None: left
    as it is)."""

    def __init__(self, *, input_layouts=None, desired_input_layouts=None,
                 input_kwarg_layouts=None, desired_input_kwarg_layouts=None,
                 use_local_output: bool = False):
        self.input_layouts = _as_tuple(input_layouts)
        self.desired_input_layouts = _as_tuple(desired_input_layouts)
        self.use_local_output = use_local_output
        if self.input_layouts is not None:
            if self.desired_input_layouts is None:
                raise AssertionError("desired module inputs should not be None!")
            if len(self.input_layouts) != len(self.desired_input_layouts):
                raise AssertionError("input_layouts and desired_input_layouts should have same "
                                     "length!")
        self.with_kwargs = input_kwarg_layouts is not None
        self.input_kwarg_layouts = input_kwarg_layouts or {}
        self.desired_input_kwarg_layouts = desired_input_kwarg_layouts or {}
        if self.with_kwargs and len(self.input_kwarg_layouts) != len(
                self.desired_input_kwarg_layouts):
            raise AssertionError("input_kwarg_layouts and desired_input_kwarg_layouts should "
                                 "have same length!")

    def _prepare_input_arg(self, input, mesh, input_layout, desired_layout):
        if input_layout is None:
            return input
        if isinstance(input, DTensor):
            dt = input
        else:
            if not hasattr(input, "shape"):
                raise AssertionError("expecting input to be a torch.Tensor!")
            dt = DTensor.from_local(input, mesh, (input_layout,), run_check=False)
        if desired_layout is not None and input_layout != desired_layout:
            dt = dt.redistribute(placements=(desired_layout,))
        return dt.to_local() if self.use_local_output else dt

    def _prepare_input_fn(self, inputs, device_mesh):
        if self.input_layouts is None:
            return inputs
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        if len(inputs) != len(self.input_layouts):
            raise ValueError("module inputs and input_layouts should have same length!")
        return tuple(self._prepare_input_arg(x, device_mesh, a, b) for x, a, b in
                     zip(inputs, self.input_layouts, self.desired_input_layouts))

    def _prepare_input_kwarg_fn(self, inputs, kwarg_inputs, device_mesh):
        args = self._prepare_input_fn(inputs, device_mesh)
        kwargs = {k: self._prepare_input_arg(v, device_mesh, self.input_kwarg_layouts.get(k),
                                             self.desired_input_kwarg_layouts.get(k))
                  for k, v in kwarg_inputs.items()}
        return args, kwargs

    def _apply(self, module, device_mesh):
        if self.with_kwargs:
            module.register_forward_pre_hook(
                lambda _, inputs, kwargs: self._prepare_input_kwarg_fn(inputs, kwargs,
                                                                       device_mesh),
                with_kwargs=True)
        else:
            module.register_forward_pre_hook(
                lambda _, inputs: self._prepare_input_fn(inputs, device_mesh))
        return module

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(input_layouts={self.input_layouts}, "
                f"desired_input_layouts={self.desired_input_layouts}, "
                f"input_kwarg_layouts={self.input_kwarg_layouts}, "
                f"desired_input_kwarg_layouts={self.desired_input_kwarg_layouts}, "
                f"use_local_output={self.use_local_output})")


class PrepareModuleOutput(ParallelStyle):
    """Give a module's outputs their layouts (``output_layouts``) as DTensors and
    redistribute them to ``desired_output_layouts``."""

    def __init__(self, *, output_layouts, desired_output_layouts, use_local_output: bool = True):
        self.output_layouts = _as_tuple(output_layouts)
        self.desired_output_layouts = _as_tuple(desired_output_layouts)
        self.use_local_output = use_local_output
        if len(self.output_layouts) != len(self.desired_output_layouts):
            raise AssertionError("output_layouts and desired_output_layouts should have same "
                                 "length!")

    def _prepare_out_fn(self, outputs, device_mesh):
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        if len(outputs) != len(self.output_layouts):
            raise ValueError("module outputs and output_layouts should have same length!")
        prepared = []
        for out, layout, desired in zip(outputs, self.output_layouts,
                                        self.desired_output_layouts):
            if layout is None:
                prepared.append(out)
                continue
            dt = out if isinstance(out, DTensor) else DTensor.from_local(
                out, device_mesh, (layout,), run_check=False)
            if layout != desired:
                dt = dt.redistribute(placements=(desired,))
            prepared.append(dt.to_local() if self.use_local_output else dt)
        return prepared[0] if len(prepared) == 1 else tuple(prepared)

    def _apply(self, module, device_mesh):
        module.register_forward_hook(
            lambda _, inputs, outputs: self._prepare_out_fn(outputs, device_mesh))
        return module

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(output_layouts={self.output_layouts}, "
                f"desired_output_layouts={self.desired_output_layouts}, "
                f"use_local_output={self.use_local_output})")


class PrepareModuleInputOutput(ParallelStyle):
    """``PrepareModuleInput`` and ``PrepareModuleOutput`` on one module."""

    def __init__(self, *, input_layouts=None, desired_input_layouts=None,
                 input_kwarg_layouts=None, desired_input_kwarg_layouts=None,
                 use_local_input: bool = False, output_layouts, desired_output_layouts,
                 use_local_output: bool = True):
        self.prepare_module_input = PrepareModuleInput(
            input_layouts=input_layouts, desired_input_layouts=desired_input_layouts,
            input_kwarg_layouts=input_kwarg_layouts,
            desired_input_kwarg_layouts=desired_input_kwarg_layouts,
            use_local_output=use_local_input)
        self.prepare_module_output = PrepareModuleOutput(
            output_layouts=output_layouts, desired_output_layouts=desired_output_layouts,
            use_local_output=use_local_output)

    def _apply(self, module, device_mesh):
        self.prepare_module_input._apply(module, device_mesh)
        self.prepare_module_output._apply(module, device_mesh)
        return module

    def __repr__(self) -> str:
        i, o = self.prepare_module_input, self.prepare_module_output
        return (f"{self.__class__.__name__}(input_layouts={i.input_layouts}, "
                f"desired_input_layouts={i.desired_input_layouts}, "
                f"input_kwarg_layouts={i.input_kwarg_layouts}, "
                f"desired_input_kwarg_layouts={i.desired_input_kwarg_layouts}, "
                f"use_local_input={i.use_local_output}, output_layouts={o.output_layouts}, "
                f"desired_output_layouts={o.desired_output_layouts}, "
                f"use_local_output={o.use_local_output})")


del annotations
