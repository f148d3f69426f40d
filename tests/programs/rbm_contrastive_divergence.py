# Models: the restricted Boltzmann machine recommender of "Deep Learning A-Z" style course
# notebooks -- Bernoulli visible/hidden units sampled with torch.bernoulli, contrastive
# divergence (CD-k) updates written by hand without autograd, free energy, and a comparison of
# the hand-written gradient with autograd's gradient of the free-energy difference.
import torch

torch.manual_seed(42)
nb_users, nb_movies = 40, 12
prefs = torch.rand(nb_users, 3)
genre = torch.randint(0, 3, (nb_movies,))
prob_like = prefs[:, genre]
ratings = torch.bernoulli(prob_like)
observed = torch.rand(nb_users, nb_movies) < 0.7
training_set = torch.where(observed, ratings, torch.full_like(ratings, -1.0))
print(training_set[:4])
print(genre, (training_set == -1).sum(), training_set.dtype)


class RBM:
    def __init__(self, nv, nh):
        self.W = torch.randn(nh, nv)
        self.a = torch.randn(1, nh)
        self.b = torch.randn(1, nv)

    def sample_h(self, x):
        wx = torch.mm(x, self.W.t())
        activation = wx + self.a.expand_as(wx)
        p_h_given_v = torch.sigmoid(activation)
        return p_h_given_v, torch.bernoulli(p_h_given_v)

    def sample_v(self, y):
        wy = torch.mm(y, self.W)
        activation = wy + self.b.expand_as(wy)
        p_v_given_h = torch.sigmoid(activation)
        return p_v_given_h, torch.bernoulli(p_v_given_h)

    def train(self, v0, vk, ph0, phk):
        self.W += (torch.mm(v0.t(), ph0) - torch.mm(vk.t(), phk)).t()
        self.b += torch.sum((v0 - vk), 0)
        self.a += torch.sum((ph0 - phk), 0)


nv = len(training_set[0])
nh = 6
batch_size = 10
rbm = RBM(nv, nh)
print(rbm.W.shape, rbm.a.shape, rbm.b.shape)
nb_epoch = 6
for epoch in range(1, nb_epoch + 1):
    train_loss = 0
    s = 0.0
    for id_user in range(0, nb_users - batch_size + 1, batch_size):
        vk = training_set[id_user : id_user + batch_size]
        v0 = training_set[id_user : id_user + batch_size]
        ph0, _ = rbm.sample_h(v0)
        for k in range(5):
            _, hk = rbm.sample_h(vk)
            _, vk = rbm.sample_v(hk)
            vk[v0 < 0] = v0[v0 < 0]
        phk, _ = rbm.sample_h(vk)
        rbm.train(v0, vk, ph0, phk)
        train_loss += torch.mean(torch.abs(v0[v0 >= 0] - vk[v0 >= 0]))
        s += 1.0
    print("epoch: " + str(epoch) + " loss: " + str(train_loss / s))

test_loss = 0
s = 0.0
for id_user in range(nb_users):
    v = training_set[id_user : id_user + 1]
    vt = torch.where(observed[id_user : id_user + 1], -1.0, ratings[id_user : id_user + 1])
    if len(vt[vt >= 0]) > 0:
        _, h = rbm.sample_h(v)
        _, v = rbm.sample_v(h)
        test_loss += torch.mean(torch.abs(vt[vt >= 0] - v[vt >= 0]))
        s += 1.0
print("test loss: " + str(test_loss / s), s)


def free_energy(v, W, a, b):
    vbias_term = v @ b.t()
    wx_b = v @ W.t() + a
    hidden_term = torch.sum(torch.nn.functional.softplus(wx_b), dim=1, keepdim=True)
    return (-hidden_term - vbias_term).mean()


# CD-1 gradient by hand equals autograd's gradient of F(v0) - F(v1)
torch.manual_seed(0)
W = (torch.randn(nh, nv) * 0.1).requires_grad_()
a = torch.zeros(1, nh, requires_grad=True)
b = torch.zeros(1, nv, requires_grad=True)
v0 = torch.bernoulli(torch.full((8, nv), 0.5))
with torch.no_grad():
    ph0 = torch.sigmoid(v0 @ W.t() + a)
    h0 = torch.bernoulli(ph0)
    pv1 = torch.sigmoid(h0 @ W + b)
    v1 = torch.bernoulli(pv1)
    ph1 = torch.sigmoid(v1 @ W.t() + a)
loss = free_energy(v0, W, a, b) - free_energy(v1, W, a, b)
loss.backward()
manual_W = -(ph0.t() @ v0 - ph1.t() @ v1) / v0.shape[0]
print(loss, torch.allclose(W.grad, manual_W, atol=1e-6))
print(W.grad[:2], a.grad, b.grad)
print(
    torch.bernoulli(torch.tensor([0.0, 1.0, 0.5, 0.5]), generator=torch.Generator().manual_seed(3))
)
p = torch.full((2, 3), 0.3)
print(p.bernoulli(), torch.empty(2, 3).bernoulli_(0.8), torch.bernoulli(p, p=0.9))
print(
    torch.distributions.Bernoulli(probs=p).sample(),
    torch.distributions.Bernoulli(logits=a[:, :3]).entropy(),
)
