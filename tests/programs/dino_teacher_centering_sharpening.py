# Models: the DINO self-distillation loss from the reference implementation: student and EMA
# teacher heads, teacher centering with a momentum-updated center buffer, sharpening with
# separate temperatures, cross-entropy over all view pairs except identical views.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DINOLoss(nn.Module):
    def __init__(self, out_dim, ncrops, student_temp=0.1, teacher_temp=0.04, center_momentum=0.9):
        super().__init__()
        self.student_temp, self.teacher_temp = student_temp, teacher_temp
        self.center_momentum, self.ncrops = center_momentum, ncrops
        self.register_buffer("center", torch.zeros(1, out_dim))

    def forward(self, student_output, teacher_output):
        student_out = (student_output / self.student_temp).chunk(self.ncrops)
        teacher_out = F.softmax((teacher_output - self.center) / self.teacher_temp, dim=-1)
        teacher_out = teacher_out.detach().chunk(2)
        total_loss, n_loss_terms = 0, 0
        for iq, q in enumerate(teacher_out):
            for v in range(len(student_out)):
                if v == iq:
                    continue
                loss = torch.sum(-q * F.log_softmax(student_out[v], dim=-1), dim=-1)
                total_loss += loss.mean()
                n_loss_terms += 1
        self.update_center(teacher_output)
        return total_loss / n_loss_terms

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = torch.sum(teacher_output, dim=0, keepdim=True) / len(teacher_output)
        self.center = self.center * self.center_momentum + batch_center * (1 - self.center_momentum)


student = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.Linear(16, 10))
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad = False
loss_fn = DINOLoss(10, ncrops=4)
opt = torch.optim.AdamW(student.parameters(), lr=1e-3, weight_decay=0.04)
x = torch.randn(8, 6)
for it in range(6):
    views = [x + 0.1 * torch.randn_like(x) for _ in range(4)]
    s_out = student(torch.cat(views))
    t_out = teacher(torch.cat(views[:2]))
    loss = loss_fn(s_out, t_out)
    opt.zero_grad()
    loss.backward()
    opt.step()
    m = 0.996
    with torch.no_grad():
        for ps, pt in zip(student.parameters(), teacher.parameters()):
            pt.data.mul_(m).add_((1 - m) * ps.detach().data)
    print(it, f"{loss.item():.6f}", f"{loss_fn.center.norm().item():.6f}")
print(loss_fn.center)
with torch.no_grad():
    probs = F.softmax((teacher(x) - loss_fn.center) / 0.04, -1)
print(probs.max(-1).values)
print(-(probs * probs.clamp_min(1e-12).log()).sum(-1).mean())
