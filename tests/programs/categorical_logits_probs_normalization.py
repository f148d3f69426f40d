# Models: a reinforcement-learning forum answer about torch.distributions.Categorical: passing
# unnormalised probs vs logits, the normalised .probs/.logits attributes, log_prob of actions,
# entropy of near one-hot policies, batched sampling shapes, support, and validation errors.
import torch
from torch.distributions import Categorical

torch.manual_seed(1)
c1 = Categorical(probs=torch.tensor([2.0, 1.0, 1.0]))
print("probs", c1.probs, "logits", c1.logits)
c2 = Categorical(logits=torch.tensor([10.0, 9.0, 9.0]))
print("logits normalised", c2.logits, c2.probs)
print("log_prob", c1.log_prob(torch.tensor([0, 2])), c2.log_prob(torch.tensor(1)))
print("entropy", c1.entropy(), Categorical(logits=torch.tensor([50.0, 0.0, 0.0])).entropy())
batch = Categorical(logits=torch.randn(4, 5))
s = batch.sample((2,))
print("sample shape", s.shape, s)
print("batch log_prob", batch.log_prob(s).shape)
print("support", batch.support, batch.param_shape, batch.batch_shape, batch.event_shape)
print("enumerate", batch.enumerate_support().shape, batch.enumerate_support(expand=False).shape)
print("mode", batch.mode, "mean nan?", torch.isnan(batch.mean).all().item())
print(c1)
for bad in [lambda: Categorical(probs=torch.tensor([0.5, -0.1])),
            lambda: Categorical(),
            lambda: Categorical(probs=torch.tensor([0.5]), logits=torch.tensor([0.0])),
            lambda: c1.log_prob(torch.tensor([3]))]:
    try:
        bad()
    except ValueError as e:
        print("ValueError:", str(e)[:150])
