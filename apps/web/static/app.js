// The practice table's page: talks to the JSON API (/api/...), draws the view it gets.
// No build step, no library. Keys: 1-5 a card of your hand; p propose, y play without
// proposing, a accept, r refuse, Enter discard the selected cards, k announce the king,
// c conceal it, n next deal, t try again, s show the answer.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {id: null, token: null, seq: null, view: null, selected: new Set(), busy: false};

// Nothing the server sends is parsed as HTML: every element below is built from text
// nodes (el, row, headRow), so a name or a key in a record cannot run as script.
function el(tag, props, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "class") e.className = v; else e[k] = v;
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function headRow(names) { return el("tr", {}, ...names.map((n) => el("th", {}, n))); }

function cellsRow(cells) { return el("tr", {}, ...cells.map((c) => el("td", {}, c))); }

// A game's token: the capability the server gave the page that made it (only with it can a
// page see or play the game). Kept in this browser only: {id: token}, the last 100 games.
const TOKENS_KEY = "ecarte-tokens";
function tokens() {
  try {
    const t = JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}");
    return (t && typeof t === "object" && !Array.isArray(t)) ? t : {};
  } catch (e) { return {}; }
}
function keepToken(id, token) {
  const t = tokens();
  delete t[id];
  t[id] = token;
  const ids = Object.keys(t);
  for (const old of ids.slice(0, Math.max(0, ids.length - 100))) delete t[old];
  localStorage.setItem(TOKENS_KEY, JSON.stringify(t));
}

const ACTION_LABEL = {
  propose: ["Propose", "p"], play: ["Play without proposing", "y"],
  accept: ["Accept", "a"], refuse: ["Refuse", "r"], discard: ["Discard the selected", "Enter"],
  king_announce: ["Announce the king", "k"], king_conceal: ["Conceal the king", "c"],
  next: ["Next deal", "n"], retry: ["Try again", "t"], reveal: ["Show the answer", "s"],
  hint: ["Hint", "h"],
};
const KEY_ACTION = {p: "propose", y: "play", a: "accept", r: "refuse", Enter: "discard",
                    k: "king_announce", c: "king_conceal", n: "next", t: "retry",
                    s: "reveal", h: "hint"};
const PROMPT = {
  propose: "You are the elder: propose, or play without proposing.",
  answer: "The computer proposes: accept or refuse.",
  discard: "Choose the cards to discard (click them or press 1–5), then Discard.",
  king: "You hold the king of trumps: announce it (it marks one) or conceal it.",
  play: "Your card.",
  deal_over: "The deal is over.",
  game_over: "The game is over.",
};

async function api(method, path, body, headers) {
  const init = {method, headers: {...(headers || {})}};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch (e) { data = {error: `HTTP ${res.status}`}; }
  if (!res.ok) {
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.status = res.status; err.law = data.law;
    throw err;
  }
  return data;
}

function say(text, law) {
  const m = $("message");
  text = withSymbols(text || "");          // the cards as the page draws them (J♠, not JS)
  m.textContent = law ? `${law}: ${text}` : text;
  m.className = text ? "error" : "";
}

// ------------------------------------------------------------------ legal moves
function isCard(x) { return typeof x === "string" && /^(10|[2-9TJQKA])[SHDC]$/.test(x); }

function legalOf(view) {
  const types = new Set(), cards = new Set();
  let items = view.legal || [];
  let min = 1, max = 5;
  if (!Array.isArray(items)) {   // {"actions": [...], "cards": [...], "coach": [...], "min", "max"}
    const l = items;
    items = [...(l.actions || []), ...(l.cards || []), ...(l.coach || [])];
    if (typeof l.min === "number") min = l.min;
    if (typeof l.max === "number") max = l.max;
    if ((l.actions || []).includes("card") && !(l.cards || []).length) items = items.filter((x) => x !== "card");
  }
  for (const item of items) {
    if (isCard(item)) { cards.add(item); types.add("card"); continue; }
    if (typeof item === "string") { types.add(item); continue; }
    if (item && typeof item === "object") {
      if (item.type === "card" && item.card) { cards.add(item.card); types.add("card"); }
      else if (item.type === "king") {
        if (item.announce !== false) types.add("king_announce");
        if (item.announce !== true) types.add("king_conceal");
      } else if (item.type) types.add(item.type);
    }
  }
  if (types.has("king")) { types.delete("king"); types.add("king_announce"); types.add("king_conceal"); }
  if (types.has("card") && !cards.size) types.delete("card");
  return {types, cards, min, max};
}

// ------------------------------------------------------------------ drawing
function text(x) {
  if (x === null || x === undefined) return "";
  if (typeof x === "string") return x;
  if (typeof x === "number") return String(x);
  if (Array.isArray(x)) return x.map(text).join(" ");
  return x.text || x.words || x.message || JSON.stringify(x);
}

function pct(x) {
  return (typeof x === "number") ? (100 * x).toFixed(1) + "%" : "–";
}

// A figure rounded to ``digits``: never "−0.000" (a value that rounds to zero is zero).
function rounded(x, digits) {
  const t = Math.abs(x).toFixed(digits);
  return Number(t) === 0 ? t : (x < 0 ? "−" : "") + t;
}

function signed(x, digits = 3) {
  if (typeof x !== "number") return "–";
  const t = rounded(x, digits);
  return t.startsWith("−") || Number(t) === 0 ? t : "+" + t;
}

// The server's sentences with "-0.000" (a rounded zero) written 0.000.
function tidy(words) {
  return String(words ?? "").replace(/[−-](0\.0+)(?![0-9])/g, "$1");
}

