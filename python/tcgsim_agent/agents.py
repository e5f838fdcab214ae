"""Two example agents: uniformly random, and a one-ply greedy on the observation."""

from . import Agent


class RandomAgent(Agent):
    """A legal action uniformly at random, from the game's seed (as tcgsim's `random`)."""

    name = "random"

    def act(self, obs, legal):
        return self.rng.choice(legal)["id"]


#: What the greedy agent thinks an action is worth, by the first word of its notation.
_WORDS = {
    "pass": 0.0, "end": 0.0, "skip": 0.0, "mulligan": 0.5, "redraw": 0.5,
    "keep": 2.0, "attack": 2.5, "target": 2.0, "dispatch": 3.0, "deploy": 3.0,
}


class GreedyAgent(Agent):
    """One-ply greedy on the observation: scores each legal action by what it does right now,
    and plays the best (ties at random). A card played for its own sake (`use == "played"`)
    scores 3 plus a bonus for the rarer card of the deck list (fewer copies: a bigger card, as
    deck builders run them); an attack 2.5; a card put into a resource zone 1; passing or
    ending 0. It looks no further than the action itself."""

    name = "greedy"

    def new_game(self, msg):
        super().new_game(msg)
        self.copies = {}
        for d in msg["decks"]:
            if d["seat"] == msg["seat"]:
                for c in d["cards"]:
                    self.copies[c["card"]] = c["copies"]

    def score(self, action):
        word = action["text"].split()[0] if action["text"] else ""
        if action.get("use") == "played":
            n = self.copies.get(action.get("card"), 4)
            return 3.0 + 1.0 / n
        if action.get("use") == "resource":
            return 1.0
        return _WORDS.get(word, 1.5)

    def act(self, obs, legal):
        best = max(self.score(a) for a in legal)
        return self.rng.choice([a for a in legal if self.score(a) == best])["id"]
