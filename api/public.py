"""The Public shapes built from stored games (what GET and write routes return)."""

from __future__ import annotations

from typing import Literal

from fastapi.responses import Response
from pydantic import BaseModel

from api import games, review, revisions, rounds
from api.collections import CollectionView
from api.errors import Conflict
from api.models import Game, Photo, Round
from api.schemas import (
    BoxPublic,
    CollectionPublic,
    CollectionSummary,
    DetectionPublic,
    EarlierReadingPublic,
    EventPublic,
    GameCreated,
    GamePublic,
    PhotoPublic,
    PlayerPublic,
    ProblemPublic,
    RoundEventPublic,
    RoundPublic,
    RoundRecordPublic,
    RoundScorePublic,
    RoundSummary,
    StandingsPublic,
    TallyOut,
    utc,
)
from scoring import GameResult, Problem, ProblemCode, Tally

PREFIX = "/api/v1"


def json_response(body: BaseModel, status_code: int = 200) -> Response:
    """`body` as JSON, serialized by the caller's thread. What FastAPI would send for a
    route returning `body`, without validating the model a second time in another
    worker thread (for the upload, the hot path; its route documents `response_model`).
    """
    return Response(body.model_dump_json(), status_code, media_type="application/json")


def game_url(game: Game) -> str:
    return f"{PREFIX}/games/{game.id}"


def game_public(game: Game, *, can_edit: bool = False) -> GamePublic:
    rows = game.round_rows
    current = next((r.number for r in rows if r.status == games.ROUND_OPEN), None)
    status: Literal["playing", "fixing", "finished"]
    if any(r.status == games.ROUND_REOPENED for r in rows):
        status = "fixing"
    elif current is None:
        status = "finished"
    else:
        status = "playing"
    return GamePublic(
        id=game.id,
        title=game.title,
        players=[PlayerPublic(seat=p.seat, name=p.name) for p in game.players],
        rounds=game.rounds,
        pass_both_ways=game.pass_both_ways,
        hand_size=games.rules_of(game).hand_size,
        version=game.version,
        status=status,
        current_round=current,
        round_states=[
            RoundSummary(number=r.number, status=r.status, version=r.version)  # type: ignore[arg-type]
            for r in rows
        ],
        created_at=utc(game.created_at),
        revision=revisions.game_revision(game),
        can_edit=can_edit,
    )


def game_created(game: Game, token: str) -> GameCreated:
    return GameCreated(**game_public(game, can_edit=True).model_dump(), edit_token=token)


def photo_url(game: Game, photo: Photo) -> str:
    return f"{game_url(game)}/photos/{photo.id}"


def photo_public(game: Game, photo: Photo) -> PhotoPublic:
    base = photo_url(game, photo)
    return PhotoPublic(
        id=photo.id,
        sha256=photo.sha256,
        media_type=photo.media_type,
        size_bytes=photo.size_bytes,
        width=photo.width,
        height=photo.height,
        detections=[DetectionPublic(**record) for record in photo.detections],
        author=photo.author,
        created_at=utc(photo.created_at),
        image_url=f"{base}/image",
        annotated_url=f"{base}/annotated.jpg",
    )


def collection_url(view: CollectionView) -> str:
    return f"{game_url(view.game)}/rounds/{view.round.number}/players/{view.player.seat}"


def hand_note(problems: list[Problem]) -> str | None:
    """The hand size check (scoring's problem, with the counts it found) in words: "8 of
    10 cards found"; None when the cards are the hand size."""
    for problem in problems:
        if problem.expected is None or problem.actual is None:
            continue
        if problem.code == ProblemCode.TOO_FEW_CARDS:
            return f"{problem.actual} of {problem.expected} cards found"
        if problem.code == ProblemCode.TOO_MANY_CARDS:
            return f"{problem.actual} cards found, {problem.expected} expected"
    return None


def earlier_public(view: CollectionView) -> list[EarlierReadingPublic]:
    """The readings later photos replaced, each as it stood then (for a restore)."""
    created = {event.seq: event.created_at for event in view.collection.events}
    readings = []
    for kept in view.earlier:
        state, photo = kept.reading.state, kept.photo
        base = None if photo is None else photo_url(view.game, photo)
        readings.append(
            EarlierReadingPublic(
                photo=None if photo is None else photo.id,
                image_url=None if base is None else f"{base}/image",
                annotated_url=None if base is None else f"{base}/annotated.jpg",
                taken_at=None if photo is None else utc(photo.created_at),
                status=state.status if state.status == "confirmed" else "draft",
                tally=TallyOut(**kept.assessment.tally.to_dict()),
                cards=kept.assessment.tally.cards,
                confirmed_tally=None
                if state.confirmed_tally is None or not state.confirmed
                else TallyOut(**_full(state.confirmed_tally)),
                corrections=len(state.undoable),
                replaced_at=utc(created[kept.reading.replaced_at]),
            )
        )
    return readings


