// The browser control sends what Chrome sends: Debian's Chromium (through playwright-core)
// navigates to a local HTTPS site and its request is read with the raw header order
// (req.rawHeaders), as a public capture of Chrome would be. Headless differs from the Chrome
// people run in two places, corrected as the roster says: `HeadlessChrome/` in the User-Agent,
// and a brand list without "Google Chrome". The brand list follows Chromium's rule (a GREASE
// brand and a permutation seeded by the major version), checked here against the real browser
// and against two public captures of headed Chrome (gkoreli.com, 2026-09-03: Chrome 148, 152).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { controlHeaders, headerValue } from '../../src/scanner/roster.ts';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

/** Chromium's brand list for a major version (components/embedder_support/user_agent_utils.cc). */
function brandList(major: number, brand: string | null): string {
  const chars = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
  const greaseVersions = ['8', '99', '24'];
  const grease = `"Not${chars[major % 11]}A${chars[(major + 1) % 11]}Brand";v="${greaseVersions[major % 3]}"`;
  const brands = [grease, `"Chromium";v="${major}"`, ...(brand ? [`"${brand}";v="${major}"`] : [])];
  // Brand i goes to position order[i]; the permutation is one of 3! (or 2! without a brand), seeded by the major.
  const orders = brands.length === 3 ? [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] : [[0, 1], [1, 0]];
  const order = orders[major % orders.length]!;
  const out: string[] = [];
  brands.forEach((b, i) => { out[order[i]!] = b; });
  return out.join(', ');
}

let server: Server;
let port = 0;
const seen: string[][] = [];

before(async () => {
  const certs = new URL('../world/certs/', import.meta.url);
  server = createServer({ key: fs.readFileSync(new URL('site.key', certs)), cert: fs.readFileSync(new URL('site.pem', certs)) }, (req, res) => {
    if (req.url === '/') seen.push([...req.rawHeaders]);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>control</title><p>ok</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
after(async () => { await new Promise((r) => server.close(r)); });

describe('the browser control is Chrome\'s navigation', { skip: !haveChromium }, () => {
  test('the brand rule reproduces headed Chrome\'s lists from the public capture', () => {
    assert.equal(brandList(152, 'Google Chrome'), '"Chromium";v="152", "Not?A_Brand";v="24", "Google Chrome";v="152"');
    assert.equal(brandList(148, 'Google Chrome'), '"Chromium";v="148", "Google Chrome";v="148", "Not/A)Brand";v="99"');
  });

  test('Chromium\'s real navigation request, corrected from headless, is the roster\'s control header for header', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--ignore-certificate-errors', '--host-resolver-rules=MAP control.world-fixtures.com 127.0.0.1', '--lang=en-US'] });
    try {
      // No locale option: Playwright would inject its own Accept-Language; --lang gives Chromium's own.
      const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
      await page.goto(`https://control.world-fixtures.com:${port}/`);
    } finally {
      await browser.close();
    }
    assert.equal(seen.length, 1, 'one navigation reached the site');
    const raw = seen[0]!;
    const captured: Array<[string, string]> = [];
    for (let i = 0; i < raw.length; i += 2) captured.push([raw[i]!, raw[i + 1]!]);
    // Host and Connection are written by any HTTP/1.1 client (ours included) before the rest.
    assert.deepEqual(captured.slice(0, 2).map(([n]) => n), ['Host', 'Connection']);
    const rest = captured.slice(2);

    const major = Number(/HeadlessChrome\/(\d+)\./.exec(headerValue(rest, 'user-agent') ?? '')?.[1]);
    assert.ok(major > 0, `a headless Chromium UA: ${headerValue(rest, 'user-agent')}`);
    // The real browser follows the rule the roster's brand list was computed with.
    assert.equal(headerValue(rest, 'sec-ch-ua'), brandList(major, null));

    const ours = controlHeaders();
    const ourMajor = Number(/Chrome\/(\d+)\./.exec(headerValue(ours, 'user-agent')!)![1]);
    if (ourMajor !== major) console.warn(`NOTE: Chromium here is ${major}, the roster's control is Chrome ${ourMajor}: versions compared as ${ourMajor}`);
    const corrected = rest.map(([n, v]): [string, string] => {
      if (n.toLowerCase() === 'user-agent') return [n, v.replace(`HeadlessChrome/${major}.0.0.0`, `Chrome/${ourMajor}.0.0.0`)];
      if (n.toLowerCase() === 'sec-ch-ua') return [n, brandList(ourMajor, 'Google Chrome')];
      return [n, v];
    });
    assert.deepEqual(ours.map(([n, v]) => [n, v]), corrected, 'same headers, same order, same case, same values');
  });
});
