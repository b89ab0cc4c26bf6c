/**
 * The test world: the internet in miniature on loopback. One call starts it:
 *
 *   const world = await startWorld({ latencyMs: 0 });
 *   const { networkA, networkB } = world.egress();     // guarded egress through the two proxies
 *   ... scan `world.domain('open-basic')` ...
 *   await world.stop();
 *
 * See README.md for the addressing design.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createEgress, type Egress } from '../../src/net/egress.ts';
import { parseScanResolve, staticAnswer, type ResolveOverrides } from '../../src/net/resolve.ts';
import { startProxy, type WorldProxy } from './proxy.ts';
import { networkOf, serveScenario, WORLD_SUFFIX, type Scenario, type WorldNetwork } from './site.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { DOH_LABEL, DOH_PATH, dohHandler } from './doh.ts';
import { createStrictVerifier, egressFetch, type StrictVerifier } from './web-bot-auth/index.ts';

const certDir = fileURLToPath(new URL('./certs/', import.meta.url));
export const WORLD_CA_PATH = `${certDir}ca.pem`;

/** Public-looking addresses the world answers for; the proxies map them to loopback ports. */
export const ADDR = { sites: '11.22.33.10', down: '11.22.33.20', hang: '11.22.33.30', internal: '10.20.30.40', egressDenied: '11.22.33.40' } as const;

export type ExtraHandler = (req: IncomingMessage, res: ServerResponse, info: { network: WorldNetwork; domain: string }) => void;

export interface WorldOptions {
  /** Added before every response of every site (the benchmark uses 50). */
  latencyMs?: number;
  /** Replace the built-in scenarios (default: all of them). */
  scenarios?: readonly Scenario[];
  /** Extra sites by host label, handled by your own function (e.g. an MCP server for the MCP scanner's tests). */
  handlers?: Record<string, ExtraHandler>;
  /** More SCAN_RESOLVE entries the world answers for (its proxies resolve them too), e.g. `*.trycloudflare.com=11.22.33.10`. */
  extraResolve?: string;
  /** Keep every request the sites receive in `world.requests` (off by default: the benchmark sends thousands). */
  logRequests?: boolean;
}

/** One request as a world site received it: which host and path, through which network, every header as sent. */
export interface WorldRequest { host: string; path: string; network: WorldNetwork; rawHeaders: string[] }

export interface World {
  proxies: { networkA: string; networkB: string; user: string };
  /** The world's DNS over HTTPS resolver (SCAN_DOH_URL), reached through the proxies like any site. */
  dohUrl: string;
  /** SCAN_RESOLVE value for the world's names. */
  resolve: string;
  resolveOverrides: ResolveOverrides;
  ca: string;
  caPath: string;
  /** Host labels of every site. */
  sites: string[];
  domain(label: string): string;
  setLatency(ms: number): void;
  /**
   * Changes a scenario while the world runs (a site whose edge starts blocking an agent between
   * two scans): the patch replaces those fields until reset(label). Returns the scenario now played.
   */
  update(label: string, patch: Partial<Omit<Scenario, 'name'>>): Scenario;
  /** The scenario as it was declared. */
  reset(label: string): void;
  /** Guarded egress through the world's proxies; networkB may be left unconfigured. */
  egress(opts?: { networkB?: 'unconfigured' }): { networkA: Egress; networkB: Egress; user: Egress };
  /** Environment a child process (npm start, the CLI) would need. */
  env: Record<string, string>;
  proxyLogs: { networkA: WorldProxy; networkB: WorldProxy; user: WorldProxy };
  /** The strict Web Bot Auth verifier of the `signedOnly` sites, and its verdicts. */
  webBotAuth: StrictVerifier;
  /** Every request the sites received, in arrival order (with `logRequests`). */
  requests: WorldRequest[];
  stop(): Promise<void>;
}

