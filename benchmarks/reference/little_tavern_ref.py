"""Hand-written reference implementation of "Little Tavern" with random bots.

Plain Python (standard library only).  Every bot decision is a uniform random
choice made through ``Game.pick`` / ``Game.pick_index``, which also count the
decisions.  Run as a script to measure playouts per second at 4 players.
"""
import random
import sys
import time

# ---------------------------------------------------------------- cards ----
ELF, WITCH, DWARF, NOBLE, ROMANTIC, ADVENTURER, GOBLIN = range(7)

CLAN = []      # clan of character card id (0..43)
PRINTED = []   # printed tip (adventurers only)
for _clan, _count in ((ELF, 10), (WITCH, 4), (DWARF, 7), (NOBLE, 5),
                      (ROMANTIC, 4), (ADVENTURER, 6), (GOBLIN, 8)):
    CLAN.extend([_clan] * _count)
    PRINTED.extend([0] * _count)
PRINTED[CLAN.index(ADVENTURER):CLAN.index(ADVENTURER) + 6] = [1, 2, 2, 3, 3, 4]
BILLY = CLAN.index(GOBLIN)          # exactly one Goblin is Billy-Billy
N_CHARACTERS = len(CLAN)            # 44

SWAP, GET_OUT, HELLO, LETS_GO, MUSICAL, MYSTERY, RESERVED = range(7)
EVENTS = [e for e in range(7) for _ in range(2)]   # 14 event cards (by type)
N_CARDS = N_CHARACTERS + len(EVENTS)               # 58

CAPACITY = 4
TARGET = 25
DRAW_CHARACTER, DRAW_EVENT = 0, 1


