"""Pure Sushi Go! rules engine: tallies in, scores out. Standard library only.

tally = Tally.from_mapping({"tempura": 2, "salmon_on_wasabi": 1})
score_round([tally, other])            -> [RoundScore, ...]
dessert_points([3, 1, 0])              -> [6, 0, -6]
score_game(["Ana", "Ben"], rounds)     -> GameResult (standings at any time)
check_round([tally, other])            -> [Problem, ...]   (validation as data)
"""

from scoring.cards import (
    CARD_KINDS,
    DECK,
    DECK_SIZE,
    HAND_SIZE,
    KIND_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NIGIRI,
    STACKS,
    TALLY_KEYS,
)
from scoring.dessert import PUDDING_FEWEST_PENALTY, PUDDING_MOST_POINTS, dessert_points
from scoring.errors import (
    DeckLimitError,
    HandSizeError,
    InvalidTallyError,
    PlayerCountError,
    PlayerNameError,
    RoundCountError,
    ScoringError,
)
from scoring.game import GameResult, PlayerResult, check_names, leading_players, score_game
from scoring.names import MAX_NAME_LENGTH, clean_text, name_key
from scoring.rounds import (
    BREAKDOWN_KEYS,
    DUMPLING_POINTS,
    MAKI_MOST_POINTS,
    MAKI_SECOND_POINTS,
    NIGIRI_POINTS,
    SASHIMI_SET_POINTS,
    TEMPURA_PAIR_POINTS,
    WASABI_MULTIPLIER,
    RoundResult,
    RoundScore,
    dumpling_points,
    maki_points,
    nigiri_points,
    sashimi_points,
    score_round,
    tempura_points,
)
from scoring.rules import STANDARD_ROUNDS, VARIANT_ROUNDS, GameRules, hand_size, max_rounds
from scoring.tally import Tally
from scoring.validation import (
    Problem,
    ProblemCode,
    check_collection,
    check_game,
    check_round,
    validate_collection,
    validate_game,
    validate_round,
)

__all__ = [
    "BREAKDOWN_KEYS",
    "CARD_KINDS",
    "DECK",
    "DECK_SIZE",
    "DUMPLING_POINTS",
    "HAND_SIZE",
    "KIND_NAMES",
    "MAKI_MOST_POINTS",
    "MAKI_SECOND_POINTS",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NIGIRI",
    "NIGIRI_POINTS",
    "PUDDING_FEWEST_PENALTY",
    "PUDDING_MOST_POINTS",
    "SASHIMI_SET_POINTS",
    "STACKS",
    "STANDARD_ROUNDS",
    "TALLY_KEYS",
    "TEMPURA_PAIR_POINTS",
    "VARIANT_ROUNDS",
    "WASABI_MULTIPLIER",
    "DeckLimitError",
    "GameResult",
    "GameRules",
    "HandSizeError",
    "InvalidTallyError",
    "PlayerCountError",
    "PlayerNameError",
    "PlayerResult",
    "Problem",
    "ProblemCode",
    "RoundCountError",
    "RoundResult",
    "RoundScore",
    "ScoringError",
    "Tally",
    "check_collection",
    "check_game",
    "check_names",
    "check_round",
    "clean_text",
    "dessert_points",
    "dumpling_points",
    "hand_size",
    "leading_players",
    "maki_points",
    "max_rounds",
    "name_key",
    "nigiri_points",
    "sashimi_points",
    "score_game",
    "score_round",
    "tempura_points",
    "validate_collection",
    "validate_game",
    "validate_round",
]
