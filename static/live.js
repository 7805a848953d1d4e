/* Canasta scorer, live updates: every phone's scoreboard follows the game.

   Hooks (set by the server's templates; every sentence comes translated from there):
     [data-live-url]       the game's JSON address (/api/games/<id>), with data-version (the
                           version the page shows) and, optional, data-live-etag (its ETag,
                           which saves the first full read).
     [data-live-region]    on the scoreboard: the parts swapped in place when the game changes
                           (matched by id, else by order); scroll and open <details> are kept.
     data-live-hands       on the hand form's [data-live-url]: how many hands the page knew;
     data-live-recorded    with it: "Another phone just recorded hand {number}", and
     data-live-changed     "Someone changed this game on another phone", shown before saving.

   The check is a conditional GET every 4 s (If-None-Match: nothing new costs a 304 and holds
   no server worker), paused while the page is hidden. */
(function () {
  "use strict";
  // 4 s: a change shows within 5 s (the wait, then the JSON and the page's regions, each a
  // few tens of ms), with a quarter fewer checks than every 3 s (bench section 9).
  var PERIOD = 4000;

  var each = Scorer.each;

  function Live(element) {
    this.element = element;
    this.url = element.getAttribute("data-live-url");
    this.version = parseInt(element.getAttribute("data-version"), 10);
    this.etag = element.getAttribute("data-live-etag") || null;
    this.timer = null;
    this.busy = false;
    this.stopped = false;
  }

  Live.prototype.schedule = function (delay) {
    var self = this;
    clearTimeout(this.timer);
    if (this.stopped || document.hidden) return;
    this.timer = setTimeout(function () { self.check(); }, delay);
  };

  Live.prototype.check = function () {
    var self = this;
    if (this.busy || this.stopped || document.hidden) return;
    this.busy = true;
    var headers = { Accept: "application/json" };
    if (this.etag) headers["If-None-Match"] = this.etag;
    fetch(this.url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.status === 404 || response.status === 410) { self.stopped = true; return null; }
        if (!response.ok) return null;
        self.etag = response.headers.get("ETag") || self.etag;
        return response.json();
      })
      .then(function (game) {
        if (game && game.version !== self.version) return self.changed(game);
      })
      .catch(function () { /* offline for now: the next check will tell */ })
      .then(function () {
        self.busy = false;
        self.schedule(PERIOD);
      });
  };

  Live.prototype.changed = function (game) {
    var self = this;
    if (this.element.hasAttribute("data-live-recorded")) this.warn(game);
    if (!document.querySelector("[data-live-region]")) {
      this.version = game.version;
      return null;
    }
    return swapRegions().then(function (swapped) {
      // Only a page that really shows the new state moves on; else the next check retries.
      if (swapped) self.version = game.version;
    });
  };

  // The hand form: say so before saving, without touching what is typed.
  Live.prototype.warn = function (game) {
    var known = parseInt(this.element.getAttribute("data-live-hands"), 10) || 0;
    var hands = (game.hands || []).length;
    var text = hands > known
      ? this.element.getAttribute("data-live-recorded").replace("{number}", String(hands))
      : this.element.getAttribute("data-live-changed") || "";
    if (!text) return;
    var banner = document.querySelector("[data-live-banner]");
    if (!banner) {
      banner = Scorer.banner("live-warning", "alert", "data-live-banner");
      this.element.parentNode.insertBefore(banner, this.element);
    }
    banner.textContent = text;
  };

  // Which <details> the reader opened: by id where they have one, else by order.
  function openDetails(region) {
    var open = { ids: {}, indexes: {} };
    each(region.querySelectorAll("details"), function (details, index) {
      if (!details.open) return;
      if (details.id) open.ids[details.id] = true;
      else open.indexes[index] = true;
    });
    return open;
  }

  function reopen(region, open) {
    each(region.querySelectorAll("details"), function (details, index) {
      if (details.id ? open.ids[details.id] : open.indexes[index]) details.open = true;
    });
  }

  function counterpart(fresh, old, index) {
    if (old.id) return fresh.getElementById(old.id);
    return fresh.querySelectorAll("[data-live-region]")[index] || null;
  }

  // Reads this page again and puts its new regions in place of the old ones.
  function swapRegions() {
    return fetch(location.href, {
      headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin"
    })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return false;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var x = window.scrollX;
        var y = window.scrollY;
        var swapped = false;
        each(document.querySelectorAll("[data-live-region]"), function (old, index) {
          var replacement = counterpart(fresh, old, index);
          if (!replacement) return;
          var open = openDetails(old);
          var node = document.importNode(replacement, true);
          old.parentNode.replaceChild(node, old);
          reopen(node, open);
          swapped = true;
        });
        window.scrollTo(x, y);
        if (swapped) document.dispatchEvent(new CustomEvent("live:updated"));
        return swapped;
      });
  }

  function start() {
    var element = document.querySelector("[data-live-url]");
    if (!element || !window.fetch) return;
    var live = new Live(element);
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) clearTimeout(live.timer);
      else live.check();  // back on the page: look at once
    });
    live.schedule(PERIOD);
  }

  Scorer.ready(start);
})();
