/* Canasta scorer, service worker (HTTPS and localhost only; see register-sw.js).
   The app's files come from the cache and are refreshed behind it; pages come from the
   network, and the last copy of each visited page is kept for when there is none, marked
   with data-offline on <html> so the page can say so. Nothing but GETs is touched: a hand
   saved offline is kept by outbox.js, which works without this file too. */
"use strict";

var VERSION = "v5";
var FILES = "scorer-files-" + VERSION;
var PAGES = "scorer-pages";
var MAX_PAGES = 60;
var PRECACHE = [
  "/static/app.css",
  "/static/print.css",
  "/static/util.js",
  "/static/hand.js",
  "/static/new-game.js",
  "/static/live.js",
  "/static/round-clock.js",
  "/static/share.js",
  "/static/checker.js",
  "/static/phones.css",
  "/static/outbox.js",
  "/static/register-sw.js",
  "/static/manifest.webmanifest",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/static/icons/maskable-512.png"
];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(FILES).then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("scorer-files-") === 0 && name !== FILES;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// Files: answer from the cache at once, fetch a fresh copy for next time.
function staleWhileRevalidate(event) {
  return caches.open(FILES).then(function (cache) {
    return cache.match(event.request).then(function (cached) {
      var fresh = fetch(event.request).then(function (response) {
        if (response.ok) cache.put(event.request, response.clone());
        return response;
      });
      if (cached) {
        event.waitUntil(fresh.catch(function () {}));
        return cached;
      }
      return fresh;
    });
  });
}

// Keeps the page cache small: the oldest pages go first.
function trim(cache) {
  return cache.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map(function (key) {
      return cache.delete(key);
    }));
  });
}

// The kept copy of a page, marked as offline so its scripts and CSS can say so.
function offlineCopy(request) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(request, { ignoreVary: true });
  }).then(function (cached) {
    if (!cached) return Response.error();
    return cached.text().then(function (html) {
      var headers = new Headers(cached.headers);
      headers.set("X-Scorer-Offline", "1");
      return new Response(html.replace("<html ", "<html data-offline "), {
        status: 200,
        headers: headers
      });
    });
  });
}

// Pages: the network first; when it fails, the last copy this phone saw.
function networkFirst(event) {
  return fetch(event.request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      event.waitUntil(caches.open(PAGES).then(function (cache) {
        return cache.delete(event.request).then(function () {  // so trim() drops the oldest
          return cache.put(event.request, copy);
        }).then(function () { return trim(cache); });
      }));
    }
    return response;
  }).catch(function () { return offlineCopy(event.request); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(staleWhileRevalidate(event));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(event));
  }
  // Everything else (the API that live.js polls, the PDFs, the QR codes) goes to the
  // network as usual: a poll that fails offline is simply tried again later.
});