def collection_public(view: CollectionView) -> CollectionPublic:
    state, assessment = view.state, view.assessment
    photo = view.photo
    return CollectionPublic(
        round=view.round.number,
        seat=view.player.seat,
        player=view.player.name,
        status=state.status,
        reviewed=state.reviewed,
        version=view.collection.version,
        round_status=view.round.status,  # type: ignore[arg-type]
        photo=None if photo is None else photo_public(view.game, photo),
        detections=[
            BoxPublic(
                id=box.id,
                label=box.label,
                confidence=round(box.confidence, 3),
                box=[round(v, 1) for v in box.box],
                source=box.source,
                detected_label=box.detected_label,
                counted=box.id in assessment.counted,
                left_out=box.left_out,
                stack_with=assessment.stack_with.get(box.id),
                check=box.id in assessment.to_check,
                asks=list(assessment.asks.get(box.id, ())),
                supposed=box.id in assessment.supposed,
            )
            for box in state.boxes.values()
        ],
        detected_tally=None
        if assessment.detected is None
        else TallyOut(**_full(assessment.detected)),
        counts=dict(state.counts),
        tally=TallyOut(**assessment.tally.to_dict()),
        cards=assessment.tally.cards,
        hand_size=games.rules_of(view.game).hand_size,
        hand_note=hand_note(assessment.problems),
        hand_supposed=assessment.hand_supposed,
        warnings=assessment.warnings,
        notes=assessment.notes,
        problems=[ProblemPublic(**rounds.problem_dict(view.game, p)) for p in view.problems],
        confirmed_tally=None
        if state.confirmed_tally is None or not state.confirmed
        else TallyOut(**_full(state.confirmed_tally)),
        can_undo=review.last_correction(state) is not None,
        annotated_url=None if photo is None else f"{collection_url(view)}/annotated.jpg",
        earlier=earlier_public(view),
    )


def _full(counts: dict[str, int]) -> dict[str, int]:
    return Tally.from_mapping(counts).to_dict()


def events_public(view: CollectionView) -> list[EventPublic]:
    return [
        EventPublic(
            seq=event.seq,
            kind=event.kind,
            payload=dict(event.payload),
            author=event.author,
            created_at=utc(event.created_at),
            undone=event.seq in view.state.undone,
        )
        for event in view.collection.events
    ]


def round_public(game: Game, row: Round, views: list[CollectionView]) -> RoundPublic:
    confirmed = [v for v in views if v.state.confirmed and v.state.confirmed_tally is not None]
    if len(confirmed) == len(views):
        problems = rounds.round_problems(game, row.number, views)
    else:
        problems = [
            *(p for v in views for p in v.assessment.problems),
            *rounds.same_photo_problems(views),
        ]
    record = rounds.latest_record(row)
    accepts = True
    try:
        games.require_open_round(game, row)
    except Conflict:
        accepts = False
    return RoundPublic(
        number=row.number,
        status=row.status,  # type: ignore[arg-type]
        version=row.version,
        accepts_entries=accepts,
        collections=[
            CollectionSummary(
                seat=v.player.seat,
                player=v.player.name,
                status=v.state.status,
                reviewed=v.state.reviewed,
                version=v.collection.version,
                tally=TallyOut(**v.assessment.tally.to_dict()),
                cards=v.assessment.tally.cards,
                hand_note=hand_note(v.assessment.problems),
                photo_id=v.state.photo_id,
            )
            for v in views
        ],
        problems=[ProblemPublic(**rounds.problem_dict(game, p)) for p in problems],
        record=None
        if record is None
        else RoundRecordPublic(
            tallies=[TallyOut(**_full(t)) for t in record.payload["tallies"]],
            scores=[RoundScorePublic(**s) for s in record.payload["scores"]],
            problems=[ProblemPublic(**p) for p in record.payload.get("problems", [])],
            accepted=bool(record.payload.get("accepted", False)),
            author=record.author,
            created_at=utc(record.created_at),
        ),
        history=[
            RoundEventPublic(
                kind=e.kind,  # type: ignore[arg-type]
                author=e.author,
                created_at=utc(e.created_at),
                accepted=bool(e.payload.get("accepted", False)),
            )
            for e in row.events
        ],
    )


def standings_public(game: Game, result: GameResult) -> StandingsPublic:
    body = result.to_dict()
    return StandingsPublic(
        **body,  # type: ignore[arg-type]
        rounds=game.rounds,
        reopened=[r.number for r in game.round_rows if r.status == games.ROUND_REOPENED],
        round_scores=[
            [RoundScorePublic(**s.to_dict()) for s in r.scores]  # type: ignore[arg-type]
            for r in result.round_results
        ],
    )
