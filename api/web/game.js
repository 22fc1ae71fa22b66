// A game's screen: its head, the share panel, the round tabs, the round (its players,
// record, re-open) and the standings. render draws whichever screen the route names.

import { BREAKDOWN, CATEGORIES, HAND_SIZE, SEAT_COLOURS, handCount, inWords } from "./cards.js";
import { totalsChart } from "./chart.js";
import { h, listNames, plural, scrolling, showInPlace } from "./dom.js";
import { app, canEdit, go, routeUrl, shownCode } from "./state.js";
import { snapshot } from "./loading.js";
import { recordRound, reopenRound } from "./writes.js";
import { photoInputs } from "./upload.js";
import { reviewScreen } from "./review.js";

export function render() {
  if (!app.game) return;
  app.renderedData = snapshot();
  const game = app.game;
  document.title = `${game.title || "Sushi Go!"} · scorer`;
  // The player's place kept (the browser's own scroll anchoring, off in style.css, had
  // moved the page by the photo's height).
  showInPlace(app.touched, () => (app.route.seat && app.collection ? reviewScreen() : gameScreen()));
}

function gameHeader() {
  const game = app.game;
  const names = game.players.map((p) => p.name);
  return h(
    "section",
    { class: "game-head" },
    h(
      "div",
      {},
      h("h1", {}, game.title || listNames(names)),
      h(
        "p",
        { class: "hint" },
        `${plural(game.rounds, "round")} · ${HAND_SIZE[names.length]} cards per hand · code `,
        h("strong", { class: "code", "data-testid": "game-code" }, shownCode(game.id)),
        canEdit() ? null : h("span", { class: "chip muted", "data-testid": "view-only" }, "view only"),
      ),
    ),
    h(
      "button",
      {
        class: "button",
        "aria-expanded": String(Boolean(app.showShare)),
        "data-testid": "share",
        onclick: () => {
          app.showShare = !app.showShare;
          render();
        },
      },
      "Share",
    ),
  );
}

function sharePanel() {
  const game = app.game;
  const base = `${location.origin}${routeUrl({ game: game.id })}`;
  const copy = async (text, button) => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.previousSibling?.select?.();
      button.textContent = "Select and copy";
    }
  };
  const linkRow = (label, text, testid) => {
    const field = h("input", { type: "text", readonly: true, value: text, "data-testid": testid });
    const button = h("button", { class: "button", type: "button" }, "Copy");
    button.addEventListener("click", () => copy(text, button));
    field.addEventListener("focus", () => field.select());
    return h("label", { class: "field" }, label, h("div", { class: "copy-row" }, field, button));
  };
  return h(
    "section",
    { class: "panel share", "data-testid": "share-panel" },
    h("h2", {}, "Share this game"),
    h("p", {}, "Game code: ", h("strong", { class: "code big" }, shownCode(game.id))),
    canEdit()
      ? linkRow(
          "Edit link: anyone with it can take photos and change scores",
          `${base}#edit=${encodeURIComponent(app.api.token)}`,
          "edit-link",
        )
      : h("p", { class: "hint" }, "This phone can only follow the game. To change it, open the edit link from the phone that started it."),
    linkRow("View link: follows the scores, changes nothing", base, "view-link"),
    navigator.share && canEdit()
      ? h(
          "button",
          {
            class: "button",
            onclick: () =>
              navigator
                .share({ title: "Sushi Go! game", url: `${base}#edit=${encodeURIComponent(app.api.token)}` })
                .catch(() => {}),
          },
          "Send the edit link…",
        )
      : null,
  );
}

function roundTabs(selected) {
  const game = app.game;
  return h(
    "nav",
    { class: "tabs", "aria-label": "Rounds" },
    game.round_states.map((r) =>
      h(
        "button",
        {
          class: `tab ${r.status}`,
          "aria-current": r.number === selected ? "page" : null,
          "data-testid": `round-tab-${r.number}`,
          onclick: () => go({ game: game.id, round: r.number }),
        },
        `Round ${r.number}`,
        h(
          "small",
          {},
          r.status === "recorded" ? "recorded" : r.status === "reopened" ? "fixing" : r.number === game.current_round ? "now" : "later",
        ),
      ),
    ),
  );
}

