/* Canasta scorer, no hand lost: a hand saved without a network waits on the phone.

   Hooks (set by the server's templates; every sentence comes translated from there):
     <form data-outbox="<game id>">   the hand form; its hidden "token" field is the one-time
                                      key that makes a resend record the hand exactly once.
     [data-outbox-game="<game id>"]   any other page of the game: queued hands are sent from it.
     data-outbox-one, data-outbox-many  on either: "1 hand waiting to be sent" and
                                      "{count} hands waiting to be sent".
     data-outbox-done                 on the form: where to go once saved (the scoreboard).
     data-outbox-held, data-outbox-waiting  on the form: what is said by the save button when
                                      a save found no network, and the button's label then.

   The form is sent with fetch(). No answer at all (no network, a dropped Wi-Fi) keeps it in
   localStorage and sends it again on `online`, every 15 s, and whenever a page of the game
   opens. A refusal (the game moved on, a rule) is posted again as a plain form, so the
   browser shows the server's page: the form comes back with every value typed.
   What is typed is also kept in sessionStorage, so a reload or an accidental back loses
   nothing; a draft brought back says so, with "Discard". Cancel drops it, and a form opened
   afresh (a tap on the board) never gets an old one. No service worker is needed: this works
   on plain HTTP. */
(function () {
  "use strict";
  var RETRY = 15000;
  var PREFIX = "scorer-outbox:";
  var USED = "scorer-outbox-used";
  var DRAFT = "scorer-draft:";
  var GUARDS = { token: true, version: true, csrf_token: true };
  var sending = false;

  var each = Scorer.each;

  function read(storage, key, fallback) {
    try { return JSON.parse(storage.getItem(key)) || fallback; } catch (e) { return fallback; }
  }

  function write(storage, key, value) {
    try {
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode or full: the hand is still on screen */ }
  }

  // --- the queue, per game, in localStorage --------------------------------------------------

  function queued(game) { return read(localStorage, PREFIX + game, []); }

  function saveQueue(game, entries) { write(localStorage, PREFIX + game, entries.length ? entries : null); }

  function enqueue(game, entry) {
    var entries = queued(game).filter(function (e) { return e.token !== entry.token; });
    entries.push(entry);  // the same token again (a second tap) replaces, never doubles
    saveQueue(game, entries);
  }

  function dequeue(game, token) {
    saveQueue(game, queued(game).filter(function (e) { return e.token !== token; }));
  }

  function markUsed(token) {
    var used = read(localStorage, USED, []).filter(function (t) { return t !== token; });
    used.push(token);
    write(localStorage, USED, used.slice(-50));
  }

  function randomToken() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // works on plain HTTP, unlike crypto.randomUUID
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // --- sending ---------------------------------------------------------------------------------

  // The tapped button's own name and value go with the form, as a plain submit sends them:
  // "Record it anyway" is a button named "confirm", and without it the server asks again.
  function fields(form, submitter) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) { pairs.push([name, String(value)]); });
    if (submitter && submitter.name) pairs.push([submitter.name, submitter.value]);
    return pairs;
  }

  function body(entry) {
    var params = new URLSearchParams();
    entry.fields.forEach(function (pair) { params.append(pair[0], pair[1]); });
    return params;
  }

  // "done" (the server redirected: saved, or already saved by this very token),
  // "refused" (it answered with a page: show it), or "later" (no answer, or a 5xx).
  function send(entry) {
    return fetch(entry.action, {
      method: "POST", body: body(entry), redirect: "manual", credentials: "same-origin"
    }).then(function (response) {
      if (response.type === "opaqueredirect") return "done";
      return response.status >= 500 ? "later" : "refused";
    }, function () { return "later"; });
  }

  // The server refused: post the same fields as a plain form, so the browser shows its answer.
  function showRefusal(entry) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = entry.action;
    form.hidden = true;
    entry.fields.forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    HTMLFormElement.prototype.submit.call(form);  // no submit event: not intercepted again
  }

  // --- the banner ------------------------------------------------------------------------------

  function hook() { return document.querySelector("form[data-outbox], [data-outbox-game]"); }

  function gameOf(element) {
    return element.getAttribute("data-outbox") || element.getAttribute("data-outbox-game");
  }

  function showBanner(element) {
    var count = queued(gameOf(element)).length;
    var banner = document.querySelector("[data-outbox-banner]");
    if (!count) {
      if (banner) banner.parentNode.removeChild(banner);
      return;
    }
    var text = count === 1
      ? element.getAttribute("data-outbox-one")
      : (element.getAttribute("data-outbox-many") || "").replace("{count}", String(count));
    if (!banner) {
      banner = Scorer.banner("waiting", "status", "data-outbox-banner");
      var main = document.querySelector("main") || document.body;
      main.insertBefore(banner, main.firstChild);
    }
    banner.textContent = text;
  }

  // Sends this game's waiting hands in order; stops at the first that cannot go yet.
  function flush(element) {
    var game = gameOf(element);
    var entries = queued(game);
    if (sending || !entries.length) return Promise.resolve();
    sending = true;
    var entry = entries[0];
    return send(entry).then(function (outcome) {
      sending = false;
      if (outcome === "later") return;
      dequeue(game, entry.token);
      markUsed(entry.token);
      showBanner(element);
      if (outcome === "refused") return showRefusal(entry);
      if (queued(game).length) return flush(element);
      // Sent: the form it came from goes on to the scoreboard; a page that is only being
      // read shows it at once; another hand being typed stays as it is.
      var form = document.querySelector("form[data-outbox]");
      var field = form && form.querySelector('input[name="token"]');
      if (!form) location.reload();
      else if (field && field.value === entry.token) location.assign(doneUrl(form));
    });
  }

  // --- the hand form ---------------------------------------------------------------------------

  function draftKey() { return DRAFT + location.pathname; }

  function typed(form) {
    return fields(form).filter(function (pair) { return !GUARDS[pair[0]]; });
  }

  function isEmpty(form) {
    var empty = true;
    each(form.querySelectorAll('input[type="text"], input:not([type]), input[inputmode]'), function (input) {
      if (input.value.trim() !== "") empty = false;
    });
    return empty && !form.querySelector('[aria-invalid="true"]');
  }

  // How this page was reached: a reload or a step back brings a draft back; a tap on the
  // board (a side, "Nobody") is a fresh start for that side, whatever was typed before.
  function arrival() {
    var entry = window.performance && performance.getEntriesByType &&
      performance.getEntriesByType("navigation")[0];
    return entry ? entry.type : "navigate";
  }

  // Says a draft came back, with a button that drops it (the form as the server sent it).
  function announceDraft(form) {
    var note = Scorer.banner("note", "status", "data-draft-note");
    var text = document.createElement("span");
    text.textContent = form.getAttribute("data-draft-restored") || "";
    var discard = document.createElement("button");
    discard.type = "button";
    discard.className = "button quiet";
    discard.textContent = form.getAttribute("data-draft-discard") || "Discard";
    discard.addEventListener("click", function () {
      write(sessionStorage, draftKey(), null);
      form.reset();
      each(form.elements, function (input) {
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
      write(sessionStorage, draftKey(), null);
      note.parentNode.removeChild(note);
      var first = form.querySelector("[autofocus]");
      if (first) first.focus();
    });
    note.appendChild(text);
    note.appendChild(document.createTextNode(" "));
    note.appendChild(discard);
    form.parentNode.insertBefore(note, form);
  }

  function restoreDraft(form) {
    var pairs = read(sessionStorage, draftKey(), null);
    if (!pairs) return;
    if (arrival() === "navigate") {  // opened afresh: the old draft is not this hand
      write(sessionStorage, draftKey(), null);
      return;
    }
    if (!isEmpty(form)) return;
    pairs.forEach(function (pair) {
      each(form.elements, function (input) {
        if (input.name !== pair[0]) return;
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.value === pair[1]) input.checked = true;
        } else if (input.type !== "hidden") {
          input.value = pair[1];
        }
      });
    });
    // The preview (hand.js) and anything else that listens catch up.
    each(form.elements, function (input) {
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    form.dispatchEvent(new Event("change", { bubbles: true }));
    announceDraft(form);
  }

  function ensureFreshToken(form, game) {
    var field = form.querySelector('input[name="token"]');
    if (!field) return null;
    var waiting = queued(game).some(function (e) { return e.token === field.value; });
    var used = read(localStorage, USED, []).indexOf(field.value) !== -1;
    // A page from the offline cache, or a token already spent: a new one, made here.
    if (!field.value || (used && !waiting) || document.documentElement.hasAttribute("data-offline")) {
      field.value = randomToken();
    }
    return field.value;
  }

  // Said where the thumb is, by the save button: the hand is not lost, it waits. The form
  // shows it is waiting (aria-busy, the button's label); a new tap sends it again at once.
  function showHeld(form, button) {
    var actions = form.querySelector(".form-actions") || form;
    var note = actions.querySelector("[data-outbox-note]");
    if (!note) {
      note = document.createElement("p");
      note.className = "outbox-note";
      note.setAttribute("role", "status");
      note.setAttribute("data-outbox-note", "");
      actions.insertBefore(note, actions.firstChild);
    }
    note.textContent = form.getAttribute("data-outbox-held") || "";
    form.setAttribute("aria-busy", "true");
    form.classList.add("is-waiting");
    var save = button && button.classList.contains("big") ? button
      : actions.querySelector("button[type=submit]");
    if (save && form.getAttribute("data-outbox-waiting")) {
      save.textContent = form.getAttribute("data-outbox-waiting");
    }
  }

  function doneUrl(form) {
    return form.getAttribute("data-outbox-done") || "/games/" + form.getAttribute("data-outbox");
  }

  function setupForm(form) {
    var game = form.getAttribute("data-outbox");
    restoreDraft(form);
    var keep = function () { write(sessionStorage, draftKey(), typed(form)); };
    form.addEventListener("input", keep);
    form.addEventListener("change", keep);
    // Cancel drops what was typed: the next form starts empty.
    each(form.querySelectorAll("[data-cancel]"), function (link) {
      link.addEventListener("click", function () {
        form.removeEventListener("input", keep);
        form.removeEventListener("change", keep);
        write(sessionStorage, draftKey(), null);
      });
    });
    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented || !window.fetch) return;
      event.preventDefault();
      if (sending) return;  // a double tap: the first one is on its way
      var token = ensureFreshToken(form, game);
      var entry = {
        action: form.action, fields: fields(form, event.submitter), token: token, queued: Date.now()
      };
      sending = true;
      send(entry).then(function (outcome) {
        sending = false;
        if (outcome === "later") {
          enqueue(game, entry);
          write(sessionStorage, draftKey(), null);  // the outbox holds it now
          showBanner(form);
          showHeld(form, event.submitter);
          return;
        }
        write(sessionStorage, draftKey(), null);
        dequeue(game, token);
        markUsed(token);
        if (outcome === "refused") showRefusal(entry);
        else location.assign(doneUrl(form));
      });
    });
  }

  function start() {
    var element = hook();
    if (!element || !window.fetch) return;
    if (element.matches("form[data-outbox]")) setupForm(element);
    showBanner(element);
    var retry = function () { if (!document.hidden) flush(element); };
    window.addEventListener("online", retry);
    document.addEventListener("visibilitychange", retry);
    setInterval(retry, RETRY);
    retry();
  }

  Scorer.ready(start);
})();
