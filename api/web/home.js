// The home page: start a game, join one by code or link, the games this phone knows and
// its players' statistics.

import { Api, ApiError } from "./api.js";
import { HAND_SIZE, MAX_ROUNDS, NAME_LENGTH } from "./cards.js";
import { formatAverage, playerStats } from "./stats.js";
import { h, listNames, plural, scrolling, show } from "./dom.js";
import { memory } from "./memory.js";
import { GAME_ID, app, go, routeUrl, typedCode } from "./state.js";

// `missing`: the code of a game that was not found, said beside "Join a game" (where it
// was typed) and left in its field to mend.
export function renderHome(missing = null) {
  document.title = "Sushi Go! scorer";
  const names = h("div", { class: "names" });
  const rounds = h("select", { name: "rounds", id: "rounds", "data-testid": "rounds" });
  const addButton = h("button", { type: "button", class: "button", onclick: () => addName() }, "+ Add a player");

  const refresh = () => {
    const inputs = names.querySelectorAll("input");
    addButton.hidden = inputs.length >= 5;
    names.querySelectorAll(".remove").forEach((b) => (b.hidden = inputs.length <= 2));
    const players = inputs.length;
    const chosen = Number(rounds.value || 3);
    rounds.replaceChildren(
      ...[3, 4, 5]
        .filter((n) => n <= MAX_ROUNDS[players])
        .map((n) =>
          h("option", { value: n, selected: n === chosen }, n === 3 ? "3 (standard)" : `${n} (variant)`),
        ),
    );
    hand.textContent = `${players} players: ${HAND_SIZE[players]} cards each per round.`;
  };
  const addName = (value = "") => {
    const index = names.children.length + 1;
    const row = h(
      "div",
      { class: "name-row" },
      h("input", {
        type: "text",
        name: "player",
        value,
        required: true,
        maxlength: NAME_LENGTH,
        autocomplete: "off",
        oninput: () => sayCut(),
        "aria-label": `Player ${index}`,
        placeholder: `Player ${index}`,
        "data-testid": `player-name-${index}`,
      }),
      h(
        "button",
        {
          type: "button",
          class: "button remove",
          "aria-label": `Remove player ${index}`,
          onclick: () => {
            row.remove();
            refresh();
          },
        },
        "×",
      ),
    );
    names.append(row);
    refresh();
    return row;
  };
  const hand = h("p", { class: "hint" });
  // A name at the limit is said so: a long one had been cut at 40 without a word.
  const cut = h("p", { class: "hint", hidden: true, "data-testid": "name-limit" }, `A name holds at most ${NAME_LENGTH} characters.`);
  const sayCut = () => {
    cut.hidden = ![...names.querySelectorAll("input")].some((input) => input.value.length >= NAME_LENGTH);
  };
  const error = h("p", { class: "error", role: "alert", hidden: true, "data-testid": "start-error" });

  // The names as the server would refuse them: left empty, or given twice ("Ana" and
  // "ANA", "Cy" and a fullwidth "Ｃy", are one name: scoring.names.name_key).
  const wrongNames = () => {
    const inputs = [...names.querySelectorAll("input")];
    const key = (input) => input.value.trim().normalize("NFKC").toLowerCase();
    return {
      blank: inputs.filter((i) => !i.value.trim()),
      twice: inputs.filter((i) => i.value.trim() && inputs.some((o) => o !== i && key(o) === key(i))),
    };
  };
  // The fields to mend are marked and the first one focused, beside the words saying why.
  const refuse = (fields, text) => {
    for (const field of fields) field.setAttribute("aria-invalid", "true");
    error.textContent = text;
    error.hidden = false;
    fields[0].focus();
  };
  // A field no longer wrong loses its mark (a name given twice, both fields, once either
  // is mended), and the words go with the last mark.
  names.addEventListener("input", () => {
    const { blank, twice } = wrongNames();
    for (const field of names.querySelectorAll('[aria-invalid="true"]')) {
      if (!blank.includes(field) && !twice.includes(field)) field.removeAttribute("aria-invalid");
    }
    if (!names.querySelector('[aria-invalid="true"]')) error.hidden = true;
  });

  const start = async (event) => {
    event.preventDefault();
    const inputs = [...names.querySelectorAll("input")];
    const players = inputs.map((i) => i.value.trim());
    for (const input of inputs) input.removeAttribute("aria-invalid");
    const { blank, twice } = wrongNames();
    if (blank.length) {
      refuse(blank, "Give every player a name (or remove the empty row).");
      return;
    }
    if (twice.length) {
      refuse(twice, `Two players are called ${twice[0].value.trim()}: make the names different.`);
      return;
    }
    const button = event.target.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const title = event.target.title.value.trim() || null;
      const game = await Api.createGame({ players, rounds: Number(rounds.value), title });
      memory.setToken(game.id, game.edit_token);
      memory.remember(game);
      app.showShare = "new game"; // open until the game has started
      await go({ game: game.id });
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      button.disabled = false;
    }
  };

  const join = async (event) => {
    event.preventDefault();
    const text = event.target.code.value.trim();
    let id = text;
    let token = null;
    let typed = null;
    try {
      const url = new URL(text);
      id = url.searchParams.get("game") || "";
      token = new URLSearchParams(url.hash.replace(/^#/, "")).get("edit");
    } catch {
      typed = typedCode(text); // a bare code, typed by eye
    }
    if (!GAME_ID.test(id) && !typed) {
      joinError.textContent = "That is not a game code or link.";
      joinError.hidden = false;
      return;
    }
    if (typed && typed !== id) id = GAME_ID.test(id) ? await foundOf(id, typed) : typed;
    if (token) memory.setToken(id, token);
    go({ game: id });
  };
  const joinError = h(
    "p",
    { class: "error", role: "alert", hidden: !missing, "data-testid": "join-error" },
    missing ? `There is no game with the code ${missing}. Check the code or link.` : "",
  );

  const recent = memory.recent();
  show(
    h(
      "section",
      { class: "panel intro" },
      h("h1", {}, "Score Sushi Go! from photos"),
      h(
        "p",
        {},
        "After each round, photograph each player's cards. The page finds the cards, lets you fix anything it got wrong, and keeps the score, pudding included.",
      ),
    ),
    // A phone that has games goes back to one more often than it starts one.
    recent.length ? recentGames(recent) : null,
    recent.length ? playerStatsPanel(recent) : null,
    h(
      "form",
      // The page's own checks say which name is wrong, not the browser's bubble.
      { class: "panel", onsubmit: start, novalidate: true, "data-testid": "new-game" },
      h("h2", {}, "New game"),
      h("fieldset", {}, h("legend", {}, "Players, in seat order"), names, cut, addButton, hand),
      h("label", { for: "rounds", class: "field" }, "Rounds", rounds),
      h(
        "label",
        { class: "field" },
        "Name of the game (optional)",
        h("input", { type: "text", name: "title", maxlength: 120, placeholder: "Friday night" }),
      ),
      error,
      h("button", { type: "submit", class: "button primary wide", "data-testid": "start-game" }, "Start game"),
    ),
    h(
      "form",
      { class: "panel", onsubmit: join },
      h("h2", {}, "Join a game"),
      h(
        "label",
        { class: "field" },
        "Game code or link",
        h("input", {
          type: "text",
          name: "code",
          autocomplete: "off",
          required: true,
          value: missing ?? "",
          "data-testid": "join-code",
        }),
      ),
      joinError,
      h("button", { type: "submit", class: "button wide", "data-testid": "join" }, "Open the game"),
    ),
  );
  addName();
  addName();
  // After the navigation that found no game has opened the page at its top.
  if (missing) requestAnimationFrame(() => joinError.scrollIntoView({ block: "center" }));
}

// The games this phone started or opened, newest first, each a link back to where it was.
function recentGames(recent) {
  const day = (iso) => new Date(iso).toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" });
  const state = (g) => {
    if (g.winners?.length) {
      const points = g.points === null ? "" : ` with ${plural(g.points, "point")}`;
      return g.winners.length === 1 ? `${g.winners[0]} won${points}` : `${listNames(g.winners)} shared the win${points}`;
    }
    if (g.status === "fixing") return "A round is being fixed";
    if (g.status === "finished") return "Finished";
    return g.played ? `${plural(g.played, "round")} of ${g.rounds} played` : "Not started";
  };
  return h(
    "section",
    { class: "panel", "data-testid": "recent-games" },
    h("h2", {}, "Games on this phone"),
    h(
      "ul",
      { class: "recent" },
      recent.map((g) =>
        h(
          "li",
          {},
          h(
            "a",
            { href: routeUrl({ game: g.id, ...(g.route || {}) }), class: "recent-game", "data-testid": `recent-${g.id}` },
            h("strong", { class: "recent-title" }, g.title || listNames(g.players)),
            g.title ? h("span", { class: "recent-players" }, listNames(g.players)) : null,
            h(
              "span",
              { class: "recent-state" },
              h("span", { class: g.winners?.length ? "recent-winner" : "" }, state(g)),
              ` · ${day(g.created || g.at)}`,
              // Opened from a shared link or code: this phone can look, not change it.
              memory.token(g.id) ? "" : " · view only",
            ),
          ),
        ),
      ),
    ),
  );
}

// Who played more than one of the finished games listed above: games, wins, average and
// best total. Each listed game's standings come from the server (a game may have been
// finished on another phone since this one saw it); a game not listed here never counts.
// The panel stays hidden until some name has played two finished games.
function playerStatsPanel(recent) {
  const body = h("tbody");
  const caption = h("p", { class: "hint" });
  const panel = h(
    "section",
    { class: "panel", "data-testid": "player-stats", hidden: true },
    h("h2", {}, "Players across these games"),
    caption,
    scrolling(
      h(
        "table",
        { class: "scores stats-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Player"),
            h("th", { scope: "col" }, "Games"),
            h("th", { scope: "col" }, "Wins"),
            h("th", { scope: "col" }, "Average"),
            h("th", { scope: "col" }, "Best"),
          ),
        ),
        body,
      ),
    ),
  );
  app.loading += 1;
  Promise.all(recent.map((g) => new Api(g.id).readStandings().catch(() => null)))
    .then((all) => {
      const finished = all.filter((st) => st?.complete);
      const rows = playerStats(finished);
      if (!rows.length) return;
      const missing = all.filter((st) => st === null).length;
      caption.textContent =
        `From the ${plural(finished.length, "finished game")} on this phone, for names that played more than one` +
        (missing ? ` (${plural(missing, "game")} could not be read just now).` : ".");
      body.replaceChildren(
        ...rows.map((row, i) =>
          h(
            "tr",
            { "data-testid": `stat-${i + 1}` },
            h("th", { scope: "row", "data-col": "name" }, row.name),
            h("td", { "data-col": "games" }, row.games),
            h("td", { "data-col": "wins" }, row.wins),
            h("td", { "data-col": "average" }, formatAverage(row.average)),
            h("td", { "data-col": "best", class: "total" }, row.best),
          ),
        ),
      );
      panel.hidden = false;
    })
    .finally(() => {
      app.loading -= 1;
    });
  return panel;
}

// Of a code as typed and as read by eye (typedCode), the one a game has: an older game's
// code may hold capitals and look-alikes of its own. As typed where neither is known.
async function foundOf(asTyped, read) {
  for (const id of [asTyped, read]) {
    try {
      await new Api(id).readGame();
      return id;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) break;
    }
  }
  return asTyped;
}