function gameScreen() {
  const game = app.game;
  const round = app.round;
  // A new game opens with its share panel open; once the game has started it folds
  // behind the Share button, so that the players' camera buttons are on the first
  // screen of a phone passed around the table (one tap opens it again).
  if (app.showShare === "new game" && started(game, round)) app.showShare = false;
  const parts = [gameHeader()];
  if (app.showShare) parts.push(sharePanel());
  parts.push(roundTabs(round.number));
  const finished = game.status === "finished" && !app.route.round;
  // Side by side on a desktop (style.css), one above the other on a phone.
  const pair = finished ? [standingsPanel(), roundPanel(round)] : [roundPanel(round), standingsPanel()];
  parts.push(h("div", { class: "round-and-standings" }, pair));
  return parts;
}

// A photo taken or a count entered in the round shown, or a round past its start.
function started(game, round) {
  return (
    game.round_states.some((r) => r.status !== "open") ||
    round.collections.some((c) => c.status !== "empty")
  );
}

function statusText(summary, hand) {
  if (summary.status === "empty") return "No photo yet";
  const cards = handCount(summary.cards, hand);
  return summary.status === "confirmed" ? `Confirmed · ${cards}` : `To review · ${cards}`;
}

function roundPanel(round) {
  const game = app.game;
  const hand = game.hand_size;
  const edit = canEdit();
  const panel = h("section", { class: "panel round", "data-testid": "round-panel" });
  const title = h("h2", {}, `Round ${round.number} of ${game.rounds}`);
  panel.append(title);

  if (round.status === "reopened") {
    panel.append(
      h(
        "p",
        { class: "banner warn" },
        `Round ${round.number} is open for fixing. Its last record keeps counting until you record it again.`,
      ),
    );
  }

  if (!round.accepts_entries && round.status === "open") {
    const first = game.round_states.find((r) => r.status === "open");
    panel.append(
      h("p", { class: "hint" }, `This round starts once round ${first ? first.number : round.number - 1} is recorded.`),
    );
    return panel;
  }

  if (round.status === "recorded" && round.record) {
    panel.append(roundScores(round));
    if (edit) {
      if (app.confirmReopen) {
        panel.append(
          h(
            "div",
            { class: "confirm-box" },
            h("p", {}, `Re-open round ${round.number} to fix it? Its scores keep counting until you record it again.`),
            h(
              "div",
              { class: "actions" },
              h(
                "button",
                { class: "button primary", "data-testid": "reopen-yes", "data-autofocus": true, onclick: () => reopenRound() },
                "Re-open",
              ),
              h(
                "button",
                {
                  class: "button",
                  onclick: () => {
                    app.confirmReopen = false;
                    render();
                  },
                },
                "Cancel",
              ),
            ),
          ),
        );
      } else {
        panel.append(
          h(
            "button",
            {
              class: "button",
              "data-testid": "reopen",
              onclick: () => {
                app.confirmReopen = true;
                render();
              },
            },
            "Fix this round",
          ),
        );
      }
    }
    const next = game.round_states.find((r) => r.number === round.number + 1);
    if (next && next.status !== "recorded" && game.current_round === next.number) {
      panel.append(
        h(
          "button",
          { class: "button primary wide", "data-testid": "next-round", onclick: () => go({ game: game.id, round: next.number }) },
          `Go to round ${next.number}`,
        ),
      );
    }
    return panel;
  }

  // The round takes entries: one row per player.
  const list = h("ul", { class: "players" });
  for (const summary of round.collections) {
    const colour = SEAT_COLOURS[(summary.seat - 1) % SEAT_COLOURS.length];
    const review = () => go({ game: game.id, round: round.number, seat: summary.seat });
    list.append(
      h(
        "li",
        { class: `player ${summary.status}`, "data-testid": `player-${summary.seat}` },
        h(
          "div",
          { class: "who" },
          h("span", { class: "dot", style: `background:${colour}` }),
          h("strong", {}, summary.player),
          h(
            "span",
            {
              class: `chip ${summary.status === "confirmed" ? "ok" : summary.status === "draft" ? "warn" : "muted"}`,
              "data-testid": `player-status-${summary.seat}`,
            },
            statusText(summary, hand),
          ),
        ),
        h(
          "div",
          { class: "actions" },
          edit ? photoInputs(round.number, summary.seat, summary.player, { compact: true }) : null,
          summary.status === "empty"
            ? edit
              ? h("button", { class: "button compact", onclick: review }, "Count by hand")
              : null
            : h(
                "button",
                { class: "button compact", "data-testid": `review-${summary.seat}`, onclick: review },
                summary.status === "confirmed" ? "See cards" : "Review",
              ),
        ),
      ),
    );
  }
  panel.append(list);

  const confirmed = round.collections.filter((c) => c.status === "confirmed").length;
  const all = round.collections.length;
  // Once Record was refused, its box says the problems (the round's as they stand now, a
  // poll may have brought changes): not a second list above it.
  const refused = app.recordProblems && round.problems.length ? round.problems : null;
  if (round.problems.length && confirmed === all && !refused) {
    panel.append(problemList(round.problems));
  }
  if (refused) {
    panel.append(
      h(
        "div",
        { class: "banner error", role: "alert", "data-testid": "record-problems" },
        h("p", {}, "This round does not add up:"),
        problemList(refused),
        h(
          "p",
          {},
          "Fix the cards, or record it as it is if the photos are right (a misdeal, a house rule).",
        ),
        h(
          "button",
          { class: "button danger", "data-testid": "record-anyway", "data-autofocus": true, onclick: () => recordRound(true) },
          "Record anyway",
        ),
      ),
    );
  }
  // Once refused, "Record anyway" is the one way on: a second press of Record changed
  // nothing on the screen.
  if (edit && !refused) {
    panel.append(
      h(
        "button",
        {
          class: "button primary wide",
          disabled: confirmed < all,
          "data-testid": "record-round",
          onclick: () => recordRound(false),
        },
        confirmed < all
          ? `Record round ${round.number} (${confirmed} of ${all} confirmed)`
          : round.status === "reopened"
            ? `Record round ${round.number} again`
            : `Record round ${round.number}`,
      ),
    );
  }
  return panel;
}

