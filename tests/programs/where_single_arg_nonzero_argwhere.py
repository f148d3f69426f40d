# Models: an indexing utilities drill: torch.where with one argument returning index tuples,
# nonzero with and without as_tuple, argwhere, count_nonzero over dims, masked_select order,
# and using the index tuple to gather and scatter.
import torch

m = torch.tensor([[0, 3, 0], [5, 0, 6], [0, 0, 0], [7, 8, 9]])
print("where(cond)", torch.where(m > 4))
print("nonzero", torch.nonzero(m))
print("as_tuple", torch.nonzero(m, as_tuple=True))
print("argwhere", torch.argwhere(m > 5))
print("count_nonzero", torch.count_nonzero(m), torch.count_nonzero(m, dim=0),
      torch.count_nonzero(m, dim=(0, 1)))
rows, cols = torch.where(m > 4)
print("gather by tuple", m[rows, cols])
z = torch.zeros_like(m)
z[torch.where(m % 2 == 1)] = 1
print("scatter by tuple\n", z)
print("masked_select order", m.masked_select(m > 0))
print("1-d where", torch.where(torch.tensor([0.0, 1.5, 0.0, -2.0]) != 0))
print("empty", torch.nonzero(torch.zeros(2, 2)), torch.where(torch.zeros(3) > 1))
print("0-d", torch.nonzero(torch.tensor(5)), torch.nonzero(torch.tensor(0)).shape)
print("bool nonzero", torch.tensor([True, False, True]).nonzero().flatten())
print("nonzero_static", torch.nonzero_static(m, size=8, fill_value=-1))
print("3d argwhere", torch.argwhere(torch.eye(2).unsqueeze(0).expand(2, 2, 2)))
