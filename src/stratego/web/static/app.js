// The stratego web game. Everything drawn comes from the JSON the server sends this seat
// (schema "stratego.web/2"): the board picture, the pieces this player may know, its legal
// moves, its clocks. The page holds no game logic beyond "which squares may I click", and
// never anything about the opponent's hidden ranks: it shows what the server sent, no more.
// No inline script: the server's Content-Security-Policy allows only this file.
//
// What the browser keeps (localStorage, this origin only, never sent anywhere else): the
// seats it played from ("Your games" on the start page), the setups saved by name, the
// start page's last choices (opponent, bot, colour, rules, clock), and whether sound is on.
"use strict";

(function () {
  const initial = JSON.parse(document.getElementById("initial").textContent);
  const kind = document.body.dataset.page;
  const $ = (id) => document.getElementById(id);
  // The word for pressing a square or button: "tap" on a touch screen, else "click".
  const TOUCH = Boolean(window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches);
  const PRESS = TOUCH ? "tap" : "click";

  // What a request that never reached the server says (shown until the server answers).
  const UNREACHABLE = "the server cannot be reached";

  // A request to the server: { ok, status, data }. A refused action (an illegal move, a
  // setup that breaks the rules, a used link) is a player's ordinary mistake, not a failed
  // request: the page asks for it as a 200 carrying {"error", "refused": 409} (the header
  // below), so the browser logs no error in its console, and reads it as the refusal it is.
  async function call(method, url, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-Refusal-Status"] = "200";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (err) {
      return { ok: false, status: 0, data: { error: UNREACHABLE } };
    }
    let data = null;
    if (response.status !== 204) {
      try {
        data = await response.json();
      } catch (err) {
        data = { error: "the server sent no JSON" };
      }
    }
    if (response.ok && data !== null && typeof data.refused === "number" &&
        typeof data.error === "string") {
      return { ok: false, status: data.refused, data };
    }
    if (!response.ok && (data === null || typeof data.error !== "string")) {
      data = { error: `the server answered ${response.status}` };
    }
    // a rate limit's wait, unless its message says it already ("try again in 20 s")
    if (response.status === 429 && response.headers.get("Retry-After") &&
        !/try again/.test(data.error)) {
      data = { error: `${data.error} (try again in ${response.headers.get("Retry-After")} s)` };
    }
    return { ok: response.ok, status: response.status, data };
  }

  function showError(text) {
    $("error").textContent = text || "";
    $("error").title = text || "";  // (the game's line shows three lines of a long one)
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("data-")) node.setAttribute(key, value);
      else if (key in node) node[key] = value;
      else node.setAttribute(key, value);
    }
    node.append(...children);
    return node;
  }

  // -- what this browser remembers --------------------------------------------

  const SEATS = "stratego.seats.v1";
  const SETUPS = "stratego.setups.v1";
  const SOUND = "stratego.sound.v1";
  const CHOICES = "stratego.choices.v1";
  const REMATCH = "stratego.rematch.v1";  // (sessionStorage: the rematch this tab opens)
  const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;

  function readList(key) {
    try {
      const value = JSON.parse(window.localStorage.getItem(key) || "[]");
      return Array.isArray(value) ? value : [];
    } catch (err) {
      return [];
    }
  }

  function writeList(key, list) {
    try {
      window.localStorage.setItem(key, JSON.stringify(list));
    } catch (err) {
      // storage full or refused (private mode): the page works without it
    }
  }

  function seats() {
    return readList(SEATS).filter((s) => s && TOKEN.test(s.game) && TOKEN.test(s.seat));
  }

  function rememberSeat(entry) {
    const list = seats().filter((s) => !(s.game === entry.game && s.seat === entry.seat));
    list.unshift({ ...entry, touched: Date.now() });
    writeList(SEATS, list.slice(0, 50));
  }

  function forgetSeats(pairs) {
    const gone = new Set(pairs.map((s) => `${s.game}/${s.seat}`));
    writeList(SEATS, seats().filter((s) => !gone.has(`${s.game}/${s.seat}`)));
  }

  function savedSetups() {
    return readList(SETUPS).filter((s) => s && typeof s.name === "string" &&
      typeof s.text === "string" && typeof s.rules === "string");
  }

  // -- the start page ---------------------------------------------------------

  const FALLBACK_OPTIONS = {
    bots: [], editions: [
      { id: "classic", title: "Classic web rules" }, { id: "hasbro-2009", title: "Hasbro 2009" },
      { id: "milton-bradley-1961", title: "Milton Bradley 1961" },
      { id: "jumbo-2014", title: "Jumbo 2014" }],
    variants: [], time_controls: [], fallback: true,
  };

  async function lobby(data) {
    let options = data.options;
    if (!options) {
      const reply = await call("GET", "/api/options");
      options = reply.ok && reply.data && reply.data.bots ? reply.data : FALLBACK_OPTIONS;
    }
    const [edition, ...variants] = (data.rules || options.default_rules || "classic").split("+");

    // "Classic web rules + Barrage": the rules' titles, as a player reads them
    // ("Stratego Barrage" alone when `short`, as a bot's line in the list says it)
    function rulesTitle(rules, short) {
      const [first, ...more] = rules.split("+");
      const edition = options.editions.find((e) => e.id === first);
      const variants = more.map((id) => {
        const variant = options.variants.find((v) => v.id === id);
        return variant && variant.title ? variant.title : id;
      });
      if (short && variants.length) return variants.join(" + ");
      return [edition && edition.title ? edition.title : first, ...variants].join(" + ");
    }
    const bot = $("bot");
    bot.replaceChildren(...options.bots.map((b) => {
      const words = [b.description, b.rules ? `${rulesTitle(b.rules, true)} only` : null]
        .filter(Boolean).join(", ");
      // (the tooltip is the player's words too, never the spec: "heuristic" says nothing)
      return el("option", { value: b.id, text: words ? `${b.name} (${words})` : b.name,
        title: words ? `${b.name}: ${words}` : null });
    }));
    bot.value = options.default_bot || data.bot || (options.bots[0] || {}).id || "";
    $("bot-field").hidden = options.bots.length === 0;

    const editions = $("edition");
    const known = options.editions.map((e) => e.id);
    if (!known.includes(edition)) options.editions.unshift({ id: edition, title: edition });
    editions.replaceChildren(...options.editions.map((e) => el("option", {
      value: e.id, text: e.title || e.id, title: e.summary || null,
    })));
    editions.value = edition;
    // a few words on the edition chosen, under the list (an older server sends none)
    function editionChanged() {
      const chosen = options.editions.find((e) => e.id === editions.value);
      $("rules-about").textContent = chosen && chosen.summary ? chosen.summary : "";
      $("rules-about").hidden = !(chosen && chosen.summary);
    }
    editions.addEventListener("change", editionChanged);
    editionChanged();

    const box = $("variants");
    for (const v of options.variants) {
      const input = el("input", { type: "checkbox", name: "variant", value: v.id });
      input.checked = variants.includes(v.id);
      input.dataset.title = v.title || v.id;
      const item = el("div", { class: "variant" }, el("label", {}, input, ` ${v.title || v.id}`));
      if (v.summary) {
        const about = el("span", { class: "about", id: `variant-about-${v.id}`, text: v.summary });
        input.setAttribute("aria-describedby", about.id);
        item.appendChild(about);
      }
      box.appendChild(item);
    }
    $("variants-box").hidden = options.variants.length === 0;
    // the ticked variants the variant `id` cannot be played with (Barrage and Duel, say),
    // by title
    function ruledOutBy(id) {
      return [...box.querySelectorAll("input:checked")].filter((input) => {
        const v = options.variants.find((w) => w.id === input.value);
        return v && (v.excludes || []).includes(id);
      }).map((input) => input.dataset.title);
    }
    function variantsChanged() {
      const chosen = [...box.querySelectorAll("input:checked")].map((input) => input.dataset.title);
      $("variants-chosen").textContent = chosen.length ? chosen.join(", ") : "none";
      lockRules();
    }
    box.addEventListener("change", variantsChanged);
    variantsChanged();
    if (variants.length) $("variants-box").open = true;

    // A bot that plays only some rules (a learned bot) sets them when chosen, and the
    // other rules are greyed out while it is the opponent: no form the server refuses.
    function fixedRules() {
      const human = document.querySelector("input[name=opponent]:checked").value === "human";
      const chosen = human ? null : options.bots.find((b) => b.id === bot.value);
      return chosen && chosen.rules ? chosen : null;
    }
    function lockRules() {
      const chosen = fixedRules();
      const [botEdition, ...botVariants] = chosen ? chosen.rules.split("+") : [null];
      for (const option of editions.options) {
        option.disabled = Boolean(chosen) && option.value !== botEdition;
      }
      for (const input of box.querySelectorAll("input")) {
        const by = chosen || input.checked ? [] : ruledOutBy(input.value);
        input.disabled = chosen ? !botVariants.includes(input.value) : by.length > 0;
        // say why it is greyed out
        input.parentElement.title = !input.disabled ? ""
          : chosen ? `${chosen.name} plays ${rulesTitle(chosen.rules)} only`
          : `cannot be played with ${by.join(" or ")}`;
      }
      $("rules-locked").hidden = !chosen;
      if (chosen) {
        $("rules-locked").textContent = `${chosen.name} plays ${rulesTitle(chosen.rules)} only.`;
      }
    }
    // The player's own rules (edition, ticked variants) while a bot that plays only some
    // rules holds the form: they come back when another opponent is chosen.
    let ownRules = null;
    function rulesNow() {
      return { edition: editions.value,
        variants: [...box.querySelectorAll("input:checked")].map((input) => input.value) };
    }
    function setRules(rules) {
      if ([...editions.options].some((o) => o.value === rules.edition)) editions.value = rules.edition;
      for (const input of box.querySelectorAll("input")) {
        input.checked = rules.variants.includes(input.value);
      }
      variantsChanged();
      editionChanged();
    }
    function botChanged() {
      const chosen = fixedRules();
      if (chosen) {
        if (ownRules === null) ownRules = rulesNow();
        const [botEdition, ...botVariants] = chosen.rules.split("+");
        setRules({ edition: botEdition, variants: botVariants });
      } else if (ownRules !== null) {
        const own = ownRules;
        ownRules = null;
        setRules(own);
        $("variants-box").open = own.variants.length > 0;
      }
      lockRules();
    }
    bot.addEventListener("change", botChanged);

    const time = $("time");
    const controls = options.time_controls.length ? options.time_controls
      : [{ id: "none", name: "No clock" }];
    time.replaceChildren(...controls.map((t) => el("option", { value: t.id, text: t.name })));
    time.value = options.default_time || "none";
    time.disabled = options.time_controls.length === 0;
    $("colour").hidden = Boolean(options.fallback);

    // The choices made last time in this browser come back (those this server still offers).
    function readChoices() {
      try {
        const value = JSON.parse(window.localStorage.getItem(CHOICES) || "null");
        return value && typeof value === "object" && !Array.isArray(value) ? value : {};
      } catch (err) {
        return {};
      }
    }
    function pick(name, value) {
      const radio = [...document.querySelectorAll(`input[name=${name}]`)].find((r) => r.value === value);
      if (radio) radio.checked = true;
    }
    function restoreChoices() {
      const last = readChoices();
      if (typeof last.opponent === "string") pick("opponent", last.opponent);
      if (typeof last.colour === "string") pick("colour", last.colour);
      const offers = (select, value) => typeof value === "string" &&
        [...select.options].some((o) => o.value === value);
      if (offers(bot, last.bot)) bot.value = last.bot;
      if (offers(time, last.time) && !time.disabled) time.value = last.time;
      if (offers(editions, last.edition)) {
        editions.value = last.edition;
        if (Array.isArray(last.variants)) {
          for (const input of box.querySelectorAll("input")) {
            input.checked = last.variants.includes(input.value);
          }
        }
        variantsChanged();
        editionChanged();
        $("variants-box").open = box.querySelectorAll("input:checked").length > 0;
      }
    }
    function saveChoices() {
      const checked = (name) => (document.querySelector(`input[name=${name}]:checked`) || {}).value;
      // (the player's own rules, not those a bot that plays only some holds the form to)
      const rules = ownRules || rulesNow();
      const choices = {
        opponent: checked("opponent"), colour: checked("colour"), bot: bot.value,
        time: time.value, edition: rules.edition, variants: rules.variants,
      };
      try {
        window.localStorage.setItem(CHOICES, JSON.stringify(choices));
      } catch (err) {
        // storage full or refused: the form starts from the defaults next time
      }
    }
    restoreChoices();
    $("new-game-form").addEventListener("change", saveChoices);

    function opponentChanged() {
      const human = document.querySelector("input[name=opponent]:checked").value === "human";
      $("bot-field").hidden = human || options.bots.length === 0;
      botChanged();
    }
    for (const radio of document.querySelectorAll("input[name=opponent]")) {
      radio.addEventListener("change", opponentChanged);
    }
    opponentChanged();

    $("new-game-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      saveChoices();
      const opponent = document.querySelector("input[name=opponent]:checked").value;
      const chosen = [...document.querySelectorAll("input[name=variant]:checked")]
        .map((input) => input.value);
      const rules = [editions.value, ...chosen].join("+");
      const body = { rules, opponent };
      if (!options.fallback) {
        body.colour = document.querySelector("input[name=colour]:checked").value;
        body.time = time.value;
        if (opponent === "bot" && bot.value) body.bot = bot.value;
      }
      $("create").disabled = true;
      const reply = await call("POST", "/api/games", body);
      $("create").disabled = false;
      if (reply.ok) {
        window.location.assign(reply.data.url);
      } else {
        showError(reply.data.error);
      }
    });
    await myGames();
    // While the page is open, the states go on changing (a friend moves): ask again now and then.
    window.setInterval(() => {
      if (document.visibilityState === "visible") myGames();
    }, 20000);
  }

  const PHASE_ORDER = { play: 0, setup: 1, waiting: 2, over: 3 };

  function gameLine(game) {
    if (game.phase === "over") {
      const result = game.result
        ? { win: "You won", loss: "You lost", draw: "Drawn", aborted: "Aborted" }[game.result.you] : null;
      return { text: result || "Over", state: "over" };
    }
    if (game.phase === "setup") return { text: "Your setup", state: "mine" };
    if (game.phase === "waiting") return { text: "Waiting for the opponent", state: "theirs" };
    if (game.your_move) return { text: "Your move", state: "mine" };
    return { text: game.opponent === "bot" ? "The bot's move" : "Their move", state: "theirs" };
  }

  // A count of turns (one side's each) in the words of the move list, which numbers a
  // move of each side as one.
  function movesWords(turns) {
    const moves = Math.ceil(turns / 2);
    return `${moves} ${moves === 1 ? "move" : "moves"}`;
  }

  // Remembered games the server no longer has (expired), counted while this page is open:
  // they leave the list, and a note says why.
  let goneGames = 0;
  let goneNote = "";

  async function myGames() {
    const list = seats();
    const card = $("my-games-card");
    if (!list.length) {
      card.hidden = !goneNote;
      return;
    }
    const reply = await call("POST", "/api/seats", {
      seats: list.map((s) => ({ game: s.game, seat: s.seat })),
    });
    let games;
    const note = $("my-games-note");
    note.hidden = true;
    if (reply.ok && reply.data && Array.isArray(reply.data.games)) {
      const gone = reply.data.games.filter((g) => g.found === false);
      forgetSeats(gone);
      goneGames += gone.length;
      if (goneGames) {
        goneNote = `${goneGames === 1 ? "A game" : `${goneGames} games`} this browser ` +
          `remembered ${goneGames === 1 ? "is" : "are"} no longer on the server` +
          (typeof reply.data.expiry === "string" ? ` (${reply.data.expiry}).` : ".");
      }
      games = reply.data.games.filter((g) => g.found);
    } else {
      // a busy (or an older) server: list what this browser remembers, without the live state
      games = list.map((s) => ({ ...s, found: true, url: `/play/${s.game}/${s.seat}` }));
      if (reply.status === 503 || reply.status === 429) {
        note.textContent = "The server is busy: these are the games this browser remembers, " +
          "without their state. Try again in a minute.";
        note.hidden = false;
      }
    }
    if (goneNote && note.hidden) {
      note.textContent = goneNote;
      note.hidden = false;
    }
    const kept = new Set(seats().map((s) => `${s.game}/${s.seat}`));  // forgotten meanwhile?
    games = games.filter((g) => kept.has(`${g.game}/${g.seat}`));
    games.sort((a, b) => (b.your_move ? 1 : 0) - (a.your_move ? 1 : 0) ||
      (PHASE_ORDER[a.phase] ?? 2) - (PHASE_ORDER[b.phase] ?? 2) ||
      (b.last_active_ms || 0) - (a.last_active_ms || 0));
    const ul = $("my-games");
    // The list is made again (every 20 s while the page is open): the control with the
    // focus keeps it, in its game's new row, and a "Forget?" waiting for its second press
    // still waits.
    const active = document.activeElement;
    const heldRow = active && ul.contains(active) ? active.closest("li") : null;
    const held = heldRow ? { key: rowKeys.get(heldRow), index: [...ul.children].indexOf(heldRow),
      forget: active.classList.contains("forget"), armed: active.classList.contains("confirm") } : null;
    ul.replaceChildren(...games.map((g) => {
      const line = g.phase ? gameLine(g) : { text: "", state: "theirs" };
      const who = g.opponent === "human" ? "a friend"
        : g.opponent_name ? `${g.opponent_name} bot` : "the bot";
      const named = `Forget the game against ${who}`;
      const forget = el("button", {
        type: "button", class: "forget", text: "×", title: "Forget this game here",
        "aria-label": named, "data-testid": "forget-game",
      });
      // A game not over asks once more: its seat link is kept nowhere else. The question
      // is the button's name while it waits, and a screen reader hears it.
      forget.armForget = () => {
        forget.classList.add("confirm");
        forget.textContent = "Forget?";
        forget.title = `This game is not over: ${PRESS} again to forget it here (its link is lost)`;
        forget.setAttribute("aria-label", `${named}? It is not over: press again to forget it here (its link is lost)`);
      };
      forget.addEventListener("click", () => {
        if (g.phase !== "over" && !forget.classList.contains("confirm")) {
          forget.armForget();
          $("my-games-said").textContent = "This game is not over: press again to forget it here (its link is lost).";
          return;
        }
        // the focus goes on to the next game's button (the one before, at the end; the
        // new game's form once the list is empty), not to the page's start
        const next = li.nextElementSibling || li.previousElementSibling;
        forgetSeats([g]);
        li.remove();
        if (!ul.children.length) card.hidden = true;
        $("my-games-said").textContent = `Forgot the game against ${who}.`;
        const to = next ? next.querySelector(".forget")
          : document.querySelector("input[name=opponent]:checked");
        if (to) to.focus();
      });
      forget.addEventListener("blur", () => {
        forget.classList.remove("confirm");
        forget.textContent = "×";
        forget.title = "Forget this game here";
        forget.setAttribute("aria-label", named);
      });
      const clock = g.clock && g.clock.control ? ` · ${g.clock.control}` : "";
      // a finished game says when it was last played: kept for weeks, rows look alike
      const when = g.phase === "over" && g.last_active_ms
        ? ` · ${new Date(g.last_active_ms).toLocaleDateString(undefined, { day: "numeric", month: "short" })}`
        : "";
      const li = el("li", { class: `my-game ${line.state}`, "data-testid": "my-game", "data-game": g.game },
        el("span", { class: `swatch ${g.player || ""}`, title: g.player ? `you play ${g.player}` : "" }),
        el("span", { class: "what" },
          el("strong", { text: `vs ${who}` }),
          el("span", { class: "detail", text: `${g.rules_title || g.rules || ""}${clock}` +
            (g.moves ? ` · ${movesWords(g.moves)}` : "") + when })),
        el("span", { class: "state", "data-testid": "my-game-state", text: line.text }),
        el("a", { class: "button resume", href: g.url, "data-testid": "resume",
          text: g.phase === "over" ? "View" : g.phase ? "Resume" : "Open" }),
        forget);
      rowKeys.set(li, `${g.game}/${g.seat}`);
      return li;
    }));
    card.hidden = games.length === 0 && !goneNote;
    if (held) {
      const row = [...ul.children].find((li) => rowKeys.get(li) === held.key) ||
        ul.children[Math.min(held.index, ul.children.length - 1)];
      const control = row ? row.querySelector(held.forget ? ".forget" : ".resume") : null;
      if (control) {
        if (held.armed && rowKeys.get(row) === held.key && control.armForget) control.armForget();
        control.focus({ preventScroll: true });
      }
    }
  }
  const rowKeys = new WeakMap();  // a row of "Your games": its game and seat

  function join(data) {
    if (data.used) {
      // A used link: back to this game's seat when this browser holds one (the friend who
      // joined, opening the invitation again), else say the game has its two players.
      const seat = seats().find((s) => s.game === data.game);
      if (seat) {
        window.location.replace(`/play/${seat.game}/${seat.seat}`);
        return;
      }
      $("join-card").hidden = true;
      $("used-card").hidden = false;
      return;
    }
    // Who invites (the side the link's sender plays), to which rules and clock: what the
    // page's data holds (never anything of either army).
    const inviter = data.inviter || (data.player === "red" ? "blue" : "red");
    $("join-invite").textContent = `Your friend playing ${inviter} invites you to play ${data.player}.`;
    $("join-rules").textContent = data.rules_title || data.rules;
    if (data.clock !== undefined) {  // (an older server does not say)
      $("join-clock-name").hidden = false;
      $("join-clock").hidden = false;
      $("join-clock").textContent = data.clock && data.clock.title ? data.clock.title : "No clock";
    }
    // The link of a game this browser already plays in: most likely its own invitation,
    // opened to check it. Joining from here would use it up for the friend.
    const mine = seats().find((s) => s.game === data.game);
    if (mine) {
      $("own-invite").hidden = false;
      $("own-seat").href = `/play/${mine.game}/${mine.seat}`;
      $("join").textContent = "Play the other side here anyway";
    }
    $("join").addEventListener("click", async () => {
      const reply = await call("POST", `/api/games/${data.game}/join`, { code: data.code });
      if (reply.ok) {
        // kept now, not only once the game's page has loaded: the invitation opened again
        // at once (a reload, the back button) finds the seat and goes back to it
        rememberSeat({ game: reply.data.game, seat: reply.data.seat, player: reply.data.player,
          rules: data.rules });
        window.location.assign(reply.data.url);
      } else {
        showError(reply.data.error);
      }
    });
  }

  // -- sound: a short WebAudio beep, off unless the player turns it on ----------

  let audio = null;
  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND) === "on";
    } catch (err) {
      return false;
    }
  }

  function beep(kind) {
    if (!soundOn()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const tones = kind === "strike" ? [[330, 0], [220, 0.12]] : kind === "turn" ? [[660, 0]] : [[520, 0]];
      for (const [freq, at] of tones) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = freq;
        osc.type = "sine";
        const t = audio.currentTime + at;
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(0.15, t + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.11);
        osc.connect(gain).connect(audio.destination);
        osc.start(t);
        osc.stop(t + 0.12);
      }
      document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
      document.body.dataset.lastBeep = kind;
    } catch (err) {
      // no audio here: silence
    }
  }

  // -- the game page ------------------------------------------------------------

  const FILES = "abcdefghij";
  const MARGIN = 20, SQUARE = 40, FULL = 440;  // the geometry of stratego.svg.board_svg
  const PLY = /^(red|blue): ([a-j](?:10|[1-9]))[-x]([a-j](?:10|[1-9]))/;
  const STRUCK = /^(?:red|blue): [a-j](?:10|[1-9])x/;  // a move list's strike
  const STILL = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const ARMED_MS = 5000;  // how long "Yes, resign" (and "Yes, abort the game") waits for its click
  const FRESH_MS = 4000;  // how long a new strike's banner and pulse last (its marks stay)
  // Against the bot, how long our own turn shows before the bot's reply (which came in the
  // same answer): shorter without motion; with a clock none, since ours runs from the reply
  // on and a pause would cost the player time (our turn is still drawn first).
  const REPLY_PAUSE_MS = STILL ? 300 : 650;
  const CLOCKED_PAUSE_MS = 0;
  const LUNGE_MS = 560;  // a losing attacker's way onto its target and out (STILL: shown, still)
  const STILL_LUNGE_MS = 280;
  const cap = (word) => word.charAt(0).toUpperCase() + word.slice(1);

  function formatClock(ms) {
    const total = Math.max(0, ms);
    if (total < 10000) return `0:0${(Math.floor(total / 100) / 10).toFixed(1)}`;
    const seconds = Math.ceil(total / 1000);
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    const ss = String(s).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
  }

  function game(first) {
    let cur = first;
    let selected = null;
    let rescueRank = null;     // the captured rank chosen to come back, during a Rescue
    let busy = false;
    let focused = null;        // the square the keyboard focus is on
    let keyNav = false;        // the arrows move the board's cursor (see keyed)
    let reviewing = null;      // the reviewed position, or null for the live game
    let lost = false;          // the server could not be reached
    let stale = false;         // since then no whole payload came: the next poll asks for one
    let clockAt = performance.now();  // when the clock in `cur` was received
    let freshUntil = 0;        // new strikes pulse until then
    let freshTimer = null;
    let drag = null;           // a piece being dragged: {from, x, y, id, moved, ghost}
    let suppressClick = false;
    let optimistic = null;     // our move, slid before the server answered
    let stuck = false;         // the notice says a clicked piece of ours cannot move
    let pendingMove = null;    // our move's text, sent and not yet answered
    let shownSetup = null;     // the army the setup text box last showed
    let presets = { key: null, list: [], next: 0, loading: false };
    const base = `/api/games/${cur.game}/${cur.seat}`;
    const cells = {};
    const lakes = new Set(cur.lakes || []);

    rememberSeat({ game: cur.game, seat: cur.seat, player: cur.player, rules: cur.rules });
    for (const word of document.querySelectorAll(".press")) word.textContent = PRESS;

    // The overlay: one element per square, placed over the SVG drawing, ten rows of a grid.
    const grid = $("grid");
    for (let row = 10; row >= 1; row--) {
      const line = document.createElement("div");
      line.setAttribute("role", "row");
      line.className = "row";
      for (let f = 0; f < 10; f++) {
        const name = FILES[f] + row;
        const cell = document.createElement("div");
        cell.className = "cell";
        cell.dataset.square = name;
        cell.setAttribute("role", "gridcell");
        cell.tabIndex = -1;
        cell.addEventListener("click", () => {
          if (suppressClick) return;
          focused = name;
          clicked(name);
        });
        cell.addEventListener("keydown", (event) => keyed(event, name));
        cell.addEventListener("pointerdown", (event) => pressed(event, name));
        line.appendChild(cell);
        cells[name] = cell;
      }
      grid.appendChild(line);
    }
    // Who holds the arrows (see keyed): a press of the mouse (a finger, a pen) on the board
    // gives ← and → back to the moves; the board reached from the keyboard (Tab) takes them.
    grid.addEventListener("pointerdown", () => { keyNav = false; });
    grid.addEventListener("focusin", (event) => {
      if (event.relatedTarget && grid.contains(event.relatedTarget)) return;  // square to square
      keyNav = Boolean(event.target.matches && event.target.matches(":focus-visible"));
    });

    // The focus on the square `name` (the grid's one Tab stop); `byKey`: the arrows move
    // the board's cursor from there.
    function focusSquare(name, byKey) {
      if (!cells[name]) return;
      if (cells[focused]) cells[focused].tabIndex = -1;
      focused = name;
      cells[name].tabIndex = 0;
      cells[name].focus();
      keyNav = byKey;
    }

    function place() {
      const flip = cur.player === "blue";
      const size = (SQUARE / FULL) * 100;
      for (const [name, cell] of Object.entries(cells)) {
        const f = FILES.indexOf(name[0]);
        const row = parseInt(name.slice(1), 10) - 1;
        const col = flip ? 9 - f : f;
        const line = flip ? row : 9 - row;
        cell.style.left = ((MARGIN + col * SQUARE) / FULL) * 100 + "%";
        cell.style.top = ((MARGIN + line * SQUARE) / FULL) * 100 + "%";
        cell.style.width = size + "%";
        cell.style.height = size + "%";
      }
    }

    function label(rank) {
      return (cur.labels && cur.labels[rank]) || rank;
    }

    // The words of a piece's tooltip and accessible name: "Red Marshal (10)" and, after
    // the square, what else is known ("Blue piece on e7, rank unknown, has moved").
    function pieceWords(piece) {
      if (piece.rank === null || piece.rank === undefined) {
        return [`${cap(piece.owner)} piece`, ", rank unknown" + (piece.moved ? ", has moved" : "")];
      }
      const text = `${cap(piece.owner)} ${cur.names[piece.rank]} (${piece.label || label(piece.rank)})`;
      return [text, (piece.revealed ? ", revealed" : "") +
        (piece.known ? ", known to the opponent" : "")];
    }

    function pieceElement(owner, rank, text, extra) {
      const mark = el("span", { class: "piece" + (extra ? " " + extra : "") });
      mark.dataset.owner = owner;
      if (rank !== null && rank !== undefined) {
        mark.dataset.rank = rank;
        mark.append(el("span", { class: String(text).length > 1 ? "face long" : "face", text }));
      } else {
        mark.classList.add("back");
      }
      return mark;
    }

    function chip(owner, rank, text) {
      const item = el("span", { class: "chip-picture", "aria-hidden": "true", text });
      item.dataset.owner = owner;
      return item;
    }

    // The losses of the position shown: the live game's, or the reviewed turn's.
    function renderTray() {
      const shown = reviewing || cur;
      for (const side of ["red", "blue"]) {
        const tray = $("tray-" + side);
        if (!shown.tray[side].length) {
          tray.textContent = "none";
          continue;
        }
        tray.replaceChildren(...shown.tray[side].map((entry) => {
          const item = document.createElement("span");
          item.className = "chip";
          item.dataset.owner = side;
          if (entry.rank !== null) item.dataset.rank = entry.rank;
          item.dataset.count = entry.count;
          item.title = `${cap(side)} ${entry.name} (${entry.label}) × ${entry.count}`
            + (entry.revealed ? `, ${entry.revealed} revealed at the end` : "");
          if (entry.revealed) item.dataset.revealed = "true";
          // named as its tooltip says it ("Red Scout (2) × 8"): the picture and "×8" are
          // what the name says
          item.setAttribute("role", "img");
          item.setAttribute("aria-label", item.title);
          const count = el("span", { class: "count", text: `×${entry.count}`, "aria-hidden": "true" });
          item.append(chip(side, entry.rank, entry.label), count);
          return item;
        }));
      }
      $("on-board-red").textContent = shown.on_board.red;
      $("on-board-blue").textContent = shown.on_board.blue;
    }

    // The numbered move and the side of the list's turn `ply` (1 for the first), or null;
    // `after` names it: "move 12, red", or "move 12, red's Rescue" for the Rescue decision
    // that follows a side's move in its own cell.
    function moveOf(ply) {
      for (const row of cur.move_rows) {
        const at = row.plies.findIndex((p) => p.ply === ply);
        if (at < 0) continue;
        const entry = row.plies[at];
        const rescue = at > 0 && row.plies[at - 1].player === entry.player;
        return { number: row.number, player: entry.player, rescue,
                 after: `move ${row.number}, ${entry.player}${rescue ? "'s Rescue" : ""}` };
      }
      return null;
    }

    function renderMoves() {
      const moves = $("moves");
      const rows = cur.move_rows;
      // A row is a move of each side: two cells, the first mover's on the left; a Rescue
      // decision stays in its side's cell beside the move that earned it.
      const first = rows.length && rows[0].plies.length ? rows[0].plies[0].player : cur.player;
      const row = (number) => {
        const li = el("li", {}, el("span", { class: "side" }), el("span", { class: "side" }));
        li.value = number;
        return li;
      };
      const cell = (li, player) => li.children[player === first ? 0 : 1];
      // the entry with the focus (Enter on it, or a friend's move arriving meanwhile) keeps
      // it in the new list
      const held = moves.contains(document.activeElement) ? document.activeElement.dataset.ply : null;
      moves.replaceChildren(...rows.map((entry) => {
        const li = row(entry.number);
        for (const ply of entry.plies) {
          const button = document.createElement("button");
          button.type = "button";
          button.className = "ply";
          button.dataset.ply = ply.ply;
          button.dataset.player = ply.player;
          const text = cur.moves[ply.ply - 1] || "";  // (the rows hold the short form only)
          button.textContent = ply.short || text.replace(/^(red|blue): /, "");
          button.title = text;
          button.setAttribute("aria-label", `move ${entry.number}, ${text}`);
          if (reviewing && reviewing.ply === ply.ply) button.classList.add("current");
          button.addEventListener("click", () => review(ply.ply));
          cell(li, ply.player).appendChild(button);
        }
        return li;
      }));
      if (pendingMove) {
        const mine = el("span", { class: "ply pending", "data-testid": "pending-move",
          text: `${pendingMove} …`, title: "Your move, sent" });
        // a new row when the side that moved first moves again, else the last row
        let li = moves.lastElementChild;
        if (!li || cur.player === first) {
          li = row(rows.length + 1);
          moves.appendChild(li);
        }
        cell(li, cur.player).appendChild(mine);
      }
      const again = held ? moves.querySelector(`button[data-ply="${held}"]`) : null;
      if (again) again.focus({ preventScroll: true });
      if (!reviewing) moves.scrollTop = moves.scrollHeight;
      else {
        // Scroll the list alone (scrollIntoView would scroll the page too, moving the board).
        const current = moves.querySelector(".current");
        if (current) {
          const box = moves.getBoundingClientRect();
          const at = current.getBoundingClientRect();
          if (at.top < box.top) moves.scrollTop -= box.top - at.top;
          else if (at.bottom > box.bottom) moves.scrollTop += at.bottom - box.bottom;
        }
      }
    }

    // Who made the strike from `from` to `to`: the move list says (it is public).
    function striker(strike) {
      if (strike.player) return strike.player;
      for (let i = cur.moves.length - 1; i >= 0; i--) {
        const m = PLY.exec(cur.moves[i]);
        if (m && m[2] === strike.from && m[3] === strike.to) return m[1];
      }
      return null;
    }

    // The marks of `strikes` (the live game's since our last turn, or the reviewed turn's
    // own): both squares ringed, each with the rank it showed. The banner says who struck
    // whom while the strikes are `fresh`, and for as long as a reviewed turn is shown
    // (`steady`: no pulse then, the turn does not change).
    function renderStrikes(strikes, fresh, steady) {
      const banner = $("banner");
      banner.replaceChildren();
      for (const strike of strikes || []) {
        const attacker = striker(strike);
        if (!attacker) continue;
        const defender = attacker === "red" ? "blue" : "red";
        const sides = [[strike.from, attacker, strike.attacker, "attacker"],
          [strike.to, defender, strike.defender, "defender"]];
        for (const [square, owner, text, role] of sides) {
          const cell = cells[square];
          if (!cell) continue;
          const occupant = cell.querySelector(".piece");  // (a losing attacker's lunge is none)
          const empty = !occupant;
          // a defender that held its square and has moved on since: nothing to mark there
          if (empty && role === "defender" && strike.result === "defender") continue;
          // the attacker's square taken since by a piece of the other side: its mark is gone
          if (role === "attacker" && occupant && occupant.dataset.owner !== owner) continue;
          cell.classList.add("struck");
          cell.classList.toggle("fresh", fresh);
          if (empty) {
            // the piece left or was taken: a faint trace of it stays while the strike shows
            const ghost = el("span", { class: "ghost", "aria-hidden": "true" }, el("span", { class: "face", text }));
            ghost.dataset.owner = owner;
            cell.appendChild(ghost);
          }
          const tag = el("span", { class: `strike-tag ${role}`, text,
            title: `${cap(owner)} ${text} (${role})` });
          tag.dataset.owner = owner;
          tag.dataset.testid = "strike-tag";
          cell.appendChild(tag);
        }
        if (fresh || steady) {
          const outcome = { attacker: "attacker wins", defender: "defender wins", both: "both removed" }[strike.result] || "";
          const badge = el("span", { class: "badge" },
            el("b", { class: `who ${attacker}`, text: strike.attacker }), " strikes ",
            el("b", { class: `who ${defender}`, text: strike.defender }),
            outcome ? `: ${outcome}` : "");
          badge.dataset.testid = "flash";
          banner.appendChild(badge);
        }
      }
    }

    // The tab's title: what waits for this seat (a draw offer, the friend's rematch, its
    // move, its setup); back to "Stratego" once it is answered.
    function renderTitle() {
      const lead = cur.phase === "play" && cur.draw === "received" ? "Draw offered · "
        : cur.phase === "over" && cur.rematch && rematchWanted ? "Rematch? · "
        : yourMove() ? "● Your move · " : cur.phase === "setup" ? "Your setup · " : "";
      document.title = lead + "Stratego";
    }

    // The "Pieces" legend: each rank of the rules' army (its label, name and count) and,
    // once play starts, how many of the opponent's are not known to be captured: the
    // army's count less the captured pieces of that rank the seat's payload lists (the
    // position shown: the live game's, or the reviewed turn's). Nothing else is counted.
    function renderLegend() {
      const army = cur.army || [];
      $("legend-box").hidden = army.length === 0;
      if (!army.length) return;
      const shown = reviewing || cur;
      const other = cur.player === "red" ? "blue" : "red";
      const playing = Boolean(cur.started) && shown.tray;
      const lost = {};
      let unknown = 0;
      for (const entry of playing ? shown.tray[other] : []) {
        if (entry.rank === null) unknown += entry.count;
        else lost[entry.rank] = (lost[entry.rank] || 0) + entry.count;
      }
      const heads = [["Rank", null], ["Piece", null], ["Army", "Pieces of this rank in each army"]];
      if (playing) heads.push([`${cap(other)} left`, `${cap(other)}'s pieces of this rank not known to be captured`]);
      $("legend-head").replaceChildren(...heads.map(([text, title]) =>
        el("th", { scope: "col", text, title })));
      $("legend-rows").replaceChildren(...army.map((entry) => {
        // (the opponent's colour once its pieces are counted, our own before)
        const picture = chip(playing ? other : cur.player, entry.rank, label(entry.rank));
        picture.removeAttribute("aria-hidden");  // (the label is what the row explains)
        const row = el("tr", {},
          el("td", {}, picture),
          el("td", { text: cur.names[entry.rank] || entry.rank }),
          el("td", { class: "count", text: String(entry.count) }));
        row.dataset.rank = entry.rank;
        row.dataset.testid = "legend-row";
        if (playing) {
          const left = Math.max(0, entry.count - (lost[entry.rank] || 0));
          row.append(el("td", { class: "count left", text: String(left), "data-testid": "legend-left" }));
          if (left === 0) row.dataset.gone = "true";
        }
        return row;
      }));
      $("legend-note").hidden = unknown === 0;
      $("legend-note").textContent = unknown === 0 ? ""
        : `${cap(other)} also lost ${unknown} ${unknown === 1 ? "piece" : "pieces"} of a rank you did not see.`;
    }

    // A finished game's result in one line, above the board (shown on a phone only): the
    // first sentence of the result's text ("You win (blue resigned)."), else its gist.
    function renderResultLine() {
      const result = cur.phase === "over" ? cur.result : null;
      $("result-line").hidden = !result;
      if (!result) return;
      let text = typeof result.text === "string" ? result.text : "";
      if (result.how && text.endsWith(" " + result.how)) text = text.slice(0, -result.how.length - 1);
      if (!text) text = { win: "You win", loss: "You lose", draw: "Draw", aborted: "Game aborted" }[result.you] || "Game over";
      $("result-line").textContent = text;
      $("result-line").title = result.text || text;
      $("result-line").dataset.you = result.you || "";
    }

    function renderBars() {
      const me = cur.player, other = me === "red" ? "blue" : "red";
      const opponentName = cur.opponent === "bot"
        ? `${cur.bot_name || cur.bot || "The"} bot` : "Your friend";
      for (const [bar, side, name] of [["bar-top", other, opponentName], ["bar-bottom", me, "You"]]) {
        const node = $(bar);
        node.querySelector(".swatch").className = `swatch ${side}`;
        node.querySelector(".name").textContent = `${name} (${side})`;
        node.classList.toggle("to-move", live() && cur.phase === "play" && toMove() === side);
        node.appendChild($("clock-" + side));
      }
    }

    function toMove() {
      if (pendingMove) return cur.player === "red" ? "blue" : "red";  // ours is on its way
      if (cur.to_move !== undefined) return cur.to_move;
      if (cur.phase !== "play") return null;
      return cur.status.startsWith("Your ") ? cur.player : cur.player === "red" ? "blue" : "red";
    }

    function yourMove() {
      if (pendingMove) return false;
      if (cur.your_move !== undefined) return cur.your_move;
      return cur.phase === "play" && cur.status.startsWith("Your ");
    }

    let ticking = null;
    let flagAsked = false;
    function renderClocks() {
      const clock = cur.clock;
      for (const side of ["red", "blue"]) {
        const node = $("clock-" + side);
        node.hidden = !clock;
        if (!clock) continue;
        let ms = clock.remaining_ms[side];
        const running = clock.running === side;
        if (running) ms -= performance.now() - clockAt;
        node.textContent = formatClock(ms);
        node.classList.toggle("running", running);
        node.classList.toggle("low", ms < 20000);
        node.setAttribute("aria-label", `${cap(side)}'s clock: ${formatClock(ms)}` +
          (running ? ", running" : ""));
        if (running && ms <= 0 && !flagAsked) {
          flagAsked = true;  // the server decides; ask it now
          pollSoon(300);
        }
      }
      const run = clock && clock.running;
      if (run && ticking === null) ticking = window.setInterval(renderClocks, 100);
      if (!run && ticking !== null) {
        window.clearInterval(ticking);
        ticking = null;
      }
    }

    // How the game ended, in one sentence under the panel's "You win": the rules' own
    // account (result.how: the piece that took the Flag, why a side could not move; for an
    // aborted game, whose time ran out before its first move), else the players' ending in
    // this seat's words. The status line says only "Game over." (or "Game aborted.").
    function endedBy(result) {
      if (result.how) return result.how;
      const winner = result.winner;
      const loser = winner === "red" ? "blue" : winner === "blue" ? "red" : null;
      const me = cur.player;
      switch (result.reason) {
        case "flag captured":
          return winner === me ? "You captured the Flag." : `${cap(winner)} captured your Flag.`;
        case "resignation":
          return loser === me ? "You resigned." : `${cap(loser)} resigned.`;
        case "time":
          return loser === me ? "Your time ran out." : `${cap(loser)}'s time ran out.`;
        case "no legal moves":
          return loser === me ? "You had no legal move left." : `${cap(loser)} had no legal move left.`;
        case "abandoned":
          return winner === me ? "Your opponent left the game, and you claimed the win."
            : "You left the game, and your opponent claimed the win.";
        case "draw agreed":
          return "A draw was agreed.";
        case "ply limit":
          return "The game reached its move limit.";
        default:
          return result.text;
      }
    }

    // The game's end as a screen reader hears it, once: "Game over: you win. Blue's Flag
    // was captured." (the panel's heading and reason, from the seat's own payload).
    let endSaid = first.phase === "over";  // (a page opened on a finished game: nothing new)
    function endingWords(result) {
      const you = { win: "you win", loss: "you lose", draw: "a draw", aborted: "the game was aborted" }[result.you];
      const how = endedBy(result);
      return `Game over${you ? `: ${you}` : ""}.${how ? ` ${how}` : ""}`;
    }

    function live() {
      return reviewing === null;
    }

    function render() {
      const against = cur.opponent === "bot"
        ? ` against the ${cur.bot_name || cur.bot} bot` : " against a friend";
      const control = cur.clock && cur.clock.control ? ` · ${cur.clock.control}` : "";
      $("rules").textContent = `${cur.rules_title || cur.rules} · you play ${cur.player}${against}${control}`;
      renderTitle();
      const shown = reviewing || cur;
      $("svg").innerHTML = shown.svg;
      place();
      const pieces = {};
      for (const c of shown.cells) pieces[c.square] = c;
      const isLive = live();
      const rescuable = rescueRanks();
      if (!rescuable.includes(rescueRank)) rescueRank = rescuable.length === 1 ? rescuable[0] : null;
      const targets = !isLive ? [] : selected && cur.legal[selected] ? cur.legal[selected]
        : rescueRank ? rescueSquares(rescueRank) : [];
      const home = new Set(cur.home || []);
      if (focused === null) focused = Object.keys(cur.legal)[0] || (cur.home || [])[0] || "a1";
      // Tab into the board on our move lands on a piece that can move (the cursor stays
      // where it is while the board has the focus)
      if (isLive && cur.phase === "play" && !cur.legal[focused] && Object.keys(cur.legal).length &&
          !grid.contains(document.activeElement)) {
        focused = Object.keys(cur.legal)[0];
      }
      for (const [name, cell] of Object.entries(cells)) {
        // a losing attacker still on its way onto this square (see lunge) stays till it is gone
        const lunging = [...cell.querySelectorAll(".lunge")];
        cell.replaceChildren(...lunging);
        cell.classList.remove("struck", "fresh", "drop-over");
        cell.style.zIndex = lunging.length ? "6" : "";
        const piece = pieces[name];
        let words = lakes.has(name) ? `${name}, lake` : `${name}, empty`;
        if (piece) {
          const mark = pieceElement(piece.owner, piece.rank, piece.label || label(piece.rank));
          if (piece.revealed) mark.dataset.revealed = "true";
          if (piece.moved && piece.rank === null) mark.dataset.moved = "true";
          if (piece.known) {
            // one of ours the opponent has identified (a strike, a Scout's long move)
            mark.dataset.known = "true";
            mark.append(el("span", { class: "known-mark", "aria-hidden": "true" }));
          }
          cell.insertBefore(mark, cell.firstChild);
          const [head, tail] = pieceWords(piece);
          words = `${head} on ${name}${tail}`;
          cell.title = head + tail;
        } else {
          cell.removeAttribute("title");
        }
        cell.classList.toggle("selected", isLive && name === selected);
        cell.classList.toggle("last", shown.last.includes(name));
        const clickable = !isLive ? false : cur.phase === "setup" ? home.has(name)
          : Boolean(cur.legal[name]) || targets.includes(name);
        cell.classList.toggle("clickable", clickable);
        cell.classList.toggle("draggable", isLive && Boolean(piece) && canDrag(name));
        if (targets.includes(name)) {
          cell.dataset.legal = "true";
          words += ", a legal target";
        } else {
          delete cell.dataset.legal;
        }
        if (isLive && piece && piece.owner === cur.player && cur.legal[name]) words += ", can move";
        if (isLive && name === selected) words += ", selected";
        cell.setAttribute("aria-label", words);
        cell.setAttribute("aria-selected", isLive && name === selected ? "true" : "false");
        cell.tabIndex = name === focused ? 0 : -1;
      }
      if (isLive) renderStrikes(cur.flash, performance.now() < freshUntil, false);
      else renderStrikes(reviewing.flash, false, true);  // an older server sends none
      $("status").textContent = cur.status;
      const strikes = $("strikes");
      strikes.replaceChildren(...(isLive ? cur.strikes : reviewedStrikes()).map((text) => el("li", { text })));
      $("join-box").hidden = !cur.join;
      if (cur.join) $("join-link").value = new URL(cur.join, window.location.href).href;
      const setup = cur.phase === "setup";
      $("setup-box").hidden = !setup;
      // the army as text, when it changed (a refused paste keeps what the player typed)
      if (setup && cur.setup !== shownSetup && document.activeElement !== $("setup-text")) {
        $("setup-text").value = cur.setup;
        shownSetup = cur.setup;
      }
      if (setup) loadPresets();
      renderLetters();
      // before play begins (setting up, or waiting for the other side) either seat may
      // call the game off
      $("abort-box").hidden = !isLive || !(setup || cur.phase === "waiting");
      if ($("abort-box").hidden) $("confirm-abort").hidden = true;
      renderSaved();
      if (setup) showPreset();
      renderHistory();
      $("rescue-box").hidden = cur.rescue.length === 0 || !isLive;
      renderRescue(rescuable);
      $("play-box").hidden = cur.phase !== "play";
      $("draw-sent").hidden = cur.draw !== "sent";
      $("draw-box").hidden = cur.draw !== "received";
      $("offer-draw").disabled = cur.draw === "sent" || cur.draw === "declined";
      $("offer-draw").title = cur.draw === "declined"
        ? "Your offer was declined: you may offer a draw again once both sides have moved."
        : "";
      $("over-box").hidden = cur.phase !== "over";
      renderPresence();
      if (cur.result) {
        const you = { win: "You win", loss: "You lose", draw: "A draw", aborted: "Game aborted" }[cur.result.you];
        $("over-title").textContent = you;
        $("over-reason").textContent = endedBy(cur.result);
      }
      $("rematch").textContent = cur.rematch ? "Play the rematch" : "Rematch";
      // the rematch swaps the colours: say so where it is offered
      const swapped = cur.player === "red" ? "blue" : "red";
      $("rematch-colour").textContent = `Rematch: you play ${swapped} this time.`;
      $("rematch").title = `A new game with the same rules; you play ${swapped}`;
      $("download").hidden = !cur.record;
      $("download").href = base + "/record.txt";
      // Before play starts there is nothing captured and no count worth showing.
      $("captured-box").hidden = cur.phase === "setup" || cur.phase === "waiting" || !cur.started;
      renderTray();
      renderLegend();
      renderResultLine();
      renderMoves();
      $("moves-box").hidden = cur.moves.length === 0 && cur.phase !== "play";
      renderBars();
      renderClocks();
      $("review").hidden = isLive;
      $("live").hidden = isLive;
      const total = cur.moves.length;
      $("review-nav").hidden = total === 0;
      const at = isLive ? total : reviewing.ply;
      $("review-prev").disabled = at === 0;
      $("review-next").disabled = isLive;
      // The list numbers moves (a turn of each side); a turn is one side's.
      const rows = cur.move_rows.length;
      const where = isLive ? null : moveOf(reviewing.ply);
      $("review-where").textContent = isLive
        ? `${cur.phase === "over" ? "Final position" : "Live"} · ${rows} ${rows === 1 ? "move" : "moves"}`
        : where ? `After ${where.after}` : "Starting position";
      $("review-where").title = $("review-where").textContent;  // (whole, when shortened)
      if (!isLive) {
        // in the move list's words: a move is a row of it, one turn of each side
        $("review-text").textContent = where
          ? `Reviewing the position after move ${where.number} of ${rows}, ` +
            `${where.player}${where.rescue ? "'s Rescue" : ""}.`
          : `Reviewing the starting position, before move 1 of ${rows}.`;
        $("live").textContent = cur.phase === "over" ? "Back to the final position" : "Back to the live game";
      }
      document.body.classList.toggle("reviewing", !isLive);
      renderNote();
      keepFocus();
    }

    // A control the page hides or disables while it has the focus (Offer a draw, answered
    // at once by the bot; Decline; "Yes, resign"; ◀ at the start; "Back to the live game")
    // hands the focus on rather than drop it to the page's start: ◀ and ▶ to each other,
    // else the game-over heading once the game is over, else the board's cursor (the status
    // line when there is no board to play on). `lastFocused`: the element the focus last
    // went to, unless a press of the mouse (a finger) went elsewhere since.
    let lastFocused = null;
    document.addEventListener("focusin", (event) => { lastFocused = event.target; });
    document.addEventListener("pointerdown", () => { lastFocused = null; }, true);
    function gone(node) {
      return !node.isConnected || node.disabled || Boolean(node.closest("[hidden]"));
    }
    function keepFocus() {
      const now = document.activeElement;
      const held = now && now !== document.body ? now : null;
      const was = held || lastFocused;
      if (!was || was === document.body || !gone(was)) return;
      const usable = (id) => !gone($(id));
      let target = null;
      if (was.id === "review-prev" && usable("review-next")) target = $("review-next");
      else if (was.id === "review-next" && usable("review-prev")) target = $("review-prev");
      else if (was.id !== "live" && !(was.closest && was.closest("#moves")) &&
               cur.phase === "over" && usable("over-box")) target = $("over-title");
      if (!target && (cur.phase === "play" || cur.phase === "setup") && cells[focused]) {
        for (const cell of Object.values(cells)) cell.tabIndex = -1;
        target = cells[focused];
        target.tabIndex = 0;
      }
      (target || $("status")).focus({ preventScroll: true });
    }

    // The strikes a reviewed turn lists: the one it made, which the board marks (`flash`),
    // not those of the turns before it that the live board still marked then.
    function reviewedStrikes() {
      const marks = reviewing.flash || [];
      return (reviewing.strikes || []).filter((text) => {
        const m = PLY.exec(text);
        return m && marks.some((mark) => mark.from === m[2] && mark.to === m[3] &&
          (!mark.player || mark.player === m[1]));
      });
    }

    // A turn of the move list in words, for a screen reader (the live region `announce`):
    // every turn of the opponent's ("Blue moved e7-e6."), and our strikes' results. Only
    // the payload's texts: the ranks this seat may know.
    const STRIKE = /^(red|blue): ([a-j](?:10|[1-9]))x([a-j](?:10|[1-9])), (.+) strikes (.+): (attacker wins|defender wins|both removed)$/;
    const QUIET = /^(red|blue): ([a-j](?:10|[1-9]))-([a-j](?:10|[1-9]))$/;
    const RESCUED = /^(red|blue): rescues (.+) to ([a-j](?:10|[1-9]))$/;
    function spoken(text) {
      const me = cur.player;
      const strike = STRIKE.exec(text);
      if (strike) {
        const [, side, , to, attacker, defender, outcome] = strike;
        const other = side === "red" ? "blue" : "red";
        const whose = (owner, rank) => rank === "an unknown piece" ? `a ${owner} piece`
          : owner === me ? `your ${rank}` : `${cap(owner)}'s ${rank}`;
        const result = { "attacker wins": "the attacker wins", "defender wins": "the defender wins",
          "both removed": "both are removed" }[outcome];
        return `${cap(whose(side, attacker))} struck ${whose(other, defender)} on ${to}: ${result}.`;
      }
      const side = text.split(":")[0];
      if (side === me) return null;  // our own quiet move, rescue or decline: we know it
      const quiet = QUIET.exec(text);
      if (quiet) return `${cap(side)} moved ${quiet[2]}-${quiet[3]}.`;
      const rescued = RESCUED.exec(text);
      if (rescued) {
        const what = ["a piece", "an unknown piece"].includes(rescued[2]) ? "a piece" : `its ${rescued[2]}`;
        return `${cap(side)} rescued ${what} to ${rescued[3]}.`;
      }
      if (/: declines the Rescue$/.test(text)) return `${cap(side)} declined the Rescue.`;
      return `${cap(text)}.`;
    }

    let announceTimer = null;
    // `texts`: turns of the move list (see spoken); `more`: sentences said after them (a
    // draw offered, the game's end).
    function announce(texts, more) {
      const words = [...texts.map(spoken), ...(more || [])].filter(Boolean).join(" ");
      if (!words) return;
      $("announce").textContent = "";  // (said again, should the same words come)
      window.clearTimeout(announceTimer);
      announceTimer = window.setTimeout(() => { $("announce").textContent = words; }, 50);
    }

    // A new payload: animate the plies it adds, sound them, and start the clocks from now.
    // `said`: the number of plies already told to a screen reader (default: those of the
    // last payload); `quiet`: tell none now (our own turn, told with the bot's reply).
    function receive(data, said, quiet) {
      const before = cur.moves ? cur.moves.length : 0;
      const old = cur;
      cur = data;
      clockAt = performance.now();
      stale = false;
      flagAsked = false;
      const added = (data.moves || []).slice(before).map((text) => {
        const m = PLY.exec(text);
        return m && { player: m[1], from: m[2], to: m[3], strike: STRUCK.test(text) };
      }).filter(Boolean);
      // A strike is new when the payload's marks hold one the last payload's did not: the
      // marks stay until the seat's next move, so a Rescue decision or a friend's answer
      // after a strike brings the same marks again (no second banner or sound).
      const grew = (data.moves || []).length > before;  // (the version moved with them)
      const seen = new Set((old.flash || []).map((mark) => JSON.stringify(mark)));
      const newStrike = grew && (data.flash || []).some((mark) => !seen.has(JSON.stringify(mark)));
      if (newStrike) {
        freshUntil = performance.now() + FRESH_MS;
        window.clearTimeout(freshTimer);
        freshTimer = window.setTimeout(() => { if (!drag) render(); }, FRESH_MS + 50);
      }
      render();
      if (old.draw === "sent" && data.draw !== "sent" && data.phase === "play") {
        // a friend said no, by the button or by moving on
        showNotice("Your opponent declined the draw.");
      }
      if (!old.rematch && data.rematch && data.opponent === "human" && !rematchAsked) {
        // the friend asked for a rematch first: its button now opens it
        showNotice("Your opponent wants a rematch.");
        rematchWanted = true;
        renderTitle();
        beep("turn");
      }
      if (data.opponent === "human" && (data.phase === "setup" || data.phase === "waiting")) {
        // the friend took the second seat, or pressed Start: the setup gives no other sign
        const other = data.player === "red" ? "blue" : "red";
        const told = [];
        if (old.opponent_joined === false && data.opponent_joined === true) told.push(`${cap(other)} joined.`);
        if (old.ready && data.ready && !old.ready[other] && data.ready[other]) told.push(`${cap(other)} is ready.`);
        if (told.length) showNotice(told.join(" "));
      }
      const mine = optimistic;
      optimistic = null;
      const slid = new Set();
      // what the last payload showed on each square (this seat's own view), and what now
      const shownBefore = {}, shownNow = {};
      for (const c of old.cells || []) shownBefore[c.square] = c;
      for (const c of data.cells || []) shownNow[c.square] = c;
      for (let i = added.length - 1; i >= 0; i--) {
        const ply = added[i];
        const own = Boolean(mine && mine.from === ply.from && mine.to === ply.to);
        const there = shownNow[ply.to];
        if (ply.strike && (!there || there.owner !== ply.player)) {
          // the attacker lost (or both went): it is seen reaching its target, then gone
          lunge(ply, shownBefore[ply.from], own);
          continue;
        }
        if (slid.has(ply.to)) continue;
        slid.add(ply.to);
        if (own) continue;
        slide(ply.from, ply.to, ply.player);
      }
      // what else a screen reader hears with the turns: a draw the friend offers, and the
      // game's end (who won and how, in the words of the panel's result)
      const more = [];
      if (data.phase === "play" && data.draw === "received" && old.draw !== "received") {
        more.push("Your opponent offers a draw.");
      }
      if (!quiet && data.phase === "over" && data.result && !endSaid) {
        endSaid = true;
        more.push(endingWords(data.result));
      }
      if (grew) {
        const theirs = added.some((ply) => ply.player !== cur.player);
        if (newStrike) beep("strike");
        else if (theirs) beep("move");
      }
      if (!quiet && (grew || more.length)) {
        announce(grew ? data.moves.slice(said === undefined || said === null ? before : said) : [], more);
      }
    }

    // A losing attacker (`ply`, a strike whose square now holds the defender or nothing)
    // goes onto its target and vanishes there: a copy of the piece as the last payload
    // showed it on its square (`was`: this seat's own view, so no rank it did not know),
    // from its square to the target (from the target itself when it is our move, `own`,
    // which slid there already), then out. Under prefers-reduced-motion it shows on the
    // target, still, for a moment.
    function lunge(ply, was, own) {
      const a = cells[ply.from], b = cells[ply.to];
      if (!a || !b || !was || was.owner !== ply.player) return;
      const known = was.rank !== null && was.rank !== undefined;
      const mark = el("span", { class: known ? "lunge" : "lunge back", "aria-hidden": "true" });
      mark.dataset.owner = was.owner;
      mark.dataset.from = ply.from;
      mark.dataset.testid = "lunge";
      if (known) {
        const text = String(was.label || label(was.rank));
        mark.dataset.rank = was.rank;
        mark.append(el("span", { class: text.length > 1 ? "face long" : "face", text }));
      }
      b.appendChild(mark);
      b.style.zIndex = "6";
      const gone = () => {
        mark.remove();
        if (!b.querySelector(".lunge")) b.style.zIndex = "";
      };
      if (STILL || !mark.animate) {
        window.setTimeout(gone, STILL_LUNGE_MS);
        return;
      }
      const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      const away = `translate(${ra.left - rb.left}px, ${ra.top - rb.top}px)`;
      const frames = own
        ? [{ transform: "none", opacity: 1 }, { transform: "scale(1.08)", opacity: 1, offset: 0.5 },
          { transform: "scale(0.8)", opacity: 0 }]
        : [{ transform: away, opacity: 1 }, { transform: "none", opacity: 1, offset: 0.45 },
          { transform: "scale(1.08)", opacity: 1, offset: 0.7 }, { transform: "scale(0.8)", opacity: 0 }];
      const motion = mark.animate(frames, { duration: own ? LUNGE_MS * 0.6 : LUNGE_MS, easing: "ease-in-out" });
      motion.onfinish = gone;
      motion.oncancel = gone;
    }

    // The piece now on `to` glides there from `from` (a short transform animation).
    function slide(from, to, owner) {
      const a = cells[from], b = cells[to];
      const piece = b && b.querySelector(".piece");
      if (!a || !piece || piece.dataset.owner !== owner) return;
      piece.dataset.slidFrom = from;
      if (STILL || !piece.animate) return;
      const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      b.style.zIndex = "6";
      const motion = piece.animate([
        { transform: `translate(${ra.left - rb.left}px, ${ra.top - rb.top}px)` },
        { transform: "translate(0, 0)" }], { duration: 240, easing: "ease-out" });
      motion.onfinish = () => { if (!b.classList.contains("struck")) b.style.zIndex = ""; };
    }

    // Our own move glides at once, before the server (and the bot) answer.
    function slideAhead(from, to) {
      const a = cells[from], b = cells[to];
      const piece = a && a.querySelector(".piece");
      if (!b || !piece || STILL || !piece.animate) return;
      const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      a.style.zIndex = "6";
      piece.animate([{ transform: "translate(0, 0)" },
        { transform: `translate(${rb.left - ra.left}px, ${rb.top - ra.top}px)` }],
      { duration: 200, easing: "ease-out", fill: "forwards" });
      optimistic = { from, to };
    }

    let wanted = null;  // the turn asked for last, while its answer is on its way
    async function review(ply) {
      if (busy) return;
      wanted = ply;
      const reply = await call("GET", `${base}/review/${ply}`);
      if (wanted !== ply || busy) return;  // a later step, going back live or a move came first
      wanted = null;
      if (reply.ok) {
        reviewing = reply.data;
        selected = null;
        render();
      } else {
        showError(reply.data.error);
      }
    }

    function reviewStep(step) {
      if (busy) return;  // a move is on its way: its answer brings the live game
      const total = cur.moves.length;
      if (!total) return;
      const at = wanted !== null ? wanted : reviewing ? reviewing.ply : total;
      const next = at + step;
      if (next < 0) return;
      if (next >= total) {
        wanted = null;
        if (reviewing) backToLive();
        return;
      }
      review(next);
    }

    function backToLive() {
      reviewing = null;
      wanted = null;
      render();
    }

    // Sends `action` for this seat; true when the server accepted it (false when refused,
    // or not sent because another request is on its way).
    async function send(action, body) {
      if (busy) return false;
      busy = true;
      showError("");
      $("notice").hidden = true;
      document.body.classList.add("busy");
      if (action === "move" && cur.phase === "play") moveSent(body.move);
      // (?view=0: the page draws from the payload's other fields, not from its view)
      const reply = await call("POST", `${base}/${action}?view=0`, body || {});
      let said = null;
      if (reply.ok && action === "move" && reply.data.before_reply) {
        said = cur.moves.length;
        await ownTurnFirst(reply.data);
      }
      document.body.classList.remove("busy");
      busy = false;
      pendingMove = null;
      selected = null;
      if (reply.ok) {
        reviewing = null;
        receive(reply.data, said);
        if (reply.data.notice) showNotice(reply.data.notice);
      } else {
        optimistic = null;
        showError(reply.data.error);
        render();
        // refused as out of date (not our turn, the game over): fetch what changed
        if (reply.status === 409) pollSoon(0);
      }
      if (reply.ok && action === "rematch" && cur.rematch) toRematch();
      else if (cells[focused] && grid.contains(document.activeElement)) cells[focused].focus();
      return reply.ok;
    }

    // The answer to our move against the bot holds the bot's reply too: first the board
    // as our own turn left it (`before_reply`: the seat's own view then, its strike
    // marked), the bot's turn, nothing to click (the page is still busy), then after a
    // short pause, as across a table, the reply (`send` takes it in). A screen reader
    // hears both turns together, with the reply. The move list then is the first
    // `before_reply.turns` entries of the answer's.
    async function ownTurnFirst(data) {
      pendingMove = null;
      selected = null;
      const turns = data.before_reply.turns;
      const rows = data.move_rows.map((row) => ({ ...row, plies: row.plies.filter((p) => p.ply <= turns) }))
        .filter((row) => row.plies.length);
      receive({ ...data, ...data.before_reply, moves: data.moves.slice(0, turns), move_rows: rows,
        before_reply: null, notice: null, version: cur.version, status: thinking() }, null, true);
      const clocked = Boolean(data.clock && data.clock.running);
      await new Promise((done) => window.setTimeout(done,
        clocked ? CLOCKED_PAUSE_MS : REPLY_PAUSE_MS));
    }

    // The status while the bot thinks (or our move is on its way to a friend).
    function thinking() {
      const name = cur.bot_name || cur.bot;
      return cur.opponent !== "bot" ? "Sending your move…"
        : name ? `The ${name} bot is thinking…` : "The bot is thinking…";
    }

    // Our move is on its way (against a bot, the answer comes with the bot's reply): the
    // page says whose turn it is now and lists the move at once, marked as sent.
    function moveSent(text) {
      pendingMove = text;
      reviewing = null;
      wanted = null;
      // the piece is on its way: no frame, no targets, nothing to click until the answer
      selected = null;
      for (const cell of Object.values(cells)) {
        cell.classList.remove("selected", "clickable", "draggable");
        delete cell.dataset.legal;
      }
      $("status").textContent = thinking();
      renderTitle();
      renderBars();
      renderMoves();
    }

    // A Rescue decision: the captured ranks that may come back are buttons; choosing one
    // marks the empty squares it may go to on the board, and a click there places it.
    function rescueRanks() {
      const ranks = [];
      for (const option of cur.rescue || []) {
        const at = option.move.indexOf("@");
        if (at > 0 && !ranks.includes(option.move.slice(0, at))) ranks.push(option.move.slice(0, at));
      }
      return ranks;
    }

    function rescueSquares(rank) {
      return (cur.rescue || []).filter((option) => option.move.startsWith(rank + "@"))
        .map((option) => option.move.slice(rank.length + 1));
    }

    function renderRescue(ranks) {
      $("rescue-help").textContent = !ranks.length ? ""
        : rescueRank ? `Now ${PRESS} a marked square of your rows for your ${cur.names[rescueRank]}.`
        : "Choose the piece to bring back, then a marked square of your rows.";
      const buttons = ranks.map((rank) => {
        const button = el("button", { type: "button", "aria-pressed": String(rank === rescueRank) });
        button.append(chip(cur.player, rank, label(rank)), ` ${cur.names[rank]}`);
        button.dataset.rescueRank = rank;
        button.title = `Rescue your ${cur.names[rank]} (${label(rank)})`;
        button.addEventListener("click", () => {
          rescueRank = rank === rescueRank && ranks.length > 1 ? null : rank;
          render();
        });
        return button;
      });
      const decline = (cur.rescue || []).find((option) => !option.move.includes("@"));
      if (decline) {
        const button = el("button", { type: "button", text: decline.text });
        button.dataset.move = decline.move;
        button.addEventListener("click", () => send("move", { move: decline.move }));
        buttons.push(button);
      }
      $("rescue-options").replaceChildren(...buttons);
    }

    // A notice; `undo` (the words of the setup change it tells of, "the preset “X”")
    // adds a button that takes that change back.
    let noticeText = "";
    function showNotice(text, undo) {
      noticeText = text || "";
      const parts = [noticeText];
      if (noticeText && undo) {
        const button = el("button", { type: "button", class: "notice-undo", text: "Undo",
          "data-testid": "notice-undo", "aria-label": `Undo ${undo}`, title: `Undo ${undo}` });
        button.addEventListener("click", () => stepSetup(true));
        parts.push(" ", button);
      }
      $("notice").replaceChildren(...parts);
      $("notice").hidden = !noticeText;
      renderNote();
    }

    // The line above the board (shown on a phone only, where the panel is below the
    // board): a draw offer, a Rescue decision or a notice waiting there, and a button that
    // brings it into view.
    // A friend silent for a while (its page closed: an open page polls every second)
    // seems to have left: the server says for how long (`opponent_gone_s`), and once the
    // grace period is over what this seat may claim (`claim`): the win during play, or
    // calling the game off before play began.
    function renderPresence() {
      const gone = cur.phase !== "over" && typeof cur.opponent_gone_s === "number"
        ? cur.opponent_gone_s : null;
      $("presence").hidden = gone === null;
      if (gone === null) return;
      const time = gone < 120 ? `${gone} s` : `${Math.floor(gone / 60)} min`;
      $("presence-time").textContent = `(no contact for ${time})`;
      // how long until the grace period is over (`claim_in_s`, an older server sends none)
      const wait = typeof cur.claim_in_s === "number" ? cur.claim_in_s : null;
      $("presence-wait").hidden = wait === null;
      $("presence-wait").textContent = wait === null ? ""
        : `You may ${cur.started ? "claim the win" : "call the game off"} in ${wait} s.`;
      const claim = cur.claim === "win" || cur.claim === "abort" ? cur.claim : null;
      $("claim").hidden = !claim;
      $("claim").textContent = claim === "abort" ? "Call the game off" : "Claim the win";
      $("claim").title = claim === "abort" ? "End the game before it began: nobody wins or loses"
        : "End the game as your win: your opponent left";
    }
    $("claim").addEventListener("click", () => send("claim"));

    function renderNote() {
      let text = "", target = null;
      if (live() && cur.phase === "play" && cur.draw === "received") {
        text = "Your opponent offers a draw.";
        target = "draw-box";
      } else if (live() && cur.phase === "play" && (cur.rescue || []).length && !pendingMove) {
        text = "Rescue a captured piece?";
        target = "rescue-box";
      } else if (!$("notice").hidden && noticeText) {
        text = noticeText;
        target = cur.phase === "over" ? "over-box" : "notice";
      } else if (!$("presence").hidden) {
        text = "Your opponent seems to have left.";
        target = "presence";
      }
      $("board-note-text").textContent = text;
      $("board-note").hidden = !text;
      $("board-note-go").textContent = target === "draw-box" || target === "rescue-box" ? "Answer" : "Show";
      $("board-note-go").dataset.target = target || "";
    }
    $("board-note-go").addEventListener("click", () => {
      const box = $($("board-note-go").dataset.target || "status");
      if (!box) return;
      box.scrollIntoView({ block: "center", behavior: STILL ? "auto" : "smooth" });
      const first = box.querySelector("button");
      if (first) first.focus({ preventScroll: true });
    });

    function clicked(name, dropped) {
      if (busy) return;
      explaining += 1;  // (an explanation still on its way is of an earlier click)
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
          swap(selected, name);
        }
        return;
      }
      if (cur.phase !== "play") return;
      if (cur.rescue.length) {  // a Rescue decision: only the chosen rank's squares act
        if (rescueRank && rescueSquares(rescueRank).includes(name)) {
          send("move", { move: `${rescueRank}@${name}` });
        }
        return;
      }
      if (selected && (cur.legal[selected] || []).includes(name)) {
        if (dropped) {
          // dragged there: the piece is put down where it was dropped, no slide
          const piece = cells[selected].querySelector(".piece");
          if (piece) {
            piece.classList.remove("lifted");
            cells[name].appendChild(piece);
          }
          optimistic = { from: selected, to: name };
        } else {
          slideAhead(selected, name);
        }
        send("move", { move: `${selected}-${name}` });
      } else if (cur.legal[name]) {
        selected = name === selected ? null : name;
        if (stuck) showNotice("");
        stuck = false;
        render();
      } else {
        // A click that moves nothing says why, rather than do nothing: one of our pieces
        // with nowhere to go, a square the selected piece cannot go to (the server
        // explains it from this seat's view: the back-and-forth and chase rules too), a
        // piece of the opponent's. Any other click takes a notice of the last one away.
        const piece = cur.cells.find((c) => c.square === name);
        const from = selected;
        if (stuck) showNotice("");
        stuck = false;
        if (yourMove()) {
          if (piece && piece.owner === cur.player && piece.rank !== null && piece.rank !== undefined) {
            // a rank the rules never move (the Bombs, the Flag) says so; another is blocked
            const never = (cur.immobile || []).includes(piece.rank);
            const words = `Your ${cur.names[piece.rank]} on ${name} has no legal move`;
            showNotice(!never ? `${words}.` : piece.rank === "F" ? `The ${cur.names[piece.rank]} never moves.`
              : `${cur.names[piece.rank]}s never move.`);
            stuck = true;
            const toward = never ? null : openNeighbour(name);
            if (toward) explainMove(`${name}-${toward}`, (why) => `${words}: ${why}.`);
          } else if (from) {
            explainMove(`${from}-${name}`, (why) => `${from}-${name} is not legal: ${why}.`);
          } else if (piece) {
            showNotice(`That is ${piece.owner}'s piece: ${PRESS} one of yours to move it.`);
            stuck = true;
          }
        } else if (cur.phase === "play" && piece) {
          // a click on a piece out of turn: whose turn it is, rather than nothing
          showNotice(`It is ${cur.to_move}'s turn.`);
          stuck = true;
        }
        if (selected) {
          selected = null;
          render();
        }
      }
    }

    // A square next to `name` a piece there could go to but for a rule of movement (the
    // board's edge, a lake and our own pieces aside), or null.
    function openNeighbour(name) {
      const f = FILES.indexOf(name[0]), row = parseInt(name.slice(1), 10);
      for (const [df, dr] of [[0, 1], [0, -1], [-1, 0], [1, 0]]) {
        if (f + df < 0 || f + df > 9 || row + dr < 1 || row + dr > 10) continue;
        const square = FILES[f + df] + (row + dr);
        if (lakes.has(square)) continue;
        if (cur.cells.some((c) => c.square === square && c.owner === cur.player)) continue;
        return square;
      }
      return null;
    }

    // Why the move `move` is illegal, asked of the server (`GET .../explain/{move}`, made
    // from this seat's view alone), shown as a notice in the words of `say(why)`; nothing
    // once the page moved on (another click, a new position) before the answer came.
    let explaining = 0;
    async function explainMove(move, say) {
      const asked = ++explaining, version = cur.version;
      const reply = await call("GET", `${base}/explain/${move}`);
      if (asked !== explaining || version !== cur.version || busy || !live()) return;
      if (!reply.ok || !reply.data || typeof reply.data.text !== "string") return;
      const text = reply.data.text.startsWith(`${move}: `) ? reply.data.text.slice(move.length + 2)
        : reply.data.text;
      showNotice(say(text));
      stuck = true;
    }

    // Drag and drop, by mouse, pen or finger: press a piece, move, let go on a square.
    function canDrag(name) {
      if (cur.phase === "setup") return (cur.home || []).includes(name);
      return cur.phase === "play" && Boolean(cur.legal[name]);
    }

    function pressed(event, name) {
      if (event.button !== 0 || busy || reviewing || !canDrag(name)) return;
      if (!cells[name].querySelector(".piece")) return;
      drag = { from: name, x: event.clientX, y: event.clientY, id: event.pointerId, moved: false, ghost: null };
    }

    function cellAt(x, y) {
      const hit = document.elementFromPoint(x, y);
      const cell = hit && hit.closest ? hit.closest(".cell") : null;
      return cell && grid.contains(cell) ? cell.dataset.square : null;
    }

    document.addEventListener("pointermove", (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!drag.moved) {
        if (dx * dx + dy * dy < 36) return;
        drag.moved = true;
        selected = drag.from;
        render();
        const source = cells[drag.from];
        const piece = source.querySelector(".piece");
        const box = source.getBoundingClientRect();
        const ghost = piece.cloneNode(true);
        ghost.classList.add("dragging");
        ghost.style.width = box.width + "px";
        ghost.style.height = box.height + "px";
        ghost.style.setProperty("--cell", box.width + "px");
        drag.ghost = ghost;
        drag.dx = drag.x - box.left;
        drag.dy = drag.y - box.top;
        document.body.appendChild(ghost);
        piece.classList.add("lifted");
      }
      event.preventDefault();
      drag.ghost.style.left = event.clientX - drag.dx + "px";
      drag.ghost.style.top = event.clientY - drag.dy + "px";
      const over = cellAt(event.clientX, event.clientY);
      for (const cell of Object.values(cells)) cell.classList.toggle("drop-over", cell.dataset.square === over);
    });

    function endDrag(event, drop) {
      if (!drag || event.pointerId !== drag.id) return;
      const done = drag;
      drag = null;
      if (!done.moved) return;
      done.ghost.remove();
      suppressClick = true;
      window.setTimeout(() => { suppressClick = false; }, 0);
      const target = drop ? cellAt(event.clientX, event.clientY) : null;
      if (target && target !== done.from) {
        selected = done.from;
        focused = target;
        clicked(target, true);
        if (!busy) render();
      } else {
        selected = null;
        render();
      }
    }
    document.addEventListener("pointerup", (event) => endDrag(event, true));
    document.addEventListener("pointercancel", (event) => endDrag(event, false));

    // Keyboard play: the arrows move the focus as the board is seen (Blue's is turned).
    // After a press of the mouse on the board (which focuses a square) ← and → step through
    // the moves, as on game sites, until the board's cursor is started: by Tab into the
    // board, or by a key of the board's own (↑, ↓, Enter, Space); the next press of the
    // mouse on the board gives them back to the moves. With no move yet, they move the
    // cursor.
    function keyed(event, name) {
      const flip = cur.player === "blue" ? -1 : 1;
      const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        keyNav = true;
        focused = name;
        clicked(name);
        return;
      }
      const step = steps[event.key];
      if (!step || reviewing) return;  // while reviewing, left and right step through the game
      if (step[1] === 0 && !keyNav && cur.moves.length) return;  // ← and →: the moves'
      keyNav = true;
      event.preventDefault();
      event.stopPropagation();
      const f = FILES.indexOf(name[0]) + step[0] * flip;
      const row = parseInt(name.slice(1), 10) + step[1] * flip;
      if (f < 0 || f > 9 || row < 1 || row > 10) return;
      cells[focused] && (cells[focused].tabIndex = -1);
      focused = FILES[f] + row;
      cells[focused].tabIndex = 0;
      cells[focused].focus();
    }

    // Review from the keyboard: left and right arrows, Home to the starting position, End
    // or Escape back to the game.
    document.addEventListener("keydown", (event) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
      if (event.key === "ArrowLeft") {
        event.preventDefault();
        reviewStep(-1);
      } else if (event.key === "ArrowRight") {
        event.preventDefault();
        reviewStep(1);
      } else if (event.key === "Home" && cur.moves.length) {
        event.preventDefault();
        review(0);
      } else if ((event.key === "End" || event.key === "Escape") && (reviewing || wanted !== null)) {
        event.preventDefault();
        backToLive();
      }
    });

    // -- setups: undo and redo ---------------------------------------------------------
    //
    // Every accepted change of the army (a swap, a random setup, a preset, a saved setup, a
    // pasted or loaded text) keeps the setup text from before it, SETUP_HISTORY deep. Undo
    // and redo send that text as any setup text is sent (`setup`), so the server holds what
    // the page shows. The history lives in this page only (a reload forgets it) and ends
    // when the setup is fixed (Start).
    const SETUP_HISTORY = 50;
    const setupHistory = { undo: [], redo: [] };  // {text: the setup to go back to, what: the change}
    const MAC = /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent || "");
    const KEYS = MAC ? { undo: "⌘Z", redo: "⇧⌘Z" } : { undo: "Ctrl+Z", redo: "Ctrl+Y" };
    if (TOUCH) {
      for (const id of ["setup-undo", "setup-redo"]) $(id).removeAttribute("aria-keyshortcuts");
    }

    // Sends a setup change (`swap`, `random`, `setup`) and, once the server accepted it and
    // the army changed, keeps the setup before it for Undo; `what` names the change.
    // Returns {ok: accepted, changed: kept for Undo}.
    async function changeSetup(action, body, what) {
      if (busy || !live() || cur.phase !== "setup") return { ok: false, changed: false };
      const before = cur.setup;
      const ok = await send(action, body);
      const changed = ok && cur.phase === "setup" && typeof before === "string" &&
        cur.setup !== before;
      if (changed) {
        setupHistory.undo.push({ text: before, what });
        if (setupHistory.undo.length > SETUP_HISTORY) setupHistory.undo.shift();
        setupHistory.redo = [];
        renderHistory();
      }
      return { ok, changed };
    }

    // A preset or a saved setup: placed, and a notice that offers to take it back.
    async function placeSetup(text, what, said) {
      const done = await changeSetup("setup", { text }, what);
      if (done.ok) showNotice(said, done.changed ? what : null);
      return done;
    }

    // Two squares of our army swapped (by clicks, keys or a drag): a screen reader hears
    // what each holds now, as it hears an Undo.
    async function swap(a, b) {
      $("setup-history-said").textContent = "";  // (said again, should the same words come)
      const done = await changeSetup("swap", { squares: [a, b] }, `the swap of ${a} and ${b}`);
      if (!done.changed) return;
      const holds = (square) => {
        const piece = cur.cells.find((c) => c.square === square);
        return piece && piece.rank !== null && piece.rank !== undefined
          ? `the ${cur.names[piece.rank]} (${piece.label || label(piece.rank)})` : "nothing";
      };
      $("setup-history-said").textContent = `Swapped ${a} and ${b}: ${holds(a)} now on ${a}, ${holds(b)} on ${b}.`;
    }

    // Undo (`back`) or redo the last change: the setup it left is sent back to the server.
    async function stepSetup(back) {
      const from = back ? setupHistory.undo : setupHistory.redo;
      if (busy || !live() || cur.phase !== "setup" || !from.length) return;
      const entry = from[from.length - 1];
      const before = cur.setup;
      $("setup-history-said").textContent = "";  // (said again, should the same words come)
      const pressed = document.activeElement;
      const ok = await send("setup", { text: entry.text });
      if (!ok || cur.phase !== "setup") return;
      from.pop();
      (back ? setupHistory.redo : setupHistory.undo).push({ text: before, what: entry.what });
      renderHistory();
      // the button pressed is disabled at the end of the line: the focus goes to the other
      const mine = $(back ? "setup-undo" : "setup-redo");
      if (pressed === mine && mine.disabled) $(back ? "setup-redo" : "setup-undo").focus();
      $("setup-history-said").textContent = `${back ? "Undone" : "Redone"}: ${entry.what}.`;
    }

    function renderHistory() {
      if (cur.phase !== "setup") {
        setupHistory.undo = [];
        setupHistory.redo = [];
        $("setup-history-said").textContent = "";
      }
      for (const [id, list, word, keys] of [["setup-undo", setupHistory.undo, "Undo", KEYS.undo],
        ["setup-redo", setupHistory.redo, "Redo", KEYS.redo]]) {
        const button = $(id);
        const last = list[list.length - 1];
        button.disabled = !last;
        // (the keys, where there is a keyboard: not on a touch screen)
        button.title = last ? `${word} ${last.what}${TOUCH ? "" : ` (${keys})`}`
          : `Nothing to ${word.toLowerCase()}`;
      }
    }

    // Ctrl+Z (⌘Z) undoes, Ctrl+Shift+Z (⇧⌘Z) or Ctrl+Y redoes, while the army is set up and
    // the focus is not in a text field (where they edit the text).
    function typing(target) {
      if (!target || !target.closest) return false;
      if (target.closest("textarea, [contenteditable]:not([contenteditable=false])")) return true;
      return target.tagName === "INPUT" &&
        !["button", "checkbox", "radio", "file", "submit", "reset", "range", "color", "image"]
          .includes((target.type || "text").toLowerCase());
    }
    document.addEventListener("keydown", (event) => {
      if (event.defaultPrevented || event.altKey || !(event.ctrlKey || event.metaKey)) return;
      if (cur.phase !== "setup" || typing(event.target)) return;
      const key = (event.key || "").toLowerCase();
      const undo = key === "z" && !event.shiftKey;
      const redo = (key === "z" && event.shiftKey) || (key === "y" && !event.shiftKey);
      if (!undo && !redo) return;
      event.preventDefault();
      stepSetup(undo);
    });

    // -- setups: presets from the server, and the ones saved in this browser --------------

    async function loadPresets(more) {
      const key = `${cur.rules}/${cur.player}`;
      if (presets.key === key && !more) return;
      if (presets.loading) return;
      if (presets.key !== key) presets = { key, list: [], next: 0, loading: false };
      if (presets.next === null) return;
      presets.loading = true;
      const reply = await call("GET", `${base}/presets?offset=${presets.next}`);
      presets.loading = false;
      if (!reply.ok || !reply.data || !Array.isArray(reply.data.presets)) {
        presets.next = null;
      } else {
        presets.list.push(...reply.data.presets);
        presets.next = reply.data.next ?? null;
      }
      renderPresets();
    }

    function renderPresets() {
      const select = $("setup-presets");
      const options = [el("option", { value: "", text: presets.list.length ? "Choose a preset…" : "No presets for these rules" })];
      const groups = {};
      for (const [index, preset] of presets.list.entries()) {
        const group = preset.source === "model" ? "From the setup model"
          : preset.source === "human" ? "From human games" : "Presets";
        groups[group] = groups[group] || el("optgroup", { label: group });
        groups[group].append(el("option", { value: String(index), text: preset.name }));
      }
      options.push(...Object.values(groups));
      if (presets.next !== null && presets.list.length) options.push(el("option", { value: "more", text: "More presets…" }));
      select.replaceChildren(...options);
      select.disabled = presets.list.length === 0;
      showPreset();
    }

    // The list shows the preset placed while the army is still it (else "Choose a
    // preset…"), so the arrow keys go on from it to the next one: each one chosen is
    // placed, the last one chosen once the one before is in (`presetWanted`).
    let presetShown = null;    // {index, setup}: the preset placed last, and the army it made
    let presetWanted = null;   // the list's choice not yet placed
    let presetPlacing = false;
    function showPreset() {
      const select = $("setup-presets");
      if (presetPlacing) return;
      const shown = presetShown && presetShown.setup === cur.setup ? String(presetShown.index) : "";
      select.value = [...select.options].some((o) => o.value === shown) ? shown : "";
    }

    $("setup-presets").addEventListener("change", async (event) => {
      presetWanted = event.target.value;
      if (presetPlacing) return;
      presetPlacing = true;
      while (presetWanted !== null) {
        const value = presetWanted;
        presetWanted = null;
        if (value === "more") {
          await loadPresets(true);
        } else if (value !== "") {
          const preset = presets.list[Number(value)];
          if (!preset) continue;
          const done = await placeSetup(preset.text, `the preset “${preset.name}”`, `Preset “${preset.name}” placed.`);
          if (done.ok) presetShown = { index: Number(value), setup: cur.setup };
        }
      }
      presetPlacing = false;
      showPreset();
    });

    // Setup text writes a piece by its rank's letter (the payload's `army` holds each rank
    // of the rules' army by its symbol, its letter), not by the number it bears on the
    // board: the paste panel lists them, "M Marshal (10), G General (9), …".
    function renderLetters() {
      const army = cur.army || [];
      $("setup-letters").hidden = army.length === 0;
      $("setup-letters").textContent = !army.length ? "" : "Letters: " + army.map((entry) => {
        const shown = label(entry.rank);
        const name = cur.names[entry.rank] || entry.rank;
        return shown === entry.rank ? `${entry.rank} ${name}` : `${entry.rank} ${name} (${shown})`;
      }).join(", ") + "; “.” an empty square; rows from your back row, “/” between them.";
    }

    // The saved setups list shows the one the army is (the one chosen, while the army is
    // still it; else any with the army's text), else nothing: an Undo of a loaded setup, or
    // a swap after it, leaves no stale name. The name box follows it while it holds the
    // name shown before (a name the player typed stays).
    let savedShown = "";
    function renderSaved() {
      const select = $("saved-setups");
      const keep = select.value;
      const mine = savedSetups().filter((s) => s.rules === cur.rules);
      select.replaceChildren(el("option", { value: "", text: mine.length ? "Load a saved setup…" : "No saved setups yet" }),
        ...mine.map((s) => el("option", { value: s.name, text: s.name })));
      const army = cur.phase === "setup" && typeof cur.setup === "string" ? cur.setup : null;
      const isArmy = (s) => army !== null && s.text === army;
      const shown = mine.find((s) => s.name === keep && isArmy(s)) || mine.find(isArmy);
      select.value = shown ? shown.name : "";
      select.disabled = mine.length === 0;
      $("delete-setup").disabled = select.value === "";
      if (select.value !== savedShown && $("setup-name").value === savedShown &&
          document.activeElement !== $("setup-name")) {
        $("setup-name").value = select.value;
      }
      savedShown = select.value;
    }

    $("saved-setups").addEventListener("change", (event) => {
      const found = savedSetups().find((s) => s.rules === cur.rules && s.name === event.target.value);
      $("delete-setup").disabled = !found;
      if (found) {
        $("setup-name").value = found.name;
        placeSetup(found.text, `the saved setup “${found.name}”`, `Saved setup “${found.name}” placed.`);
      }
    });

    $("save-setup").addEventListener("click", () => {
      const mine = savedSetups();
      const name = $("setup-name").value.trim().slice(0, 40) ||
        `My setup ${mine.filter((s) => s.rules === cur.rules).length + 1}`;
      const rest = mine.filter((s) => !(s.rules === cur.rules && s.name === name));
      rest.push({ name, rules: cur.rules, text: cur.setup, saved: Date.now() });
      writeList(SETUPS, rest.slice(-100));
      $("setup-name").value = name;
      renderSaved();
      $("saved-setups").value = name;
      $("delete-setup").disabled = false;
      showError("");  // (a refused paste's error is stale now, as after any setup change)
      showNotice(`Setup “${name}” saved in this browser.`);
    });

    $("delete-setup").addEventListener("click", () => {
      const name = $("saved-setups").value;
      if (!name) return;
      writeList(SETUPS, savedSetups().filter((s) => !(s.rules === cur.rules && s.name === name)));
      $("saved-setups").value = "";
      renderSaved();
      showError("");
      showNotice(`Setup “${name}” deleted.`);
    });

    // -- the buttons --------------------------------------------------------------

    // Start hides with the setup box: pressed from the keyboard, the focus goes on to a
    // piece that can move (or to the status line, while the other side sets up), not to
    // the page's start.
    $("start").addEventListener("click", async (event) => {
      const byKey = event.detail === 0;
      const ok = await send("start");
      if (!ok || !byKey || cur.phase === "setup") return;
      const movable = cur.legal[focused] ? focused : Object.keys(cur.legal)[0];
      if (cur.phase === "play" && yourMove() && movable) focusSquare(movable, true);
      else $("status").focus();
    });
    $("random").addEventListener("click", () => changeSetup("random", undefined, "the random setup"));
    $("use-setup").addEventListener("click", () =>
      changeSetup("setup", { text: $("setup-text").value }, "the pasted setup"));
    $("setup-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      $("setup-text").value = (await file.text()).trim();
      changeSetup("setup", { text: $("setup-text").value }, "the setup from the file");
    });
    $("setup-undo").addEventListener("click", () => stepSetup(true));
    $("setup-redo").addEventListener("click", () => stepSetup(false));
    $("join-link").addEventListener("focus", (event) => event.target.select());
    $("copy-link").addEventListener("click", async () => {
      const text = $("join-link").value;
      let done = false;
      try {
        await navigator.clipboard.writeText(text);
        done = true;
      } catch (err) {
        $("join-link").select();
        try {
          done = document.execCommand("copy");
        } catch (err2) {
          done = false;
        }
      }
      $("copied").textContent = done ? "Copied: send it to your friend." : "Select the link and copy it.";
    });
    // "Yes, resign" (and "Yes, abort the game", before play begins) stays armed for a few
    // seconds once Resign (Abort game) is pressed, until a click elsewhere or Escape: the
    // button `first` arms `confirm`, which sends `action`.
    function twoStep(first, confirm, action) {
      let timer = 0;
      // hidden with the focus on it (its time up, Escape, pressed): the focus goes back to
      // the button that armed it (and, once the game is over, on: see keepFocus)
      function disarm() {
        clearTimeout(timer);
        if (document.activeElement === $(confirm)) $(first).focus();
        $(confirm).hidden = true;
      }
      $(first).addEventListener("click", () => {
        $(confirm).hidden = false;
        $(confirm).focus();
        clearTimeout(timer);
        timer = setTimeout(disarm, ARMED_MS);
      });
      $(confirm).addEventListener("blur", disarm);
      $(confirm).addEventListener("keydown", (event) => {
        if (event.key === "Escape") disarm();
      });
      $(confirm).addEventListener("click", () => {
        disarm();
        send(action);
      });
    }
    twoStep("resign", "confirm-resign", "resign");
    twoStep("abort", "confirm-abort", "abort");
    $("offer-draw").addEventListener("click", () => send("offer-draw"));
    $("accept-draw").addEventListener("click", () => send("accept-draw"));
    $("decline-draw").addEventListener("click", () => send("decline-draw"));
    let rematchAsked = false;  // this seat asked for the rematch (no notice of it then)
    let rematchWanted = false;  // the friend asked for the rematch first (the tab says so)
    // The rematch's page says, once, that the colours are swapped (this tab tells it so).
    function toRematch() {
      try {
        window.sessionStorage.setItem(REMATCH, cur.rematch);
      } catch (err) {
        // storage refused: the rematch's page says nothing of it
      }
      window.location.assign(cur.rematch);
    }
    $("rematch").addEventListener("click", () => {
      if (cur.rematch) toRematch();
      else {
        rematchAsked = true;
        send("rematch");
      }
    });
    $("live").addEventListener("click", backToLive);
    $("review-prev").addEventListener("click", () => reviewStep(-1));
    $("review-next").addEventListener("click", () => reviewStep(1));
    let leaveFrom = "new-game";  // the control that asked to leave (the focus goes back to it)
    $("new-game").addEventListener("click", () => {
      if (cur.phase === "over") {
        window.location.assign("/");
        return;
      }
      leaveFrom = "new-game";
      $("leave-box").hidden = false;
      $("leave-no").focus();
    });
    // The "Stratego" link of the header leaves the game too: it asks first, as New game
    // does (a click meant for a new tab or window opens it, and the game stays here).
    $("home-link").addEventListener("click", (event) => {
      if (cur.phase === "over" || event.button !== 0 || event.ctrlKey || event.metaKey ||
          event.shiftKey || event.altKey) return;
      event.preventDefault();
      leaveFrom = "home-link";
      $("leave-box").hidden = false;
      $("leave-no").focus();
    });
    $("leave-yes").addEventListener("click", () => window.location.assign("/"));
    function stay() {
      $("leave-box").hidden = true;
      $(leaveFrom).focus();
      leaveFrom = "new-game";
    }
    $("leave-no").addEventListener("click", stay);
    // Escape in the box is Stay, as in any dialog
    $("leave-box").addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      stay();
    });
    function renderSound() {
      const on = soundOn();
      $("sound").setAttribute("aria-pressed", on ? "true" : "false");
      $("sound").textContent = on ? "Sound: on" : "Sound: off";
    }
    $("sound").addEventListener("click", () => {
      try {
        window.localStorage.setItem(SOUND, soundOn() ? "off" : "on");
      } catch (err) {
        // storage refused: sound stays as it was
      }
      renderSound();
      beep("turn");
    });
    renderSound();

    // Ask the server now and then whether the other side did something, and whether the
    // server is still there: after a restart the page picks the game up by itself.
    let pollTimer = null;
    let polling = false;
    function pollSoon(wait) {
      window.clearTimeout(pollTimer);
      pollTimer = window.setTimeout(poll, wait);
    }

    async function poll() {
      if (polling) return;
      let wait = cur.opponent === "human" || (cur.clock && cur.clock.running) ? 1000 : 3000;
      if (!busy && !drag) {
        polling = true;
        // (&gone=1 while the page says the friend left: the answer tells when they are back)
        const gone = typeof cur.opponent_gone_s === "number" ? "&gone=1" : "";
        // Back from a lost connection (a restart of the server, a network down), the page
        // asks for the whole payload once, not "since": the version may be the same while
        // the clocks are not what the page counted meanwhile (a server down charges nobody).
        const since = stale ? "" : `since=${cur.version}&`;
        const reply = await call("GET", `${base}?${since}view=0${gone}`);
        polling = false;
        if (reply.status === 0 || reply.status >= 500) {
          lost = true;
          stale = true;
          wait = 1000;
          // the banner says it now: one message, not the same one twice
          if ($("error").textContent === UNREACHABLE) showError("");
        } else if (reply.status === 404 || reply.status === 403) {
          window.location.reload();
          return;
        } else {
          lost = false;
          // the server answers again: a request's "cannot be reached" is stale (any other
          // error stays until the next action)
          if ($("error").textContent === UNREACHABLE) showError("");
          // Only a newer version: a poll answered before our own move's reply arrived
          // would otherwise put the page back one position (versions only grow).
          if (reply.status === 200 && !busy && !drag && (reply.data.version > cur.version ||
              (stale && reply.data.version === cur.version))) {
            // A square picked for a swap stays picked while our army is as it was (the
            // friend joined or got ready), and a piece picked while nothing changed (the
            // whole payload after a lost connection); anything else unpicks it.
            const sameArmy = cur.phase === "setup" && reply.data.phase === "setup" &&
              reply.data.setup === cur.setup;
            if (!sameArmy && reply.data.version !== cur.version) selected = null;
            receive(reply.data);
          } else if (reply.status === 200 && reply.data.version === cur.version && !busy) {
            // nothing changed but the friend's presence (how long they have been gone)
            cur.opponent_gone_s = reply.data.opponent_gone_s;
            cur.claim = reply.data.claim;
            cur.claim_in_s = reply.data.claim_in_s;
            renderPresence();
            renderNote();
          }
        }
        $("connection").hidden = !lost;
      }
      pollSoon(wait);
    }

    render();
    let cameFrom = null;  // the finished game's page, when this is its rematch (toRematch)
    try {
      cameFrom = window.sessionStorage.getItem(REMATCH);
      window.sessionStorage.removeItem(REMATCH);
    } catch (err) {
      cameFrom = null;
    }
    if (cameFrom === window.location.pathname) showNotice(`Rematch: you play ${cur.player} this time.`);
    pollSoon(1000);
    // A page shown again asks at once: a hidden page's polls may be slowed by the browser
    // (to one a minute after five minutes), and the friend should see us back soon.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") pollSoon(0);
    });
  }

  if (kind === "lobby") lobby(initial);
  else if (kind === "join") join(initial);
  else game(initial);
})();