function drawCards(box, cards, opts = {}) {
  box.replaceChildren();
  (cards || []).forEach((c, i) => {
    const svg = cardSVG(c, {cls: opts.cls && opts.cls(c, i)});
    if (opts.onClick) {
      svg.addEventListener("click", () => opts.onClick(c, i));
      svg.setAttribute("tabindex", "0");
      svg.addEventListener("keydown", (e) => { if (e.key === " ") { e.preventDefault(); opts.onClick(c, i); } });
    }
    if (opts.key) {
      const wrap = document.createElement("span");
      wrap.className = "slot";
      wrap.appendChild(svg);
      const k = document.createElement("kbd");
      k.textContent = String(i + 1);
      wrap.appendChild(k);
      box.appendChild(wrap);
    } else box.appendChild(svg);
  });
}

function computerCount(view) {
  if (typeof view.computer_cards === "number") return view.computer_cards;
  const hand = (view.hand || []).length;
  const trick = view.trick || [];
  const mine = trick.filter((t) => (t.by || t.player) === "person").length;
  const theirs = trick.filter((t) => (t.by || t.player) === "computer").length;
  return Math.max(0, hand + mine - theirs);
}

function render(view) {
  state.view = view;
  $("game").hidden = false;
  document.body.dataset.game = state.id;
  document.body.dataset.seq = state.seq;
  document.body.dataset.phase = view.phase;
  $("record-link").hidden = false;
  const score = view.score || {};
  $("score-person").textContent = score.person ?? 0;
  $("score-computer").textContent = score.computer ?? 0;
  $("deal").textContent = view.deal ?? "";
  $("role").textContent = view.person_role || "";
  $("stock").textContent = view.stock ?? "–";
  const tricks = view.tricks || view.tricks_won || {};
  $("tricks-person").textContent = tricks.person ?? 0;
  $("tricks-computer").textContent = tricks.computer ?? 0;
  drawCards($("turn-up"), view.turn_up ? [view.turn_up] : []);
  $("trump").textContent = view.trump ? `${SUIT_SYMBOL[view.trump] || ""} ${SUIT_NAME[view.trump] || view.trump}` : "";
  // the trick: each card with who played it
  const trick = $("trick");
  trick.replaceChildren();
  let shownTrick = view.trick || [], last = null;
  if (!shownTrick.length && (view.played || []).length) {
    last = view.played[view.played.length - 1];
    if (last.cards && last.cards.length === 2) shownTrick = last.cards; else last = null;
  }
  $("trick-label").textContent = last ? `The last trick: ${last.winner === "person" ? "yours" : "the computer's"}` : "The trick";
  trick.classList.toggle("last", !!last);
  for (const t of shownTrick) {
    const c = typeof t === "string" ? t : t.card;
    const by = typeof t === "string" ? "" : (t.by || t.player || "");
    const fig = document.createElement("figure");
    fig.className = "played " + by;
    fig.appendChild(cardSVG(c));
    const cap = document.createElement("figcaption");
    cap.textContent = by === "person" ? "you" : by === "computer" ? "computer" : by;
    fig.appendChild(cap);
    trick.appendChild(fig);
  }
  const backs = [];
  for (let i = 0; i < computerCount(view); i++) backs.push(null);
  drawCards($("computer-hand"), backs);
  $("computer-side").hidden = backs.length === 0;
  $("person-side").hidden = (view.hand || []).length === 0;

  const legal = legalOf(view);
  const phase = view.phase;
  if (phase !== "discard") state.selected.clear();
  drawCards($("hand"), view.hand || [], {
    key: true,
    cls: (c) => [legal.cards.has(c) ? "legal" : (phase === "play" && legal.cards.size ? "illegal" : ""),
                 state.selected.has(c) ? "selected" : "",
                 (view.king_marked && c === view.king) ? "marked" : ""].join(" "),
    onClick: (c) => clickCard(c),
  });
  const notes = [];
  if (view.law49) notes.push(`Law 49: ${view.person_role === "elder" && view.law49 === "played without proposing" ? "you" :
    view.person_role === "dealer" && view.law49 === "refused the first proposal" ? "you" : "the computer"} ${view.law49}; losing the point gives two`);
  for (const [who, said] of Object.entries(view.king || {}))
    notes.push(`${who === "person" ? "You" : "The computer"}: the king ${said === true ? "announced" : text(said)}`);
  if (typeof view.number === "number")
    notes.push(`Game ${view.number}: everyone who asks this server for game ${view.number} gets these ` +
               `same deals, so one who has played it knows its hidden cards (a random game: leave the number empty)`);
  $("notes").textContent = notes.join(" · ");
  const kingCard = view.legal && !Array.isArray(view.legal) ? view.legal.king : null;
  if (kingCard) for (const el of $("hand").querySelectorAll(`[data-card="${kingCard}"]`)) el.classList.add("king");
  let prompt = view.prompt || PROMPT[phase] || "";
  if (phase === "game_over" && view.winner) {
    const sc = view.score || {};
    prompt = `The game is over: ${view.winner === "person" ? "you win" : "the computer wins"} ` +
      `${sc[view.winner]} to ${sc[view.winner === "person" ? "computer" : "person"]}` +
      (view.game_value ? ` — ${{3: "a treble", 2: "a double", 1: "a single"}[view.game_value] || view.game_value} (Law 46).` : ".");
  }
  $("prompt").textContent = prompt;
  // the buttons of the legal actions
  const bar = $("actions");
  bar.replaceChildren();
  const deciding = ["propose", "answer", "discard", "king", "play"].includes(phase);
  if (deciding) legal.types.add("hint");
  $("hint").textContent = "";
  for (const type of ["propose", "play", "accept", "refuse", "discard", "king_announce",
                      "king_conceal", "retry", "reveal", "next", "hint"]) {
    if (!legal.types.has(type)) continue;
    const [label, key] = ACTION_LABEL[type];
    const b = document.createElement("button");
    b.type = "button";
    b.id = "act-" + type;
    b.dataset.action = type;
    b.replaceChildren(`${label} `, el("kbd", {}, key));
    b.addEventListener("click", () => doAction(type));
    if (type === "discard") {
      const n = state.selected.size;
      b.disabled = n < legal.min || n > legal.max;
      if (n === 0 && legal.min === 0) b.replaceChildren("Keep all five ", el("kbd", {}, key));
      else if (n) b.replaceChildren(`Discard ${n} `, el("kbd", {}, key));
    }
    bar.appendChild(b);
  }
  if (phase === "game_over") {
    const b = document.createElement("button");
    b.type = "button"; b.id = "act-new"; b.textContent = "Another game";
    b.addEventListener("click", () => newGame());
    bar.appendChild(b);
  }
  renderCoach(view);
  renderEvents(view);
  renderDealOver(view);
  renderSummary(view);
}

