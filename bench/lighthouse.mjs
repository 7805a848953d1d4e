// Runs Lighthouse (mobile, the default config) on each URL, `runs` times, in one Chromium.
// Usage: node lighthouse.mjs RUNS URL... ; prints one JSON summary on stdout.
// One browser for every run saves a launch per run; the runs stay sequential, because
// parallel runs would share the 2 cores and distort the CPU-based metrics.
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const [runsArg, ...urls] = process.argv.slice(2);
const runs = Number(runsArg);
const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time"];

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-extensions",
  ],
});

const results = [];
try {
  for (const url of urls) {
    for (let run = 0; run < runs; run++) {
      // A trace can come back broken (NO_NAVSTART on a busy machine): try once more.
      let lhr = await audit(url);
      if (lhr.runtimeError) lhr = await audit(url);
      const audits = lhr.audits;
      results.push({
        url,
        requestedUrl: lhr.requestedUrl,
        finalUrl: lhr.finalDisplayedUrl,
        runtimeError: lhr.runtimeError ? lhr.runtimeError.message : null,
        formFactor: lhr.configSettings.formFactor,
        throttling: lhr.configSettings.throttlingMethod,
        version: lhr.lighthouseVersion,
        scores: Object.fromEntries(
          Object.entries(lhr.categories).map(([key, category]) => [key, category.score]),
        ),
        metrics: Object.fromEntries(METRICS.map((key) => [key, audits[key].numericValue])),
        requests: (audits["network-requests"].details?.items ?? []).map((item) => item.url),
        // The audits that cost points: weighted in their category, and not passed.
        failing: Object.entries(lhr.categories).flatMap(([category, { auditRefs }]) =>
          auditRefs
            .filter((ref) => ref.weight > 0)
            .map((ref) => [ref.id, audits[ref.id]])
            .filter(([, audit]) => audit.score !== null && audit.score < 1)
            .map(([key, audit]) => ({
              category,
              id: key,
              title: audit.title,
              score: audit.score,
              items: (audit.details?.items ?? []).slice(0, 3).map(describe),
            })),
        ),
      });
    }
  }
} finally {
  await chrome.kill();
}
process.stdout.write(JSON.stringify(results));

async function audit(url) {
  const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" });
  return result.lhr;
}

// A short text for one offending item of an audit: its message, URL or element.
function describe(item) {
  const text = item.description ?? item.node?.selector ?? item.url ?? item.source?.url ?? "";
  const snippet = item.node?.snippet ? ` ${item.node.snippet}` : "";
  return `${String(text).slice(0, 160)}${snippet.slice(0, 120)}`;
}
