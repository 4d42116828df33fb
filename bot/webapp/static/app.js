/* The live table (docs/miniapp.md). Everything it shows comes from the server, already filtered
   for this viewer; the page only draws it, counts the clock down locally and sends presses.
   Names and texts are set with textContent only (never parsed as HTML). */
"use strict";

(function () {
  const tg = window.Telegram && window.Telegram.WebApp;
  const launch = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const initData = (tg && tg.initData) || launch.get("tgWebAppData") || "";
  let game = query.get("g") || "";
  // a tournament's link (startapp=t<id>) or ?t=<id>: its pages (tournament.html, the same
  // launch parameters); a game opened from them (?back=t<id>) gets Telegram's Back button
  const startParam = query.get("tgWebAppStartParam") || launch.get("tgWebAppStartParam")
    || new URLSearchParams(initData).get("start_param") || "";
  const tour = query.get("t") || (/^t\d+$/.test(startParam) ? startParam.slice(1) : "");
  if (!game && /^\d{1,18}$/.test(tour)) {
    location.replace("tournament?t=" + tour + location.hash);
    return;
  }
  const back = query.get("back") || "";
  if (tg && tg.BackButton && /^t\d{1,18}$/.test(back)) {
    tg.BackButton.show();
    tg.BackButton.onClick(() => {
      location.href = "tournament?t=" + back.slice(1) + (launch.get("tgWebAppData") ? location.hash : "");
    });
  }
  let data = null;     // the last table
  let skew = 0;        // server clock - local clock, seconds
  let busy = false;
  let renders = 0;     // tables drawn (the tests wait on it; the server sends no command count)

  // --- theme: Telegram's colours as CSS variables (telegram-web-app.js does it when loaded) ---
  function applyTheme(params) {
    if (!params) return;
    for (const [key, value] of Object.entries(params)) {
      document.documentElement.style.setProperty(
        "--tg-theme-" + key.replace(/_/g, "-"), value);
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
  const T = (key) => (data && data.texts && data.texts[key]) || key;

  function toast(text) {
    const box = $("toast");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { box.hidden = true; }, 2600);
  }

  // --- the clock: the server sends the deadline, the page counts down ---
  function tick() {
    const clock = $("clock");
    if (!data || !data.deadline) { clock.hidden = true; return; }
    const left = Math.max(0, Math.ceil(data.deadline - (Date.now() / 1000 + skew)));
    clock.hidden = false;
    clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    clock.classList.toggle("low", left <= 10);
  }
  setInterval(tick, 250);

  // --- drawing ---
  function seatName(seat) {
    const p = data.table.players.find((x) => x.seat === seat);
    return p ? "№" + p.seat + " " + p.name : "№" + seat;
  }

  // an eliminated player is told how he left (t.me.left: killed / voted / disqualified)
  function drawLeft(box, me) {
    box.hidden = false;
    box.append(el("div", "icon", me.left === "disqualified" ? "🟥" : me.left === "killed" ? "🔪" : "🚪"));
    const col = el("div");
    col.append(el("div", "role", T("left_" + (me.left || "removed"))), el("div", "sub", T("left_watch")));
    box.append(col);
    box.dataset.left = me.left || "removed";
  }

  function drawMe(t) {
    const box = $("me");
    box.replaceChildren();
    delete box.dataset.left;
    const role = t.me && t.me.role;
    if (!role && t.me && t.me.alive === false && !t.over) { drawLeft(box, t.me); return; }
    box.hidden = !role;
    if (!role) return;
    box.append(el("div", "icon", role.icon));
    const col = el("div");
    col.append(el("div", "sub", T("your_role")), el("div", "role", role.name));
    const mine = t.players.find((p) => p.me);
    if (mine && mine.team) col.append(el("div", "sub", T("team") + ": " + mine.team.name));
    box.append(col);
  }

  // the viewer's checks by the checked seat (the Commissar's, the Don's; the host's: all)
  function checksBySeat(t) {
    const by = new Map();
    for (const c of t.checks || []) {
      if (c.kind === "same" || !c.target) continue;
      if (!by.has(c.target)) by.set(c.target, []);
      by.get(c.target).push(c);
    }
    return by;
  }

  function verdict(c) {
    return c.result === null ? "🤷"
      : c.kind === "sheriff" ? (c.result ? T("is_sheriff") : T("not_sheriff"))
      : c.kind === "same" ? (c.result ? "=" : "≠")
      : (c.result ? T("is_mafia") : T("is_town"));
  }

  function drawPlayers(t) {
    $("players-title").textContent = T("players");
    const checked = checksBySeat(t);
    const list = $("players");
    list.replaceChildren();
    for (const p of t.players) {
      const li = el("li");
      li.dataset.seat = p.seat;
      if (p.me) li.classList.add("me");
      if (p.speaker) li.classList.add("speaker");
      if (!p.alive) li.classList.add("out");
      if (!p.active) li.classList.add("inactive");
      li.append(el("span", "seat", p.seat || "·"), el("span", "name", p.name));
      const tags = el("span", "tags");
      if (p.me) tags.append(el("span", "tag", T("you")));
      if (p.speaker) tags.append(el("span", "tag", "🎙 " + T("speaker")));
      if (p.nominated) tags.append(el("span", "tag", "🎯"));
      if (p.ready) tags.append(el("span", "tag", "✅ " + T("ready")));
      if (p.fouls) tags.append(el("span", "tag fouls", "⚠️".repeat(Math.min(p.fouls, 4))));
      for (const c of checked.get(p.seat) || []) {
        const mark = el("span", "tag checked" + (c.result && c.kind !== "sheriff" ? " mafia" : ""),
                        (c.kind === "sheriff" ? "🎩 " : "🔎 ") + verdict(c));
        mark.title = T("checked") + ": №" + c.checker + (c.night ? ", " + T("night_n").replace("{n}", c.night) : "");
        li.dataset.checked = c.result ? "yes" : "no";
        tags.append(mark);
      }
      if (p.nominated_by) tags.append(el("span", "tag nomby", "🎯 " + T("nominated_by").replace("{seat}", p.nominated_by)));
      if (p.votes !== undefined && p.votes !== null) tags.append(el("span", "tag votes", "🗳 " + T("votes_n").replace("{n}", p.votes)));
      if (!p.alive) {
        const when = p.left_when ? " · " + T(p.left_when.kind === "night" ? "night_n" : "day_n").replace("{n}", p.left_when.n) : "";
        tags.append(el("span", "tag left", (p.left ? T("out_" + p.left) : T("out")) + when));
      }
      else if (!p.active) tags.append(el("span", "tag", T("inactive")));
      if (p.role) {
        const black = p.team && p.team.id === "mafia" ? " mafia" : "";
        const tag = el("span", "tag role" + black, p.role.icon + " " + p.role.name);
        tag.dataset.role = p.role.id;
        tags.append(tag);
      } else if (p.team) {
        tags.append(el("span", "tag " + p.team.id, p.team.name));
      }
      li.append(tags);
      list.append(li);
    }
  }

  function drawVote(t) {
    const box = $("vote");
    box.replaceChildren();
    const rows = el("div", "rows");
    if (t.vote) {
      box.append(el("h2", null, T("vote")));
      for (const c of t.vote.candidates) {
        const voters = t.vote.votes[String(c)] || [];
        const row = el("div", "row" + (c === t.vote.current ? " current" : ""));
        row.dataset.candidate = c;
        row.append(el("span", null, (c === t.vote.current ? "▶ " : "") + seatName(c)),
                   el("span", "count", voters.length + (voters.length ? " · №" + voters.join(", №") : "")));
        rows.append(row);
      }
    } else if (t.exclude) {
      box.append(el("h2", null, T("vote")));
      rows.append(el("div", "row", t.exclude.candidates.map(seatName).join(", ")));
      rows.append(el("div", "row", T("yes") + ": " + t.exclude.yes.length + "  ·  " + T("no") + ": " + t.exclude.no.length));
    } else if (t.ballot) {
      box.append(el("h2", null, T("ballot")));
      const by = new Map();
      for (const tap of t.ballot.taps) {
        if (!by.has(tap.choice)) by.set(tap.choice, []);
        by.get(tap.choice).push("№" + tap.voter + (tap.final ? "✔" : "·"));
      }
      for (const [choice, voters] of by) {
        const name = typeof choice === "number" ? seatName(choice)
          : choice === "pass" ? T("pass") : choice === "lift" ? "⬆️" : "⬇️";
        const row = el("div", "row");
        row.append(el("span", null, name), el("span", "count", voters.length + " · " + voters.join(", ")));
        rows.append(row);
      }
    } else if (t.nominations && t.nominations.length) {
      box.append(el("h2", null, T("nominated")));
      rows.append(el("div", "row", t.nominations.map(seatName).join(", ")));
    }
    box.append(rows);
    box.hidden = rows.childElementCount === 0;
  }

  function drawChecks(t) {
    const box = $("checks");
    box.replaceChildren();
    const lines = [];
    for (const c of t.checks || []) {
      const whom = c.kind === "same" ? seatName(c.target) + " · " + seatName(c.second) : seatName(c.target);
      const night = c.night ? T("night_n").replace("{n}", c.night) + " · " : "";
      lines.push(night + "№" + c.checker + " → " + whom + ": " + verdict(c));
    }
    if (lines.length) {
      box.append(el("h2", null, T("checks")));
      for (const line of lines) box.append(el("div", "row", line));
    }
    if (t.picks && t.picks.length) {
      box.append(el("h2", null, T("picks")));
      for (const [who, whom] of t.picks) box.append(el("div", "row", "№" + who + " → " + (whom ? seatName(whom) : "…")));
    }
    box.hidden = box.childElementCount === 0;
  }


  // the last night's result, until the next night
  // the club's record: what the fouls mean, today's protocol (nominations, votes, who left)
  function drawProtocol(t) {
    const box = $("protocol");
    box.replaceChildren();
    const fouls = t.players.some((p) => p.fouls !== undefined);
    if (fouls) box.append(el("div", "muted legend", T("fouls_legend")));
    if (t.protocol) {
      box.append(el("h2", null, t.protocol.title));
      for (const line of t.protocol.lines) box.append(el("div", "row", line));
    }
    box.hidden = box.childElementCount === 0;
  }

  function drawMorning(t) {
    const box = $("morning");
    box.replaceChildren();
    const m = t.morning;
    box.hidden = !m || t.over;
    if (box.hidden) return;
    box.append(el("h2", null, T("morning") + " · " + T("night_n").replace("{n}", m.night)));
    box.append(el("div", "row", m.killed ? T("morning_killed").replace("{player}", seatName(m.killed))
      : m.saved ? T("morning_saved") : m.night <= 1 ? T("morning_met") : T("morning_nobody")));
  }

  // NOIR's board (noir.js)
  const noirView = window.MiniAppNoir({ $: $, el: el, T: T, press: (b, node) => press(b, node) });

  function drawButtons(buttons) {
    const groups = { actions: [], judge: [], control: [] };
    for (const b of buttons) {
      if (b.kind === "cell") continue;  // NOIR: tapped on the board
      const key = b.kind === "judge" ? "judge" : b.kind === "control" ? "control" : "actions";
      groups[key].push(b);
    }
    for (const [id, list] of Object.entries(groups)) {
      const box = $(id);
      box.replaceChildren();
      box.hidden = list.length === 0;
      if (!list.length) continue;
      box.append(el("h2", null, T(id === "actions" ? "actions" : id)));
      if (id === "judge") { drawConsole(box, list); continue; }
      const wrap = el("div", "buttons");
      for (const b of list) wrap.append(button(b, b.label));
      box.append(wrap);
    }
  }

  function button(b, text) {
    const btn = el("button", null, text);
    btn.dataset.a = b.a;
    btn.dataset.t = b.t;
    btn.title = b.title || b.label;
    btn.setAttribute("aria-label", b.title || b.label);
    btn.disabled = !!b.disabled;  // kept in its place, not removed (nothing moves)
    btn.addEventListener("click", () => press(b, btn));
    return btn;
  }

  // the judge's console: one row per seat, its tools as icons in fixed slots -- a slot is kept
  // (empty) where a tool is not offered now, so that nothing moves under the judge's finger
  // (a foul's undo appears after the first foul); the disqualification stands apart, last,
  // and asks to confirm. Tools that come and go with the phase (a nomination taken back) go
  // below the rows, with words.
  // The clock's buttons (+30 s, restart, end turn, undo: ``clock``) have a row of their own
  // above the seats, always all four (disabled when they do not apply).
  const SLOTS = ["foul", "warn", "unfoul", "dq", "pl"];
  const COMPANION = { unfoul: "foul" };  // its slot is kept wherever the first one is offered
  function drawConsole(box, list) {
    const bySeat = new Map();
    const rest = el("div", "buttons");
    const codes = new Set();
    const clock = el("div", "clockrow");
    for (const b of list) {
      if (b.clock) { const node = button(b, b.label); node.classList.add("clock-" + b.a); clock.append(node); continue; }
      if (!b.t || !b.icon || !SLOTS.includes(b.a)) { rest.append(button(b, b.label)); continue; }
      if (!bySeat.has(b.t)) bySeat.set(b.t, new Map());
      bySeat.get(b.t).set(b.a, b);
      codes.add(b.a);
    }
    if (clock.childElementCount) box.append(clock);
    const slots = SLOTS.filter((a) => codes.has(a) || codes.has(COMPANION[a]));
    for (const [seat, tools] of [...bySeat].sort((x, y) => x[0] - y[0])) {
      const row = el("div", "seatrow");
      row.dataset.seat = seat;
      if (tools.has("foul") && tools.get("foul").disabled) row.classList.add("out");
      row.append(el("span", "who", seatName(seat)));
      for (const a of slots) {
        const b = tools.get(a);
        const node = b ? button(b, b.icon) : el("span", "slot");
        node.classList.add("slot-" + a);
        row.append(node);
      }
      box.append(row);
    }
    if (rest.childElementCount) box.append(rest);
  }

  // a press that nothing takes back (a disqualification) is confirmed first, in the page
  function confirmed(b) {
    if (!b.confirm) return Promise.resolve(true);
    const box = $("confirm");
    box.replaceChildren();
    const card = el("div", "card");
    card.append(el("h2", null, T("confirm_title")), el("p", null, b.confirm));
    const row = el("div", "buttons");
    const no = el("button", "no", T("cancel"));
    const yes = el("button", "yes", b.title || b.label);
    row.append(no, yes);
    card.append(row);
    box.append(card);
    box.hidden = false;
    return new Promise((resolve) => {
      const done = (answer) => { box.hidden = true; box.replaceChildren(); resolve(answer); };
      no.addEventListener("click", () => done(false));
      yes.addEventListener("click", () => done(true));
      box.addEventListener("click", (ev) => { if (ev.target === box) done(false); });
      no.focus();
    });
  }

  // a toast always has words: an emoji-only answer gets the button's own words
  function answerText(text, b) {
    if (!text || /\p{L}/u.test(text)) return text;
    const words = b.title || b.label || "";
    return words.startsWith(text) ? words : text + " " + words;
  }

  // --- the score sheet of a finished sport game (docs/miniapp.md "The score sheet") ---
  // every seat: name, role, fouls, how he left, the point columns that are not zero, the
  // total; the judge, while a draft or a correction: − / + of his additional points per seat
  // (fixed places: nothing moves under the finger), then Publish / Save with a confirmation
  function drawSheet(s) {
    const box = $("sheet");
    box.replaceChildren();
    box.hidden = !s;
    if (!s) return;
    box.dataset.mode = s.mode;
    box.append(el("h2", null, s.title));
    if (s.head) box.append(el("div", "head", s.head));
    if (s.note) box.append(el("div", "muted note", s.note));
    const steps = new Map();
    const rest = [];
    for (const b of s.buttons) {
      if (b.t) steps.set(b.t + b.a, b); else rest.push(b);
    }
    const list = el("div", "sheetrows");
    for (const line of s.seats) {
      const row = el("div", "sheetrow");
      row.dataset.seat = line.seat;
      const who = el("div", "who");
      who.append(el("div", "name", line.name));
      const sub = [line.role.name];
      if (line.fouls) sub.push("⚠️" + line.fouls);
      if (line.left) sub.push(line.left);
      const editing = steps.has(line.seat + "+");
      line.points.slice(0, editing ? 3 : 4).forEach((v, i) => {
        if (v !== "0") sub.push(s.columns[i] + " " + v);
      });
      who.append(el("div", "sub", sub.join(" · ")));
      row.append(el("span", "seat" + (line.team === "mafia" ? " mafia" : ""), line.seat), who);
      if (editing) {
        row.append(sheetButton(steps.get(line.seat + "-")));
        const add = el("span", "add", line.points[3]);
        add.title = s.columns[3];
        row.append(add, sheetButton(steps.get(line.seat + "+")));
      }
      const total = el("span", "total", line.points[4]);
      total.title = s.columns[4];
      row.append(total);
      list.append(row);
    }
    if (s.seats.length) box.append(list);
    if (rest.length) {
      const wrap = el("div", "buttons");
      for (const b of rest) wrap.append(sheetButton(b));
      box.append(wrap);
    }
  }

  function sheetButton(b) {
    const btn = el("button", null, b.label);
    btn.dataset.a = b.a;
    btn.dataset.t = b.t;
    btn.addEventListener("click", () => sheetPress(b, btn));
    return btn;
  }

  async function sheetPress(b, btn) {
    if (busy) return;
    busy = true;
    btn.disabled = true;
    try {
      if (!(await confirmed(b))) return;
      const resp = await fetch(apiUrl("sheet"), {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": "tma " + initData },
        body: JSON.stringify({ g: data.game, a: b.a, t: b.t }),
      });
      const answer = await resp.json();
      if (answer.text) toast(answer.text);
      if (answer.sheet) { data.sheet = answer.sheet; render(data); }
      if (tg && tg.HapticFeedback) tg.HapticFeedback.notificationOccurred(resp.ok ? "success" : "error");
    } catch (e) {
      toast(T("offline"));
    } finally {
      busy = false;
      btn.disabled = false;
    }
  }

  // a finished game's sheet changes without a command (the judge's private presses, its
  // publication by itself): the page asks again while it may still change
  function followSheet() {
    clearTimeout(followSheet.timer);
    const s = data && data.sheet;
    if (!over() || !s || !(s.mode === "draft" || s.mode === "correcting" || (s.judge && s.mode === "published"))) return;
    followSheet.timer = setTimeout(sheetAgain, s.judge ? 4000 : 15000);
  }

  // drawn again only when it changed (a redraw under the finger could lose a tap)
  async function sheetAgain() {
    try {
      const resp = await fetch(apiUrl("table"), { headers: { "Authorization": "tma " + initData } });
      if (!resp.ok) return;
      const next = await resp.json();
      if (JSON.stringify(next.sheet) !== JSON.stringify(data.sheet)) render(next);
      else followSheet();
    } catch (e) { followSheet(); }
  }

  // the judge's timings (a running turn's clock: the console's buttons)
  function drawTimings(timings) {
    const box = $("timings");
    box.replaceChildren();
    box.hidden = !timings;
    if (!timings) return;
    box.append(el("h2", null, T("timings")));
    if (timings.current) box.append(el("div", "row current", "⏱ " + timings.current));
    box.append(el("div", "row", timings.all), el("div", "muted", T("timings_note")));
  }

  function render(next) {
    data = next;
    skew = data.now - Date.now() / 1000;
    document.documentElement.lang = data.locale;
    document.title = T("title");
    const t = data.table;
    const phase = t ? (t.over && t.winner ? T("winner").replace("{team}", t.winner) : t.phase_name) : "";
    $("phase").textContent = phase.charAt(0).toUpperCase() + phase.slice(1);
    $("paused").hidden = !(t && t.paused);
    $("paused").textContent = t && t.paused ? t.paused.text : "";
    $("status").textContent = data.viewer.kind === "host" ? T("viewer_host")
      : data.viewer.kind === "onlooker" ? T("viewer_onlooker") : "";
    const lobby = $("lobby");
    lobby.replaceChildren();
    lobby.hidden = !data.lobby;
    $("board").hidden = !t;
    if (data.lobby) {
      $("phase").textContent = T("lobby");
      lobby.append(el("h2", null, T("lobby_players") + " · " + data.lobby.players.length));
      const list = el("ol", "names");
      for (const name of data.lobby.players) list.append(el("li", null, name));
      lobby.append(list);
      if (data.lobby.host) lobby.append(el("div", "muted", "🎩 " + data.lobby.host));
      $("me").hidden = true;
    }
    const noir = !!(t && t.kind === "noir");
    $("noir").hidden = !noir;
    if (noir) $("board").hidden = true;
    if (noir) {
      noirView.drawMe(t);
      noirView.draw(t, data.buttons || []);
      $("vote").hidden = true;
      $("checks").hidden = true;
      $("morning").hidden = true;
      $("protocol").hidden = true;
    } else if (t) {
      drawMe(t);
      drawPlayers(t);
      drawVote(t);
      drawChecks(t);
      drawMorning(t);
      drawProtocol(t);
    } else {
      $("protocol").hidden = true;
    }
    drawButtons(data.buttons || []);
    drawTimings(data.timings);
    drawSheet(data.sheet);
    followSheet();
    tick();
    document.body.dataset.renders = ++renders;
  }

  // --- talking to the bot ---
  function apiUrl(path, extra) {
    const params = new URLSearchParams(extra || {});
    if (game) params.set("g", game);
    const qs = params.toString();
    return "api/" + path + (qs ? "?" + qs : "");
  }

  // a join needs the bot to be able to write to him (his role card comes to the private
  // chat): Telegram asks him first; the server checks it again (docs/miniapp.md)
  function writeAccess() {
    const user = tg && tg.initDataUnsafe && tg.initDataUnsafe.user;
    if (!tg || !tg.requestWriteAccess || (user && user.allows_write_to_pm)
        || (tg.isVersionAtLeast && !tg.isVersionAtLeast("6.9"))) return Promise.resolve();
    return new Promise((resolve) => {
      try { tg.requestWriteAccess(() => resolve()); } catch (e) { resolve(); }
    });
  }

  function refusedWithLink(answer) {  // "press Start in the bot's chat": offer to open it
    if (tg && tg.showConfirm && tg.openTelegramLink) {
      tg.showConfirm(answer.text, (yes) => { if (yes) tg.openTelegramLink(answer.url); });
    } else {
      toast(answer.text);
    }
  }

  async function press(b, btn) {
    if (busy) return;
    busy = true;
    btn.disabled = true;
    try {
      if (!(await confirmed(b))) return;
      if (b.kind === "lobby" && b.a === "join") await writeAccess();
      const resp = await fetch(apiUrl("act"), {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": "tma " + initData },
        body: JSON.stringify({ g: data.game, a: b.a, t: b.t, s: b.s, d: b.d }),
      });
      const answer = await resp.json();
      if (answer.url && !answer.ok) refusedWithLink(answer);
      else if (answer.text) toast(answerText(answer.text, b));
      refresh();
      if (tg && tg.HapticFeedback) tg.HapticFeedback.notificationOccurred(answer.ok ? "success" : "error");
    } catch (e) {
      toast(T("offline"));
    } finally {
      busy = false;
      btn.disabled = !!b.disabled;
    }
  }

  // the stream opens with the short-lived ticket of the last table; when the browser gives up
  // reconnecting (the ticket expired, the server restarted), a fresh table brings a new one
  function live(ticket) {
    const user = tg && tg.initDataUnsafe && tg.initDataUnsafe.user;
    const lang = (user && user.language_code) || "";
    const source = new EventSource(apiUrl("stream", { ticket: ticket, lang: lang }));
    source.addEventListener("table", (ev) => render(JSON.parse(ev.data)));
    source.addEventListener("end", () => { source.close(); refresh(); });  // over: its sheet
    source.onerror = () => {
      if (over()) { source.close(); return; }
      if (data) $("status").textContent = T("offline");
      if (source.readyState === EventSource.CLOSED) setTimeout(start, 2000);
    };
  }

  function over() { return !!(data && data.table && data.table.over); }

  // the table again after a press: a step of a multi-part choice (a draft) stores no command,
  // so no stream event brings it
  async function refresh() {
    try {
      const resp = await fetch(apiUrl("table"), { headers: { "Authorization": "tma " + initData } });
      if (resp.ok) render(await resp.json());
    } catch (e) { /* the stream brings the next one */ }
  }

  async function start() {
    let resp;
    try {
      resp = await fetch(apiUrl("table"), { headers: { "Authorization": "tma " + initData } });
    } catch (e) {
      setTimeout(start, 3000);
      return;
    }
    if (!resp.ok) {  // the server words the refusal in the user's language
      let refusal = {};
      try { refusal = await resp.json(); } catch (e) { /* not JSON */ }
      $("phase").textContent = resp.status === 404 ? "🤷" : "🔒";
      $("status").textContent = refusal.text || String(resp.status);
      $("board").hidden = true;  // no table: no empty card under the refusal
      return;
    }
    const first = await resp.json();
    game = String(first.game);
    render(first);
    if (!over()) live(first.ticket);
  }
  start();
})();
