# Models: ConvLSTM next-frame prediction code (the widely copied ConvLSTMCell/ConvLSTM modules):
# gates from one conv over cat([x, h]), torch.split into i/f/o/g, stacked layers over a
# (B, T, C, H, W) sequence with return_all_layers, moving-square synthetic videos, BCE on
# predicted frames, and teacher forcing versus free-running rollout.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(9)


class ConvLSTMCell(nn.Module):
    def __init__(self, input_dim, hidden_dim, kernel_size, bias=True):
        super().__init__()
        self.hidden_dim = hidden_dim
        padding = kernel_size[0] // 2, kernel_size[1] // 2
        self.conv = nn.Conv2d(input_dim + hidden_dim, 4 * hidden_dim, kernel_size, padding=padding,
                              bias=bias)

    def forward(self, input_tensor, cur_state):
        h_cur, c_cur = cur_state
        combined = torch.cat([input_tensor, h_cur], dim=1)
        combined_conv = self.conv(combined)
        cc_i, cc_f, cc_o, cc_g = torch.split(combined_conv, self.hidden_dim, dim=1)
        i = torch.sigmoid(cc_i)
        f = torch.sigmoid(cc_f)
        o = torch.sigmoid(cc_o)
        g = torch.tanh(cc_g)
        c_next = f * c_cur + i * g
        h_next = o * torch.tanh(c_next)
        return h_next, c_next

    def init_hidden(self, batch_size, image_size):
        height, width = image_size
        return (torch.zeros(batch_size, self.hidden_dim, height, width),
                torch.zeros(batch_size, self.hidden_dim, height, width))


class ConvLSTM(nn.Module):
    def __init__(self, input_dim, hidden_dims, kernel_size, return_all_layers=False):
        super().__init__()
        self.cells = nn.ModuleList()
        for i, hd in enumerate(hidden_dims):
            cur_in = input_dim if i == 0 else hidden_dims[i - 1]
            self.cells.append(ConvLSTMCell(cur_in, hd, kernel_size))
        self.return_all_layers = return_all_layers

    def forward(self, x, hidden_state=None):
        b, seq_len, _, h, w = x.size()
        if hidden_state is None:
            hidden_state = [cell.init_hidden(b, (h, w)) for cell in self.cells]
        layer_output_list, last_state_list = [], []
        cur_layer_input = x
        for layer_idx, cell in enumerate(self.cells):
            hh, cc = hidden_state[layer_idx]
            output_inner = []
            for t in range(seq_len):
                hh, cc = cell(cur_layer_input[:, t], (hh, cc))
                output_inner.append(hh)
            layer_output = torch.stack(output_inner, dim=1)
            cur_layer_input = layer_output
            layer_output_list.append(layer_output)
            last_state_list.append([hh, cc])
        if not self.return_all_layers:
            layer_output_list = layer_output_list[-1:]
            last_state_list = last_state_list[-1:]
        return layer_output_list, last_state_list


def moving_squares(batch, T, size=12):
    vids = torch.zeros(batch, T, 1, size, size)
    pos = torch.randint(0, size - 3, (batch, 2))
    vel = torch.randint(-1, 2, (batch, 2))
    for t in range(T):
        for b in range(batch):
            r, c = pos[b].tolist()
            vids[b, t, 0, r:r + 3, c:c + 3] = 1.0
        pos = pos + vel
        bounce = (pos < 0) | (pos > size - 3)
        vel = torch.where(bounce, -vel, vel)
        pos = pos.clamp(0, size - 3)
    return vids


videos = moving_squares(6, 8)
print(videos.shape, videos.sum((2, 3, 4))[0])
model = ConvLSTM(1, [8, 8], (3, 3), return_all_layers=True)
head = nn.Conv2d(8, 1, 1)
outs, states = model(videos[:, :4])
print(len(outs), outs[0].shape, states[1][0].shape)
params = list(model.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=0.01)
for step in range(12):
    opt.zero_grad()
    outs, _ = model(videos[:, :-1])
    logits = head(outs[-1].flatten(0, 1)).view_as(videos[:, 1:])
    loss = F.binary_cross_entropy_with_logits(logits, videos[:, 1:])
    loss.backward()
    opt.step()
    if step % 4 == 3:
        print(f"step {step + 1}: loss {loss.item():.6f}")
with torch.no_grad():
    outs, states = model(videos[:, :4])
    frame = torch.sigmoid(head(outs[-1][:, -1]))
    preds = []
    hidden = [(s[0], s[1]) for s in states]
    for t in range(4):
        outs, states = model(frame[:, None], hidden)
        hidden = [(s[0], s[1]) for s in states]
        frame = torch.sigmoid(head(outs[-1][:, -1]))
        preds.append(frame)
    preds = torch.stack(preds, 1)
    mse = F.mse_loss(preds, videos[:, 4:], reduction="none").mean((0, 2, 3, 4))
    print("rollout mse per step:", mse)
