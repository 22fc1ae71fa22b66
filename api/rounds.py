"""Recording a round (every collection's standing tally scored together), re-opening it,
and the standings from each round's latest record: re-opening round 1 changes nothing
until it is recorded again, and then every total after it follows."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, selectinload

from api.collections import CollectionView, same_photo_problem, view_collection
from api.errors import (
    Conflict,
    Unprocessable,
)
from api.games import (
    ROUND_RECORDED,
    ROUND_REOPENED,
    advance,
    check_version,
    get_game,
    get_round,
    require_open_round,
    rules_of,
)
from api.models import Collection, Game, Round, RoundEvent
from scoring import (
    GameResult,
    Problem,
    ProblemCode,
    Tally,
    check_game,
    score_game,
    score_round,
)


def latest_record(row: Round) -> RoundEvent | None:
    records = [e for e in row.events if e.kind == "record"]
    return records[-1] if records else None


def recorded_tallies(game: Game) -> list[list[Tally]]:
    """Each round's tallies from its latest record, rounds 1.. up to the first without."""
    rounds: list[list[Tally]] = []
    for row in game.round_rows:
        record = latest_record(row)
        if record is None:
            break
        rounds.append([Tally.from_mapping(t) for t in record.payload["tallies"]])
    return rounds


def record_round(
    session: Session,
    game: Game,
    number: int,
    *,
    version: int,
    accept_problems: bool,
    author: str | None,
) -> Round:
    """Score the round from every player's confirmed tally and record it.

    A tally over the hand size, or collections over the deck (in this round or in the
    game so far) block the record with 422 unless `accept_problems` says to go ahead.
    """
    row = get_round(game, number)
    require_open_round(game, row)
    check_version("round", row.version, version)
    collections = {
        c.player.seat: c
        for c in session.scalars(
            select(Collection)
            .where(Collection.round_id == row.id)
            .options(selectinload(Collection.events))
        )
    }
    views = [view_collection(game, collections[p.seat]) for p in game.players]
    waiting = [f"{v.player.name} ({v.state.status})" for v in views if not v.state.confirmed]
    if waiting:
        raise Conflict(
            f"round {number} cannot be recorded before every player's tally is confirmed; "
            f"waiting for: {', '.join(waiting)}",
            reason="unconfirmed",
        )
    tallies = confirmed_tallies(views)
    problems = round_problems(game, number, views)
    errors = [p for p in problems if p.is_error]
    if errors and not accept_problems:
        raise Unprocessable(
            f"round {number} cannot be recorded: {errors[0].message}"
            + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else "")
            + "; correct the tallies, or record with accept_problems=true",
            problems=[problem_dict(game, p) for p in problems],
        )
    scores = score_round(tallies, validate=False)
    advance(session, row, version)
    session.execute(update(Round).where(Round.id == row.id).values(status=ROUND_RECORDED))
    session.add(
        RoundEvent(
            round_id=row.id,
            kind="record",
            payload={
                "tallies": [t.to_dict() for t in tallies],
                "scores": [s.to_dict() for s in scores],
                "problems": [problem_dict(game, p) for p in problems],
                "accepted": bool(errors),
                "collection_versions": [c.collection.version for c in views],
            },
            author=author,
        )
    )
    session.commit()
    session.expire_all()
    return get_round(get_game(session, game.id), number)


def round_problems(game: Game, number: int, views: list[CollectionView]) -> list[Problem]:
    """This round's problems with every tally confirmed (`views`, in seat order): its
    tallies', the game's (deck across rounds) with it in place, and photos sent twice."""
    return [*_tally_problems(game, number, confirmed_tallies(views)), *same_photo_problems(views)]


def confirmed_tallies(views: list[CollectionView]) -> list[Tally]:
    """The round's confirmed tallies, in seat order (an unconfirmed one empty)."""
    return [Tally.from_mapping(v.state.confirmed_tally or {}) for v in views]


def same_photo_problems(views: list[CollectionView]) -> list[Problem]:
    """The round's photos that are another collection's, each said once: two players of
    this round with one photo, by the first of them (its words name the other)."""
    problems = []
    for view in views:
        number, seat = view.round.number, view.player.seat
        if all(same.round == number and same.seat < seat for same in view.same_photo):
            continue  # nothing shared, or said by an earlier seat's problem
        problem = same_photo_problem(view)
        if problem is not None:
            problems.append(problem)
    return problems


def _tally_problems(game: Game, number: int, tallies: list[Tally]) -> list[Problem]:
    """The round's tallies' problems, and the game's (deck across rounds) with it in
    place: less a kind over the deck in the other rounds already (recorded so, accepted)
    that this round holds none of, which fixing this round cannot mend."""
    rounds = recorded_tallies(game)
    while len(rounds) < number:
        rounds.append([])
    others = [r for i, r in enumerate(rounds) if r and i != number - 1]
    rounds[number - 1] = tallies
    rounds = [r for r in rounds if r]
    names = [p.name for p in game.players]
    problems = check_game(rounds, rules=rules_of(game), names=names)
    already = {
        p.category
        for p in (check_game(others, rules=rules_of(game), names=names) if others else [])
        if p.round is None and p.code == ProblemCode.DECK_LIMIT
    }
    held = {kind for tally in tallies for kind, n in tally.kinds_used().items() if n}
    return [
        p
        for p in problems
        if p.round == number - 1
        or (p.round is None and not (p.category in already and p.category not in held))
    ]


def reopen_round(
    session: Session, game: Game, number: int, *, version: int, author: str | None
) -> Round:
    """Open a recorded round for fixing; its last record keeps counting until re-recorded."""
    row = get_round(game, number)
    if row.status != ROUND_RECORDED:
        raise Conflict(f"round {number} is not recorded; there is nothing to re-open")
    check_version("round", row.version, version)
    advance(session, row, version)
    session.execute(update(Round).where(Round.id == row.id).values(status=ROUND_REOPENED))
    session.add(RoundEvent(round_id=row.id, kind="reopen", payload={}, author=author))
    session.commit()
    session.expire_all()
    return get_round(get_game(session, game.id), number)


def round_views(session: Session, game: Game, row: Round) -> list[CollectionView]:
    collections = {
        c.player_id: c
        for c in session.scalars(
            select(Collection)
            .where(Collection.round_id == row.id)
            .options(selectinload(Collection.events))
        )
    }
    return [view_collection(game, collections[p.id]) for p in game.players]


def standings(game: Game) -> GameResult:
    """The score sheet from every recorded round (dessert and winners once complete)."""
    return score_game(
        [p.name for p in game.players],
        recorded_tallies(game),
        rules=rules_of(game),
        validate=False,
    )


def problem_dict(game: Game, problem: Problem) -> dict[str, Any]:
    """A Problem for the HTTP API: seats and rounds counted from 1, the player's name."""
    seat = None if problem.player is None else problem.player + 1
    name = None
    if seat is not None and seat <= len(game.players):
        name = game.players[seat - 1].name
    return {
        "severity": problem.severity,
        "code": str(problem.code),
        "message": problem.message,
        "seat": seat,
        "player": name,
        "category": problem.category,
        "expected": problem.expected,
        "actual": problem.actual,
        "round": None if problem.round is None else problem.round + 1,
    }
