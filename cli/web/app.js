// The page of `carcassonne serve`. The engine runs on the server: this script shows the
// state the server gives (the board picture, the choices of the decision) and sends
// back the index of the choice a person clicked. It knows no rule of its own: every
// decision of every set is drawn from the choices' squares, spots and fields.
(function () {
  "use strict";

  var SVGNS = "http://www.w3.org/2000/svg";
  var $ = function (id) { return document.getElementById(id); };

  var options = null;      // GET /api/options
  var state = null;        // the state of the game shown
  var gameId = null;
  var busy = false;        // a request is under way
  var selection = null;    // {pos: [x, y], rot: r}: a square chosen for the tile in hand
  var handRot = 0;         // the turn of the tile in hand before a square is chosen
  var viewShown = null;    // "bot" or "analysis": the MCTS view shown
  var analysis = null;     // {version, view}
  var pending = null;      // the timer of the next bot move
  var shownVersion = null; // the version whose last move was announced
  var zoom = 1;
  var autoZoom = true;     // the board fits its area until the zoom buttons are used

  // ----- requests -------------------------------------------------------------------

  function api(method, path, body) {
    var init = { method: method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (r) {
      if (r.status === 204) { return null; }
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) {
          var e = new Error(data.error || ("the server answered " + r.status));
          e.status = r.status;
          e.data = data;
          throw e;
        }
        return data;
      });
    });
  }

  function speed() {
    var m = /[?&]speed=(\d+)/.exec(window.location.search);
    if (m) { return Number(m[1]); }
    return Number($("speed").value);
  }

  // ----- routing --------------------------------------------------------------------

  function route() {
    var m = /^#game=([0-9a-zA-Z_-]+)$/.exec(window.location.hash);
    stopBots();
    if (m) {
      openGame(m[1]);
    } else {
      showSetup();
    }
  }

  function stopBots() {
    if (pending !== null) { clearTimeout(pending); pending = null; }
  }

  // ----- setup ----------------------------------------------------------------------

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function buildSetup() {
    var players = $("players");
    for (var n = options.players.min; n <= options.players.max; n++) {
      players.appendChild(el("option", { value: String(n) }, String(n)));
    }
    players.value = "2";
    players.addEventListener("change", buildSeats);
    options.sets.forEach(function (s) {
      var label = el("label");
      var box = el("input", { type: "checkbox", name: "set", value: s.key, id: "set-" + s.key });
      if (s.required) { box.checked = true; box.disabled = true; }
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + s.title));
      $("sets").appendChild(label);
    });
    $("all-sets").addEventListener("click", function () {
      document.querySelectorAll("input[name=set]").forEach(function (b) { b.checked = true; });
    });
    $("base-only").addEventListener("click", function () {
      document.querySelectorAll("input[name=set]").forEach(function (b) { b.checked = b.disabled; });
    });
    options.editions.forEach(function (e) { $("edition").appendChild(el("option", { value: e }, e)); });
    $("edition").value = options.default_edition;
    options.rules.forEach(function (r) {
      var label = el("label", {}, r.key + " ");
      var select = el("select", { "data-rule": r.key, id: "rule-" + r.key });
      r.values.forEach(function (v) { select.appendChild(el("option", { value: v }, v)); });
      select.value = String(r.default);
      label.appendChild(select);
      $("rules").appendChild(label);
    });
    $("seed").value = String(Math.floor(Math.random() * 1000000));
    buildSeats();
    $("setup-form").addEventListener("submit", function (e) {
      e.preventDefault();
      start();
    });
    $("load").addEventListener("click", load);
  }

  function buildSeats() {
    var n = Number($("players").value);
    var seats = $("seats");
    var old = seatSpecs();
    seats.textContent = "";
    for (var i = 0; i < n; i++) {
      var row = el("div", { "class": "seat" });
      var swatch = el("span", { "class": "swatch" });
      swatch.style.background = options.colours[i];
      row.appendChild(swatch);
      row.appendChild(document.createTextNode("seat " + i + " (" + options.colour_names[i] + ") "));
      var select = el("select", { id: "seat-" + i, "data-seat": String(i) });
      select.appendChild(el("option", { value: "human" }, "a person"));
      options.bots.forEach(function (b) { select.appendChild(el("option", { value: b.spec }, b.label)); });
      select.appendChild(el("option", { value: "other" }, "other bot…"));
      var other = el("input", { type: "text", id: "seat-spec-" + i, placeholder: "mcts:3000:c=0.5", size: "18" });
      other.hidden = true;
      select.addEventListener("change", (function (o, s) {
        return function () { o.hidden = s.value !== "other"; };
      })(other, select));
      var wanted = old[i] !== undefined ? old[i] : (i === 0 ? "human" : "mcts:1000");
      if (Array.prototype.some.call(select.options, function (o) { return o.value === wanted; })) {
        select.value = wanted;
      } else {
        select.value = "other";
        other.value = wanted;
        other.hidden = false;
      }
      row.appendChild(select);
      row.appendChild(other);
      seats.appendChild(row);
    }
  }

  function seatSpecs() {
    var specs = [];
    document.querySelectorAll("#seats select").forEach(function (s) {
      var i = Number(s.getAttribute("data-seat"));
      specs[i] = s.value === "other" ? $("seat-spec-" + i).value.trim() : s.value;
    });
    return specs;
  }

  function setupError(e) {
    $("setup-error").textContent = e ? e.message : "";
  }

  function start() {
    var sets = [];
    document.querySelectorAll("input[name=set]").forEach(function (b) { if (b.checked) { sets.push(b.value); } });
    var rules = {};
    document.querySelectorAll("#rules select").forEach(function (s) {
      var v = s.value;
      rules[s.getAttribute("data-rule")] = v === "true" ? true : v === "false" ? false : v;
    });
    var seed = $("seed").value.trim();
    var setup = {
      players: Number($("players").value),
      sets: sets,
      edition: $("edition").value,
      rules: rules,
      figures: { abbot: $("abbot").checked ? 1 : 0 },
    };
    if (seed !== "") { setup.seed = Number(seed); }
    setupError(null);
    api("POST", "/api/games", { setup: setup, seats: seatSpecs() }).then(function (s) {
      window.location.hash = "#game=" + s.id;
    }).catch(setupError);
  }

  function load() {
    var file = $("load-file").files[0];
    if (!file) { setupError(new Error("choose a record file first")); return; }
    var reader = new FileReader();
    reader.onload = function () {
      setupError(null);
      var text = String(reader.result).trim();
      // A file of JSON Lines: the last record.
      var lines = text.split("\n").filter(function (l) { return l.trim() !== ""; });
      if (lines.length > 1) { text = lines[lines.length - 1]; }
      var seats = seatSpecs();
      var players = null;
      try { players = JSON.parse(text).setup.players; } catch (e) { players = null; }
      if (typeof players === "number" && players !== seats.length) {
        // The record decides the number of seats: the form's first seats, then bots.
        var fitted = [];
        for (var i = 0; i < players; i++) { fitted.push(seats[i] || "mcts:1000"); }
        seats = fitted;
      }
      api("POST", "/api/games/load", { record: text, seats: seats }).then(function (s) {
        window.location.hash = "#game=" + s.id;
      }).catch(setupError);
    };
    reader.onerror = function () { setupError(new Error("cannot read the file")); };
    reader.readAsText(file);
  }

  function listGames() {
    api("GET", "/api/games").then(function (data) {
      var list = $("games");
      list.textContent = "";
      if (data.games.length === 0) {
        list.appendChild(el("li", {}, "none yet"));
      }
      data.games.forEach(function (g) {
        var li = el("li");
        var a = el("a", { href: "#game=" + g.id }, g.id);
        li.appendChild(a);
        li.appendChild(document.createTextNode(" — " + g.setup + "; seats " + g.seats.join(", ") +
          (g.over ? "; over, scores " + g.scores.join(":") : "; turn " + g.turn) + " "));
        var forget = el("button", { type: "button" }, "forget");
        forget.addEventListener("click", function () {
          api("DELETE", "/api/games/" + g.id).then(listGames).catch(setupError);
        });
        li.appendChild(forget);
        list.appendChild(li);
      });
    }).catch(setupError);
  }

  function showSetup() {
    gameId = null;
    state = null;
    $("game").hidden = true;
    $("setup").hidden = false;
    $("title").textContent = "";
    listGames();
  }

  // ----- the game -------------------------------------------------------------------

  function openGame(id) {
    gameId = id;
    selection = null;
    analysis = null;
    $("setup").hidden = true;
    $("game").hidden = false;
    setStatus("busy", "loading…");
    api("GET", "/api/games/" + id).then(function (s) {
      shownVersion = s.version;
      show(s);
    }).catch(function (e) {
      $("game").hidden = true;
      $("setup").hidden = false;
      setupError(new Error("game " + id + ": " + e.message));
      listGames();
    });
  }

  function setStatus(kind, text) {
    var s = $("status");
    s.setAttribute("data-state", kind);
    s.setAttribute("data-version", state ? String(state.version) : "");
    s.textContent = text;
  }

  function showError(e) {
    $("error").textContent = e ? e.message : "";
  }

  // After a request that changed the game, or to show it anew.
  function show(s) {
    var changed = !state || state.version !== s.version;
    state = s;
    if (changed) { selection = null; }
    if (analysis && analysis.version !== s.version) { analysis = null; if (viewShown === "analysis") { viewShown = null; } }
    $("title").textContent = "game " + s.id + ": " + s.setup;
    drawBoard();
    drawPanel();
    if (changed && s.last && shownVersion !== s.version) {
      announce(s.last);
    }
    shownVersion = s.version;
    next();
  }

  // Lets the bots move, one decision at a time, while a bot decides.
  function next() {
    stopBots();
    if (!state || state.over || state.human !== null) { return; }
    pending = setTimeout(function () {
      pending = null;
      act("bot", {});
    }, speed());
  }

  function act(action, extra) {
    if (busy || !state) { return; }
    busy = true;
    var body = { version: state.version };
    Object.keys(extra).forEach(function (k) { body[k] = extra[k]; });
    if (action === "bot") {
      setStatus("busy", seatName(state.to_play) + " (" + state.seats[state.to_play].who + ") is thinking…");
    } else {
      setStatus("busy", "…");
    }
    showError(null);
    api("POST", "/api/games/" + gameId + "/" + action, body).then(function (s) {
      busy = false;
      show(s);
    }).catch(function (e) {
      busy = false;
      showError(e);
      if (e.status === 409 || e.status === 404) {
        // The game changed elsewhere (another tab), or is gone: show what it is now.
        openGame(gameId);
      } else {
        drawPanel();
      }
    });
  }

  function play(index) {
    stopBots();
    act("play", { choice: index });
  }

  function seatName(seat) {
    return state.seats[seat].name;
  }

  // ----- the board ------------------------------------------------------------------

  function frame() {
    var svg = $("board").querySelector("svg");
    return {
      svg: svg,
      minX: Number(svg.getAttribute("data-min-x")),
      minY: Number(svg.getAttribute("data-min-y")),
      left: Number(svg.getAttribute("data-left")),
      top: Number(svg.getAttribute("data-top")),
      tile: Number(svg.getAttribute("data-tile")),
    };
  }

  function origin(f, pos) {
    return [f.left + (pos[0] - f.minX) * f.tile, f.top + (pos[1] - f.minY) * f.tile];
  }

  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  function key(pos) { return pos[0] + "," + pos[1]; }

  // Every choice that names a square: empty squares (where the tile goes), spots on
  // placed tiles (features, corners) and placed tiles themselves.
  function boardGroups() {
    var squares = {}, spots = {}, tiles = {};
    state.choices.forEach(function (c) {
      if (!c.pos) { return; }
      var k = key(c.pos);
      if (c.empty) {
        (squares[k] = squares[k] || { pos: c.pos, choices: [] }).choices.push(c);
      } else if (c.spot) {
        var sk = k + ":" + c.spot[0] + "," + c.spot[1];
        (spots[sk] = spots[sk] || { pos: c.pos, spot: c.spot, choices: [] }).choices.push(c);
      } else {
        (tiles[k] = tiles[k] || { pos: c.pos, choices: [] }).choices.push(c);
      }
    });
    return { squares: squares, spots: spots, tiles: tiles };
  }

  function rotsAt(group) {
    var rots = [];
    group.choices.forEach(function (c) { if (c.rot !== null && rots.indexOf(c.rot) < 0) { rots.push(c.rot); } });
    return rots.sort();
  }

  function drawBoard() {
    var board = $("board");
    board.innerHTML = state.board;
    var f = frame();
    var w = Number(f.svg.getAttribute("width")), h = Number(f.svg.getAttribute("height"));
    if (autoZoom) {
      var wrap = $("board-wrap");
      var fit = Math.min((wrap.clientWidth - 8) / w, (wrap.clientHeight - 8) / h);
      zoom = Math.max(0.35, Math.min(1.6, fit || 1));
    }
    f.svg.setAttribute("width", String(w * zoom));
    f.svg.setAttribute("height", String(h * zoom));
    var layer = svgEl("g", { "class": "overlay" });
    f.svg.appendChild(layer);
    var human = state.human !== null;
    var groups = boardGroups();
    if (human) {
      Object.keys(groups.tiles).forEach(function (k) {
        var g = groups.tiles[k];
        var o = origin(f, g.pos);
        var r = svgEl("rect", { x: o[0] + 2, y: o[1] + 2, width: f.tile - 4, height: f.tile - 4,
          "class": "act tilepick", "data-x": g.pos[0], "data-y": g.pos[1] });
        r.appendChild(titleOf(g.choices));
        r.addEventListener("click", function () { pickAmong(g.choices, "at (" + key(g.pos) + ")"); });
        layer.appendChild(r);
      });
      Object.keys(groups.squares).forEach(function (k) {
        var g = groups.squares[k];
        var o = origin(f, g.pos);
        var rots = rotsAt(g);
        var fits = rots.length === 0 || rots.indexOf(handRot) >= 0;
        var selected = selection && key(selection.pos) === k;
        var r = svgEl("rect", { x: o[0] + 1.5, y: o[1] + 1.5, width: f.tile - 3, height: f.tile - 3,
          "class": "act target" + (fits ? " fits" : "") + (selected ? " selected" : ""),
          "data-x": g.pos[0], "data-y": g.pos[1] });
        r.appendChild(titleOf(g.choices));
        r.addEventListener("click", function () { selectSquare(g); });
        layer.appendChild(r);
      });
      if (selection && state.tile) {
        var o = origin(f, selection.pos);
        var ghost = svgEl("image", { x: o[0], y: o[1], width: f.tile, height: f.tile,
          href: tileUrl(state.tile, selection.rot), "class": "act ghost", id: "ghost" });
        ghost.appendChild(svgEl("title", {})).textContent = "click to turn the tile";
        ghost.addEventListener("click", function () { turn(1); });
        layer.appendChild(ghost);
      }
      Object.keys(groups.spots).forEach(function (k) {
        var g = groups.spots[k];
        var o = origin(f, g.pos);
        var c = svgEl("circle", { cx: o[0] + g.spot[0], cy: o[1] + g.spot[1], r: 8,
          "class": "act spot", "data-x": g.pos[0], "data-y": g.pos[1] });
        c.appendChild(titleOf(g.choices));
        c.addEventListener("click", function () { pickAmong(g.choices, g.choices[0].detail); });
        layer.appendChild(c);
      });
    }
    drawHints(layer, f);
    var fresh = f.svg.querySelector(".new-tile");
    if (fresh && fresh.scrollIntoView) { fresh.scrollIntoView({ block: "nearest", inline: "nearest" }); }
  }

  function titleOf(choices) {
    var t = svgEl("title", {});
    t.textContent = choices.map(function (c) { return c.text; }).join("\n");
    return t;
  }

  function tileUrl(id, rot) {
    return "/api/tiles/" + encodeURIComponent(id) + ".svg?rot=" + rot;
  }

  // The MCTS view's top moves marked on the board.
  function drawHints(layer, f) {
    var view = currentView();
    if (!view) { return; }
    view.top.forEach(function (m) {
      if (!m.pos) { return; }
      var o = origin(f, m.pos);
      var at = m.spot ? [o[0] + m.spot[0], o[1] + m.spot[1]] : [o[0] + f.tile / 2, o[1] + f.tile / 2];
      layer.appendChild(svgEl("circle", { cx: at[0], cy: at[1], r: 5 + 14 * Math.sqrt(m.share), "class": "hint-mark" }));
      var label = svgEl("text", { x: at[0] + 6, y: at[1] - 6, "class": "hint-label" });
      label.textContent = Math.round(m.share * 100) + "%" + (m.rot !== null && m.rot !== undefined ? " ↻" + m.rot : "");
      layer.appendChild(label);
    });
  }

  function selectSquare(group) {
    var rots = rotsAt(group);
    if (rots.length === 0) {
      // A square without rotations (the abbey, AM1): one choice, or several to pick.
      pickAmong(group.choices, "at (" + key(group.pos) + ")");
      return;
    }
    if (selection && key(selection.pos) === key(group.pos)) {
      turn(1);
      return;
    }
    selection = { pos: group.pos, rot: rots.indexOf(handRot) >= 0 ? handRot : rots[0] };
    handRot = selection.rot;
    drawBoard();
    drawPanel();
  }

  // Turns the tile in hand: among the rotations that fit the chosen square, or freely.
  function turn(step) {
    if (!state || !state.tile || state.human === null) { return; }
    if (selection) {
      var group = boardGroups().squares[key(selection.pos)];
      var rots = rotsAt(group);
      var i = rots.indexOf(selection.rot);
      selection.rot = rots[(i + step + rots.length) % rots.length];
      handRot = selection.rot;
    } else {
      handRot = (handRot + step + 4) % 4;
    }
    drawBoard();
    drawPanel();
  }

  function selectedChoices() {
    if (!selection) { return []; }
    return state.choices.filter(function (c) {
      return c.pos && key(c.pos) === key(selection.pos) && c.rot === selection.rot && c.empty;
    });
  }

  // Several choices at one place: buttons to pick one (one alone is played at once).
  function pickAmong(choices, where) {
    if (choices.length === 1) { play(choices[0].i); return; }
    selection = null;
    var box = $("actions");
    box.textContent = "";
    box.appendChild(el("div", { "class": "group" }, "Choose " + where + ":"));
    choices.forEach(function (c) { box.appendChild(choiceButton(c, c.text)); });
    var cancel = el("button", { type: "button", id: "cancel" }, "cancel");
    cancel.addEventListener("click", drawPanel);
    box.appendChild(cancel);
  }

  function choiceButton(c, text) {
    var b = el("button", { type: "button", "class": "act choice", "data-choice": String(c.i) });
    c.fields.forEach(function (f) {
      if (f.kind === "Tile") {
        var img = el("img", { src: tileUrl(f.value, 0), alt: f.value });
        b.appendChild(img);
      }
    });
    b.appendChild(document.createTextNode(text));
    b.addEventListener("click", function () { play(c.i); });
    return b;
  }

  // ----- the panel ------------------------------------------------------------------

  function drawPanel() {
    var s = state;
    if (s.over) {
      var best = Math.max.apply(null, s.seats.map(function (x) { return x.score; }));
      setStatus("over", "Game over: " + s.winners.map(seatName).join(" and ") + (s.winners.length > 1 ? " tie" : " wins") + " with " + best + " points");
    } else if (s.human !== null) {
      setStatus("human", "Turn " + s.turn + ": " + seatName(s.human) + ", your decision");
    } else {
      setStatus("bot", "Turn " + s.turn + ": " + seatName(s.to_play) + " (" + s.seats[s.to_play].who + ") to play");
    }
    $("prompt").textContent = s.over ? "" : (s.human !== null ? "You: " + s.prompt : s.prompt);
    drawHand();
    drawActions();
    drawTools();
    drawView();
    drawScores();
    drawNotes();
    drawLog();
    drawRemaining();
    drawAllChoices();
  }

  function drawHand() {
    var hand = $("hand-tile");
    hand.textContent = "";
    var rots = state.choices.some(function (c) { return c.rot !== null; });
    if (!state.tile || state.over || !rots) {
      $("hand").hidden = true;
      return;
    }
    $("hand").hidden = false;
    var rot = selection ? selection.rot : handRot;
    hand.appendChild(el("img", { src: tileUrl(state.tile, rot), alt: state.tile + " turned " + rot }));
    hand.className = "tile-button" + (state.human !== null ? " act" : "");
    $("hand-help").textContent = state.tile + (state.human !== null ?
      (selection ? " at (" + key(selection.pos) + ") turned " + rot + ". Click the tile (or R) to turn it, Enter to place it." :
        " turned " + rot + ": green squares fit it so. Click (or R) to turn it; click a square.") : "");
  }

  function drawActions() {
    var box = $("actions");
    box.textContent = "";
    if (state.human === null || state.over) { return; }
    if (selection) {
      var here = selectedChoices();
      var rots = rotsAt(boardGroups().squares[key(selection.pos)]);
      var row = el("div", { "class": "group" });
      if (rots.length > 1) {
        var left = el("button", { type: "button", "class": "act", id: "rotate-left", title: "turn anticlockwise (E)" }, "⟲");
        left.addEventListener("click", function () { turn(-1); });
        var right = el("button", { type: "button", "class": "act", id: "rotate-right", title: "turn clockwise (R)" }, "⟳");
        right.addEventListener("click", function () { turn(1); });
        row.appendChild(left);
        row.appendChild(right);
      }
      if (here.length === 1) {
        var ok = el("button", { type: "button", "class": "act primary", id: "confirm" }, "Place the tile here");
        ok.addEventListener("click", function () { play(here[0].i); });
        row.appendChild(ok);
      } else {
        here.forEach(function (c) { row.appendChild(choiceButton(c, c.detail)); });
      }
      var cancel = el("button", { type: "button", id: "cancel" }, "cancel");
      cancel.addEventListener("click", function () { selection = null; drawBoard(); drawPanel(); });
      row.appendChild(cancel);
      box.appendChild(row);
    }
    // Choices that name no square: buttons; a line of bids: a number and a button.
    state.lines.forEach(function (line) {
      var first = state.choices[line.choices[0]];
      if (first.pos) { return; }
      if (line.choices.length > 1) {
        var bids = line.choices.map(function (i) { return state.choices[i].bid; });
        var lo = Math.min.apply(null, bids), hi = Math.max.apply(null, bids);
        var group = el("div", { "class": "group" });
        var input = el("input", { type: "number", min: String(lo), max: String(hi), value: String(lo), "class": "bid" });
        var b = el("button", { type: "button", "class": "act choice bid-button" });
        first.fields.forEach(function (f) {
          if (f.kind === "Tile") { b.appendChild(el("img", { src: tileUrl(f.value, 0), alt: f.value })); }
        });
        b.appendChild(document.createTextNode(line.text.replace(/, bid \d+ to \d+$/, "") + ": bid"));
        b.addEventListener("click", function () {
          var want = Number(input.value);
          var c = line.choices.map(function (i) { return state.choices[i]; }).filter(function (x) { return x.bid === want; })[0];
          if (!c) { showError(new Error("a bid from " + lo + " to " + hi)); return; }
          play(c.i);
        });
        group.appendChild(b);
        group.appendChild(input);
        group.appendChild(document.createTextNode(" (" + lo + " to " + hi + ")"));
        box.appendChild(group);
      } else {
        box.appendChild(choiceButton(first, first.text));
      }
    });
    var groups = boardGroups();
    var hints = [];
    if (Object.keys(groups.squares).length && !selection) { hints.push("click a highlighted square"); }
    if (Object.keys(groups.spots).length) { hints.push("click a circle on a tile to put a figure there"); }
    if (Object.keys(groups.tiles).length) { hints.push("click a yellow tile"); }
    if (hints.length) { box.appendChild(el("div", { "class": "group" }, hints.join("; ") + ".")); }
  }

  function drawTools() {
    var undo = $("undo");
    undo.disabled = !state.undo.ok || busy;
    undo.title = state.undo.ok ? "take back your last decision (U)" : "cannot take back: " + state.undo.why;
    $("save").href = "/api/games/" + gameId + "/record";
    $("save").setAttribute("download", "carcassonne-" + gameId + ".json");
    $("analyse").disabled = state.over;
    $("show-bot-view").disabled = !state.bot_view;
  }

  function currentView() {
    if (viewShown === "analysis" && analysis && analysis.version === state.version) { return analysis.view; }
    if (viewShown === "bot" && state.bot_view) { return state.bot_view; }
    return null;
  }

  function drawView() {
    var box = $("view");
    box.textContent = "";
    var view = currentView();
    if (!view) { return; }
    var head = viewShown === "bot" ?
      "What " + seatName(view.seat) + " (" + view.bot + ") thought at turn " + view.turn :
      view.bot + " on this decision";
    box.appendChild(el("div", {}, head + ": value " + view.value.toFixed(2) + " for " + seatName(view.seat) +
      " (½ is even), " + view.iterations + " iterations. Its top moves, by share of the visits:"));
    view.top.forEach(function (m) {
      var row = el("div", { "class": "move" });
      row.appendChild(el("span", { "class": "share" }, (m.share * 100).toFixed(1) + "%"));
      var bar = el("span", { "class": "bar" });
      bar.style.width = Math.round(m.share * 80) + "px";
      row.appendChild(bar);
      row.appendChild(el("span", {}, m.text + (m.mean !== null ? " (value " + m.mean.toFixed(2) + ")" : "")));
      box.appendChild(row);
    });
  }

  function drawScores() {
    var track = $("track");
    track.textContent = "";
    var n = state.seats.length;
    var width = track.clientWidth || 330;
    var max = Math.max(50, Math.ceil(Math.max.apply(null, state.seats.map(function (s) { return s.score; })) / 50) * 50);
    var min = Math.min(0, Math.min.apply(null, state.seats.map(function (s) { return s.score; })));
    var h = 8;
    track.setAttribute("height", String(n * (h + 2) + 2));
    track.style.height = (n * (h + 2) + 2) + "px";
    var scale = function (v) { return (v - min) / (max - min) * (width - 2); };
    state.seats.forEach(function (s, i) {
      var bar = svgEl("rect", { "class": "bar", x: 1 + scale(Math.min(0, s.score)), y: 1 + i * (h + 2),
        width: Math.max(1, Math.abs(scale(s.score) - scale(0))), height: h, fill: s.colour, stroke: "#111111", "stroke-width": 0.5 });
      bar.appendChild(svgEl("title", {})).textContent = s.name + ": " + s.score;
      track.appendChild(bar);
    });
    var table = $("seat-table");
    table.textContent = "";
    state.seats.forEach(function (s) {
      var tr = el("tr", { "data-seat": String(s.seat) });
      if (s.seat === state.to_play) { tr.className = "to-play"; }
      if (state.winners.indexOf(s.seat) >= 0) { tr.className += " winner"; }
      var name = el("td");
      var sw = el("span", { "class": "swatch" });
      sw.style.background = s.colour;
      name.appendChild(sw);
      name.appendChild(document.createTextNode(s.name + " " + (s.human ? "(a person)" : "(" + s.who + ")")));
      tr.appendChild(name);
      tr.appendChild(el("td", { "class": "score" }, String(s.score)));
      tr.appendChild(el("td", {}, s.supply.map(function (f) { return f.count + " " + f.figure + (f.count === 1 ? "" : "s"); }).join(", ")));
      table.appendChild(tr);
    });
  }

  function drawNotes() {
    var notes = $("notes");
    notes.textContent = "";
    state.notes.forEach(function (n) { notes.appendChild(el("li", {}, n)); });
  }

  function drawLog() {
    var log = $("log");
    log.textContent = "";
    state.log.forEach(function (line) { log.appendChild(el("li", {}, line)); });
    log.scrollTop = log.scrollHeight;
  }

  function drawRemaining() {
    $("tiles-left").textContent = String(state.tiles_left);
    var box = $("remaining");
    if (!$("remaining-box").open) { box.textContent = ""; return; }
    box.textContent = "";
    state.remaining.forEach(function (r) {
      var item = el("span", { title: r[0] });
      item.appendChild(el("img", { src: tileUrl(r[0], 0), alt: r[0], loading: "lazy" }));
      item.appendChild(el("br"));
      item.appendChild(document.createTextNode("×" + r[1]));
      box.appendChild(item);
    });
  }

  function drawAllChoices() {
    var box = $("all-choices");
    box.textContent = "";
    if (state.human === null || !$("all-box").open) { return; }
    state.choices.forEach(function (c) {
      var b = el("button", { type: "button", "data-choice": String(c.i) }, c.text);
      b.addEventListener("click", function () { play(c.i); });
      box.appendChild(b);
    });
  }

  // A move shown for a while, with what it scored.
  function announce(last) {
    var toast = $("toast");
    toast.textContent = "";
    toast.appendChild(el("div", {}, seatName(last.seat) + ": " + last.text));
    last.events.forEach(function (e) { toast.appendChild(el("div", {}, e)); });
    toast.classList.add("shown");
    // The points over the board, where they were scored, rising and fading.
    var svg = $("board").querySelector("svg");
    var layer = svg && svg.querySelector(".overlay");
    if (layer) {
      var f = frame();
      var stacked = {};
      (last.scores || []).forEach(function (e) {
        if (!e.pos) { return; }
        var o = origin(f, e.pos);
        var k = key(e.pos);
        stacked[k] = (stacked[k] || 0) + 1;
        var t = svgEl("text", { x: o[0] + f.tile / 2, y: o[1] + f.tile / 2 - 14 * (stacked[k] - 1),
          "class": "score-float", fill: state.seats[e.seat].colour, "text-anchor": "middle" });
        t.textContent = (e.points >= 0 ? "+" : "") + e.points + " " + e.what;
        layer.appendChild(t);
      });
    }
    clearTimeout(announce.timer);
    announce.timer = setTimeout(function () { toast.classList.remove("shown"); }, Math.max(1500, speed() * 2));
  }

  // ----- buttons and keys -------------------------------------------------------------

  function wire() {
    $("hand-tile").addEventListener("click", function () { turn(1); });
    $("undo").addEventListener("click", function () { stopBots(); act("undo", {}); });
    $("analyse").addEventListener("click", function () {
      if (busy || !state) { return; }
      busy = true;
      showError(null);
      $("view").textContent = "searching…";
      var body = { version: state.version };
      var n = $("iterations").value.trim();
      if (n !== "") { body.iterations = Number(n); }
      api("POST", "/api/games/" + gameId + "/analyse", body).then(function (r) {
        busy = false;
        analysis = { version: r.version, view: r.view };
        viewShown = "analysis";
        drawBoard();
        drawPanel();
      }).catch(function (e) { busy = false; showError(e); drawPanel(); });
    });
    $("show-bot-view").addEventListener("click", function () {
      viewShown = viewShown === "bot" ? null : "bot";
      drawBoard();
      drawView();
    });
    $("speed").addEventListener("change", function () { next(); });
    $("zoom-in").addEventListener("click", function () { autoZoom = false; zoom = Math.min(3, zoom * 1.25); if (state) { drawBoard(); } });
    $("zoom-out").addEventListener("click", function () { autoZoom = false; zoom = Math.max(0.2, zoom / 1.25); if (state) { drawBoard(); } });
    window.addEventListener("resize", function () { if (state && autoZoom && !$("game").hidden) { drawBoard(); } });
    $("remaining-box").addEventListener("toggle", function () { if (state) { drawRemaining(); } });
    $("all-box").addEventListener("toggle", function () { if (state) { drawAllChoices(); } });
    $("to-setup").addEventListener("click", function (e) {
      e.preventDefault();
      window.location.hash = "";
      route();
    });
    document.addEventListener("keydown", function (e) {
      if (!state || $("game").hidden || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") { return; }
      if (e.key === "r" || e.key === "R" || e.key === "ArrowRight") { turn(1); e.preventDefault(); }
      if (e.key === "e" || e.key === "E" || e.key === "ArrowLeft") { turn(-1); e.preventDefault(); }
      if (e.key === "Enter" && $("confirm")) { $("confirm").click(); e.preventDefault(); }
      if (e.key === "Escape" && selection) { selection = null; drawBoard(); drawPanel(); }
      if ((e.key === "u" || e.key === "U") && !$("undo").disabled) { $("undo").click(); }
    });
    window.addEventListener("hashchange", route);
  }

  api("GET", "/api/options").then(function (o) {
    options = o;
    buildSetup();
    wire();
    route();
  }).catch(function (e) {
    document.body.textContent = "cannot reach the server: " + e.message;
  });
})();
