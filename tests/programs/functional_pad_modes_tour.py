# Models: an image/audio preprocessing cheat sheet for F.pad: constant with values, reflect,
# replicate and circular on 1-d, 2-d and 3-d inputs, asymmetric and negative pads (cropping),
# nn.ZeroPad2d / ReflectionPad1d modules, gradients through reflect, and the errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x1 = torch.arange(5.0).reshape(1, 1, 5)
x2 = torch.arange(9.0).reshape(1, 1, 3, 3)
for mode in ["constant", "reflect", "replicate", "circular"]:
    print(mode, F.pad(x1, (2, 1), mode=mode))
    print(F.pad(x2, (1, 1, 2, 0), mode=mode))
print("value", F.pad(x1, (1, 1), value=-9.5))
print("negative crop", F.pad(x2, (-1, 0, 0, -1)))
print("last dims only", F.pad(torch.ones(2, 3), (1, 2)).shape)
print("mixed pad", F.pad(torch.ones(2, 3), (0, 0, 1, 1), value=2.0))
x3 = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
print("3d replicate", F.pad(x3, (1, 0, 0, 1, 1, 0), mode="replicate").shape)
print("3d circular", F.pad(x3, (1, 1, 0, 0, 0, 0), mode="circular")[0, 0, 0])
print(nn.ZeroPad2d((1, 0, 0, 1))(x2))
print(nn.ReflectionPad1d(2)(x1), nn.ReplicationPad2d(1)(x2).shape, nn.CircularPad1d(1)(x1))
print(nn.ConstantPad1d(2, 3.5)(x1))
xg = x2.clone().requires_grad_()
F.pad(xg, (2, 2, 2, 2), mode="reflect").sum().backward()
print("reflect grad\n", xg.grad)
xg2 = x1.clone().requires_grad_()
out = F.pad(xg2, (3, 3), mode="circular")
out.sum().backward()
print("circular grad", xg2.grad, out.grad_fn.name())
print("int constant", F.pad(torch.tensor([[1, 2]]), (1, 1), value=7))
for bad in [lambda: F.pad(x1, (5, 0), mode="reflect"),
            lambda: F.pad(x1, (1,)),
            lambda: F.pad(torch.ones(3), (1, 1), mode="reflect"),
            lambda: F.pad(x1, (1, 1), mode="wrap")]:
    try:
        bad()
    except (RuntimeError, ValueError, NotImplementedError, AssertionError) as e:
        print(type(e).__name__ + ":", e)