const GRADE_CLASS = {best: "best", good: "good", inaccuracy: "inaccuracy", mistake: "mistake",
                     blunder: "blunder", "not graded": "unknown", unknown: "unknown"};

// Cards inside the server's sentences ("KH", "10S") written as the page draws them (K♥,
// 10♠): one notation on the page.
function withSymbols(words) {
  return tidy(words).replace(/\b(10|[789TJQKA])([SHDC])\b/g, (m) => cardText(m));
}
const KIND = {first: "First decision", answer: "Answer", discard: "Discard", card: "Card",
              king: "The king"};

function choiceText(x) {
  if (Array.isArray(x)) return x.map(choiceText).join(" ");
  return isCard(x) ? cardText(x) : text(x);
}

function num(x, d = 3) { return typeof x === "number" ? rounded(x, d) : "–"; }

function ci(x) { return Array.isArray(x) ? `[${num(x[0])}, ${num(x[1])}]` : "–"; }

function valuesTable(v) {
  const values = v.values;
  if (!values || typeof values !== "object") return null;
  const t = document.createElement("table");
  t.className = "values";
  const row = (choice, cells) => {
    const tr = document.createElement("tr");
    if (choice === v.chosen) tr.className = "chosen";
    if (choice === v.best || (Array.isArray(v.best) && v.best.includes(choice))) tr.classList.add("bestrow");
    for (const c of cells) tr.appendChild(el("td", {}, c));
    t.appendChild(tr);
  };
  const entries = Object.entries(values);
  if (values.p_win && typeof values.p_win === "object") {          // first decision, answer
    t.appendChild(headRow(["choice", "P(win the game)", "95% interval"]));
    for (const [choice, x] of Object.entries(values.p_win))
      row(choice, [choice, num(x), ci((values.p_win_ci95 || {})[choice])]);
  } else if (entries.some(([, x]) => x && typeof x === "object" && "throws" in x)) {  // discard
    t.appendChild(headRow(["discard rule", "throws", "P(win) against the strategy's", "95% interval"]));
    for (const [rule, x] of entries)
      row(rule, [rule, choiceText((x.throws || "").split(/\s+/).filter(Boolean)) || "nothing",
                 signed(x.gain_over_strategy), ci(x.ci95)]);
  } else if (entries.some(([, x]) => x && typeof x === "object")) {  // cards
    t.appendChild(headRow(["card", "P(win the game)", "P(point)", "double dummy: tricks, P(win)"]));
    for (const [card, x] of entries)
      row(card, [choiceText(card), num(x.p_win), num(x.p_point), `${x.dd_tricks ?? "–"}, ${num(x.dd_p_win)}`]);
  } else {
    t.appendChild(headRow(["choice", "P(win the game)"]));
    for (const [choice, x] of entries) row(choice, [choiceText(choice), num(x)]);
  }
  return t;
}

