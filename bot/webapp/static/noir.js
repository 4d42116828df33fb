/* NOIR's board for the live table (docs/miniapp.md, docs/rules/noir.md): the grid of suspects
   drawn from the server's table (already filtered for this viewer); the legal cells of the
   player's current step (buttons of kind "cell") are tappable. Names are set as text only.
   app.js calls window.MiniAppNoir({$, el, T, press}) and gets {draw, drawMe}. */
"use strict";

window.MiniAppNoir = function (helpers) {
  const { $, el, T, press } = helpers;
  const NOIR_MARKS = [["bomb", "💣"], ["threat", "❗"], ["shield", "🛡"], ["asked", "❓"]];

  function who(w) {
    const where = w.suspect ? w.suspect.name + (w.suspect.cell ? " (" + w.suspect.cell + ")" : "") : "—";
    return w.name + " · " + w.role.name + " → " + where;
  }

  function draw(t, buttons) {
    $("noir-score").textContent = t.score || "";
    const prompt = $("noir-prompt");
    prompt.textContent = t.prompt || "";
    prompt.hidden = !t.prompt;
    const taps = new Map();
    for (const b of buttons) if (b.kind === "cell") taps.set(b.t, b);
    const grid = $("noir-grid");
    grid.replaceChildren();
    const cols = t.columns.length;
    grid.style.gridTemplateColumns = "1.2em repeat(" + cols + ", minmax(0, 1fr))";
    grid.append(el("div", "coord"));
    for (const letter of t.columns) grid.append(el("div", "coord", letter));
    t.grid.forEach((row, r) => {
      grid.append(el("div", "coord", String(r + 1)));
      for (const c of row) {
        const tap = taps.get(c.s);
        const cell = el(tap ? "button" : "div", "cell");
        cell.dataset.s = c.s;
        cell.title = c.cell + " " + c.name;
        for (const key of ["dead", "arrested", "last", "own", "mate", "picked"]) {
          if (c[key]) cell.classList.add(key);
        }
        if (tap) {
          cell.classList.add("tap");
          cell.setAttribute("aria-label", c.cell + " " + c.name);
          cell.addEventListener("click", () => press(tap, cell));
        }
        cell.append(el("span", "nm", c.name));
        const marks = NOIR_MARKS.filter(([key]) => c[key]).map(([, icon]) => icon).join("");
        if (marks) cell.append(el("span", "mk", marks));
        if (c.own) cell.append(el("span", "who", "⭐"));
        else if (c.mate) cell.append(el("span", "who", "👥"));
        grid.append(cell);
      }
    });
    $("noir-last").textContent = [t.last, t.turn, t.winner].filter(Boolean).join(" · ");
    $("noir-order-title").textContent = T("noir_order");
    const order = $("noir-order");
    order.replaceChildren();
    for (const o of t.order) {
      const li = el("li", (o.current ? "current" : "") + (o.me ? " me" : ""));
      li.append(el("span", "name", (o.current ? "▶ " : "") + o.name),
                el("span", "tag" + (o.role.team === "mafia" ? " mafia" : ""), o.role.name));
      if (o.away) li.append(el("span", "tag", "💤 " + T("noir_away")));
      order.append(li);
    }
    const ids = $("noir-ids");
    ids.replaceChildren();
    ids.hidden = !t.identities;
    if (t.identities) {
      ids.append(el("h2", null, T("noir_identities")));
      for (const w of t.identities) ids.append(el("div", "row", who(w)));
    }
  }

  function drawMe(t) {
    const box = $("me");
    box.replaceChildren();
    const me = t.me;
    box.hidden = !me;
    if (!me) return;
    box.append(el("div", "icon", me.role.team === "mafia" ? "🕶" : "🕵️"));
    const col = el("div");
    col.append(el("div", "sub", T("your_role")), el("div", "role", me.role.name));
    if (me.suspect) col.append(el("div", null, T("noir_you_are") + ": ⭐ " + me.suspect.name +
                                  (me.suspect.cell ? " (" + me.suspect.cell + ")" : "")));
    if (me.mates.length) col.append(el("div", "sub", T("noir_mates") + ": 👥 " + me.mates.map(who).join("; ")));
    if (me.hand.length) col.append(el("div", "sub", T("noir_hand") + ": " + me.hand.map((c) => c.name).join(", ")));
    box.append(col);
  }


  return { draw: draw, drawMe: drawMe };
};
