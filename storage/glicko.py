"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), one game per rating period.

Why Glicko-2 and not Elo: people play a bot like this in bursts and then disappear for weeks.
Elo treats a newcomer and a veteran alike (one fixed K), so a new player needs dozens of games
to reach their level and a returning player's rating is trusted as if they never left. Glicko-2
keeps a rating deviation (how sure we are) that is large for newcomers (their rating moves
fast), shrinks with every game and grows again with inactivity, plus a volatility that tracks
erratic results. Each finished game is its own rating period (as lichess does); every day
without a game widens the deviation as if an empty period had passed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-1 points per Glicko-2 unit
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # constrains how fast volatility changes (Glickman suggests 0.3–1.2)
EPSILON = 1e-6
PERIOD = 86400.0  # one day without games widens the deviation by one empty period
MIN_RD = 45.0  # a floor (as on lichess), so a very regular player's rating still moves


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the familiar Glicko scale (1500 start), with its deviation."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    def aged(self, periods: float) -> Rating:
        """The deviation after ``periods`` rating periods without games (never above start)."""
        if periods <= 0:
            return self
        phi = math.sqrt((self.rd / SCALE) ** 2 + periods * self.volatility**2)
        return Rating(self.rating, min(START_RD, phi * SCALE), self.volatility)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one period with ``games`` = (opponent, score 1/0.5/0)."""
    if not games:
        return player.aged(1)
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility

    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - START_RATING) / SCALE
        g_j = _g(opponent.rd / SCALE)
        e = _expected(mu, mu_j, opponent.rd / SCALE)
        v_inv += g_j * g_j * e * (1.0 - e)
        delta_sum += g_j * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum

    sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = mu + phi * phi * delta_sum
    rd = min(START_RD, max(MIN_RD, phi * SCALE))
    return Rating(mu * SCALE + START_RATING, rd, sigma)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's example: the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
