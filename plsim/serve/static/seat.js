/* The person's page of plsim play --serve: asks the seat's decisions and shows the board (the
   replay page of the game so far, in the frame). Every request carries the table's token. */
(function () {
  "use strict";
  var token = new URLSearchParams(location.search).get("token") || "";
  var frame = document.getElementById("board-frame");
  var panel = document.getElementById("decision");
  var status = document.getElementById("status");
  var version = -1, shownBoard = -1, decision = null, chosenGroup = null, sent = false;

  function html(tag, cls, parent, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  function request(path, body) {
    var init = { headers: { "X-Plsim-Token": token } };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (r) { return r.json(); });
  }

  /* --- news ------------------------------------------------------------------------------------ */
  function poll() {
    request("/state?after=" + version).then(function (state) {
      render(state);
      poll();
    }).catch(function () {
      status.textContent = "The table does not answer: is plsim still running?";
      setTimeout(poll, 2000);
    });
  }
  function render(state) {
    version = state.version;
    if (state.board_version !== shownBoard) {
      shownBoard = state.board_version;
      frame.src = "/board?token=" + encodeURIComponent(token) + "&v=" + shownBoard + "#step=1000000";
    }
    var told = document.getElementById("told");
    told.textContent = "";
    state.told.slice().reverse().forEach(function (line) { html("li", "", told, line); });
    document.getElementById("saved").textContent = state.saved ? "Saved: " + state.saved : "";
    var id = state.decision ? state.decision.id : null;
    if (state.status === "over") {
      decision = null;
      status.textContent = "The game is over";
      showEnd(state);
    } else if (state.status === "failed") {
      decision = null;
      status.textContent = "The game stopped";
      panel.textContent = "";
      html("p", "error", panel, state.error);
    } else if (id === null) {
      if (decision !== null || !panel.querySelector(".waiting")) {
        panel.textContent = "";
        html("p", "waiting", panel, "The other seats are playing…");
      }
      decision = null;
      status.textContent = state.status === "setup" ? "Setting up" : "Playing";
    } else if (!decision || decision.id !== id) {
      decision = state.decision;
      chosenGroup = null;
      sent = false;
      status.textContent = "Your decision, seat " + decision.seat;
      showDecision();
    }
    document.body.setAttribute("data-status", state.status);
    document.body.setAttribute("data-decision", id === null ? "" : id);
  }
  function showEnd(state) {
    panel.textContent = "";
    html("h2", "", panel, "The game is over");
    html("p", "result", panel, state.result || "");
    var link = html("a", "", html("p", "", panel), "Open the whole game's replay");
    link.id = "replay-link";
    link.href = "/replay?token=" + encodeURIComponent(token);
    link.target = "_blank";
    link.rel = "noopener";
  }

  /* --- a decision ------------------------------------------------------------------------------ */
  function answer(index) {
    if (sent || !decision) return;
    sent = true;
    Array.prototype.forEach.call(panel.querySelectorAll("button"), function (b) { b.disabled = true; });
    request("/answer", { id: decision.id, choice: index }).then(function (reply) {
      if (!reply.ok) { status.textContent = reply.problem; sent = false; }
    });
  }
  function optionButton(parent, option, label) {
    var button = html("button", "option", parent, label || option.text);
    button.type = "button";
    button.setAttribute("data-index", option.index);
    button.setAttribute("data-type", option.type);
    button.addEventListener("click", function () { answer(option.index); });
    return button;
  }
  function groupsOf(options) {
    var moves = {}, cards = {}, rest = [];
    options.forEach(function (o) {
      if (o.type === "Move") (moves[o.general] = moves[o.general] || []).push(o);
      else if (o.type === "PlayCard") (cards[o.card] = cards[o.card] || []).push(o);
      else rest.push(o);
    });
    return { moves: moves, cards: cards, rest: rest };
  }
  function showDecision() {
    panel.textContent = "";
    html("h2", "", panel, "Seat " + decision.seat + ": your decision");
    html("p", "question", panel, decision.question);
    var facts = html("ul", "facts", panel);
    decision.facts.forEach(function (line) { html("li", "", facts, line); });
    var hand = html("p", "hand", panel, "Hand: ");
    if (!decision.hand.length) hand.appendChild(document.createTextNode("empty"));
    decision.hand.forEach(function (card) { html("span", "card", hand, card); });
    var groups = groupsOf(decision.options);
    var generals = Object.keys(groups.moves);
    if (generals.length) {
      var box = html("div", "group", panel);
      html("div", "group-head", box, "Move a general: pick one, then its destination on the map (or below)");
      var row = html("div", "options inline", box);
      generals.forEach(function (name) {
        var button = html("button", "general" + (chosenGroup === name ? " chosen" : ""), row, name + " (" + groups.moves[name].length + ")");
        button.type = "button";
        button.setAttribute("data-general", name);
        button.addEventListener("click", function () { chosenGroup = name; showDecision(); });
      });
      if (chosenGroup && groups.moves[chosenGroup]) {
        html("p", "hint", box, "Click a highlighted hex on the board, or a destination:");
        var list = html("div", "options", box);
        groups.moves[chosenGroup].forEach(function (o) { optionButton(list, o); });
      }
    }
    Object.keys(groups.cards).forEach(function (card) {
      var plays = groups.cards[card];
      var box = html("div", "group", panel);
      if (plays.length === 1) { optionButton(html("div", "options", box), plays[0]); return; }
      var head = html("button", "card-choice" + (chosenGroup === card ? " chosen" : ""), box, "play " + card + " … (" + plays.length + " targets)");
      head.type = "button";
      head.setAttribute("data-card", card);
      head.addEventListener("click", function () { chosenGroup = card; showDecision(); });
      if (chosenGroup === card) {
        var list = html("div", "options", box);
        plays.forEach(function (o) { optionButton(list, o); });
      }
    });
    if (groups.rest.length) {
      var rest = html("div", "options", html("div", "group", panel));
      groups.rest.forEach(function (o) { optionButton(rest, o); });
    }
    markBoard();
  }

  /* --- choices on the board (inside the frame) ------------------------------------------------- */
  function choicesOnBoard() {
    if (!decision) return [];
    var groups = groupsOf(decision.options);
    if (chosenGroup && groups.moves[chosenGroup]) {
      return groups.moves[chosenGroup].filter(function (o) { return !o.passage; }).map(function (o) { return [o.dest, o]; });
    }
    return decision.options.filter(function (o) { return o.type === "Choose" && typeof o.hex === "number"; })
      .map(function (o) { return [o.hex, o]; });
  }
  function markBoard() {
    var doc = frame.contentDocument;
    var svg = doc && doc.getElementById("board");
    if (!svg) return;
    var old = doc.getElementById("choices");
    if (old) old.remove();
    var layer = doc.createElementNS("http://www.w3.org/2000/svg", "g");
    layer.id = "choices";
    svg.appendChild(layer);
    choicesOnBoard().forEach(function (pair) {
      var hex = doc.querySelector('#terrain polygon[data-hex="' + pair[0] + '"]');
      if (!hex) return;
      var mark = doc.createElementNS("http://www.w3.org/2000/svg", "polygon");
      mark.setAttribute("points", hex.getAttribute("points"));
      mark.setAttribute("fill", "rgba(255, 210, 0, 0.45)");
      mark.setAttribute("stroke", "#111");
      mark.setAttribute("stroke-width", "0.12");
      mark.setAttribute("data-index", pair[1].index);
      mark.style.cursor = "pointer";
      var title = doc.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = pair[1].text;
      mark.appendChild(title);
      mark.addEventListener("click", function (event) { event.stopPropagation(); answer(pair[1].index); });
      layer.appendChild(mark);
    });
  }
  frame.addEventListener("load", markBoard);

  document.getElementById("save").addEventListener("click", function () {
    document.getElementById("saved").textContent = "Saving…";
    request("/save", {}).then(function (reply) {
      document.getElementById("saved").textContent = reply.ok ? "Saved: " + reply.saved + " (plsim play --from it)" : reply.problem;
    });
  });
  poll();
})();
