"""Which function, and which arguments, torch hands a Tensor subclass's __torch_function__ for
each operator, method, property and function call."""
import torch


class L(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        print(getattr(func, "__name__", func), len(args), sorted(kwargs))
        return super().__torch_function__(func, types, args, kwargs)


y = torch.ones(2, 2).as_subclass(L)
p = torch.ones(2, 2)
EXPRESSIONS = [
    "y+1", "1+y", "y-1", "1-y", "y*2", "2*y", "y/2", "2/y", "y//2", "2//y", "y%2", "y**2",
    "2**y", "-y", "abs(y)", "y@y", "p@y", "y==1", "y<1", "y>=1", "y!=1", "~(y>0)",
    "(y>0)&(y>0)", "(y>0)|(y>0)", "(y>0)^(y>0)", "y.T", "y[0]", "len(y)", "float(y[0,0])",
    "bool(y[0,0])", "list(y)", "y.size()", "y.shape", "y.dtype", "y.dim()", "y.view(4)",
    "y.reshape(4)", "y.to(torch.float64)", "y.float()", "y.detach()", "y.clone()",
    "y.sum(dim=0)", "torch.sum(y, 0)", "torch.cat([y,p])", "torch.stack((y,y),0)", "y.numpy()",
    "y.tolist()", "torch.nn.functional.relu(y)", "torch.nn.functional.linear(y, p)",
    "torch.nn.functional.softmax(y, dim=1)",
    "torch.nn.functional.cross_entropy(y, torch.tensor([0,1]))", "torch.matmul(y,p)",
    "y.max(0)", "torch.where(y>0,y,p)", "y.requires_grad", "y.grad", "y.is_leaf", "y.device",
    "y.ndim", "y.unsqueeze(0)", "y.add_(1)", "y.mul_(1)"]
for expr in EXPRESSIONS:
    print(">>", expr)
    eval(expr)