class Game:
    """State of one game.  Table entries are (character id, face_down)."""

    def __init__(self, n_players, seed):
        if not 2 <= n_players <= 5:
            raise ValueError("Little Tavern needs 2..5 players")
        self.n = n_players
        self.rng = random.Random(seed)
        self.coins = [3] * n_players
        self.decisions = 0
        self.rounds = 0
        self.tables = [[] for _ in range(n_players)]
        self.center_chars = []
        self.center_events = []
        self.box_chars = []
        self.box_events = []

    # -------------------------------------------------------- decisions ----
    def pick(self, options):
        self.decisions += 1
        return self.rng.choice(options)

    def pick_index(self, k):
        self.decisions += 1
        return self.rng.randrange(k)

    # ----------------------------------------------------------- helpers ----
    def draw_character(self):
        c = self.center_chars
        i = self.rng.randrange(len(c))
        c[i], c[-1] = c[-1], c[i]
        return c.pop()

    def draw_event(self):
        c = self.center_events
        i = self.rng.randrange(len(c))
        c[i], c[-1] = c[-1], c[i]
        return c.pop()

    def open_tables(self):
        return [s for s in range(self.n) if len(self.tables[s]) < CAPACITY]

    def other_characters(self, seat):
        return [(s, i) for s in range(self.n) if s != seat
                for i in range(len(self.tables[s]))]

    def legal_actions(self, seat):
        acts = []
        if self.center_chars:
            acts.append(DRAW_CHARACTER)
        if self.center_events and self.coins[seat] >= 1 and all(self.tables):
            acts.append(DRAW_EVENT)
        return acts

    def card_count(self):
        return (len(self.center_chars) + len(self.center_events)
                + len(self.box_chars) + len(self.box_events)
                + sum(len(t) for t in self.tables))

    # ------------------------------------------------------------- events ----
    def apply_event(self, ev, me):
        tables, n = self.tables, self.n
        mine = tables[me]
        if ev == SWAP:
            step = self.pick((1, -1))           # left = seat+1, right = seat-1
            chosen = [None] * n
            for s in range(n):
                if tables[s]:
                    chosen[s] = tables[s].pop(self.pick_index(len(tables[s])))
            for s in range(n):
                if chosen[s] is not None:
                    tables[(s + step) % n].append(chosen[s])
        elif ev == GET_OUT:
            if mine:
                self.box_chars.append(mine.pop(self.pick_index(len(mine)))[0])
        elif ev == HELLO:
            others_open = [s for s in self.open_tables() if s != me]
            others_chars = self.other_characters(me)
            modes = []
            if mine and others_open:
                modes.append("send")
            if len(mine) < CAPACITY and others_chars:
                modes.append("take")
            if not modes:
                return
            if self.pick(modes) == "send":
                card = mine.pop(self.pick_index(len(mine)))
                tables[self.pick(others_open)].append(card)
            else:
                s, i = self.pick(others_chars)
                mine.append(tables[s].pop(i))
        elif ev == LETS_GO:
            clans = sorted({CLAN[c] for c, down in mine if not down})
            if not clans:
                return
            clan = self.pick(clans)
            for k in range(n):
                t = tables[(me + k) % n]
                idx = [i for i, (c, down) in enumerate(t)
                       if not down and CLAN[c] == clan]
                if idx:
                    self.box_chars.append(t.pop(self.pick(idx))[0])
        elif ev == MUSICAL:
            others_chars = self.other_characters(me)
            if mine and others_chars:
                i = self.pick_index(len(mine))
                s, j = self.pick(others_chars)
                mine[i], tables[s][j] = tables[s][j], mine[i]
        elif ev == MYSTERY:
            dest = self.open_tables()
            if self.center_chars and dest:
                card = self.draw_character()
                tables[self.pick(dest)].append((card, True))
        elif ev == RESERVED:
            if self.center_chars and mine:
                card = self.draw_character()
                i = self.pick_index(len(mine))
                self.box_chars.append(mine[i][0])
                mine[i] = (card, False)

    # -------------------------------------------------------------- turns ----
    def turn(self, seat):
        """Play one turn for `seat`; return the seat that takes the next turn."""
        if self.pick(self.legal_actions(seat)) == DRAW_CHARACTER:
            card = self.draw_character()
            dest = self.pick(self.open_tables())
            self.tables[dest].append((card, False))
            return dest
        ev = self.draw_event()
        self.apply_event(EVENTS[ev], seat)
        self.box_events.append(ev)
        receiver = self.pick([s for s in range(self.n) if s != seat])
        self.coins[seat] -= 1
        self.coins[receiver] += 1
        return receiver

    def score_round(self):
        tables = self.tables
        witches = sum(CLAN[c] == WITCH for t in tables for c, _ in t)
        nobles = sum(CLAN[c] == NOBLE for t in tables for c, _ in t)
        for s, t in enumerate(tables):
            counts = [0] * 7
            tip = 0
            for c, _ in t:
                counts[CLAN[c]] += 1
                tip += PRINTED[c]          # adventurers; 0 for everyone else
            tip += counts[ELF] * counts[ELF]
            tip += counts[WITCH] * (2 + witches - 1)
            tip += counts[DWARF] * sum(1 for k in counts if k)
            tip += counts[NOBLE] * (5 - (nobles - 1))
            if counts[ROMANTIC] >= 2:
                tip += 4 * counts[ROMANTIC]
            if any(c == BILLY for c, _ in t):
                tip += 4 * counts[GOBLIN]
            self.coins[s] += tip

    def play_round(self, starter):
        self.tables = [[] for _ in range(self.n)]
        self.center_chars = list(range(N_CHARACTERS))
        self.center_events = list(range(len(EVENTS)))
        self.box_chars = []
        self.box_events = []
        cur = starter
        idle = 0
        while idle < self.n:
            if not self.legal_actions(cur):
                # a player who can do nothing is skipped; if nobody can, the round ends
                idle += 1
                cur = (cur + 1) % self.n
                continue
            idle = 0
            cur = self.turn(cur)
            if all(len(t) == CAPACITY for t in self.tables):
                break
        self.score_round()        # face-down cards simply score like others
        self.rounds += 1
        return cur

    def play(self):
        cur = self.rng.randrange(self.n)
        while True:
            cur = self.play_round(cur)
            best = max(self.coins)
            if best >= TARGET:
                break
        return {"winners": [s for s in range(self.n) if self.coins[s] == best],
                "scores": list(self.coins),
                "decisions": self.decisions,
                "rounds": self.rounds}


def play_game(n_players: int, seed: int) -> dict:
    return Game(n_players, seed).play()


def main():
    n_players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    games = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += play_game(n_players, games)["decisions"]
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            break
    print(f"{n_players} players: {games} playouts in {elapsed:.2f}s")
    print(f"playouts/s: {games / elapsed:.1f}")
    print(f"decisions/s: {decisions / elapsed:.0f}")


if __name__ == "__main__":
    main()
