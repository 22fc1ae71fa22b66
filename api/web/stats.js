// Per-player statistics across the finished games this phone lists on its home page
// (issue 30): games, wins, average and best total, for the names that come back in more
// than one game. Only games this phone was given go in: the caller reads each listed
// game's standings (GET /api/v1/games/{id}/standings) and passes them here.

// A name as the same person is written at another game: spaces around it and letter
// case do not matter ("ana " is "Ana"). Upper then lower case folds more than lower case
// alone does ("Straße" and "STRASSE" meet).
export function nameKey(name) {
  return String(name).trim().normalize("NFKC").toUpperCase().toLowerCase();
}

// standings: the bodies of finished games, newest first. Returns one row per name that
// played at least `least` of them, most games first, then most wins, then best average:
// { name (as last written), games, wins, average, best }.
export function playerStats(standings, least = 2) {
  const byName = new Map();
  for (const st of standings) {
    if (!st?.complete) continue;
    const winners = new Set((st.winners || []).map(nameKey));
    const seen = new Set(); // a game counts once for a name
    for (const player of st.players || []) {
      const key = nameKey(player.name);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const row = byName.get(key) || { name: player.name.trim(), games: 0, wins: 0, sum: 0, best: null };
      row.games += 1;
      row.wins += winners.has(key) ? 1 : 0;
      row.sum += player.total;
      row.best = row.best === null ? player.total : Math.max(row.best, player.total);
      byName.set(key, row);
    }
  }
  return [...byName.values()]
    .filter((row) => row.games >= least)
    .map(({ name, games, wins, sum, best }) => ({ name, games, wins, average: sum / games, best }))
    .sort((a, b) => b.games - a.games || b.wins - a.wins || b.average - a.average);
}

// An average as a table shows it: whole numbers bare, others to one decimal ("41.5").
export function formatAverage(value) {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}