export async function startWorld(opts: WorldOptions = {}): Promise<World> {
  let latency = opts.latencyMs ?? 0;
  const declared = new Map((opts.scenarios ?? SCENARIOS).map((s) => [s.name, s]));
  const scenarios = new Map(declared);
  // The world's own DNS over HTTPS resolver answers each scenario's DNS records (doh.ts).
  const handlers: Record<string, ExtraHandler> = { [DOH_LABEL]: dohHandler((label) => scenarios.get(label)?.dns), ...opts.handlers };
  const key = readFileSync(`${certDir}site.key`);
  const cert = readFileSync(`${certDir}site.pem`);
  const ca = readFileSync(WORLD_CA_PATH, 'utf8');

  const requests: WorldRequest[] = [];
  // Platform preview hosts (*.vercel.app, *.netlify.app, *.pages.dev) get their own certificate from the same CA.
  const previewContext = createSecureContext({ key: readFileSync(`${certDir}preview.key`), cert: readFileSync(`${certDir}preview.pem`) });
  const SNICallback = (name: string, cb: (err: Error | null, ctx?: SecureContext) => void) => cb(null, /(^|\.)(vercel\.app|netlify\.app|pages\.dev)$/i.test(name) ? previewContext : undefined);
  const sites = createHttpsServer({ key, cert, SNICallback }, (req, res) => {
    const host = String(req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    if (opts.logRequests) requests.push({ host, path: req.url ?? '/', network: networkOf(req.socket.remoteAddress), rawHeaders: [...req.rawHeaders] });
    // `<name>--<n>` is another copy of scenario <name> (distinct hosts, e.g. for concurrent scans in the benchmark).
    const label = (host.endsWith(`.${WORLD_SUFFIX}`) ? host.slice(0, -WORLD_SUFFIX.length - 1) : host).replace(/--\d+$/, '');
    const respond = () => {
      const extra = handlers[label];
      if (extra) return extra(req, res, { network: networkOf(req.socket.remoteAddress), domain: host });
      const s = scenarios.get(label);
      if (!s) return void res.writeHead(404, { 'content-type': 'text/plain' }).end(`no site ${host} in the world`);
      serveScenario(s, host, req, res, webBotAuth);
    };
    if (latency > 0) setTimeout(respond, latency);
    else respond();
  });
  sites.keepAliveTimeout = 5000;
  // Accepts connections and never speaks: a site that hangs in the TLS handshake.
  const hangSockets = new Set<Socket>();
  const hang: TcpServer = createTcpServer((s) => {
    hangSockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => hangSockets.delete(s));
  });
  const listen = (srv: { listen: (port: number, host: string, cb: () => void) => unknown; address: () => unknown }) =>
    new Promise<number>((resolve) => srv.listen(0, '127.0.0.1', () => resolve((srv.address() as AddressInfo).port)));
  const sitePort = await listen(sites);
  const hangPort = await listen(hang);

  const route = (name: string, port: number) => {
    // A proxy asked by name (CONNECT host:port, as curl and the CLI behind a proxy do) resolves it
    // with the world's own answers; the caller needs no DNS for the world at all.
    const host = staticAnswer(resolveOverrides, name)?.[0] ?? name;
    if ((host === ADDR.sites || host === ADDR.egressDenied) && port === 443) return { host: '127.0.0.1', port: sitePort };
    if (host === ADDR.hang) return { host: '127.0.0.1', port: hangPort };
    return null; // ADDR.down and anything else: 502, like an unreachable host
  };
  const resolve = [
    `*.${WORLD_SUFFIX}=${ADDR.sites}`, `${WORLD_SUFFIX}=${ADDR.sites}`, `*.world-fixtures.net=${ADDR.sites}`,
    `down.${WORLD_SUFFIX}=${ADDR.down}`, `hang.${WORLD_SUFFIX}=${ADDR.hang}`, `internal.${WORLD_SUFFIX}=${ADDR.internal}`,
    `egress-refused-b.${WORLD_SUFFIX}=${ADDR.egressDenied}`,
    ...(opts.extraResolve ? [opts.extraResolve] : []),
  ].join(',');
  const resolveOverrides = parseScanResolve(resolve);
  const [pa, pb, pu] = await Promise.all([
    startProxy({ localAddress: '127.0.0.2', route }),
    // networkB's egress policy refuses one address (the egress-refused-b scenario): our network's refusal, not the site's.
    startProxy({ localAddress: '127.0.0.3', route, refuse: (h) => (staticAnswer(resolveOverrides, h)?.[0] ?? h) === ADDR.egressDenied }),
    startProxy({ localAddress: '127.0.0.4', route }),
  ]);
  const egresses: Egress[] = [];
  const make = (name: string, proxyUrl?: string) => {
    const e = createEgress({ name, proxyUrl, allowDirect: false, resolve: resolveOverrides, ca });
    egresses.push(e);
    return e;
  };
  // The verifying sites fetch key directories through the world like any client (the user network's proxy).
  const webBotAuth = createStrictVerifier(egressFetch(make('wba-verifier', pu.url)));

  return {
    proxies: { networkA: pa.url, networkB: pb.url, user: pu.url },
    dohUrl: `https://${DOH_LABEL}.${WORLD_SUFFIX}${DOH_PATH}`,
    resolve, resolveOverrides, ca, caPath: WORLD_CA_PATH,
    sites: [...scenarios.keys(), ...Object.keys(handlers)],
    domain: (label) => `${label}.${WORLD_SUFFIX}`,
    setLatency: (ms) => { latency = ms; },
    update(label, patch) {
      const s = scenarios.get(label);
      if (!s) throw new Error(`no scenario ${label} in this world`);
      const next = { ...s, ...patch, name: s.name };
      scenarios.set(label, next);
      return next;
    },
    reset(label) {
      const s = declared.get(label);
      if (!s) throw new Error(`no scenario ${label} in this world`);
      scenarios.set(label, s);
    },
    egress: (o = {}) => ({ networkA: make('networkA', pa.url), networkB: make('networkB', o.networkB === 'unconfigured' ? undefined : pb.url), user: make('user', pu.url) }),
    env: { NETWORK_A_PROXY: pa.url, NETWORK_B_PROXY: pb.url, HTTPS_PROXY: pu.url, SCAN_RESOLVE: resolve, NODE_EXTRA_CA_CERTS: WORLD_CA_PATH, SCAN_DOH_URL: `https://${DOH_LABEL}.${WORLD_SUFFIX}${DOH_PATH}` },
    proxyLogs: { networkA: pa, networkB: pb, user: pu },
    webBotAuth,
    requests,
    async stop() {
      await Promise.all(egresses.map((e) => e.close()));
      await Promise.all([pa.close(), pb.close(), pu.close()]);
      for (const s of hangSockets) s.destroy();
      sites.closeAllConnections();
      await Promise.all([new Promise((r) => sites.close(r)), new Promise((r) => hang.close(r))]);
    },
  };
}
