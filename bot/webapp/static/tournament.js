/* A tournament's pages (docs/miniapp.md "Tournaments"): Schedule / Standings / My games.
   Everything comes from the server (GET api/tournament), already worded in the group's
   language; the page draws it and asks again every minute while it is on screen.
   Names and texts are set with textContent only (never parsed as HTML). */
"use strict";

(function () {
  const tg = window.Telegram && window.Telegram.WebApp;
  const launch = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const initData = (tg && tg.initData) || launch.get("tgWebAppData") || "";
  const startParam = query.get("tgWebAppStartParam") || launch.get("tgWebAppStartParam")
    || new URLSearchParams(initData).get("start_param") || "";
  const tour = query.get("t") || (/^t\d+$/.test(startParam) ? startParam.slice(1) : "");
  // a link within the Mini App keeps the launch parameters when they came in the hash
  const keep = launch.get("tgWebAppData") ? location.hash : "";
  const TABS = ["schedule", "standings", "mine"];
  let data = null;
  let tab = TABS.includes(query.get("tab")) ? query.get("tab") : null;
  let renders = 0;
  let shown = "";             // the last answer drawn, but for its export links (fresh tickets)
  const opened = new Map();   // round -> open: the viewer's own choice survives a redraw

  function applyTheme(params) {
    if (!params) return;
    for (const [key, value] of Object.entries(params)) {
      document.documentElement.style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
    }
  }
  if (tg) {
    tg.ready();
    tg.expand();
    if (tg.onEvent) tg.onEvent("themeChanged", () => applyTheme(tg.themeParams));
  } else if (launch.get("tgWebAppThemeParams")) {
    try { applyTheme(JSON.parse(launch.get("tgWebAppThemeParams"))); } catch (e) { /* none */ }
  }

  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  const T = (key, values) => {
    let text = (data && data.texts && data.texts[key]) || key;
    for (const [k, v] of Object.entries(values || {})) text = text.replace("{" + k + "}", v);
    return text;
  };
  const chip = (text, cls) => el("span", "chip" + (cls ? " " + cls : ""), text);

  function gameLink(id) {
    const a = el("a", "open", T("open_game") + " ›");
    a.href = "./?g=" + id + "&back=t" + data.tournament.id + keep;
    a.dataset.game = id;
    return a;
  }

  // --- schedule: rounds × tables × seats ---
  function drawSchedule(s) {
    const pane = $("pane-schedule");
    pane.replaceChildren();
    if (!s) { pane.append(el("section", "empty", T("not_drawn"))); return; }
    const current = s.rounds.find((r) => r.current);
    for (const r of s.rounds) {
      const box = el("details", "round");
      box.dataset.round = r.round;
      box.open = opened.has(r.round) ? opened.get(r.round)
        : current ? r.current : r.round === s.rounds.length;
      const head = el("summary");
      head.addEventListener("click", () => opened.set(r.round, !box.open));
      head.append(el("span", "label", T("round_n", { n: r.round })));
      if (r.current) head.append(chip(T("now"), "now"));
      if (r.mine) head.append(chip(T("yours"), "mine"));
      box.append(head);
      for (const t of r.tables) {
        const card = el("div", "table" + (t.mine ? " mine" : ""));
        card.dataset.table = t.table;
        const line = el("div", "tline");
        line.append(el("span", "tname", T("table_n", { n: t.table }) + (t.group ? " · " + t.group : "")));
        line.append(t.game ? chip(t.game.status_text, t.game.status) : chip(T("waiting"), "waiting"));
        card.append(line);
        const list = el("ol", "seats");
        for (const seat of t.seats) {
          const li = el("li");
          li.dataset.seat = seat.seat;
          if (seat.me) li.classList.add("me");
          li.append(el("span", "seat", seat.seat), el("span", "name", seat.name));
          const tags = el("span", "tags");
          if (seat.me) tags.append(el("span", "tag", T("you")));
          if (seat.substitute) {
            const sub = el("span", "tag subst", "🔁 " + T("substitute_for", { name: seat.substitute.for }));
            sub.title = sub.textContent;
            tags.append(sub);
            li.classList.add("substitute");
          }
          if (tags.childElementCount) li.append(tags);
          list.append(li);
        }
        card.append(list);
        if (t.game && t.game.status !== "cancelled") card.append(gameLink(t.game.id));
        box.append(card);
      }
      if (r.sitting_out.length) {
        const out = el("div", "out");
        out.append(el("span", "label", T("sitting_out") + ": "));
        r.sitting_out.forEach((p, i) => {
          out.append(el("span", p.me ? "who me" : "who", p.name + (i < r.sitting_out.length - 1 ? ", " : "")));
        });
        box.append(out);
      }
      pane.append(box);
    }
  }

  // --- standings: the rows of /tournament, the same figures ---
  const COLS = [["points", "col_points", "points"], ["games", "col_games", "games"],
                ["wins", "col_wins", "wins"], ["additional", "col_add", "additional"],
                ["best_move", "col_bm", "best_move"]];
  // TOUR-X10: while the table is ranked by points per game, their column follows the points
  const PER_GAME = ["per_game", "col_per_game", "per_game"];
  function drawStandings(s) {
    const cols = s.per_game ? [COLS[0], PER_GAME, ...COLS.slice(1)] : COLS;
    const pane = $("pane-standings");
    pane.replaceChildren();
    const box = el("section", "standings");
    const head = el("div", "st-info");
    if (s.final) head.append(chip("🏁 " + T("final"), "final"));
    head.append(el("span", "muted", T("published_n", { n: s.published })));
    box.append(head);
    const grid = el("div", "st-grid" + (s.per_game ? " per-game" : ""));
    const top = el("div", "st-row st-head");
    top.append(el("span", "place", "#"), el("span", "name", T("col_player")));
    for (const [, short, long] of cols) {
      const cell = el("span", "num", T(short));
      cell.title = T(long);
      top.append(cell);
    }
    grid.append(top);
    for (const r of s.rows) {
      const row = el("div", "st-row" + (r.me ? " me" : "") + (r.place <= 3 && r.games ? " top" + r.place : ""));
      row.dataset.place = r.place;
      row.append(el("span", "place", r.place), el("span", "name", r.name + (r.substitute ? " *" : "")));
      for (const [key] of cols) row.append(el("span", "num " + key, r[key]));
      grid.append(row);
    }
    box.append(grid);
    if (s.per_game_note) box.append(el("div", "muted note", s.per_game_note));
    if (s.note) box.append(el("div", "muted note", s.note));
    box.append(el("div", "muted note", s.tie_breaks));
    pane.append(box);
    if (s.state) pane.append(el("section", "state", s.state));
    drawExport(pane);
  }

  // the organiser's download links (the same files as /tournament export)
  function drawExport(pane) {
    const links = data.export;
    if (!links) return;
    const box = el("section", "export");
    box.append(el("h2", null, T("download")));
    const row = el("div", "buttons");
    for (const [fmt, label] of [["json", "export_json"], ["csv", "export_csv"]]) {
      const a = el("a", "button", "⬇️ " + T(label));
      a.href = links[fmt];
      a.dataset.format = fmt;
      const name = "tournament-" + data.tournament.id + (fmt === "csv" ? "-standings.csv" : ".json");
      a.setAttribute("download", name);
      a.addEventListener("click", (ev) => {
        if (tg && tg.downloadFile && tg.isVersionAtLeast && tg.isVersionAtLeast("8.0")) {
          ev.preventDefault();  // Telegram's own download (a webview may not save a link)
          tg.downloadFile({ url: new URL(a.getAttribute("href"), location.href).href, file_name: name });
        }
      });
      row.append(a);
    }
    box.append(row, el("div", "muted note", T("export_note")));
    pane.append(box);
  }

  // --- my games ---
  function drawMine(m) {
    const pane = $("pane-mine");
    pane.replaceChildren();
    if (m.summary) pane.append(el("section", "summary", m.summary));
    if (!m.games.length && !m.sitting_out.length) {
      pane.append(el("section", "empty", data.schedule === null ? T("not_drawn") : T("no_games")));
    }
    for (const g of m.games) {
      const card = el("section", "game" + (g.result ? (g.result.won ? " won" : " lost") : ""));
      card.dataset.round = g.round;
      const line = el("div", "tline");
      line.append(el("span", "tname", T("round_n", { n: g.round }) + " · " + T("table_n", { n: g.table })));
      line.append(chip(g.status_text, g.status));
      card.append(line);
      const where = [T("seat_n", { n: g.seat })];
      if (g.group) where.unshift(g.group);
      card.append(el("div", "sub where", where.join(" · ")));
      if (g.substitute) card.append(el("div", "sub", "🔁 " + T("substitute_for", { name: g.substitute.for })));
      if (g.replaced_by) card.append(el("div", "sub", "🔁 " + T("replaced_by", { name: g.replaced_by })));
      if (g.result) {
        const res = el("div", "result");
        res.append(el("span", "verdict", (g.result.won ? "🏆 " + T("won") : "✖️ " + T("lost"))
          + " · " + T("as_role", { role: g.result.role })));
        res.append(el("span", "total", T("total_points", { points: g.result.total })));
        card.append(res);
        if (g.result.line) card.append(el("div", "sub", g.result.line));
      }
      if (g.game && !g.replaced_by && g.status !== "cancelled") card.append(gameLink(g.game));
      pane.append(card);
    }
    if (m.sitting_out.length) pane.append(el("section", "muted out", T("you_sit_out", { rounds: m.sitting_out.join(", ") })));
  }

  // --- the frame ---
  function show(name) {
    tab = name;
    for (const t of TABS) {
      const b = $("tab-" + t);
      b.setAttribute("aria-selected", String(t === name));
      b.classList.toggle("active", t === name);
      $("pane-" + t).hidden = t !== name;
    }
  }
  for (const t of TABS) $("tab-" + t).addEventListener("click", () => show(t));

  function render(next) {
    const key = JSON.stringify(Object.assign({}, next, { export: null }));
    if (key === shown && data) {  // nothing moved: only the links' tickets are new
      data.export = next.export;
      for (const a of document.querySelectorAll(".export a")) a.href = next.export[a.dataset.format];
      return;
    }
    shown = key;
    data = next;
    const t = data.tournament;
    document.documentElement.lang = data.locale;
    document.title = T("title") + " · " + t.name;
    $("t-name").textContent = "🏆 " + t.name;
    $("t-sub").textContent = t.subtitle;
    $("t-status").hidden = false;
    $("t-status").textContent = t.status_text;
    $("t-status").dataset.status = t.status;
    $("status").textContent = "";
    $("tabs").hidden = false;
    for (const name of TABS) $("tab-" + name).textContent = T("tab_" + name);
    drawSchedule(data.schedule);
    drawStandings(data.standings);
    drawMine(data.mine);
    if (!tab) tab = data.mine.games.length ? "mine" : data.standings.published ? "standings" : "schedule";
    show(tab);
    document.body.dataset.renders = ++renders;
  }

  async function load() {
    let resp;
    try {
      resp = await fetch("api/tournament?t=" + encodeURIComponent(tour),
                         { headers: { "Authorization": "tma " + initData } });
    } catch (e) {
      if (data) $("status").textContent = T("offline");
      return;
    }
    if (!resp.ok) {  // the server words the refusal in the user's language
      let refusal = {};
      try { refusal = await resp.json(); } catch (e) { /* not JSON */ }
      $("t-name").textContent = resp.status === 404 || resp.status === 400 ? "🤷" : "🔒";
      $("status").textContent = refusal.text || String(resp.status);
      $("tabs").hidden = true;
      for (const name of TABS) $("pane-" + name).hidden = true;
      document.body.dataset.refused = resp.status;
      return;
    }
    render(await resp.json());
  }

  load();
  // the standings move with each published sheet; the export links' tickets last 5 minutes
  setInterval(() => { if (document.visibilityState !== "hidden" && data) load(); }, 60000);
})();
