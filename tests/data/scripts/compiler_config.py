"""torch._inductor.config and torch._dynamo.config: torch's settings, settable, patchable,
and the error for a name torch does not have; compile still runs."""
import torch
import torch._dynamo.config
import torch._inductor.config as iconfig

print(iconfig.epilogue_fusion, iconfig.coordinate_descent_tuning, iconfig.cpp.threads)
iconfig.coordinate_descent_tuning = True
iconfig.coordinate_descent_check_all_directions = True
iconfig.force_fuse_int_mm_with_mul = True
iconfig.cpp.threads = 2
print(iconfig.coordinate_descent_tuning, iconfig.cpp.threads)
with iconfig.patch(epilogue_fusion=False):
    print(iconfig.epilogue_fusion)
print(iconfig.epilogue_fusion, iconfig.get_config_copy()["cpp.threads"])
for bad in (lambda: iconfig.no_such_flag, lambda: setattr(iconfig, "no_such_flag", 1),
            lambda: torch._dynamo.config.not_a_setting):
    try:
        bad()
    except AttributeError as e:
        print(e)
torch._dynamo.config.suppress_errors = True
torch._dynamo.config.cache_size_limit = 16
print(torch._dynamo.config.suppress_errors, torch._dynamo.config.cache_size_limit,
      torch._dynamo.config.recompile_limit)
f = torch.compile(lambda x: x * 2 + 1, backend="eager")
print(f(torch.ones(2)))