function problemList(problems) {
  return h(
    "ul",
    { class: "problems" },
    problems.map((p) => h("li", { class: p.severity }, inWords(p.message))),
  );
}

function roundScores(round) {
  const game = app.game;
  const scores = round.record.scores;
  const table = h(
    "table",
    { class: "scores", "data-testid": "round-scores" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, "Points"), game.players.map((p) => h("th", { scope: "col" }, p.name))),
    ),
    h(
      "tbody",
      {},
      BREAKDOWN.map((line) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, line.name),
          scores.map((score) => h("td", {}, score.breakdown[line.key])),
        ),
      ),
      h(
        "tr",
        { class: "total" },
        h("th", { scope: "row" }, "Round total"),
        scores.map((score, i) => h("td", { "data-testid": `round-total-${i + 1}` }, score.total)),
      ),
      h(
        "tr",
        {},
        h("th", { scope: "row" }, "Puddings kept"),
        round.record.tallies.map((t) => h("td", {}, t.pudding)),
      ),
    ),
  );
  const tallies = h(
    "details",
    { class: "tallies", "data-testid": "cards-counted" },
    h("summary", {}, "Cards counted"),
    scrolling(
      h(
        "table",
        { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, "Cards"), game.players.map((p) => h("th", {}, p.name)))),
        h(
          "tbody",
          {},
          CATEGORIES.map((c) =>
            h("tr", {}, h("th", { scope: "row" }, c.name), round.record.tallies.map((t) => h("td", {}, t[c.key]))),
          ),
        ),
      ),
    ),
    h(
      "div",
      { class: "actions" },
      round.collections.map((c) =>
        h(
          "button",
          {
            class: "button compact",
            "data-testid": `recorded-photo-${c.seat}`,
            onclick: () => go({ game: game.id, round: round.number, seat: c.seat }),
          },
          `${c.player}'s photo`,
        ),
      ),
    ),
  );
  return h(
    "div",
    {},
    // What was accepted, said: "did not add up" alone left a table asking what.
    round.record.accepted
      ? h(
          "div",
          { class: "banner warn", "data-testid": "record-accepted" },
          h("p", {}, "Recorded as it was, though it did not add up:"),
          problemList(round.record.problems.filter((p) => p.severity === "error")),
        )
      : null,
    scrolling(table),
    tallies,
  );
}