function renderCoach(view) {
  const list = $("coach-list");
  list.replaceChildren();
  const verdicts = view.coach || [];
  $("coach-panel").hidden = view.coach_on === false;
  // the decisions taken back ("Try again") stay in the panel: what they cost is kept
  for (const v of view.retried || []) {
    const div = el("div", {class: "verdict taken-back " + (GRADE_CLASS[v.grade] || "")},
      el("span", {class: "grade"}, "taken back"),
      ` ${KIND[v.kind] || v.kind || ""}: ${choiceText(v.chosen)} — ${v.grade || ""}` +
      (typeof v.cost === "number" ? `, cost ${num(v.cost)} of P(win the game)` : "") +
      "; chosen again below");
    list.appendChild(div);
  }
  if (!verdicts.length) {
    const p = document.createElement("p");
    p.className = "quiet";
    p.textContent = "No decision of yours graded yet this deal.";
    list.appendChild(p);
    return;
  }
  verdicts.forEach((v, i) => {
    const div = document.createElement("div");
    const grade = v.grade || "";
    div.className = "verdict " + (GRADE_CLASS[grade] || "");
    const head = document.createElement("div");
    head.className = "head";
    const g = document.createElement("span");
    g.className = "grade";
    g.textContent = grade;
    head.appendChild(g);
    let line = ` ${KIND[v.kind] || v.kind || ""}: ${choiceText(v.chosen)}`;
    if (typeof v.cost === "number") {
      line += ` — cost ${num(v.cost)} of P(win the game)`;
      if (Array.isArray(v.cost_ci95) && v.unit !== "exact" && (v.cost_ci95[0] || v.cost_ci95[1]))
        line += ` (95% ${num(v.cost_ci95[0])} to ${num(v.cost_ci95[1])}, ${v.n} ${v.unit})`;
    }
    if (v.best !== undefined && v.best !== null && choiceText(v.best) !== choiceText(v.chosen))
      line += grade === "best" ? `; as good as ${choiceText(v.best)}, the top estimate, within the sampling`
                               : `; best ${v.kind === "discard" ? "discard " : ""}${choiceText(v.best)}`;
    head.appendChild(document.createTextNode(line));
    div.appendChild(head);
    if (v.revealed === false) {
      const p = document.createElement("div");
      p.className = "waiting";
      p.textContent = withSymbols(v.prompt || "Try again, or show the answer.");
      div.appendChild(p);
    } else {
      if (v.dd && (v.dd.best || v.dd.cost !== undefined)) {
        const d = document.createElement("div");
        d.className = "dd";
        const ddCost = typeof v.dd.cost === "number" ? v.dd.cost : null;
        const graded = typeof v.cost === "number" ? v.cost : null;
        let why = "";
        if (ddCost !== null && graded !== null && ddCost <= 0.0005 && graded > 0.0005)
          why = " — with every card seen it loses nothing; the cost above is over the hands you could not tell apart, which is what you could know";
        else if (ddCost !== null && graded !== null && ddCost > 0.0005 && graded <= 0.0005)
          why = " — only with the computer's cards seen, which you could not: over what you knew it was the best";
        d.textContent = `Double dummy (both hands seen): best ${choiceText(v.dd.best || [])}` +
          (ddCost !== null ? `; this card costs ${num(ddCost)}${why}` : "");
        div.appendChild(d);
      }
      if (v.rule) {
        const r = document.createElement("div");
        r.className = "rule";
        r.textContent = withSymbols(text(v.rule));
        div.appendChild(r);
      }
      if (v.text) {
        const r = document.createElement("div");
        r.className = "quiet";
        r.textContent = withSymbols(v.text);
        div.appendChild(r);
      }
      const t = valuesTable(v);
      if (t) {
        const det = document.createElement("details");
        if (i === verdicts.length - 1 && ["inaccuracy", "mistake", "blunder"].includes(grade)) det.open = true;
        const sm = document.createElement("summary");
        sm.textContent = "each choice's value";
        det.append(sm, t);
        div.appendChild(det);
      }
    }
    list.appendChild(div);
  });
  // the newest verdict's top in view during the deal (the page not moved); at the deal's
  // end the panel from its first verdict, as the deal is read from the start
  const over = view.phase === "deal_over" || view.phase === "game_over";
  const newest = list.lastElementChild;
  list.scrollTop = over || !newest ? 0 : newest.offsetTop - list.firstElementChild.offsetTop;
}

function renderEvents(view) {
  const box = $("events");
  if (state.eventsOf === view) return;   // a view's events are shown once
  state.eventsOf = view;
  for (const e of view.events || []) {
    const li = document.createElement("li");
    li.textContent = withSymbols(text(e));
    box.appendChild(li);
  }
  while (box.children.length > 80) box.removeChild(box.firstChild);
  box.scrollTop = box.scrollHeight;
}

function markText(m) {
  if (!m || typeof m !== "object") return text(m);
  const who = m.to === "person" ? "You" : m.to === "computer" ? "The computer" : (m.to || "");
  const n = m.marks ?? m.n;
  return `${who} ${n === undefined ? "" : `mark${who === "You" ? "" : "s"} ${n}`}` +
    (m.for ? ` for ${m.for}` : "") + (m.law ? ` (${m.law})` : "");
}

function handRow(label, cards, id) {
  const row = document.createElement("div");
  row.className = "hand-row";
  const l = document.createElement("div");
  l.className = "who";
  l.textContent = label;
  const box = document.createElement("div");
  box.className = "hand small";
  if (id) box.id = id;
  drawCards(box, cards);
  row.append(l, box);
  return row;
}

function renderDealOver(view) {
  const over = view.phase === "deal_over" || view.phase === "game_over";
  if (state.replayOf !== view.deal) { state.replayOf = view.deal; state.replayStep = 0; }
  const hands = view.hands;
  $("deal-over").hidden = !(over && (hands || view.replay));
  if ($("deal-over").hidden) return;
  const both = $("both-hands");
  both.replaceChildren();
  const name = {person: "Your", computer: "The computer's"};
  if (hands) {
    const dealt = hands.dealt || hands, atPlay = hands.at_play, thrown = hands.discarded || {};
    for (const who of ["person", "computer"]) {
      if (!dealt[who]) continue;
      both.appendChild(handRow(`${name[who]} hand as dealt`, dealt[who], `dealt-${who}`));
      if (atPlay && atPlay[who] && (thrown[who] || []).length)
        both.appendChild(handRow(`${name[who]} hand at play (threw ${thrown[who].map(cardText).join(" ")})`,
                                 atPlay[who], `at-play-${who}`));
    }
  }
  const tricks = document.createElement("ol");
  tricks.id = "tricks-list";
  for (const t of view.played || []) {
    const li = document.createElement("li");
    li.textContent = (t.cards || []).map((c) => `${c.by === "person" ? "you" : "computer"} ${cardText(c.card)}`).join(", ") +
      (t.winner ? ` — ${t.winner === "person" ? "you win" : "the computer wins"} the trick` : "");
    tricks.appendChild(li);
  }
  if (tricks.children.length) both.appendChild(tricks);
  const marks = document.createElement("p");
  marks.id = "deal-marks";
  marks.textContent = (view.marks || []).map(markText).join("; ");
  both.appendChild(marks);
  const replay = $("replay");
  replay.replaceChildren();
  const r = view.replay;
  if (r && r.known === false) {
    const p = document.createElement("p");
    p.className = "quiet";
    p.textContent = `No double-dummy replay: ${r.reason || "a card is unknown"}.`;
    replay.appendChild(p);
  } else if (r && Array.isArray(r.cards)) {
    const who = (x) => x === "person" ? "you" : x;
    const head = document.createElement("p");
    head.id = "replay-text";
    head.textContent = `Double dummy (both hands known, best play by both), the elder — ` +
      `${who(r.elder)} — takes ${r.dd_elder_tricks} trick${r.dd_elder_tricks === 1 ? "" : "s"}; ` +
      `in play ${r.elder_tricks}.`;
    replay.appendChild(head);
    if (Array.isArray(r.best_line) && r.best_line.length) {
      const p = document.createElement("p");
      p.id = "best-line";
      const tricks = [];
      for (let j = 0; j < r.best_line.length; j += 2)
        tricks.push(r.best_line.slice(j, j + 2).map((c) => `${who(c.by)} ${cardText(c.card)}`).join(", "));
      p.textContent = "How the hand can be best played: " + tricks.join(" · ");
      replay.appendChild(p);
    }
    replay.appendChild(replayViewer(r));
    const t = document.createElement("table");
    t.className = "values";
    t.id = "replay-table";
    t.append(headRow(["#", "who", "played", "its value", "the best", "tricks lost"]));
    replay.appendChild(el("p", {class: "quiet", id: "replay-caption"},
      "Card by card: the elder's tricks, double dummy, after each legal card"));
    for (const c of r.cards) {
      const tr = document.createElement("tr");
      for (const x of [c.n, who(c.by), cardText(c.card), c.value ?? "–",
                       `${(c.best || []).map(cardText).join(" ")} (${c.best_value})`, c.tricks_lost ?? "–"])
        tr.appendChild(el("td", {}, x));
      if (c.tricks_lost > 0) tr.className = "lost";
      t.appendChild(tr);
    }
    const wrap = el("div", {class: "scroll"});   // a phone scrolls it sideways, inside the panel
    wrap.appendChild(t);
    replay.appendChild(wrap);
  }
}

