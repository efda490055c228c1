// The stratego web game. Everything drawn comes from the JSON the server sends this seat
// (schema "stratego.web/1"): the board SVG, the pieces this player may know, its legal
// moves. The page holds no game logic beyond "which squares may I click". No inline
// script: the server's Content-Security-Policy allows only this file.
"use strict";

(function () {
  const initial = JSON.parse(document.getElementById("initial").textContent);
  const kind = document.body.dataset.page;
  const $ = (id) => document.getElementById(id);

  async function call(method, url, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (err) {
      return { ok: false, status: 0, data: { error: "the server cannot be reached" } };
    }
    let data = null;
    if (response.status !== 204) {
      try {
        data = await response.json();
      } catch (err) {
        data = { error: "the server sent no JSON" };
      }
    }
    return { ok: response.ok, status: response.status, data };
  }

  function showError(text) {
    $("error").textContent = text || "";
  }

  // -- lobby and join pages ---------------------------------------------------

  function lobby(data) {
    $("rules").value = data.rules;
    $("new-game-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const opponent = document.querySelector("input[name=opponent]:checked").value;
      const reply = await call("POST", "/api/games", { rules: $("rules").value, opponent });
      if (reply.ok) {
        window.location.assign(reply.data.url);
      } else {
        showError(reply.data.error);
      }
    });
  }

  function join(data) {
    $("join-rules").textContent = data.rules;
    $("join-player").textContent = data.player;
    $("join").addEventListener("click", async () => {
      const reply = await call("POST", `/api/games/${data.game}/join`, { code: data.code });
      if (reply.ok) {
        window.location.assign(reply.data.url);
      } else {
        showError(reply.data.error);
      }
    });
  }

  // -- the game page ------------------------------------------------------------

  const FILES = "abcdefghij";
  const MARGIN = 20, SQUARE = 40, FULL = 440;  // the geometry of stratego.svg.board_svg
  const SVGNS = "http://www.w3.org/2000/svg";

  function game(first) {
    let cur = first;
    let selected = null;
    let busy = false;
    let focused = null;        // the square the keyboard focus is on
    let reviewing = null;      // the reviewed position, or null for the live game
    let shownVersion = null;   // the version whose strikes were flashed
    let lost = false;          // the server could not be reached
    const base = `/api/games/${cur.game}/${cur.seat}`;
    const cells = {};
    const lakes = new Set(cur.lakes || []);

    // The overlay: one element per square, placed over the SVG drawing, ten rows of a grid.
    const grid = $("grid");
    for (let row = 10; row >= 1; row--) {
      const line = document.createElement("div");
      line.setAttribute("role", "row");
      line.className = "row";
      for (let f = 0; f < 10; f++) {
        const name = FILES[f] + row;
        const el = document.createElement("div");
        el.className = "cell";
        el.dataset.square = name;
        el.setAttribute("role", "gridcell");
        el.tabIndex = -1;
        el.addEventListener("click", () => { focused = name; clicked(name); });
        el.addEventListener("keydown", (event) => keyed(event, name));
        line.appendChild(el);
        cells[name] = el;
      }
      grid.appendChild(line);
    }

    function place() {
      const flip = cur.player === "blue";
      const size = (SQUARE / FULL) * 100;
      for (const [name, el] of Object.entries(cells)) {
        const f = FILES.indexOf(name[0]);
        const row = parseInt(name.slice(1), 10) - 1;
        const col = flip ? 9 - f : f;
        const line = flip ? row : 9 - row;
        el.style.left = ((MARGIN + col * SQUARE) / FULL) * 100 + "%";
        el.style.top = ((MARGIN + line * SQUARE) / FULL) * 100 + "%";
        el.style.width = size + "%";
        el.style.height = size + "%";
      }
    }

    function pieceName(piece) {
      if (piece.owner === cur.player) return `your ${cur.names[piece.rank]}`;
      if (piece.rank === null) return `hidden ${piece.owner} piece`;
      return `${piece.owner} ${cur.names[piece.rank]}`;
    }

    function chip(owner, rank, label) {
      const svg = document.createElementNS(SVGNS, "svg");
      svg.setAttribute("viewBox", "0 0 24 24");
      svg.setAttribute("class", "chip-picture");
      svg.setAttribute("aria-hidden", "true");
      const box = document.createElementNS(SVGNS, "rect");
      for (const [k, v] of [["x", 1], ["y", 1], ["width", 22], ["height", 22], ["rx", 4]]) {
        box.setAttribute(k, v);
      }
      box.setAttribute("class", `chip-${owner}`);
      const text = document.createElementNS(SVGNS, "text");
      text.setAttribute("x", 12);
      text.setAttribute("y", 17);
      text.setAttribute("text-anchor", "middle");
      text.textContent = label;
      svg.append(box, text);
      return svg;
    }

    function renderTray() {
      for (const side of ["red", "blue"]) {
        const tray = $("tray-" + side);
        if (!cur.tray[side].length) {
          tray.textContent = "none";
          continue;
        }
        tray.replaceChildren(...cur.tray[side].map((entry) => {
          const item = document.createElement("span");
          item.className = "chip";
          item.dataset.owner = side;
          if (entry.rank !== null) item.dataset.rank = entry.rank;
          item.dataset.count = entry.count;
          item.title = `${entry.name} (${entry.label}) × ${entry.count}`;
          const count = document.createElement("span");
          count.className = "count";
          count.textContent = `×${entry.count}`;
          item.append(chip(side, entry.rank, entry.label), count);
          return item;
        }));
      }
      $("on-board-red").textContent = cur.on_board.red;
      $("on-board-blue").textContent = cur.on_board.blue;
    }

    function renderMoves() {
      const moves = $("moves");
      moves.replaceChildren(...cur.move_rows.map((row) => {
        const li = document.createElement("li");
        li.value = row.number;
        for (const ply of row.plies) {
          const button = document.createElement("button");
          button.type = "button";
          button.className = "ply";
          button.dataset.ply = ply.ply;
          button.dataset.player = ply.player;
          button.textContent = ply.text.replace(/^(red|blue): /, "");
          button.title = ply.text;
          button.setAttribute("aria-label", `move ${row.number}, ${ply.text}`);
          if (reviewing && reviewing.ply === ply.ply) button.classList.add("current");
          button.addEventListener("click", () => review(ply.ply));
          li.appendChild(button);
        }
        return li;
      }));
      if (!reviewing) moves.scrollTop = moves.scrollHeight;
    }

    function render() {
      $("rules").textContent = `${cur.rules_title} (${cur.rules}) · you play ${cur.player}` +
        (cur.opponent === "bot" ? ` against the ${cur.bot} bot` : " against a friend");
      const shown = reviewing || cur;
      $("svg").innerHTML = shown.svg;
      place();
      const pieces = {};
      for (const c of shown.cells) pieces[c.square] = c;
      const live = reviewing === null;
      const targets = live && selected && cur.legal[selected] ? cur.legal[selected] : [];
      const home = new Set(cur.home || []);
      if (focused === null) focused = Object.keys(cur.legal)[0] || (cur.home || [])[0] || "a1";
      for (const [name, el] of Object.entries(cells)) {
        el.replaceChildren();
        const piece = pieces[name];
        let label = lakes.has(name) ? "lake" : "empty";
        if (piece) {
          const mark = document.createElement("span");
          mark.className = "piece";
          mark.dataset.owner = piece.owner;
          if (piece.rank !== null) mark.dataset.rank = piece.rank;
          if (piece.revealed) mark.dataset.revealed = "true";
          el.appendChild(mark);
          label = pieceName(piece);
        }
        el.classList.toggle("selected", live && name === selected);
        el.classList.toggle("last", shown.last.includes(name));
        const clickable = !live ? false : cur.phase === "setup" ? home.has(name)
          : Boolean(cur.legal[name]) || targets.includes(name);
        el.classList.toggle("clickable", clickable);
        if (targets.includes(name)) {
          el.dataset.legal = "true";
          label += ", a legal target";
        } else {
          delete el.dataset.legal;
        }
        if (live && name === selected) label += ", selected";
        el.setAttribute("aria-label", `${name}, ${label}`);
        el.setAttribute("aria-selected", live && name === selected ? "true" : "false");
        el.tabIndex = name === focused ? 0 : -1;
      }
      $("status").textContent = cur.status;
      const strikes = $("strikes");
      strikes.replaceChildren(...cur.strikes.map((text) => {
        const li = document.createElement("li");
        li.textContent = text;
        return li;
      }));
      $("join-box").hidden = !cur.join;
      if (cur.join) $("join-link").value = new URL(cur.join, window.location.href).href;
      $("setup-box").hidden = cur.phase !== "setup";
      if (cur.phase === "setup" && document.activeElement !== $("setup-text")) {
        $("setup-text").value = cur.setup;
      }
      $("rescue-box").hidden = cur.rescue.length === 0 || !live;
      $("rescue-options").replaceChildren(...cur.rescue.map((option) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = option.text;
        button.dataset.move = option.move;
        button.addEventListener("click", () => send("move", { move: option.move }));
        return button;
      }));
      $("play-box").hidden = cur.phase !== "play";
      $("draw-sent").hidden = cur.draw !== "sent";
      $("draw-box").hidden = cur.draw !== "received";
      $("offer-draw").disabled = cur.draw === "sent";
      $("over-box").hidden = cur.phase !== "over";
      if (cur.result) {
        const you = { win: "You win", loss: "You lose", draw: "A draw" }[cur.result.you];
        $("over-title").textContent = you;
        $("over-reason").textContent = cur.result.text;
      }
      $("rematch").textContent = cur.rematch ? "Play the rematch" : "Rematch";
      $("download").hidden = !cur.record;
      $("download").href = base + "/record.txt";
      renderTray();
      renderMoves();
      $("review").hidden = live;
      if (!live) {
        $("review-text").textContent = `Reviewing the position after turn ${reviewing.ply} of ${reviewing.of}.`;
      }
      if (live && cur.version !== shownVersion) {
        if (shownVersion !== null) flash();
        shownVersion = cur.version;
      }
    }

    // A strike: both squares flash, with the two ranks it showed.
    function flash() {
      for (const strike of cur.flash) {
        for (const square of [strike.from, strike.to]) {
          const el = cells[square];
          if (!el) continue;
          el.classList.remove("flash");
          void el.offsetWidth;  // restart the animation
          el.classList.add("flash");
          window.setTimeout(() => el.classList.remove("flash"), 1600);
        }
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.dataset.testid = "flash";
        badge.textContent = `${strike.attacker} × ${strike.defender}`;
        cells[strike.to].appendChild(badge);
        window.setTimeout(() => badge.remove(), 1600);
      }
    }

    async function review(ply) {
      const reply = await call("GET", `${base}/review/${ply}`);
      if (reply.ok) {
        reviewing = reply.data;
        selected = null;
        render();
      } else {
        showError(reply.data.error);
      }
    }

    function backToLive() {
      reviewing = null;
      render();
    }

    async function send(action, body) {
      if (busy) return;
      busy = true;
      showError("");
      document.body.classList.add("busy");
      const reply = await call("POST", `${base}/${action}`, body || {});
      document.body.classList.remove("busy");
      busy = false;
      selected = null;
      if (reply.ok) {
        cur = reply.data;
        reviewing = null;
      } else {
        showError(reply.data.error);
      }
      render();
      if (reply.ok && action === "rematch" && cur.rematch) window.location.assign(cur.rematch);
      else if (cells[focused] && grid.contains(document.activeElement)) cells[focused].focus();
    }

    function clicked(name) {
      if (busy) return;
      if (reviewing) {
        backToLive();
        return;
      }
      if (cur.phase === "setup") {
        if (!(cur.home || []).includes(name)) return;
        if (selected === null) {
          selected = name;
          render();
        } else if (selected === name) {
          selected = null;
          render();
        } else {
          send("swap", { squares: [selected, name] });
        }
        return;
      }
      if (cur.phase !== "play") return;
      if (selected && (cur.legal[selected] || []).includes(name)) {
        send("move", { move: `${selected}-${name}` });
      } else if (cur.legal[name]) {
        selected = name === selected ? null : name;
        render();
      } else if (selected) {
        selected = null;
        render();
      }
    }

    // Keyboard play: the arrows move the focus as the board is seen (Blue's is turned).
    function keyed(event, name) {
      const flip = cur.player === "blue" ? -1 : 1;
      const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        focused = name;
        clicked(name);
        return;
      }
      const step = steps[event.key];
      if (!step) return;
      event.preventDefault();
      const f = FILES.indexOf(name[0]) + step[0] * flip;
      const row = parseInt(name.slice(1), 10) + step[1] * flip;
      if (f < 0 || f > 9 || row < 1 || row > 10) return;
      cells[focused] && (cells[focused].tabIndex = -1);
      focused = FILES[f] + row;
      cells[focused].tabIndex = 0;
      cells[focused].focus();
    }

    $("start").addEventListener("click", () => send("start"));
    $("random").addEventListener("click", () => send("random"));
    $("use-setup").addEventListener("click", () => send("setup", { text: $("setup-text").value }));
    $("setup-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      $("setup-text").value = (await file.text()).trim();
      send("setup", { text: $("setup-text").value });
    });
    $("join-link").addEventListener("focus", (event) => event.target.select());
    $("resign").addEventListener("click", () => {
      $("confirm-resign").hidden = false;
      $("confirm-resign").focus();
    });
    $("confirm-resign").addEventListener("click", () => {
      $("confirm-resign").hidden = true;
      send("resign");
    });
    $("offer-draw").addEventListener("click", () => send("offer-draw"));
    $("accept-draw").addEventListener("click", () => send("accept-draw"));
    $("decline-draw").addEventListener("click", () => send("decline-draw"));
    $("rematch").addEventListener("click", () => {
      if (cur.rematch) window.location.assign(cur.rematch);
      else send("rematch");
    });
    $("live").addEventListener("click", backToLive);
    $("new-game").addEventListener("click", async () => {
      const reply = await call("POST", "/api/games", { rules: cur.rules, opponent: cur.opponent });
      if (reply.ok) window.location.assign(reply.data.url);
      else showError(reply.data.error);
    });

    // Ask the server now and then whether the other side did something, and whether the
    // server is still there: after a restart the page picks the game up by itself.
    async function poll() {
      let wait = cur.opponent === "human" ? 1000 : 3000;
      if (!busy) {
        const reply = await call("GET", `${base}?since=${cur.version}`);
        if (reply.status === 0 || reply.status >= 500) {
          lost = true;
          wait = 1000;
        } else if (reply.status === 404 || reply.status === 403) {
          window.location.reload();
          return;
        } else {
          lost = false;
          if (reply.status === 200 && reply.data.version !== cur.version && !busy) {
            cur = reply.data;
            selected = null;
            render();
          }
        }
        $("connection").hidden = !lost;
      }
      window.setTimeout(poll, wait);
    }

    render();
    window.setTimeout(poll, 1000);
  }

  if (kind === "lobby") lobby(initial);
  else if (kind === "join") join(initial);
  else game(initial);
})();
