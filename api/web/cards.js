// The 15 tally keys (the contract's order), how people call them, and box colours.
// The detector finds the twelve card kinds; a person may also label one box as a whole
// stack (a nigiri lying on its wasabi).

export const CATEGORIES = [
  { key: "tempura", name: "Tempura", short: "Tempura", colour: "#e69f00", group: "Dishes" },
  { key: "sashimi", name: "Sashimi", short: "Sashimi", colour: "#009e73", group: "Dishes" },
  { key: "dumpling", name: "Dumpling", short: "Dumpling", colour: "#56b4e9", group: "Dishes" },
  { key: "maki_1", name: "Maki, 1 roll", short: "Maki 1", colour: "#d55e00", group: "Maki rolls" },
  { key: "maki_2", name: "Maki, 2 rolls", short: "Maki 2", colour: "#c0392b", group: "Maki rolls" },
  { key: "maki_3", name: "Maki, 3 rolls", short: "Maki 3", colour: "#8e1b10", group: "Maki rolls" },
  { key: "egg", name: "Egg nigiri", short: "Egg", colour: "#c9a800", group: "Nigiri" },
  { key: "salmon", name: "Salmon nigiri", short: "Salmon", colour: "#f07c5a", group: "Nigiri" },
  { key: "squid", name: "Squid nigiri", short: "Squid", colour: "#7f8c9a", group: "Nigiri" },
  { key: "egg_on_wasabi", name: "Egg on wasabi", short: "Egg on wasabi", colour: "#9a8a00", group: "Nigiri on wasabi" },
  { key: "salmon_on_wasabi", name: "Salmon on wasabi", short: "Salmon on wasabi", colour: "#c2553a", group: "Nigiri on wasabi" },
  { key: "squid_on_wasabi", name: "Squid on wasabi", short: "Squid on wasabi", colour: "#52606d", group: "Nigiri on wasabi" },
  { key: "wasabi", name: "Wasabi (no nigiri on it)", short: "Wasabi", colour: "#3f9b35", group: "Other" },
  { key: "chopsticks", name: "Chopsticks", short: "Chopsticks", colour: "#8d6e63", group: "Other" },
  { key: "pudding", name: "Pudding", short: "Pudding", colour: "#cc79a7", group: "Other" },
];

export const BY_KEY = Object.fromEntries(CATEGORIES.map((c) => [c.key, c]));

export function categoryName(key) {
  return BY_KEY[key]?.name ?? inWords(key);
}

// A box's card as a player calls it: a box labelled wasabi is just "Wasabi" (whether a
// nigiri lies on it is the stack's business), a stack "Salmon on wasabi".
export function boxName(key) {
  if (key === "wasabi") return "Wasabi";
  return BY_KEY[key]?.name ?? inWords(key);
}

// A box's card on its tag over the photo, where room is short: "Squid", "Maki 2".
export function tagName(key) {
  return BY_KEY[key]?.short ?? inWords(key);
}

// The server's sentences name cards by their tally keys (squid_on_wasabi, maki_2): the
// same sentence with the keys in words, its first letter a capital.
const KEYS = /\b(?:egg|salmon|squid)_on_wasabi\b|\bmaki_[123]\b/g;

export function inWords(text) {
  const words = String(text).replace(KEYS, (key) => key.replaceAll("_", " "));
  return words ? words[0].toUpperCase() + words.slice(1) : words;
}

// Per-round score lines, as the API's breakdown names them.
export const BREAKDOWN = [
  { key: "maki", name: "Maki" },
  { key: "tempura", name: "Tempura" },
  { key: "sashimi", name: "Sashimi" },
  { key: "dumpling", name: "Dumpling" },
  { key: "nigiri", name: "Nigiri (wasabi incl.)" },
];

// One colour per seat (Okabe-Ito, safe for colour-blind players).
export const SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00"];

// The most rounds the 108-card deck deals, by players (3 is standard).
export const MAX_ROUNDS = { 2: 5, 3: 4, 4: 3, 5: 3 };
export const HAND_SIZE = { 2: 10, 3: 9, 4: 8, 5: 7 };
// The longest player name the service keeps (scoring.names.MAX_NAME_LENGTH).
export const NAME_LENGTH = 40;

// A hand's count against its size: "5 of 9 cards", and over it "10 cards, 7 expected"
// ("10 of 7" read as a slip).
export function handCount(cards, hand) {
  return cards > hand ? `${cards} cards, ${hand} expected` : `${cards} of ${hand} cards`;
}
