# Models: a "100 tensor exercises" notebook (numpy-100 ported to PyTorch): the indexing section,
# basic and advanced indexing mixing slices, integer lists, bool masks, None and Ellipsis, with
# the shapes each combination gives and the writes through each.
import torch

torch.manual_seed(0)
Z = torch.arange(60).reshape(3, 4, 5)
print("1.", Z[1, 2, 3].item(), Z[-1, -1].tolist())
print("2.", Z[:, 1].shape, Z[..., 2].shape, Z[None, :, None].shape)
print("3. every other row reversed\n", Z[0, ::2].flip(0))
idx = [0, 2]
print("4. list on dim 0", Z[idx].shape, "list on dim 1", Z[:, idx].shape)
print("5. two lists (pairs)", Z[[0, 1, 2], [1, 2, 3]].tolist())
print("6. lists split by a slice move to front", Z[[0, 2], :, [1, 4]].shape)
print("7. lists adjacent stay", Z[:, [0, 1], [2, 3]].shape)
print("8. broadcast index", Z[torch.tensor([[0], [2]]), torch.tensor([1, 3])].shape)
m = Z[0] % 3 == 0
print("9. bool mask on 2-d", Z[0][m].tolist())
print("10. mask on dim 1", Z[:, torch.tensor([True, False, True, False])].shape)
print("11. mask + int", Z[1, torch.tensor([True, False, False, True])].tolist())
print("12. ellipsis + list", Z[..., [0, -1]].shape, Z[..., [0, -1]][2].tolist())
print("13. None + list", Z[None, [1]].shape, Z[[1], None].shape)
print("14. scalar tensor index", Z[torch.tensor(1)].shape, Z[torch.tensor([1])].shape)
print("15. negative steps not allowed:")
try:
    Z[::-1]
except ValueError as e:
    print("  ValueError:", e)
print("16. out of range:")
try:
    Z[3]
except IndexError as e:
    print("  IndexError:", e)
try:
    Z[:, [0, 4]]
except IndexError as e:
    print("  IndexError:", e)
W = torch.zeros(4, 5, dtype=torch.int64)
W[[0, 1, 2, 3], [0, 1, 2, 3]] = 1
W[:, -1] = torch.arange(4)
W[W == 0] = -1
W[1:3, [0, 2]] += 10
print("17. writes\n", W)
acc = torch.zeros(5)
acc[torch.tensor([0, 1, 1, 3, 3, 3])] += 1.0
print("18. += with repeats keeps last", acc)
acc2 = torch.zeros(5).index_put_(
    (torch.tensor([0, 1, 1, 3, 3, 3]),), torch.tensor(1.0), accumulate=True
)
print("19. index_put_ accumulate", acc2)
x = torch.randn(4, 6)
print("20. rows whose max > 1", x[x.max(dim=1).values > 1].shape)
print("21. argmax per row picked", x[torch.arange(4), x.argmax(1)])
print("22. nonzero\n", (x > 0.5).nonzero())
print("23. nonzero as_tuple", [t.tolist() for t in torch.nonzero(x > 1.0, as_tuple=True)])
print("24. where 1-arg", [t.tolist() for t in torch.where(x < -1)])
print("25. take", torch.take(Z, torch.tensor([0, 59, 17])).tolist())
print("26. index_select", Z.index_select(2, torch.tensor([4, 0])).shape)
print("27. masked_select", Z[2].masked_select(Z[2] > 55).tolist())
print("28. diagonal of a cube slice", Z[:, range(3), range(3)].tolist())
print("29. tuple vs list", Z[(0, 1)].shape, Z[[0, 1]].shape)
print(
    "30. ints from a numpy-style grid",
    Z[0][torch.meshgrid(torch.tensor([0, 2]), torch.tensor([1, 3]), indexing="ij")],
)
