/* Canasta scorer, live updates: every phone's scoreboard follows the game.

   Hooks (set by the server's templates; every sentence comes translated from there):
     [data-live-url]       the game's JSON address (/api/games/<id>), with data-version (the
                           version the page shows) and, optional, data-live-etag (its ETag,
                           which saves the first full read).
     data-live-push        optional: the push channel (/push/<channel>, an EventSource served
                           by Nchan in front of the app, scorer/web/push.py).
     data-live-by="etag"   optional: the version is the answer's ETag (a night, whose tag
                           moves with each of its tables), not the JSON's "version".
     [data-live-region]    on the scoreboard: the parts swapped in place when the game changes
                           (matched by id, else by order); scroll and open <details> are kept.
     [data-live-keep-place] a page of a long game's earlier hands: the hand row at the top of
                           the screen stays there (each new hand moves every page's hands one
                           place, one row coming in above it).
     data-live-hands       on the hand form's [data-live-url]: how many hands the page knew;
     data-live-recorded    with it: "Another phone just recorded hand {number}", and
     data-live-changed     "Someone changed this game on another phone", shown before saving.

   With push, the server says "version N" the moment a write lands and the page looks then;
   no poll runs while the channel is open. Without it (no push server, an old browser, a
   proxy that buffers the stream, Wi-Fi gone) the page polls: a conditional GET every 4 s
   (If-None-Match: nothing new costs a 304 and holds no server worker), and tries push again
   now and then. Each (re)connection first asks for the current version, so a version sent
   while the channel was down is never missed. Paused while the page is hidden.
   <html data-live-mode="push|poll"> says which is running; "live:updated" events carry
   {via: "push"|"poll"}. A "live:look" event on the document asks at once: a timed round's
   clock (round-clock.js) sends it at the warning and at the call, which no write pushes. */