// The deal card by card, as a bridge hand viewer shows it: both hands as they stand, the
// mover's legal cards each with its double-dummy value (the elder's tricks at the end).
function replayViewer(r) {
  const box = document.createElement("div");
  box.id = "replay-viewer";
  const who = (x) => x === "person" ? "you" : x;
  const hands = {};
  for (const [p, h] of Object.entries(r.hands || {})) hands[p] = (h || "").split(/\s+/).filter(Boolean);
  const n = r.cards.length;
  let k = Math.min(state.replayStep || 0, Math.max(0, n - 1));
  const draw = () => {
    box.replaceChildren();
    const step = r.cards[k];
    const gone = new Set(r.cards.slice(0, k).map((c) => c.card));
    const head = document.createElement("div");
    head.className = "bar";
    const prev = document.createElement("button");
    prev.type = "button"; prev.id = "replay-prev"; prev.textContent = "◀ card";
    prev.disabled = k === 0;
    const next = document.createElement("button");
    next.type = "button"; next.id = "replay-next"; next.textContent = "card ▶";
    next.disabled = k >= n - 1;
    prev.addEventListener("click", () => { k--; state.replayStep = k; draw(); });
    next.addEventListener("click", () => { k++; state.replayStep = k; draw(); });
    const label = document.createElement("span");
    label.id = "replay-step";
    const led = k % 2 === 1 ? r.cards[k - 1] : null;
    label.textContent = `Card ${k + 1} of ${n}: ${who(step.by)} ${led ? "played" : "led"} ${cardText(step.card)}` +
      (led ? ` to ${led.by === "person" ? "your" : "the computer's"} ${cardText(led.card)}` : "") +
      (step.tricks_lost ? ` — it lost ${step.tricks_lost} trick${step.tricks_lost > 1 ? "s" : ""}` : " — it kept the best");
    head.append(prev, next, label);
    box.appendChild(head);
    for (const p of [r.elder, r.dealer]) {
      const row = document.createElement("div");
      row.className = "hand-row viewer-row";
      const l = document.createElement("div");
      l.className = "who";
      l.textContent = `${p === "person" ? "You" : "The computer"} (${p === r.elder ? "elder" : "dealer"})`;
      const cards = document.createElement("div");
      cards.className = "hand small";
      for (const c of (hands[p] || []).filter((c) => !gone.has(c))) {
        const fig = document.createElement("figure");
        const value = p === step.by ? step.values[c] : undefined;
        fig.className = "viewer-card" + (c === step.card ? " played" : "") +
          ((step.best || []).includes(c) && p === step.by ? " best" : "") +
          (p === step.by && value === undefined ? " not-legal" : "");
        fig.appendChild(cardSVG(c));
        const cap = document.createElement("figcaption");
        cap.textContent = value === undefined ? "" : String(value);
        fig.appendChild(cap);
        cards.appendChild(fig);
      }
      row.append(l, cards);
      box.appendChild(row);
    }
    const note = document.createElement("p");
    note.className = "quiet";
    note.textContent = "Under each card the mover may play: the elder's tricks at the end of the deal " +
      "if that card is played and both then play their best; ★ the best; framed the card played.";
    box.appendChild(note);
  };
  draw();
  return box;
}

