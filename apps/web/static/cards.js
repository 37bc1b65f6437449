// Cards drawn as SVG: rank and suit in two corners, the suit large in the middle; hearts
// and diamonds red. A card is written "KH", "TH" (ten), "7S"; "??" or null is a back.
"use strict";
const SUIT_SYMBOL = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
const SUIT_NAME = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
const RANK_TEXT = {T: "10", A: "A", K: "K", Q: "Q", J: "J", "9": "9", "8": "8", "7": "7"};
const RANK_NAME = {T: "ten", A: "ace", K: "king", Q: "queen", J: "knave", "9": "nine",
                   "8": "eight", "7": "seven"};

function cardName(card) {
  if (!card || card.length < 2 || !(card[card.length - 1] in SUIT_NAME)) return "a card";
  const r = card.slice(0, -1) === "10" ? "T" : card.slice(0, -1);
  return `the ${RANK_NAME[r] || r} of ${SUIT_NAME[card[card.length - 1]]}`;
}

function cardText(card) {
  if (!card || card.length < 2) return "?";
  const r = card.slice(0, -1), s = card[card.length - 1];
  return (RANK_TEXT[r] || r) + (SUIT_SYMBOL[s] || s);
}

function cardSVG(card, opts = {}) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 60 84");
  svg.setAttribute("class", "card" + (opts.cls ? " " + opts.cls : ""));
  svg.setAttribute("role", "img");
  const known = card && card.length >= 2 && card[card.length - 1] in SUIT_SYMBOL;
  svg.setAttribute("aria-label", known ? cardName(card) : "a card face down");
  if (known) svg.dataset.card = card;
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
    return e;
  };
  el("rect", {x: 1, y: 1, width: 58, height: 82, rx: 5, class: "face"});
  if (!known) {
    el("rect", {x: 5, y: 5, width: 50, height: 74, rx: 3, class: "back"});
    return svg;
  }
  const s = card[card.length - 1], r = card.slice(0, -1);
  const colour = (s === "H" || s === "D") ? "red" : "black";
  const rank = RANK_TEXT[r] || r;
  el("text", {x: 5, y: 17, class: "rank " + colour}, rank);
  el("text", {x: 5, y: 30, class: "pip " + colour}, SUIT_SYMBOL[s]);
  el("text", {x: 55, y: 78, class: "rank " + colour, "text-anchor": "end"}, rank);
  el("text", {x: 30, y: 56, class: "big " + colour, "text-anchor": "middle"},
     SUIT_SYMBOL[s]);
  if (opts.title) el("title", {}, opts.title);
  return svg;
}
