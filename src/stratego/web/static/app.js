// The stratego web game. Everything drawn comes from the JSON the server sends this seat
// (schema "stratego.web/1"): the board SVG, the pieces this player may know, its legal
// moves. The page holds no game logic beyond "which squares may I click".
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

  function game(first) {
    let cur = first;
    let selected = null;
    let busy = false;
    const base = `/api/games/${cur.game}/${cur.seat}`;
    const cells = {};

    // The overlay: one element per square, placed over the SVG drawing.
    const grid = $("grid");
    for (let row = 1; row <= 10; row++) {
      for (let f = 0; f < 10; f++) {
        const name = FILES[f] + row;
        const el = document.createElement("div");
        el.className = "cell";
        el.dataset.square = name;
        el.addEventListener("click", () => clicked(name));
        grid.appendChild(el);
        cells[name] = el;
      }
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

    function render() {
      $("rules").textContent = `${cur.rules_title} (${cur.rules}) · you play ${cur.player}` +
        (cur.opponent === "bot" ? ` against the ${cur.bot} bot` : " against a friend");
      $("svg").innerHTML = cur.svg;
      place();
      const pieces = {};
      for (const c of cur.cells) pieces[c.square] = c;
      const targets = selected && cur.legal[selected] ? cur.legal[selected] : [];
      const home = new Set(cur.home || []);
      for (const [name, el] of Object.entries(cells)) {
        el.replaceChildren();
        const piece = pieces[name];
        if (piece) {
          const mark = document.createElement("span");
          mark.className = "piece";
          mark.dataset.owner = piece.owner;
          if (piece.rank !== null) mark.dataset.rank = piece.rank;
          el.appendChild(mark);
        }
        el.classList.toggle("selected", name === selected);
        el.classList.toggle("last", cur.last.includes(name));
        const clickable = cur.phase === "setup" ? home.has(name)
          : Boolean(cur.legal[name]) || targets.includes(name);
        el.classList.toggle("clickable", clickable);
        if (targets.includes(name)) el.dataset.legal = "true";
        else delete el.dataset.legal;
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
      $("rescue-box").hidden = cur.rescue.length === 0;
      $("rescue-options").replaceChildren(...cur.rescue.map((option) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = option.text;
        button.dataset.move = option.move;
        button.addEventListener("click", () => send("move", { move: option.move }));
        return button;
      }));
      for (const side of ["red", "blue"]) {
        $("captured-" + side).textContent = cur.captured[side].join(" ") || "none";
      }
      const moves = $("moves");
      moves.replaceChildren(...cur.moves.map((text) => {
        const li = document.createElement("li");
        li.textContent = text;
        return li;
      }));
      moves.scrollTop = moves.scrollHeight;
      $("download").hidden = !cur.record;
      $("download").href = base + "/record.txt";
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
      } else {
        showError(reply.data.error);
      }
      render();
    }

    function clicked(name) {
      if (busy) return;
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
    $("new-game").addEventListener("click", async () => {
      const reply = await call("POST", "/api/games", { rules: cur.rules, opponent: cur.opponent });
      if (reply.ok) window.location.assign(reply.data.url);
      else showError(reply.data.error);
    });

    // Two people: ask the server now and then whether the other side did something.
    async function poll() {
      if (!busy && cur.phase !== "over") {
        const reply = await call("GET", `${base}?since=${cur.version}`);
        if (reply.ok && reply.status === 200 && reply.data.version !== cur.version && !busy) {
          cur = reply.data;
          selected = null;
          render();
        }
      }
      window.setTimeout(poll, 1000);
    }

    render();
    if (cur.opponent === "human") window.setTimeout(poll, 1000);
  }

  if (kind === "lobby") lobby(initial);
  else if (kind === "join") join(initial);
  else game(initial);
})();
