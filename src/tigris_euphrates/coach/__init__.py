"""The engine as a coach: a calibrated win probability (``winprob``) and the post-game
analysis of a finished game (``analysis``). Engine and bots only, standard library only.

``win_probability(view, scores)`` is the probability that the view's seat finishes first,
judged from what that seat may see; ``analyse(record, budget)`` is the analysis of a
finished game (``tne-analysis/1``, docs/formats.md). See docs/ai.md.
"""

from __future__ import annotations

from .winprob import state_probabilities, view_probabilities, win_probability

__all__ = ["state_probabilities", "view_probabilities", "win_probability"]