function renderSummary(view) {
  const s = view.summary;
  $("summary").hidden = !(view.phase === "game_over" && s);
  if ($("summary").hidden) return;
  const body = $("summary-body");
  body.replaceChildren();
  const p = document.createElement("p");
  p.id = "summary-text";
  p.textContent = withSymbols(s.text || "");
  body.appendChild(p);
  const grades = Object.entries(s.by_grade || {}).filter(([, n]) => n);
  if (grades.length) {
    const ul = document.createElement("ul");
    ul.id = "summary-grades";
    for (const [g, n] of grades) {
      const li = document.createElement("li");
      li.className = "verdict " + (GRADE_CLASS[g] || "");
      li.textContent = `${g}: ${n}`;
      ul.appendChild(li);
    }
    body.appendChild(ul);
  }
  if ((s.taken_back || []).length) {
    const h = el("p", {}, "Taken back (Try again) and chosen again:");
    const ol = el("ol", {id: "summary-taken-back"});
    for (const w of s.taken_back)
      ol.appendChild(el("li", {}, `deal ${w.deal}, ${(KIND[w.kind] || w.kind || "").toLowerCase()}: ` +
        `${choiceText(w.chosen)} — ${w.grade}` + (typeof w.cost === "number" ? `, cost ${num(w.cost)}` : "")));
    body.append(h, ol);
  }
  if ((s.worst || []).length) {
    const h = document.createElement("p");
    h.textContent = "What cost the most:";
    body.appendChild(h);
    const ol = document.createElement("ol");
    for (const w of s.worst) {
      const li = document.createElement("li");
      li.textContent = `deal ${w.deal}, ${(KIND[w.kind] || w.kind).toLowerCase()}: ${choiceText(w.chosen)} — ` +
        `${w.grade}, cost ${num(w.cost)}` + (w.best ? ` (best ${choiceText(w.best)})` : "");
      ol.appendChild(li);
    }
    body.appendChild(ol);
  }
}

// ------------------------------------------------------------------ acting
function clickCard(card) {
  const view = state.view;
  if (!view || state.busy) return;
  if (view.phase === "discard") {
    if (state.selected.has(card)) state.selected.delete(card);
    else if (state.selected.size < legalOf(view).max) state.selected.add(card);
    render(view);
    return;
  }
  if (view.phase === "play") send({type: "card", card});
}

function doAction(type) {
  const view = state.view;
  if (!view || state.busy) return;
  if (type === "hint") {
    if (["propose", "answer", "discard", "king", "play"].includes(view.phase)) showHint();
    return;
  }
  const legal = legalOf(view);
  if (!legal.types.has(type)) return;
  if (type === "discard") {
    const n = state.selected.size;
    if (n < legal.min || n > legal.max) {
      say(legal.min ? `Choose ${legal.min === legal.max ? legal.min : legal.min + " to " + legal.max} cards to discard first.`
                    : `You may discard at most ${legal.max} cards.`);
      return;
    }
    send({type: "discard", cards: [...state.selected]});
  } else if (type === "king_announce") send({type: "king", announce: true});
  else if (type === "king_conceal") send({type: "king", announce: false});
  else send({type});
}

async function send(action) {
  state.busy = true;
  document.body.classList.add("busy");
  try {
    const data = await api("POST", `/api/games/${state.id}/act`, {seq: state.seq, action},
                           {"X-Game-Token": state.token});
    state.seq = data.seq;
    state.selected.clear();
    say("");
    render(data.view);
  } catch (err) {
    say(err.message, err.law);
    if (err.status === 409) await load(state.id);
  } finally {
    state.busy = false;
    document.body.classList.remove("busy");
  }
}

async function load(id) {
  const token = tokens()[id];
  if (!token) throw new Error("This game was started on another page or browser: only the page that made it can open it.");
  const data = await api("GET", `/api/games/${id}`, undefined, {"X-Game-Token": token});
  state.id = data.id; state.seq = data.seq; state.token = token;
  $("events").replaceChildren();
  render(data.view);
}

// A hint on demand (as lichess offers): what the computer's own player would do in your
// seat, from what you know only; not recorded, not graded.
async function showHint() {
  if (!state.id || state.busy) return;
  try {
    const h = await api("GET", `/api/games/${state.id}/hint`, undefined, {"X-Game-Token": state.token});
    $("hint").textContent = withSymbols(h.text);
  } catch (err) {
    say(err.message, err.law);
  }
}

// The record as a file: fetched with the game's token (a plain link could not carry it).
async function downloadRecord() {
  if (!state.id) return;
  try {
    const res = await fetch(`/api/games/${state.id}/record`, {headers: {"X-Game-Token": state.token}});
    if (!res.ok) throw new Error((await res.json()).error || `HTTP ${res.status}`);
    const url = URL.createObjectURL(await res.blob());
    const a = el("a", {href: url, download: `ecarte-${state.id}.json`});
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (err) {
    say(err.message);
  }
}

async function newGame() {
  const body = {opponent: $("opponent").value, coach: $("coach").checked};
  const number = $("number").value.trim();
  if (number) {
    if (!/^\d{1,15}$/.test(number)) { say("The game number is a whole number (or empty: a random game)."); return; }
    body.number = Number(number);
  }
  state.busy = true;
  try {
    const data = await api("POST", "/api/games", body);
    state.id = data.id; state.seq = data.seq; state.token = data.token;
    keepToken(data.id, data.token);
    localStorage.setItem("ecarte-game", data.id);
    $("events").replaceChildren();
    say("");
    render(data.view);
    // the keys play from here: Enter must not press "New game" again
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
  } catch (err) {
    say(err.message, err.law);
  } finally {
    state.busy = false;
  }
}

document.addEventListener("keydown", (e) => {
  if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (currentPage() !== "play" || !state.view) return;
  if (/^[1-5]$/.test(e.key)) {
    const card = (state.view.hand || [])[Number(e.key) - 1];
    if (card) { e.preventDefault(); clickCard(card); }
    return;
  }
  const type = KEY_ACTION[e.key];
  if (type && !(e.key === "Enter" && e.target && e.target.tagName === "BUTTON")) {
    e.preventDefault();
    doAction(type);
  }
});

async function listGames() {
  const box = $("saved-list");
  try {
    const mine = Object.entries(tokens()).map(([id, t]) => `${id}:${t}`).join(",");
    const {games} = await api("GET", "/api/games", undefined, {"X-Game-Tokens": mine});
    box.replaceChildren();
    for (const g of games.slice(0, 30)) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `?game=${encodeURIComponent(g.id)}#play`;
      const when = new Date(1000 * g.updated).toLocaleString();
      const sc = g.score || {};
      a.textContent = `${when}: you ${sc.person ?? 0} – ${sc.computer ?? 0} the computer` +
        ` (${OPPONENT_NAMES[g.settings && g.settings.opponent] || "the strategy"}` +
        `, ${g.over ? "over" : "in progress"})`;
      if (g.id === state.id) li.className = "current";
      li.appendChild(a);
      box.appendChild(li);
    }
    if (!games.length) box.textContent = "None yet.";
  } catch (err) {
    box.textContent = err.message;
  }
}