(function () {
  "use strict";
  // 4 s: a change shows within 5 s (the wait, then the JSON and the page's regions, each a
  // few tens of ms), with a quarter fewer checks than every 3 s (bench section 9).
  var PERIOD = 4000;
  // Nchan pings an open channel every 20 s (scorer/web/push.py): a minute without a word
  // is a stream that something holds back (a buffering proxy) or a dead connection.
  var SILENCE = 60000;
  // After push failed: poll, and try push again after this long (then twice as long...).
  var RETRY = 15000;
  var RETRY_MAX = 300000;

  var each = Scorer.each;

  function Live(element) {
    this.element = element;
    this.url = element.getAttribute("data-live-url");
    this.byTag = element.getAttribute("data-live-by") === "etag";
    this.etag = element.getAttribute("data-live-etag") || null;
    this.version = this.byTag ? this.etag : parseInt(element.getAttribute("data-version"), 10);
    this.pushUrl = window.EventSource ? element.getAttribute("data-live-push") : null;
    this.source = null;
    this.mode = "poll";
    this.retry = RETRY;
    this.timer = null;
    this.quiet = null;
    this.busy = false;
    this.again = null;
    this.stopped = false;
  }

  Live.prototype.setMode = function (mode) {
    this.mode = mode;
    document.documentElement.setAttribute("data-live-mode", mode);
  };

  Live.prototype.schedule = function (delay) {
    var self = this;
    clearTimeout(this.timer);
    if (this.stopped || document.hidden || this.mode === "push") return;
    this.timer = setTimeout(function () { self.check("poll"); }, delay);
  };

  // Push: one EventSource; on any trouble, the poll until it works again.
  Live.prototype.connect = function () {
    var self = this;
    if (!this.pushUrl || this.stopped || this.source) return;
    var source = new EventSource(this.pushUrl);
    this.source = source;
    source.onopen = function () {
      self.retry = RETRY;
      self.setMode("push");
      clearTimeout(self.timer);
      self.heard();
      self.check("push");  // (re)connected: what changed while we were away?
    };
    source.onmessage = function (event) {
      self.heard();
      if (event.data !== String(self.version)) self.check("push");
    };
    source.addEventListener("ping", function () { self.heard(); });
    source.onerror = function () {
      // The browser reconnects by itself (then onopen asks again); meanwhile, the poll.
      self.fallBack();
      if (source.readyState === EventSource.CLOSED) self.reconnectLater();
    };
  };

  Live.prototype.fallBack = function () {
    if (this.mode === "push") {
      this.setMode("poll");
      this.schedule(0);
    }
  };

  Live.prototype.reconnectLater = function () {
    var self = this;
    clearTimeout(this.quiet);
    if (this.source) this.source.close();
    this.source = null;
    this.fallBack();
    setTimeout(function () { self.connect(); }, this.retry);
    this.retry = Math.min(this.retry * 2, RETRY_MAX);
  };

  // A message or a ping: the stream is alive. Silence for too long: it is not.
  Live.prototype.heard = function () {
    var self = this;
    clearTimeout(this.quiet);
    this.quiet = setTimeout(function () { self.reconnectLater(); }, SILENCE);
  };

  Live.prototype.check = function (via) {
    var self = this;
    if (this.stopped || document.hidden) return;
    if (this.busy) { this.again = via; return; }  // a version sent meanwhile: look again
    this.busy = true;
    var headers = { Accept: "application/json" };
    if (this.etag) headers["If-None-Match"] = this.etag;
    var failed = true;
    fetch(this.url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        failed = response.status >= 500;
        if (response.status === 304) return null;
        if (response.status === 404 || response.status === 410) { self.stop(); return null; }
        if (!response.ok) return null;
        self.etag = response.headers.get("ETag") || self.etag;
        return response.json();
      })
      .then(function (game) {
        if (!game) return null;
        var version = self.byTag ? self.etag : game.version;
        if (version !== self.version) return self.changed(game, version, via);
      })
      .catch(function () { /* offline for now: the next check will tell */ })
      .then(function () {
        self.busy = false;
        var again = self.again;
        self.again = null;
        if (again) self.check(again);
        else if (failed && self.mode === "push") self.retryCheck(via);
        else self.schedule(PERIOD);
      });
  };

  // A check that push asked for and that failed (the network dropped just then): try again,
  // since no poll runs while the channel is open.
  Live.prototype.retryCheck = function (via) {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.check(via); }, PERIOD);
  };

  // The phone knows its network went: drop the channel now (a dead connection can take
  // minutes to notice), poll quietly meanwhile, and reconnect the moment it is back.
  Live.prototype.offline = function () {
    clearTimeout(this.quiet);
    if (this.source) this.source.close();
    this.source = null;
    this.fallBack();
  };

  Live.prototype.online = function () {
    this.retry = RETRY;
    this.connect();
    this.check(this.mode);
  };

  Live.prototype.stop = function () {
    this.stopped = true;
    clearTimeout(this.quiet);
    if (this.source) this.source.close();
  };

  Live.prototype.changed = function (game, version, via) {
    var self = this;
    if (this.element.hasAttribute("data-live-recorded")) this.warn(game, via);
    if (!document.querySelector("[data-live-region]")) {
      this.version = version;
      return null;
    }
    return swapRegions(via).then(function (swapped) {
      // Only a page that really shows the new state moves on; else the next check retries.
      if (swapped) self.version = version;
    });
  };

  // The hand form: say so before saving, without touching what is typed.
  Live.prototype.warn = function (game, via) {
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
    banner.setAttribute("data-live-via", via || "poll");
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

  // On a page of earlier hands: the first hand row on screen, and where it is.
  function placeOnScreen() {
    var rows = document.querySelectorAll("[data-live-keep-place] details[id]");
    for (var i = 0; i < rows.length; i++) {
      var top = rows[i].getBoundingClientRect().top;
      if (top >= 0 && top < window.innerHeight) return { id: rows[i].id, top: top };
    }
    return null;
  }

  function keepPlace(place) {
    var row = place && document.getElementById(place.id);
    if (row) window.scrollBy(0, row.getBoundingClientRect().top - place.top);
  }

  // Reads this page again and puts its new regions in place of the old ones.
  function swapRegions(via) {
    return fetch(location.href, {
      headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin"
    })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return false;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var x = window.scrollX;
        var y = window.scrollY;
        var place = placeOnScreen();
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
        keepPlace(place);
        if (swapped) document.dispatchEvent(new CustomEvent("live:updated", { detail: { via: via || "poll" } }));
        return swapped;
      });
  }

  function start() {
    var element = document.querySelector("[data-live-url]");
    if (!element || !window.fetch) return;
    var live = new Live(element);
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) clearTimeout(live.timer);
      else live.check(live.mode);  // back on the page: look at once
    });
    document.addEventListener("live:look", function () { live.check(live.mode); });
    window.addEventListener("offline", function () { live.offline(); });
    window.addEventListener("online", function () { live.online(); });
    live.setMode("poll");
    live.schedule(PERIOD);
    live.connect();
  }

  Scorer.ready(start);
})();
