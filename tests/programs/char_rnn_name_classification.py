# Models: the "NLP From Scratch: Classifying Names with a Character-Level RNN" tutorial on a
# tiny built-in name list: unicodeToAscii, letterToTensor/lineToTensor one-hot encoding,
# the hand-written RNN cell (i2h/h2h with LogSoftmax) and nn.RNN variant, NLLLoss, manual SGD
# updates via p.data.add_(p.grad, alpha=-lr), categoryFromOutput with topk, a confusion
# matrix normalised per row, and predictions for new names.
import random
import string
import unicodedata

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)


def unicodeToAscii(s):
    return "".join(
        c
        for c in unicodedata.normalize("NFD", s)
        if unicodedata.category(c) != "Mn" and c in all_letters
    )


print(unicodeToAscii("Ślusàrski"), n_letters)
category_lines = {
    "English": ["Smith", "Johnson", "Brown", "Taylor", "Wilson", "Davies"],
    "Italian": ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano"],
    "Japanese": ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito"],
    "Polish": ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kowalczyk", "Kamiński"],
}
category_lines = {k: [unicodeToAscii(n) for n in v] for k, v in category_lines.items()}
all_categories = list(category_lines)
n_categories = len(all_categories)


def letterToIndex(letter):
    return all_letters.find(letter)


def letterToTensor(letter):
    tensor = torch.zeros(1, n_letters)
    tensor[0][letterToIndex(letter)] = 1
    return tensor


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


print(letterToTensor("J").nonzero())
print(lineToTensor("Jones").size())


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size, hidden_size)
        self.h2h = nn.Linear(hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        hidden = torch.tanh(self.i2h(input) + self.h2h(hidden))
        output = self.softmax(self.h2o(hidden))
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


n_hidden = 32
rnn = RNN(n_letters, n_hidden, n_categories)
input = lineToTensor("Albert")
hidden = torch.zeros(1, n_hidden)
output, next_hidden = rnn(input[0], hidden)
print(output)


def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i


print(categoryFromOutput(output))


def randomTrainingExample():
    category = random.choice(all_categories)
    line = random.choice(category_lines[category])
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    return category, line, category_tensor, lineToTensor(line)


criterion = nn.NLLLoss()
learning_rate = 0.01


def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()


current_loss = 0
for it in range(1, 601):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output, loss = train(category_tensor, line_tensor)
    current_loss += loss
    if it % 150 == 0:
        guess, guess_i = categoryFromOutput(output)
        correct = "✓" if guess == category else "✗ (%s)" % category  # noqa: UP031
        print(
            "%d %d%% %.4f %s / %s %s avg %.4f"  # noqa: UP031
            % (it, it / 600 * 100, loss, line, guess, correct, current_loss / 150)
        )
        current_loss = 0


def evaluate(line_tensor):
    hidden = rnn.initHidden()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    return output


confusion = torch.zeros(n_categories, n_categories)
for category in all_categories:
    for line in category_lines[category]:
        guess, guess_i = categoryFromOutput(evaluate(lineToTensor(line)))
        confusion[all_categories.index(category)][guess_i] += 1
for i in range(n_categories):
    confusion[i] = confusion[i] / confusion[i].sum()
print(confusion)


def predict(input_line, n_predictions=2):
    print("\n> %s" % input_line)  # noqa: UP031
    with torch.no_grad():
        output = evaluate(lineToTensor(input_line))
        topv, topi = output.topk(n_predictions, 1, True)
        for i in range(n_predictions):
            value = topv[0][i].item()
            category_index = topi[0][i].item()
            print("(%.2f) %s" % (value, all_categories[category_index]))  # noqa: UP031


predict("Dovesky")
predict("Satoshi")
predict("Rossini")