// What the saved-games list calls each opponent (the page's choices, shorter).
const OPPONENT_NAMES = {"pimc-king": "the strategy, cards by PIMC reading the king",
                        alphamu: "the strategy, cards by αμ", strategy: "the strategy, cards by PIMC",
                        treatise: "the treatise"};

// ------------------------------------------------------------------ the strategy card
function scoreOptions() {
  const sel = $("chart-score");
  for (let e = 0; e < 5; e++) for (let d = 0; d < 5; d++) {
    const o = document.createElement("option");
    o.value = o.textContent = `${e}-${d}`;
    sel.appendChild(o);
  }
}

async function showChart() {
  const f = new FormData($("chart-form"));
  const q = new URLSearchParams({role: f.get("role"), score: f.get("score"), against: f.get("against")});
  $("chart-svg").href = `/api/chart?${q}&format=svg`;
  const body = $("chart-body");
  body.textContent = "Computing the card…";
  try {
    const c = await api("GET", `/api/chart?${q}`);
    body.replaceChildren();
    const h = document.createElement("p");
    h.append(el("b", {}, c.role), ` at ${c.score} (the elder's score first): ${c.source}`);
    body.appendChild(h);
    const t = document.createElement("table");
    t.className = "chart";
    t.id = "chart-table";
    const head = document.createElement("tr");
    head.append(el("th"), ...c.columns.map((col) => el("th", {}, col)));
    t.appendChild(head);
    const cells = {};
    for (const cell of c.cells) cells[cell.row + "|" + cell.column] = cell;
    for (const row of c.rows) {
      const tr = document.createElement("tr");
      tr.appendChild(el("th", {}, row));
      for (const col of c.columns) {
        const cell = cells[row + "|" + col];
        const td = document.createElement("td");
        if (cell && cell.action) {
          const m = cell.margin;
          td.className = "act-" + cell.action + (cell.treatise_differs ? " differs" : "") +
            (typeof m === "number" ? (m < 0.005 ? " toss-up" : m < 0.02 ? " small-edge" : "") : "");
          td.append(cell.action, el("small", {}, pct(cell.reproduced)));
          td.title = `${row}, ${col}: ${cell.action} on ${pct(cell.reproduced)} of its hands; ` +
            `${pct(cell.dealt)} of all hands` + (cell.treatise_differs ? `; the treatise: ${cell.treatise_action}` : "");
        } else td.className = "empty";
        tr.appendChild(td);
      }
      t.appendChild(tr);
    }
    const wrap = document.createElement("div");
    wrap.className = "scroll";
    wrap.appendChild(t);
    body.appendChild(wrap);
    const foot = document.createElement("p");
    foot.textContent = `Reproduces ${pct(c.reproduced)} of ${c.weighting === "dealt hands" ? "dealt hands" : "the hands weighted by " + c.weighting}; agrees with ${c.treatise} ` +
      `on ${pct(c.treatise_agreement)}. Each cell: the action on most of its hands and the share of them it reproduces; ` +
      `paler where the choice is worth less than 2% (palest: under 0.5%) of P(win the game); framed where the treatise does otherwise.`;
    body.appendChild(foot);
  } catch (err) {
    body.textContent = err.message;
  }
}

// "(dd)" in the strategy's name: how its cards were played when it was solved.
function explainPlay(words) {
  return String(words ?? "").replace("(dd)", "(solved with the cards played double dummy: " +
    "each deal's play as if both hands were seen)");
}

async function showAdvice() {
  const f = new FormData($("advise-form"));
  const turnUp = (f.get("turn_up") || "").trim();
  const req = {hand: f.get("hand"), trump: turnUp, turn_up: turnUp || null,
               role: f.get("role"), score: f.get("score"), discard: !!f.get("discard")};
  const said = (f.get("said") || "").trim(), discards = (f.get("discards") || "").trim();
  const took = (f.get("elder_took") || "").trim();
  if (said) req.said = said;
  if (discards) req.discards = discards;
  if (took) req.elder_took = Number(took);
  const body = $("advise-body");
  body.textContent = "Sampling deals…";
  try {
    const a = await api("POST", "/api/advise", req);
    body.replaceChildren();
    if (a.decision === "later discard") {
      const d = a.discard;
      const p = document.createElement("p");
      p.id = "advice-action";
      p.append(el("b", {}, `throw ${d.throws || "nothing"}`), ` — the computed strategy at exchange ${d.round + 1} (rule ${d.rule}), keeping ${d.keeps}`);
      body.appendChild(p);
      const t = document.createElement("table");
      t.className = "values";
      t.appendChild(headRow(["instead, throw", "P(win the game) gained", "95% interval", "n"]));
      for (const o of d.others) {
        const tr = document.createElement("tr");
        for (const x of [o.throws || "nothing", num(o.gain_win), ci(o.gain_win_ci95), String(o.n)]) tr.appendChild(el("td", {}, x));
        t.appendChild(tr);
      }
      body.appendChild(t);
      return;
    }
    const p = document.createElement("p");
    p.id = "advice-action";
    p.append(el("b", {}, a.action), ` — ${a.strategy ? explainPlay(a.strategy.answers) : ""}`);
    body.appendChild(p);
    const t = document.createElement("table");
    t.className = "values";
    t.appendChild(headRow(["action", "P(win the game)", "95% interval", "marks a deal"]));
    for (const [act, v] of Object.entries(a.values || {})) {
      const tr = document.createElement("tr");
      for (const x of [act, num(v.p_win), ci(v.p_win_ci95), num(v.marks, 2)]) tr.appendChild(el("td", {}, x));
      t.appendChild(tr);
    }
    body.appendChild(t);
    const n = document.createElement("p");
    n.className = "quiet";
    n.textContent = a.decision === "later"
      ? `n = ${a.n} worlds drawn from what you know (your discards, the adversary's counts), exchange ${a.round + 1} of the deal.`
      : `n = ${a.n} deals around the hand.`;
    body.appendChild(n);
    if (a.treatise) {
      const q = document.createElement("p");
      q.textContent = `The treatise says ${a.treatise.says}: ${a.treatise.reason || ""}`;
      body.appendChild(q);
    }
    if (a.discard) {
      const q = document.createElement("p");
      q.textContent = `Discard: the strategy throws ${a.discard.throws || text(a.discard.thrown) || ""}.`;
      body.appendChild(q);
    }
  } catch (err) {
    body.textContent = err.message;
  }
}

