# Models: a game-AI class exercise: tic-tac-toe boards as 3x3 int tensors, win detection with
# row/column/diagonal sums, legal moves via nonzero, a memoised minimax search returning
# the best move, and self-play of the perfect players (always a draw).
import torch

LINES = torch.tensor([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8],
                      [0, 4, 8], [2, 4, 6]])


def winner(board):
    sums = board.flatten()[LINES].sum(1)
    if (sums == 3).any():
        return 1
    if (sums == -3).any():
        return -1
    return 0


cache = {}


def minimax(board, player):
    key = (tuple(board.flatten().tolist()), player)
    if key in cache:
        return cache[key]
    w = winner(board)
    moves = (board.flatten() == 0).nonzero().flatten()
    if w != 0 or len(moves) == 0:
        cache[key] = (w, None)
        return cache[key]
    best = None
    for m in moves.tolist():
        nb = board.clone()
        nb.view(-1)[m] = player
        score, _ = minimax(nb, -player)
        if best is None or score * player > best[0] * player:
            best = (score, m)
    cache[key] = best
    return best


board = torch.zeros(3, 3, dtype=torch.int8)
player = 1
while winner(board) == 0 and (board == 0).any():
    score, move = minimax(board, player)
    board.view(-1)[move] = player
    print(f"player {player:+d} plays {move} (value {score})")
    player = -player
print(board)
print("winner", winner(board), "positions searched", len(cache))
test = torch.tensor([[1, 1, 0], [-1, -1, 0], [0, 0, 0]], dtype=torch.int8)
print("x to move wins at", minimax(test, 1), "o to move wins at", minimax(test, -1))
