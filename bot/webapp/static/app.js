// The Tetrad board page: the match's SVG (render.board_svg's hit-target metadata), pinch and
// pan, tap → ghost (the server's preview) → tap again or the main button to play, the offers
// of the match layer, live updates over Server-Sent Events. No framework, no build step.
(function () {
  "use strict";
  const tg = window.tg;
  const $ = function (id) { return document.getElementById(id); };
  // ?m=<id> (a web_app button) or the direct link's start parameter, <id> or <id>-<link key>
  // (the key is read by the server from the signed launch data).
  const ref = (new URLSearchParams(location.search).get("m") || tg.launch.startParam || "").split("-")[0];
  const LETTERS = "abcdefghijklmnopqrstuvwxyz";
  let state = null;
  let ghost = null; // {move}
  let busy = false;
  let live = null;
  const view = { s: 1, x: 0, y: 0 };

  function api(path, body) {
    return fetch("api/match/" + encodeURIComponent(ref || "-") + path, {
      method: body ? "POST" : "GET",
      headers: { "Authorization": "tma " + tg.launch.initData, "Content-Type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (b) {
        return { status: r.status, body: b };
      });
    });
  }

  function toast(text) {
    const t = $("toast");
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { t.hidden = true; }, 3500);
  }

  function confirmDialog(text, yes, no) {
    return new Promise(function (resolve) {
      $("dialog-text").textContent = text;
      $("dialog-yes").textContent = yes;
      $("dialog-no").textContent = no;
      $("dialog").hidden = false;
      tg.backButton(true);
      const done = function (answer) {
        $("dialog").hidden = true;
        $("dialog-yes").onclick = $("dialog-no").onclick = null;
        confirmDialog.pending = null;
        controls();
        resolve(answer);
      };
      confirmDialog.pending = done;
      $("dialog-yes").onclick = function () { done(true); };
      $("dialog-no").onclick = function () { done(false); };
    });
  }

  // -- showing a state ---------------------------------------------------------------------

  function show(s) {
    if (state && s.id === state.id && s.version < state.version) return;
    const changed = !state || s.version !== state.version || s.status !== state.status;
    const first = !state;
    state = s;
    document.documentElement.lang = s.lang;
    $("title").textContent = s.title;
    const players = $("players");
    players.textContent = "";
    s.players.forEach(function (p, i) {
      const el = document.createElement("span");
      el.className = "player" + (s.turn === i ? " turn" : "");
      el.dataset.seat = String(i);
      el.textContent = p.mark + " " + p.name + (s.scored && s.scores.length ? " — " + s.scores[i] : "");
      players.appendChild(el);
    });
    $("line").textContent = s.line + (s.last ? " · " + s.last : "");
    skew = s.clocks.now - Date.now() / 1000;
    tick();
    if (changed) {
      $("board").innerHTML = s.svg;
      ghost = null;
      boardTheme();
    }
    controls();
    if (first) fit(); // once the header and the buttons have their height
    document.body.dataset.version = String(s.version);
    document.body.dataset.ready = "1";
  }

  // The move clock and the STOP timer, counted down on the server's clock.
  let skew = 0;

  function tick() {
    const c = state && !state.over ? state.clocks : null;
    const until = c ? (c.stop_deadline || c.deadline) : null;
    const el = $("clock");
    if (!until) { el.textContent = ""; return; }
    const left = Math.max(0, Math.round(until - (Date.now() / 1000 + skew)));
    el.textContent = (c.stop_deadline ? "✋ " : "⏱ ") + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  }
  setInterval(tick, 1000);

  function boardTheme() {
    const svg = $("board").querySelector("svg");
    if (svg) svg.classList.toggle("dark", document.documentElement.dataset.theme === "dark");
  }

  function mine() { return state && state.seat !== null && state.turn === state.seat && !state.over; }

  function controls() {
    const nav = $("actions");
    nav.textContent = "";
    if (ghost) {
      const b = document.createElement("button");
      b.className = "main";
      b.id = "play";
      b.textContent = mainLabel();
      b.onclick = play;
      nav.appendChild(b);
    }
    (state ? state.actions : []).forEach(function (a) {
      const b = document.createElement("button");
      b.textContent = a.label;
      b.dataset.action = a.action;
      b.onclick = function () { action(a.action); };
      nav.appendChild(b);
    });
    tg.mainButton(mainLabel(), !!ghost);
    tg.backButton(!!ghost || !!confirmDialog.pending);
  }

  function mainLabel() {
    if (!state) return "";
    return state.game === "boxes" ? state.words.draw_line : state.words.place_here;
  }

  // -- zoom and pan ------------------------------------------------------------------------

  function apply() {
    $("zoom").style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.s + ")";
  }

  function fit() {
    const box = $("view").getBoundingClientRect();
    const svg = $("board").querySelector("svg");
    $("zoom").style.width = box.width + "px";
    const h = svg ? svg.getBoundingClientRect().height / view.s : 0; // at scale 1
    view.s = 1;
    view.x = 0;
    view.y = Math.max(0, (box.height - h) / 2);
    apply();
  }

  function zoomAt(cx, cy, factor) {
    const box = $("view").getBoundingClientRect();
    const s = Math.min(8, Math.max(1, view.s * factor));
    const px = cx - box.left, py = cy - box.top;
    view.x = px - (px - view.x) * (s / view.s);
    view.y = py - (py - view.y) * (s / view.s);
    view.s = s;
    apply();
  }

  const pointers = new Map();
  let gesture = null;

  function pinch() {
    const [a, b] = Array.from(pointers.values());
    return { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }

  $("view").addEventListener("pointerdown", function (e) {
    $("view").setPointerCapture(e.pointerId);
    if (pointers.size === 0 && startDrawing(e.clientX, e.clientY)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) gesture = { x: e.clientX, y: e.clientY, moved: false, many: false };
    else if (gesture) { gesture.many = true; gesture.pinch = pinch(); }
  });
  $("view").addEventListener("pointermove", function (e) {
    if (drawing) { extendDrawing(e.clientX, e.clientY); return; }
    const p = pointers.get(e.pointerId);
    if (!p || !gesture) return;
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    p.x = e.clientX;
    p.y = e.clientY;
    if (pointers.size >= 2) {
      const now = pinch();
      zoomAt(now.x, now.y, now.d / (gesture.pinch.d || now.d));
      view.x += now.x - gesture.pinch.x;
      view.y += now.y - gesture.pinch.y;
      gesture.pinch = now;
      apply();
      return;
    }
    if (Math.hypot(e.clientX - gesture.x, e.clientY - gesture.y) > 8) gesture.moved = true;
    if (gesture.moved && view.s > 1) { view.x += dx; view.y += dy; apply(); }
  });
  function up(e) {
    if (drawing) { finishDrawing(); return; }
    pointers.delete(e.pointerId);
    if (gesture && pointers.size === 0) {
      if (!gesture.moved && !gesture.many) tapped(e.clientX, e.clientY);
      gesture = null;
    }
  }
  $("view").addEventListener("pointerup", up);
  $("view").addEventListener("pointercancel", function (e) {
    pointers.delete(e.pointerId);
    gesture = null;
    if (drawing) { drawing.line.remove(); drawing = null; }
  });
  $("view").addEventListener("wheel", function (e) {
    e.preventDefault();
    zoomAt(e.clientX, e.clientY, e.deltaY < 0 ? 1.25 : 0.8);
  }, { passive: false });

  // -- double-tap: zoom to the action (the last move); again: the whole board -------------
  // A tap waits DOUBLE_MS for a second one, so the two taps of a double-tap never place a
  // ghost or play it (the confirming tap comes after the ghost, later than that).
  const DOUBLE_MS = 300, DOUBLE_PX = 40;
  // What render.board_svg marks as the last move of each game.
  const ACTION = { dots: "circle.lm", boxes: "path.halo", sprouts: "path[class^='nw'], circle[class^='nr']" };
  let pendingTap = null;

  function tapped(cx, cy) {
    const before = pendingTap;
    pendingTap = null;
    if (before) {
      clearTimeout(before.timer);
      if (Math.hypot(cx - before.x, cy - before.y) < DOUBLE_PX) { zoomToAction(); return; }
      tap(before.x, before.y);
    }
    pendingTap = { x: cx, y: cy, timer: setTimeout(function () { pendingTap = null; tap(cx, cy); }, DOUBLE_MS) };
  }

  function actionBox(svg) {
    let box = null;
    svg.querySelectorAll(ACTION[svg.dataset.game] || "none").forEach(function (el) {
      const b = el.getBBox();
      if (!box) { box = { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height }; return; }
      box = { x0: Math.min(box.x0, b.x), y0: Math.min(box.y0, b.y),
        x1: Math.max(box.x1, b.x + b.width), y1: Math.max(box.y1, b.y + b.height) };
    });
    return box;
  }

  function zoomToAction() {
    const svg = $("board").querySelector("svg");
    if (!svg) return;
    if (view.s > 1.01) { glide(); fit(); return; }
    const box = actionBox(svg);
    if (!box) return; // no move yet: the whole board is the action
    const vb = svg.viewBox.baseVal, port = $("view").getBoundingClientRect();
    const size = svg.getBoundingClientRect();
    const k = size.width / view.s / vb.width; // screen px per user unit at scale 1
    // Room round the move: eight grid steps of Dots (a thumb's width a point), else 40 %.
    const grid = svg.dataset.grid ? JSON.parse(svg.dataset.grid) : null;
    const near = grid ? 8 * grid.step : 0.4 * vb.width;
    const room = Math.max(1.5 * Math.max(box.x1 - box.x0, box.y1 - box.y0), near);
    const s = Math.min(8, Math.max(1, Math.min(port.width, port.height) / (room * k)));
    const cx = ((box.x0 + box.x1) / 2 - vb.x) * k, cy = ((box.y0 + box.y1) / 2 - vb.y) * k;
    const clamp = function (at, length, shown) {
      return length <= shown ? (shown - length) / 2 : Math.min(0, Math.max(shown - length, at));
    };
    view.s = s;
    view.x = clamp(port.width / 2 - s * cx, s * vb.width * k, port.width);
    view.y = clamp(port.height / 2 - s * cy, s * vb.height * k, port.height);
    glide();
    apply();
  }

  function glide() {
    const z = $("zoom");
    z.classList.add("glide");
    clearTimeout(glide.timer);
    glide.timer = setTimeout(function () { z.classList.remove("glide"); }, 250);
  }

  // -- moves -------------------------------------------------------------------------------

  function userPoint(svg, cx, cy) {
    const r = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    return { x: vb.x + (cx - r.left) * vb.width / r.width, y: vb.y + (cy - r.top) * vb.height / r.height };
  }

  function column(c) { return c < 26 ? LETTERS[c] : "a" + LETTERS[c - 26]; }

  function moveAt(cx, cy) {
    const svg = $("board").querySelector("svg");
    if (!svg) return null;
    const p = userPoint(svg, cx, cy);
    if (svg.dataset.game === "dots") {
      const g = JSON.parse(svg.dataset.grid);
      const c = Math.round((p.x - g.x0) / g.step), r = Math.round((p.y - g.y0) / g.step);
      if (c < 0 || r < 0 || c >= g.cols || r >= g.rows) return null;
      if (Math.hypot(p.x - (g.x0 + c * g.step), p.y - (g.y0 + r * g.step)) > 0.6 * g.step) return null;
      return column(c) + String(g.rows - r);
    }
    if (svg.dataset.game === "boxes") return nearestLine(svg, p);
    return null;
  }

  function nearestLine(svg, p) {
    let best = null, bestD = Infinity;
    svg.querySelectorAll("line.free").forEach(function (l) {
      const x1 = l.x1.baseVal.value, y1 = l.y1.baseVal.value, x2 = l.x2.baseVal.value, y2 = l.y2.baseVal.value;
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const t = Math.max(0, Math.min(1, ((p.x - x1) * (x2 - x1) + (p.y - y1) * (y2 - y1)) / (len * len)));
      const d = Math.hypot(p.x - (x1 + t * (x2 - x1)), p.y - (y1 + t * (y2 - y1)));
      if (d < bestD && d < 0.5 * len) { bestD = d; best = l.dataset.move; }
    });
    return best;
  }

  // -- Рассада: a curve drawn with a finger from a spot; the server says which move it is ---

  let drawing = null; // {start, path (engine units), line (the drawn polyline)}
  const SVGNS = "http://www.w3.org/2000/svg";

  function units(svg) { return JSON.parse(svg.dataset.units); }

  function startDrawing(cx, cy) {
    const svg = $("board").querySelector("svg");
    if (!svg || svg.dataset.game !== "sprouts" || !mine() || busy) return false;
    const p = userPoint(svg, cx, cy);
    let best = null, bestD = Infinity;
    svg.querySelectorAll("circle.spot").forEach(function (c) {
      const d = Math.hypot(p.x - c.cx.baseVal.value, p.y - c.cy.baseVal.value);
      if (d < bestD) { bestD = d; best = c; }
    });
    if (!best || bestD > Math.max(3 * best.r.baseVal.value, 24)) return false;
    const old = svg.querySelector("#drawn-layer");
    if (old) old.remove();
    const layer = document.createElementNS(SVGNS, "g");
    layer.id = "drawn-layer";
    const line = document.createElementNS(SVGNS, "polyline");
    line.setAttribute("class", "drawn");
    layer.appendChild(line);
    svg.appendChild(layer);
    drawing = { start: parseInt(best.dataset.spot, 10), path: [], line: line, layer: layer, svg: svg };
    extendDrawing(cx, cy);
    tg.haptic("impact", "light");
    return true;
  }

  function extendDrawing(cx, cy) {
    const u = units(drawing.svg), p = userPoint(drawing.svg, cx, cy);
    drawing.path.push([(p.x - u.dx) / u.scale, (p.y - u.dy) / u.scale]);
    const pts = drawing.line.getAttribute("points") || "";
    drawing.line.setAttribute("points", pts + " " + p.x.toFixed(1) + "," + p.y.toFixed(1));
  }

  function finishDrawing() {
    const d = drawing;
    drawing = null;
    if (d.path.length < 3) { d.layer.remove(); return; }
    busy = true;
    api("/move", { version: state.version, start: d.start, path: d.path }).then(function (r) {
      busy = false;
      if (r.status === 200) {
        tg.haptic("notification", "success");
        show(r.body);
        return;
      }
      tg.haptic("notification", "error");
      toast(r.body.message || "");
      d.line.setAttribute("class", "drawn refused");
      d.layer.dataset.refused = r.body.error || "";
      if (r.body.at) {
        const u = units(d.svg);
        const mark = document.createElementNS(SVGNS, "circle");
        mark.setAttribute("class", "refused-at");
        mark.setAttribute("cx", String(r.body.at[0] * u.scale + u.dx));
        mark.setAttribute("cy", String(r.body.at[1] * u.scale + u.dy));
        mark.setAttribute("r", String(Math.max(14, 2.5 * (d.svg.viewBox.baseVal.width / 412))));
        d.layer.appendChild(mark);
      }
      setTimeout(function () { d.layer.remove(); }, 4000);
      if (r.status === 409) reload();
    }, function () { busy = false; d.layer.remove(); });
  }

  function tap(cx, cy) {
    if (!mine() || busy) return;
    const move = moveAt(cx, cy);
    if (!move) return;
    if (ghost && ghost.move === move) { play(); return; }
    select(move);
  }

  function clearGhost() {
    ghost = null;
    const layer = $("board").querySelector("#ghost-layer");
    if (layer) layer.remove();
    controls();
  }

  function select(move) {
    busy = true;
    const version = state.version;
    api("/preview", { move: move }).then(function (r) {
      busy = false;
      if (!state || state.version !== version) return;
      if (r.status !== 200) { tg.haptic("notification", "error"); toast(r.body.message || ""); return; }
      const svg = $("board").querySelector("svg");
      let layer = svg.querySelector("#ghost-layer");
      if (!layer) {
        layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
        layer.id = "ghost-layer";
        svg.appendChild(layer);
      }
      layer.innerHTML = r.body.svg;
      layer.dataset.move = move;
      ghost = { move: move };
      tg.haptic("selection_change");
      controls();
    }, function () { busy = false; });
  }

  function play() {
    if (!ghost || busy) return;
    busy = true;
    const body = { version: state.version, move: ghost.move };
    api("/move", body).then(function (r) {
      busy = false;
      if (r.status === 200) {
        tg.haptic("notification", "success");
        show(r.body);
        if (r.body.message) toast(r.body.message);
        return;
      }
      tg.haptic("notification", "error");
      toast(r.body.message || "");
      clearGhost();
      if (r.status === 409) reload();
    }, function () { busy = false; });
  }

  function action(name) {
    const go = function () {
      api("/action", { version: state.version, action: name }).then(function (r) {
        if (r.status === 200) { show(r.body); if (r.body.message) toast(r.body.message); }
        else { toast(r.body.message || ""); if (r.status === 409) reload(); }
      });
    };
    if (name !== "resign") { go(); return; }
    confirmDialog(state.words.resign_sure, state.words.yes, state.words.no).then(function (yes) {
      if (yes) go();
    });
  }

  function reload() {
    return api("").then(function (r) {
      if (r.status === 200) show(r.body);
      else { document.body.dataset.ready = "error"; $("line").textContent = r.body.message || ""; }
    });
  }

  // -- live --------------------------------------------------------------------------------

  function listen() {
    const url = "api/match/" + encodeURIComponent(ref) + "/live?tma=" + encodeURIComponent(tg.launch.initData);
    live = new EventSource(url);
    live.addEventListener("state", function (e) {
      const s = JSON.parse(e.data);
      const before = state && state.version;
      show(s);
      if (before !== null && s.version !== before && s.turn === s.seat) tg.haptic("impact", "light");
    });
    live.addEventListener("end", function () { live.close(); live = null; });
    live.onerror = function () {
      if (!live || state && state.over) return;
      if (live.readyState === EventSource.CLOSED) {
        live = null;
        setTimeout(listen, 3000);
      }
      if (state) toast(state.words.live_lost);
    };
  }

  tg.on("theme_changed", boardTheme);
  tg.on("main_button_pressed", function () { if (ghost) play(); });
  tg.on("back_button_pressed", function () {
    if (confirmDialog.pending) confirmDialog.pending(false);
    else clearGhost();
  });
  // Telegram's main button showing or hiding resizes the view: the board stays where it is
  // (a point tapped once is tapped again in the same place), only its width follows.
  window.addEventListener("resize", function () {
    $("zoom").style.width = $("view").getBoundingClientRect().width + "px";
  });
  window.tetrad = {
    get state() { return state; },
    get ghost() { return ghost; },
  };

  tg.applyTheme(tg.launch.theme);
  tg.post("web_app_ready");
  tg.post("web_app_expand");
  // Without launch data or a match the API says why, in the bot's language.
  reload().then(function () { if (state && !state.over) listen(); });
})();