async function showCards() {
  const f = new FormData($("cards-form"));
  const req = {};
  for (const k of ["hand", "turn_up", "role", "said", "discards", "played", "opponent"]) {
    const v = (f.get(k) || "").trim();
    if (v) req[k] = v;
  }
  const body = $("cards-body");
  body.textContent = "Drawing the worlds…";
  try {
    const r = await api("POST", "/api/cards", req);
    body.replaceChildren();
    const p = document.createElement("p");
    p.id = "cards-best";
    p.append(el("b", {}, cardText(r.best)), ` — the card the inferring player ${r.to_play === "lead" ? "leads" : "plays"} ` +
      `(${r.worlds} worlds drawn from what you know)` + (r.dd_best ? `; double dummy best: ${r.dd_best.map(cardText).join(" ")}` : ""));
    body.appendChild(p);
    const t = document.createElement("table");
    t.className = "values";
    t.appendChild(headRow(["card", "P(point)", "95% interval", "marks", "95% interval",
                           ...(r.dd_best ? ["double dummy: elder's tricks, marks"] : [])]));
    for (const c of r.cards) {
      const tr = document.createElement("tr");
      if (c.card === r.best) tr.className = "bestrow";
      for (const x of [cardText(c.card), num(c.point), ci(c.point_ci95), signed(c.marks, 2), ci(c.marks_ci95),
                       ...(r.dd_best ? [`${c.dd_tricks ?? "–"}, ${signed(c.dd_marks, 0)}`] : [])])
        tr.appendChild(el("td", {}, x));
      t.appendChild(tr);
    }
    body.appendChild(t);
  } catch (err) {
    body.textContent = err.message;
  }
}

// ------------------------------------------------------------------ pages
function currentPage() { return (location.hash || "#play").slice(1).split("=")[0] || "play"; }

function showPage() {
  const page = currentPage();
  for (const s of document.querySelectorAll("section.page")) s.hidden = s.id !== page;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("here", a.getAttribute("href") === "#" + page);
  if (page === "chart" && !$("chart-body").dataset.shown) { $("chart-body").dataset.shown = "1"; showChart(); }
}

// The first start compiles the kernels (numba) on the server for minutes: until it is
// done the page says so, and for how long, and offers no game (the server would make any
// request wait for it, never fail it).
function duration(s) {
  if (typeof s !== "number") return "";
  const m = Math.floor(s / 60), r = Math.floor(s % 60);
  return m ? `${m} min ${String(r).padStart(2, "0")} s` : `${r} s`;
}

async function waitReady() {
  const box = $("getting-ready");
  for (;;) {
    let r = null;
    try { r = await api("GET", "/api/ready"); } catch (e) { r = null; }
    if (r && r.ready) {
      box.hidden = true;
      $("new-game-button").disabled = false;
      document.body.dataset.kernels = "ready";
      return;
    }
    document.body.dataset.kernels = "warming";
    $("new-game-button").disabled = true;
    box.hidden = false;
    box.textContent = "Getting ready: the server is compiling the computer's and the coach's " +
      "kernels, which a first start after installing does once (a few minutes: 2 min 34 s " +
      "on a busy two-core machine; later starts are ready at once)" +
      (r ? ` — ${duration(r.waited_s)} so far.` : " — the server does not answer yet.") +
      " The page goes on by itself.";
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

window.addEventListener("hashchange", showPage);
window.addEventListener("DOMContentLoaded", async () => {
  scoreOptions();
  showPage();
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("chart-form").addEventListener("submit", (e) => { e.preventDefault(); showChart(); });
  $("advise-form").addEventListener("submit", (e) => { e.preventDefault(); showAdvice(); });
  $("cards-form").addEventListener("submit", (e) => { e.preventDefault(); showCards(); });
  $("saved").addEventListener("toggle", () => { if ($("saved").open) listGames(); });
  const params = new URLSearchParams(location.search);
  const id = params.get("game") || localStorage.getItem("ecarte-game");
  $("record-link").addEventListener("click", (e) => { e.preventDefault(); downloadRecord(); });
  await waitReady();
  if (id) {
    try { await load(id); } catch (err) {
      localStorage.removeItem("ecarte-game");
      if (params.get("game")) say(err.message);
    }
  }
  document.body.dataset.ready = "1";
});
