# Models: a "computation with convolutions" blog post: elementary cellular automata (rules 30,
# 90, 110) stepped by a conv1d that encodes each 3-cell neighbourhood as a number, a rule lookup
# by indexing a bit table, circular padding, and printing the space-time diagram.
import torch
import torch.nn.functional as F


def rule_table(rule):
    return torch.tensor([(rule >> i) & 1 for i in range(8)], dtype=torch.float32)


kernel = torch.tensor([[[4.0, 2.0, 1.0]]])
for rule in [30, 90, 110]:
    table = rule_table(rule)
    state = torch.zeros(1, 1, 31)
    state[0, 0, 15] = 1.0
    rows = []
    for _ in range(12):
        rows.append("".join("#" if v else "." for v in state[0, 0].int().tolist()))
        code = F.conv1d(F.pad(state, (1, 1), mode="circular"), kernel)
        state = table[code.long()]
    print(f"rule {rule} table {table.int().tolist()}")
    print("\n".join(rows))
    print("live cells", int(state.sum()))
bits = torch.tensor([1, 0, 1, 1], dtype=torch.uint8)
print("bits to int", int((bits.int() * torch.tensor([8, 4, 2, 1])).sum()))
print("int to bits", (torch.tensor(110) >> torch.arange(8)) & 1)