// Each player with their seat (from 0): in place order once the game is complete.
function seated(st) {
  const rows = st.players.map((p, i) => [p, i]);
  return st.complete ? rows.sort((a, b) => a[0].place - b[0].place) : rows;
}

// The seat's dot with the place in it: "1", or "=2" where two players share second place
// (level on points and puddings). In the dot, the place costs the table no width.
function placeMark(place, players, colour) {
  const shared = players.filter((p) => p.place === place).length > 1;
  return h(
    "span",
    { class: "dot place", style: `background:${colour}`, title: shared ? `Shared place ${place}` : `Place ${place}` },
    `${shared ? "=" : ""}${place}`,
  );
}

// The longest name (in characters) a phone shows beside its points in the standings,
// 2.4 em of bold text at 320 px (style.css): "Ana" fits, "Emma" (59 px) did not. A longer
// one puts every name on a line of its own.
const NAME_BESIDE = 3;

function standingsPanel() {
  const game = app.game;
  const st = app.standings;
  const panel = h("section", { class: "panel standings", "data-testid": "standings" });
  panel.append(
    h(
      "h2",
      {},
      st.complete ? "Final results" : st.rounds_played ? `Standings after round ${st.rounds_played}` : "Standings",
    ),
  );
  if (st.complete && st.winners.length) {
    const top = st.players.find((p) => p.name === st.winners[0]);
    panel.append(
      h(
        "p",
        { class: "winner", "data-testid": "winner" },
        st.winners.length === 1
          ? `${st.winners[0]} wins with ${plural(top.total, "point")}!`
          : `${listNames(st.winners)} share the win with ${plural(top.total, "point")}!`,
      ),
    );
    const level = levelWith(st, st.winners);
    if (level.length) {
      // The puddings that decided it, in words: on a 320 px phone the table's pudding
      // column lay scrolled out of sight under the totals.
      const kept = [...st.winners, ...level].map((name) => {
        const puddings = st.players.find((p) => p.name === name).puddings;
        return `${name} ${plural(puddings, "pudding")}`;
      });
      panel.append(
        h(
          "p",
          { class: "hint", "data-testid": "tie-break" },
          `Tied on points: the most puddings breaks the tie (${listNames(kept)}).`,
        ),
      );
    }
  } else if (!st.rounds_played) {
    panel.append(h("p", { class: "hint" }, "Scores appear here once round 1 is recorded."));
    return panel;
  } else if (st.leaders.length) {
    // Level on points, the one with more puddings leads: said, or "Leading: Cam" beside
    // Ana on the same total reads as a mistake.
    const level = levelWith(st, st.leaders);
    const tied = level.length ? `, level on points with ${listNames(level)} but with more puddings` : "";
    panel.append(
      h(
        "p",
        { class: "hint", "data-testid": "leading" },
        `Leading: ${listNames(st.leaders)}${tied}. Pudding is scored after the last round.`,
      ),
    );
  }
  if (st.reopened.length) {
    panel.append(
      h("p", { class: "banner warn" }, `Round ${st.reopened.join(", ")} is being fixed: the scores use its last record.`),
    );
  }
  const roundHeads = [];
  for (let r = 1; r <= game.rounds; r += 1) {
    roundHeads.push(
      h(
        "th",
        { scope: "col" },
        r <= st.rounds_played
          ? h("button", { class: "link", onclick: () => go({ game: game.id, round: r }), title: `Open round ${r}` }, `R${r}`)
          : `R${r}`,
      ),
    );
  }
  const table = h(
    "table",
    {
      class: `scores standings-table${st.players.some((p) => p.name.length > NAME_BESIDE) ? " long-names" : ""}`,
      "data-testid": "standings-table",
    },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Player"),
        roundHeads,
        // "Pud." on a small phone (style.css), "Pudding" still read aloud.
        h("th", { scope: "col", "data-col": "dessert" }, h("span", { class: "long" }, "Pudding"), h("span", { class: "short", "aria-hidden": "true" }, "Pud.")),
        h("th", { scope: "col", "data-col": "total" }, "Total"),
      ),
    ),
    h(
      "tbody",
      {},
      // The final results stand in place order (the scoring engine's places: points, then
      // puddings); until then, seat order. A row keeps its seat's colour and test id.
      seated(st).flatMap(([p, i]) => {
        const colour = SEAT_COLOURS[i % SEAT_COLOURS.length];
        const cells = [];
        for (let r = 0; r < game.rounds; r += 1) {
          cells.push(h("td", { "data-col": `r${r + 1}` }, r < p.rounds.length ? p.rounds[r] : "–"));
        }
        const dessert = st.complete
          ? `${p.dessert > 0 ? "+" : p.dessert < 0 ? "−" : ""}${Math.abs(p.dessert)} (${p.puddings})`
          : `(${p.puddings})`;
        const win = st.winners.includes(p.name) ? "win" : "";
        // On a phone a long name stands whole on a line of its own above its points
        // (style.css): beside them it kept two to five letters ("Si…", "Siob…").
        const nameLine = h(
          "tr",
          { class: `name-line ${win}`, "aria-hidden": "true", "data-testid": `name-line-${i + 1}` },
          h("td", { colspan: game.rounds + 3 }, h("span", { class: "name" }, p.name)),
        );
        return [nameLine, h(
          "tr",
          {
            class: win,
            "data-testid": `standing-${i + 1}`,
            "data-place": st.complete ? p.place : null,
          },
          h(
            "th",
            { scope: "row", title: p.name },
            st.complete
              ? placeMark(p.place, st.players, colour)
              : h("span", { class: "dot", style: `background:${colour}` }),
            h("span", { class: "name" }, p.name),
          ),
          cells,
          h("td", { "data-col": "dessert", "data-points": p.dessert, "data-puddings": p.puddings }, dessert),
          h("td", { "data-col": "total", class: "total" }, p.total),
        )];
      }),
    ),
  );
  panel.append(
    scrolling(table),
    h(
      "p",
      { class: "hint" },
      !st.complete
        ? "Pudding: puddings kept so far; scored after the last round."
        : new Set(st.players.map((p) => p.puddings)).size === 1
          ? "Pudding: points (puddings kept). Everyone kept as many puddings: nobody gains or loses points."
          : "Pudding: points (puddings kept). Most puddings +6, fewest −6 (not with 2 players); ties split.",
    ),
    // The score sheet for a spreadsheet: rounds, dessert, totals (the view link reads it).
    h(
      "p",
      { class: "sheet-row" },
      h(
        "a",
        {
          class: "button",
          href: `/api/v1/games/${encodeURIComponent(game.id)}/sheet.csv`,
          download: true,
          "data-testid": "sheet-link",
        },
        "Score sheet (CSV)",
      ),
    ),
  );
  const chart = totalsChart(st);
  if (chart) {
    panel.append(
      h(
        "figure",
        { class: "chart-box" },
        chart,
        h(
          "figcaption",
          { class: "legend" },
          st.players.map((p, i) =>
            h("span", {}, h("span", { class: "dot", style: `background:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` }), `${p.name} ${p.total}`),
          ),
        ),
      ),
    );
  }
  return panel;
}

// Who has the best total without being `ahead`: those the pudding tie-break put behind.
function levelWith(st, ahead) {
  const best = Math.max(...st.players.map((p) => p.total));
  return st.players.filter((p) => p.total === best && !ahead.includes(p.name)).map((p) => p.name);
}
