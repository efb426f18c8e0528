/* The replay page: draws one recorded game of plsim from the JSON document in #replay-data.
   Vanilla JS, nothing fetched. A step's state is its round's keyframe with the deltas of the
   round's steps up to it applied (plsim/replay/model.py writes them). */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var HEX = [[0, -1], [0.866, -0.5], [0.866, 0.5], [0, 1], [-0.866, 0.5], [-0.866, -0.5]];
  var FLAG = { wall: 1, city: 2, razed: 4, tabernacle: 8 };
  var ITEM_STYLE = {
    "Squire": ["#9e9e9e", "Squire"], "War Chariot": ["#8d5a2b", "War Chariot"], "Prophet": ["#ffffff", "Prophet"],
    "Ark": ["#d4a017", "Ark"], "Goliath's Sword": ["#5c6bc0", "Goliath's Sword"],
    "Anointed": ["#e91e63", "Anointed"], "Bride": ["#f8bbd0", "Bride"]
  };
  var PHASE_LABEL = {
    setup: "Setup", announcements: "Announcements", draw: "Draw Cards", income: "Income",
    acquisitions: "Acquisitions", movement: "Movement", combat: "Combat", victory: "Victory Check"
  };

  var doc = JSON.parse(document.getElementById("replay-data").textContent);
  var board = doc.board;
  var steps = doc.steps;
  var colours = board.colours;
  var nSeats = doc.seats.length;
  var firstOfKeyframe = [];
  steps.forEach(function (step, i) {
    if (step.keyframe !== null && firstOfKeyframe[step.keyframe] === undefined) firstOfKeyframe[step.keyframe] = i;
  });
  var current = 0;
  var timer = null;

  function el(tag, attrs, parent, text) {
    var node = document.createElementNS(SVG, tag);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(tag, cls, parent, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  function tip(node, text) { el("title", {}, node, text); return node; }
  function clone(value) { return JSON.parse(JSON.stringify(value)); }
  function centre(hex) { return board.centres[hex]; }
  function seatColour(seat) {
    if (seat === null || seat === undefined) return colours.free;
    return seat < 0 ? colours.canaanites : colours.seats[seat];
  }
  function seatName(seat) {
    if (seat === null || seat === undefined) return "nobody";
    if (seat === -1) return "the Canaanites";
    if (seat === -2) return "the invaders";
    return "seat " + seat + " (" + doc.seats[seat] + ")";
  }
  function textOn(fill) {
    var c = fill.replace("#", "");
    var r = parseInt(c.substr(0, 2), 16), g = parseInt(c.substr(2, 2), 16), b = parseInt(c.substr(4, 2), 16);
    return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? "#111" : "#fff";
  }
  function hexPoints(hex, scale) {
    var c = centre(hex);
    return HEX.map(function (p) { return (c[0] + p[0] * scale).toFixed(3) + "," + (c[1] + p[1] * scale).toFixed(3); }).join(" ");
  }

  /* --- the state of a step ------------------------------------------------------------------ */
  function apply(state, ops) {
    ops.forEach(function (op) {
      if (op.length === 2) { state[op[0]] = clone(op[1]); return; }
      var holder = state[op[0]];
      if (op[2] === null && !Array.isArray(holder)) delete holder[op[1]];
      else holder[op[1]] = clone(op[2]);
    });
    return state;
  }
  function stateAt(index) {
    var k = steps[index].keyframe;
    if (k === null) return null;
    var state = clone(doc.keyframes[k]);
    for (var i = firstOfKeyframe[k]; i <= index; i++) apply(state, steps[i].delta);
    return state;
  }
  function position(step) {
    if (step.phase === "setup") return 0;
    return step.round - 1 + (doc.phases.indexOf(step.phase)) / (doc.phases.length - 1);
  }

  /* --- the static board ---------------------------------------------------------------------- */
  var svg = document.getElementById("board");
  var xs = board.centres.map(function (c) { return c[0]; }), ys = board.centres.map(function (c) { return c[1]; });
  var minX = Math.min.apply(null, xs) - 1.1, minY = Math.min.apply(null, ys) - 1.1;
  svg.setAttribute("viewBox", [minX, minY, Math.max.apply(null, xs) + 1.1 - minX, Math.max.apply(null, ys) + 1.4 - minY].join(" "));
  var defs = el("defs", {}, svg);
  var storm = el("pattern", { id: "storm", width: 0.5, height: 0.5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  el("rect", { width: 0.5, height: 0.5, fill: "rgba(170,110,40,0.18)" }, storm);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 0.5, stroke: "rgba(120,70,20,0.55)", "stroke-width": 0.1 }, storm);
  colours.seats.forEach(function (colour, seat) {
    var arrow = el("marker", { id: "arrow-" + seat, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }, arrow);
  });

  var terrainLayer = el("g", { id: "terrain" }, svg);
  board.terrain.forEach(function (t, hex) {
    tip(el("polygon", { "class": "hex t" + t, points: hexPoints(hex, 1), fill: board.terrain_colours[t], "data-hex": hex }, terrainLayer),
      board.terrain_names[t].split(" (")[0] + " hex " + hex);
  });
  var stormLayer = el("g", { id: "storm-seal" }, svg);
  board.storm_sealed.forEach(function (hex) {
    el("polygon", { points: hexPoints(hex, 1), fill: "url(#storm)", stroke: "none" }, stormLayer);
  });
  var present = {};
  board.present.forEach(function (sid) { present[sid] = true; });
  var ringLayer = el("g", { id: "regions" }, svg);
  var nameLayer = el("g", { id: "names" }, svg);
  board.settlements.forEach(function (spec, sid) {
    var c = centre(spec[1]);
    var absent = !present[sid];
    var ring = spec[2] ? board.regions[spec[2]] : colours.unregioned;
    el("circle", { cx: c[0], cy: c[1], r: 0.74, fill: "none", stroke: ring, "stroke-width": 0.16,
      "stroke-dasharray": "0.32 0.12", opacity: absent ? 0.3 : 0.95 }, ringLayer);
    el("text", { x: c[0], y: c[1] + 1.02, "class": "place" + (absent ? " absent" : ""), "data-settlement": sid }, nameLayer, spec[0]);
  });
  var fullView = svg.getAttribute("viewBox");
  svg.addEventListener("click", function (event) {
    if (svg.getAttribute("viewBox") !== fullView) { svg.setAttribute("viewBox", fullView); return; }
    var point = svg.createSVGPoint();
    point.x = event.clientX; point.y = event.clientY;
    var at = point.matrixTransform(svg.getScreenCTM().inverse());
    var box = fullView.split(" ").map(Number), w = box[2] / 2.2, h = box[3] / 2.2;
    var x = Math.max(box[0], Math.min(box[0] + box[2] - w, at.x - w / 2)), y = Math.max(box[1], Math.min(box[1] + box[3] - h, at.y - h / 2));
    svg.setAttribute("viewBox", [x, y, w, h].join(" "));
  });
  var pieceLayer = el("g", { id: "pieces" }, svg);
  var markLayer = el("g", { id: "marks" }, svg);
  var invaderLayer = el("g", { id: "invaders" }, svg);

  /* --- the pieces of a state ----------------------------------------------------------------- */
  function drawSettlement(layer, state, sid, cities) {
    var spec = board.settlements[sid];
    var c = centre(spec[1]);
    var s = state.settlements[sid];
    var g = el("g", { "class": "settlement", "data-settlement": sid }, layer);
    if (!present[sid]) {
      el("circle", { cx: c[0], cy: c[1], r: 0.2, fill: "#ddd", stroke: "#999", "stroke-width": 0.04, opacity: 0.5 }, g);
      tip(g, spec[0] + ": not in a game of " + nSeats + " players");
      return;
    }
    var owner = s[0], garrison = s[1], flags = s[2], developments = s[3];
    if (flags & FLAG.razed) {
      el("circle", { cx: c[0], cy: c[1], r: 0.34, fill: "#c9c2b8", stroke: "#6d6257", "stroke-width": 0.05 }, g);
      el("path", { d: "M" + (c[0] - 0.2) + "," + (c[1] - 0.2) + " l0.4,0.4 m0,-0.4 l-0.4,0.4", stroke: "#5a3e2b", "stroke-width": 0.09 }, g);
      tip(g, spec[0] + ": razed");
      return;
    }
    var fill = seatColour(owner);
    var walled = flags & FLAG.wall, city = flags & FLAG.city;
    var stroke = walled ? "#2e2418" : "#6b6b6b", width = walled ? 0.14 : 0.04;
    if (city) el("rect", { x: c[0] - 0.44, y: c[1] - 0.44, width: 0.88, height: 0.88, rx: 0.1, fill: fill, stroke: stroke, "stroke-width": width, "class": "badge city" }, g);
    else el("circle", { cx: c[0], cy: c[1], r: 0.44, fill: fill, stroke: stroke, "stroke-width": width, "class": "badge village" }, g);
    if (garrison) el("text", { x: c[0], y: c[1] + 0.18, "class": "garrison", fill: textOn(fill) }, g, garrison);
    for (var d = 0; d < developments; d++) {
      el("circle", { cx: c[0] + 0.36 + d * 0.2, cy: c[1] + 0.36, r: 0.09, fill: "#2e7d32", stroke: "#fff", "stroke-width": 0.03 }, g);
    }
    if (flags & FLAG.tabernacle) {
      el("path", { d: "M" + (c[0] - 0.6) + "," + (c[1] + 0.48) + " l0.18,-0.32 l0.18,0.32 z", fill: "#d4a017", stroke: "#5a4000", "stroke-width": 0.03 }, g);
    }
    var judge = cities[sid];
    if (judge) {
      var star = starPath(c[0] - 0.5, c[1] + 0.32, 0.3);
      el("path", { d: star, fill: judge.holder ? "#f2c200" : "#fff", stroke: "#7a5c00", "stroke-width": 0.04 }, g);
    }
    var words = [spec[0] + (spec[2] ? " (" + spec[2] + ")" : ""), "held by " + seatName(owner),
      (city ? "city" : walled ? "walled village" : "village") + ", garrison " + garrison + ", developments " + developments];
    if (flags & FLAG.tabernacle) words.push("the Tabernacle");
    if (judge) words.push("Judge's city of " + judge.region + (judge.holder ? " (" + judge.holder + ")" : " (vacant)"));
    tip(g, words.join("\n"));
  }
  function starPath(x, y, r) {
    var points = [];
    for (var i = 0; i < 10; i++) {
      var a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r;
      points.push((x + rr * Math.cos(a)).toFixed(3) + "," + (y + rr * Math.sin(a)).toFixed(3));
    }
    return "M" + points.join(" L") + " z";
  }
  function titleText(title) {
    if (!title) return "";
    if (title === "king") return "King";
    if (title === "assassin") return "Assassin";
    return "Judge of " + title.split(":")[1];
  }
  function drawGenerals(layer, state) {
    var byHex = {};
    Object.keys(state.generals).sort().forEach(function (name) {
      var g = state.generals[name];
      (byHex[g[1]] = byHex[g[1]] || []).push([name, g]);
    });
    Object.keys(byHex).forEach(function (hex) {
      var here = byHex[hex], c = centre(+hex);
      var onSettlement = board.settlements.some(function (s) { return s[1] === +hex; });
      var y = onSettlement ? c[1] - 0.8 : c[1];
      here.forEach(function (entry, j) {
        var name = entry[0], g = entry[1];
        var x = c[0] + (j - (here.length - 1) / 2) * 0.86;
        var owner = g[0], troops = g[2], items = g[3], title = g[4], captor = g[5];
        var group = el("g", { "class": "general", "data-general": name }, layer);
        var fill = captor === null ? seatColour(owner) : "#fff";
        if (title && title.indexOf("judge") === 0) el("circle", { cx: x, cy: y, r: 0.52, fill: "#f2c200", stroke: "#7a5c00", "stroke-width": 0.04 }, group);
        el("circle", { cx: x, cy: y, r: 0.4, fill: fill, stroke: captor === null ? "#fff" : seatColour(owner),
          "stroke-width": captor === null ? 0.07 : 0.11, "stroke-dasharray": captor === null ? "none" : "0.1 0.06" }, group);
        el("text", { x: x, y: y + 0.16, "class": "troops", fill: textOn(fill) }, group, troops || name.charAt(0));
        if (title === "king") el("path", { d: "M" + (x - 0.24) + "," + (y - 0.36) + " l0,-0.3 l0.12,0.15 l0.12,-0.21 l0.12,0.21 l0.12,-0.15 l0,0.3 z", fill: "#f2c200", stroke: "#7a5c00", "stroke-width": 0.04 }, group);
        else if (title === "assassin") el("path", { d: "M" + (x + 0.22) + "," + (y - 0.42) + " l0,0.3 m-0.11,-0.2 l0.22,0", stroke: "#111", "stroke-width": 0.07 }, group);
        items.forEach(function (item, k) {
          var style = ITEM_STYLE[item] || ["#999", item];
          el("rect", { x: x - 0.36 + k * 0.25, y: y + 0.32, width: 0.23, height: 0.23, fill: style[0], stroke: "#222", "stroke-width": 0.03, "class": "item" }, group);
        });
        var words = [name + " (" + seatName(owner) + ")", troops + " troop" + (troops === 1 ? "" : "s")];
        if (title) words.push(titleText(title));
        if (items.length) words.push("items: " + items.join(", "));
        if (captor !== null) words.push("captive of " + seatName(captor));
        tip(group, words.join("\n"));
      });
    });
  }
  function drawSieges(layer, state) {
    state.sieges.forEach(function (siege) {
      tip(el("polygon", { points: hexPoints(siege[0], 0.9), fill: "none", stroke: seatColour(siege[1]), "stroke-width": 0.12,
        "stroke-dasharray": "0.22 0.1", "class": "siege" }, layer), "besieged by " + seatName(siege[1]) + " since round " + siege[2]);
    });
    state.assaults.forEach(function (assault) {
      var c = centre(assault[0]), x = c[0] - 0.55, y = c[1] - 0.3;
      var g = el("g", { "class": "assault" }, layer);
      el("path", { d: "M" + (x - 0.17) + "," + (y - 0.17) + " L" + (x + 0.17) + "," + (y + 0.17) + " M" + (x + 0.17) + "," + (y - 0.17) + " L" + (x - 0.17) + "," + (y + 0.17),
        stroke: seatColour(assault[1]), "stroke-width": 0.09, "stroke-linecap": "round" }, g);
      tip(g, "assault by " + seatName(assault[1]) + " in the coming Combat");
    });
  }
  function drawInvaders(layer, state) {
    state.pairs.forEach(function (pair, i) {
      var sid = pair[2] !== null ? pair[2] : pair[3];
      if (sid === null) return;
      var c = centre(board.settlements[sid][1]), x = c[0] + 0.8 + i * 0.16, y = c[1] + 0.05;
      var g = el("g", { "class": "invaders" }, layer);
      el("path", { d: "M" + x + "," + (y - 0.46) + " l0.32,0.46 l-0.32,0.46 l-0.32,-0.46 z", fill: "#b71c1c", stroke: "#fff", "stroke-width": 0.06 }, g);
      el("text", { x: x, y: y + 0.16, "class": "troops", fill: "#fff" }, g, pair[1].reduce(function (a, b) { return a + b; }, 0));
      tip(g, "invaders " + pair[0].join(" and ") + " (" + pair[1].join("+") + " troops)" +
        (pair[2] !== null ? ", last fell on " : ", first target ") + board.settlements[sid][0]);
    });
  }
  function drawMarks(layer, step) {
    step.events.forEach(function (entry) {
      var e = entry[1];
      if (e.event === "move" || e.event === "move_captive") {
        var from = e.frm !== undefined ? centre(e.frm) : null, to = centre(e.to);
        if (!from) return;
        var dx = to[0] - from[0], dy = to[1] - from[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
        tip(el("line", { x1: from[0] + dx / len * 0.3, y1: from[1] + dy / len * 0.3, x2: to[0] - dx / len * 0.35, y2: to[1] - dy / len * 0.35,
          stroke: seatColour(e.seat), "stroke-width": 0.11, "marker-end": "url(#arrow-" + e.seat + ")", "class": "move", opacity: 0.85 }, layer), entry[0] || "");
      } else if (e.event === "battle" || e.event === "invasion") {
        var hex = e.event === "battle" ? e.hex : board.settlements[e.settlement][1];
        tip(el("path", { d: starPath(centre(hex)[0], centre(hex)[1], 1.05), fill: "rgba(255,214,0,0.25)", stroke: "#e65100", "stroke-width": 0.07, "class": "battle" }, layer), entry[0] || "");
      } else if (e.event === "razed") {
        var c = centre(board.settlements[e.settlement][1]);
        tip(el("circle", { cx: c[0], cy: c[1], r: 0.8, fill: "none", stroke: "#b71c1c", "stroke-width": 0.1, "class": "razed" }, layer), entry[0] || "");
      }
    });
  }
  function judgeCities(state) {
    var cities = {};
    Object.keys(state.regions).forEach(function (name) {
      var r = state.regions[name];
      if (r[0] !== null) cities[r[0]] = { region: name, holder: r[1] };
    });
    return cities;
  }
  function drawBoard(state, step) {
    [pieceLayer, markLayer, invaderLayer].forEach(function (layer) { layer.textContent = ""; });
    stormLayer.style.display = state && state.storm ? "" : "none";
    if (!state) return;
    var cities = judgeCities(state);
    board.settlements.forEach(function (_, sid) { drawSettlement(pieceLayer, state, sid, cities); });
    drawSieges(pieceLayer, state);
    drawInvaders(invaderLayer, state);
    drawGenerals(pieceLayer, state);
    drawMarks(markLayer, step);
  }

  /* --- the side panels ----------------------------------------------------------------------- */
  var seatsBox = document.getElementById("seats");
  var seatPanels = doc.seats.map(function (name, seat) {
    var panel = html("div", "seat", seatsBox);
    panel.style.borderLeftColor = colours.seats[seat];
    panel.setAttribute("data-seat", seat);
    var head = html("div", "seat-head", panel);
    var swatch = html("span", "swatch", head);
    swatch.style.background = colours.seats[seat];
    html("span", "seat-name", head, "seat " + seat + " · " + name);
    var vp = html("b", "vp", head);
    vp.setAttribute("data-seat", seat);
    return { panel: panel, vp: vp, figures: html("div", "figures", panel), titles: html("div", "titles", panel) };
  });
  function showSeats(state, index) {
    var last = index === steps.length - 1 && doc.result;
    seatPanels.forEach(function (p, seat) {
      if (!state) { p.vp.textContent = "–"; p.figures.textContent = ""; p.titles.textContent = ""; return; }
      var player = state.players[seat];
      var owned = 0, cities = 0, garrison = 0, generals = 0, troops = 0;
      state.settlements.forEach(function (s) {
        if (s[0] === seat && !(s[2] & FLAG.razed)) { owned++; cities += (s[2] & FLAG.city) ? 1 : 0; garrison += s[1]; }
      });
      var titles = [];
      Object.keys(state.generals).sort().forEach(function (name) {
        var g = state.generals[name];
        if (g[0] !== seat) return;
        generals++;
        if (g[5] === null) troops += g[2];
        if (g[4] && g[4] !== "assassin") titles.push(titleText(g[4]) + " (" + name + (g[5] !== null ? ", captive" : "") + ")");
      });
      p.vp.textContent = state.vp[seat];
      p.vp.title = state.vp[seat] + " victory points";
      p.figures.textContent = player[0] + " coins" + (player[2] ? " (+" + player[2] + " income)" : "") +
        " · hand " + player[1] + " · " + owned + " settlement" + (owned === 1 ? "" : "s") + (cities ? " (" + cities + " cit" + (cities === 1 ? "y" : "ies") + ")" : "") +
        " · garrisons " + garrison + " · " + generals + " general" + (generals === 1 ? "" : "s") + " leading " + troops +
        " · Wrath added " + state.wrath_added[seat];
      p.titles.textContent = titles.length ? titles.join(", ") : "no title";
      var won = last && doc.result.winners.indexOf(seat) >= 0 && doc.result.end_reason === "victory";
      p.panel.classList.toggle("winner", !!won);
      p.panel.classList.toggle("first", state.first_player === seat);
    });
  }
  function showCup(state) {
    var threshold = doc.meta.wrath_threshold;
    if (!state) { document.getElementById("cup-text").textContent = "No state: the game failed during its setup"; return; }
    document.getElementById("cup-fill").style.width = Math.min(100, 100 * state.wrath / threshold) + "%";
    document.getElementById("cup-text").textContent = "Wrath " + state.wrath + " / " + threshold +
      " · invader pairs loose " + state.pairs.length + " (released " + state.pairs_released + ")";
    var parts = [];
    if (state.event_area.length) parts.push("events waiting: " + state.event_area.join(", "));
    var taxed = Object.keys(state.taxed);
    if (taxed.length) parts.push("taxed: " + taxed.map(function (r) { return r + " by seat " + state.taxed[r]; }).join(", "));
    if (state.storm) parts.push("Sandstorm: the desert is sealed");
    if (state.king) parts.push("King " + state.king);
    parts.push("deck " + state.deck + " · discard " + state.discard + " · razed " + state.settlements_razed);
    document.getElementById("table-text").textContent = parts.join(" · ");
  }
  function showStory(step, index) {
    document.getElementById("story-head").textContent = "Round " + step.round + " · " + PHASE_LABEL[step.phase];
    var list = document.getElementById("narration");
    list.textContent = "";
    var told = step.events.filter(function (entry) { return entry[0]; });
    told.forEach(function (entry) {
      var item = html("li", entry[1].event, list, entry[0]);
      if (entry[1].seat !== undefined && entry[1].seat !== null && entry[1].seat >= 0) item.style.borderLeftColor = colours.seats[entry[1].seat];
    });
    if (!told.length) html("li", "quiet", list, "Nothing to tell in this phase.");
    if (index === steps.length - 1 && doc.fault) html("li", "fault", list, "The game stopped here: " + doc.fault);
  }

  /* --- the charts ---------------------------------------------------------------------------- */
  var chartSpecs = [
    { id: "vp-chart", title: "VP by round", series: doc.seats.map(function (_, seat) {
      return { colour: colours.seats[seat], values: doc.charts.vp.map(function (v) { return v[seat]; }) };
    }), line: doc.meta.victory_points },
    { id: "wrath-chart", title: "Wrath by round", series: [{ colour: "#8b1a1a", values: doc.charts.wrath }], line: doc.meta.wrath_threshold }
  ];
  var markers = chartSpecs.map(function (spec) { return drawChart(spec); });
  function drawChart(spec) {
    var box = document.getElementById(spec.id);
    var W = 360, H = 118, L = 28, R = 8, T = 16, B = 18;
    box.setAttribute("viewBox", "0 0 " + W + " " + H);
    var xMax = Math.max(1, doc.charts.x.length ? doc.charts.x[doc.charts.x.length - 1] : 1);
    var yMax = Math.max(spec.line || 1, 1);
    spec.series.forEach(function (s) { s.values.forEach(function (v) { yMax = Math.max(yMax, v); }); });
    var sx = function (x) { return L + (W - L - R) * x / xMax; };
    var sy = function (y) { return H - B - (H - T - B) * y / yMax; };
    el("text", { x: L, y: 11, "class": "chart-title" }, box, spec.title);
    el("line", { x1: L, y1: sy(0), x2: W - R, y2: sy(0), "class": "axis" }, box);
    el("line", { x1: L, y1: T, x2: L, y2: sy(0), "class": "axis" }, box);
    [0, yMax].forEach(function (y) { el("text", { x: L - 4, y: sy(y) + 3, "class": "tick y" }, box, y); });
    var stride = xMax > 40 ? 20 : xMax > 15 ? 10 : 5;
    for (var x = 0; x <= xMax; x += stride) el("text", { x: sx(x), y: H - 5, "class": "tick" }, box, x);
    if (spec.line) el("line", { x1: L, y1: sy(spec.line), x2: W - R, y2: sy(spec.line), "class": "limit" }, box);
    spec.series.forEach(function (s, k) {
      var points = s.values.map(function (v, i) { return sx(doc.charts.x[i]).toFixed(1) + "," + (sy(v) - k * 0.8).toFixed(1); });
      el("polyline", { points: points.join(" "), fill: "none", stroke: s.colour, "stroke-width": 1.8, "class": "series" }, box);
    });
    return { line: el("line", { y1: T - 4, y2: sy(0), "class": "marker" }, box), sx: sx };
  }
  function showMarkers(step) {
    var x = position(step);
    markers.forEach(function (m) { var px = m.sx(x); m.line.setAttribute("x1", px); m.line.setAttribute("x2", px); });
  }

  /* --- navigation ---------------------------------------------------------------------------- */
  var slider = document.getElementById("slider");
  slider.max = steps.length - 1;
  var rounds = doc.result ? doc.result.rounds : steps[steps.length - 1].round;
  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    var step = steps[current], state = stateAt(current);
    slider.value = current;
    document.getElementById("where").textContent = "Round " + step.round + " of " + rounds + " · " + PHASE_LABEL[step.phase] +
      " · step " + (current + 1) + " of " + steps.length;
    drawBoard(state, step);
    showSeats(state, current);
    showCup(state);
    showStory(step, current);
    showMarkers(step);
    try { history.replaceState(null, "", "#step=" + (current + 1)); } catch (err) { /* a sandboxed page keeps no hash */ }
  }
  function roundStart(index, direction) {
    var round = steps[index].round + direction;
    for (var i = 0; i < steps.length; i++) if (steps[i].round === round && steps[i].phase !== "setup") return i;
    return direction < 0 ? 0 : steps.length - 1;
  }
  function play() {
    if (timer) { clearInterval(timer); timer = null; }
    else {
      if (current === steps.length - 1) show(0);
      timer = setInterval(function () { if (current >= steps.length - 1) play(); else show(current + 1); }, 650);
    }
    document.getElementById("play").textContent = timer ? "❚❚ Pause" : "▶ Play";
  }
  var actions = {
    first: function () { show(0); }, "prev-round": function () { show(roundStart(current, -1)); },
    prev: function () { show(current - 1); }, next: function () { show(current + 1); },
    "next-round": function () { show(roundStart(current, 1)); }, last: function () { show(steps.length - 1); }, play: play
  };
  Object.keys(actions).forEach(function (id) { document.getElementById(id).addEventListener("click", actions[id]); });
  slider.addEventListener("input", function () { show(+slider.value); });
  document.addEventListener("keydown", function (event) {
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
    var keys = { ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prev-round", ArrowDown: "next-round",
      PageUp: "prev-round", PageDown: "next-round", Home: "first", End: "last", " ": "play" };
    if (keys[event.key]) { event.preventDefault(); actions[keys[event.key]](); }
  });

  var legend = document.getElementById("legend");
  board.terrain_names.forEach(function (name, t) {
    var item = html("span", "key", legend);
    html("i", "", item).style.background = board.terrain_colours[t];
    item.appendChild(document.createTextNode(name));
  });
  Object.keys(board.regions).forEach(function (name) {
    var item = html("span", "key", legend);
    html("i", "ring", item).style.borderColor = board.regions[name];
    item.appendChild(document.createTextNode(name));
  });
  [["Canaanites", colours.canaanites], ["free", colours.free]].forEach(function (pair) {
    var item = html("span", "key", legend);
    html("i", "dot", item).style.background = pair[1];
    item.appendChild(document.createTextNode(pair[0]));
  });
  Object.keys(ITEM_STYLE).forEach(function (item) {
    var key = html("span", "key", legend);
    html("i", "item", key).style.background = ITEM_STYLE[item][0];
    key.appendChild(document.createTextNode(item));
  });
  html("span", "key", legend, "square: city · thick rim: wall · green dots: developments · star: Judge's city · " +
    "click the board to zoom in or out · dashed hex: siege · ✕: assault · red diamond: invaders · hatched: Sandstorm seal · arrows: this step's moves");

  var asked = /#step=(\d+)/.exec(location.hash);
  show(asked ? +asked[1] - 1 : 0);
  window.plsimReplay = { steps: steps.length, show: show, current: function () { return current; }, stateAt: stateAt };
  document.body.setAttribute("data-ready", "1");
})();
