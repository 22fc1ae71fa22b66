// What this phone remembers between visits (localStorage): each game's edit token and the
// games it started or opened.

export const memory = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      /* private mode: the link still carries the token */
    }
  },
  token(gameId) {
    return this.get(`sushigo:token:${gameId}`);
  },
  setToken(gameId, token) {
    this.set(`sushigo:token:${gameId}`, token);
  },
  recent() {
    try {
      return JSON.parse(this.get("sushigo:recent") || "[]");
    } catch {
      return [];
    }
  },
  // A game this phone started or opened, as it last saw it: enough to list it on the
  // home page (title, players, date, the winner once finished) and to reopen it on the
  // screen it was on. Only this phone's storage holds it: no one else sees the list.
  remember(game, standings = null, route = null) {
    const previous = this.recent().find((g) => g.id === game.id);
    const complete = Boolean(standings?.complete);
    const top = complete ? standings.players.find((p) => p.name === standings.winners[0]) : null;
    const entry = {
      id: game.id,
      title: game.title,
      players: game.players.map((p) => p.name),
      created: game.created_at || previous?.created || new Date().toISOString(),
      at: new Date().toISOString(),
      status: game.status,
      rounds: game.rounds,
      played: standings ? standings.rounds_played : (previous?.played ?? 0),
      winners: complete ? standings.winners : [],
      points: top ? top.total : null,
      route: route ? { round: route.round, seat: route.seat } : (previous?.route ?? null),
    };
    const others = this.recent().filter((g) => g.id !== game.id);
    this.set("sushigo:recent", JSON.stringify([entry, ...others].slice(0, 20)));
  },
};
