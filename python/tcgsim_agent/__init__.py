"""A client of tcgsim's process protocol (docs/protocol.md), in pure Python.

tcgsim plays the game; a process agent only chooses. Subclass `Agent`, implement `act`, and call
`serve(agent)` at the end of a script; then give tcgsim the spec `process:python3 my_bot.py`:

    from tcgsim_agent import Agent, serve

    class FirstLegal(Agent):
        name = "first-legal"
        def act(self, obs, legal):
            return legal[0]["id"]

    if __name__ == "__main__":
        serve(FirstLegal())

One program serves many games, one at a time (tcgsim keeps at most one busy per thread and seat):
`new_game` re-seeds `self.rng` from the game's seed, so the same tcgsim seed gives the same games
whatever the thread count. Write logs to standard error: standard output carries the protocol.

This client speaks protocol 2 (`PROTOCOL`): its `ready` names the version, and seeds arrive as
decimal strings (`new_game`'s `seed`; `int(...)` reads them exactly). Set `card_texts = True` on
an agent to have each card of `new_game`'s deck lists carry its full `text`.
"""

import json
import random
import sys

PROTOCOL = 2

__all__ = ["Agent", "serve", "PROTOCOL"]


class Agent:
    """A player. tcgsim calls `act` once per decision; the other hooks are optional."""

    #: The name sent in the `ready` answer.
    name = "agent"
    #: Whether to ask for the cards' texts: each card of `new_game`'s deck lists then has `text`.
    card_texts = False

    def __init__(self):
        self.rng = random.Random(0)
        self.game = None
        self.seat = None
        self.decks = None

    def hello(self, msg):
        """Once per program: `msg` has `protocol` (tcgsim's version, 2), `game` (its registry name)
        and `title`."""
        self.game = msg.get("game")

    def new_game(self, msg):
        """A game starts: `msg` has `seat` ("P1"/"P2"), `seed` (a decimal string: a 64-bit
        number, as JSON numbers above 2^53 lose digits) and both `decks` lists (each `{"seat",
        "cards": [{"card", "name", "copies"}]}`, each card with its `text` too when the agent set
        `card_texts`). The default re-seeds `self.rng` from `int(seed)`."""
        self.seat = msg["seat"]
        self.decks = msg["decks"]
        self.rng = random.Random(int(msg["seed"]))

    def act(self, obs, legal):
        """Returns the `id` of one entry of `legal` (each `{"id", "text", "card", "use"}`: `card`
        is the card id an action plays or puts into a resource zone, with `use` "played" or
        "resource", else both are None).

        `obs` is the observation message: `type` ("observation"), `seat`, `turn`, `view` (what
        the seat sees, as text: its hand, every public zone, the counts of hidden ones), `events`
        (log lines since the last decision), `legal` (the same list as the argument) and, added
        by this client, `history` (every log line of this game the seat saw). There is no
        information-state string: the protocol does not send one."""
        raise NotImplementedError

    def game_over(self, msg):
        """The game ended: `msg` has `result` ("win"/"loss"/"draw", from this seat), `winner`
        ("P1", "P2" or None), `ending` (why, one line), `turn` and `events` (log lines since the
        last decision). A game abandoned because the opponent's agent failed gets no
        `game_over`."""


def serve(agent, inp=None, out=None):
    """Answers tcgsim's messages on standard input until it closes them. A `hello` of another
    protocol is answered all the same, naming this client's (tcgsim then stops with a message
    naming both versions)."""
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    history = []
    for line in inp:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != PROTOCOL:
                print(f"tcgsim_agent: tcgsim speaks protocol {msg.get('protocol')}, this client "
                      f"{PROTOCOL}", file=sys.stderr)
            agent.hello(msg)
            reply = {"type": "ready", "name": agent.name, "protocol": PROTOCOL}
            if agent.card_texts:
                reply["card_texts"] = True
        elif kind == "new_game":
            history = []
            agent.new_game(msg)
            continue
        elif kind == "observation":
            history.extend(msg.get("events", []))
            msg["history"] = history
            reply = {"action": int(agent.act(msg, msg["legal"]))}
        elif kind == "game_over":
            history.extend(msg.get("events", []))
            agent.game_over(msg)
            continue
        else:
            continue
        out.write(json.dumps(reply) + "\n")
        out.flush()
