// Our own Signature Agent Card, as draft-meunier-webbotauth-registry-04 defines it: OAuth client
// metadata (RFC 7591, used as draft-ietf-oauth-client-id-metadata-document does) plus one
// `web_bot_auth` object (§3.2). Pure: the handler passes in what the card states, from the config
// and the engine's own bounds, so the rate it announces is the rate the scanner keeps.
import { KEY_DIRECTORY_PATH, keyDirectory, type ProbeKey } from './keys.ts';

/** The draft's examples use this path (§C.3); §4 fixes none, so the key directory links to it. */
export const AGENT_CARD_PATH = '/.well-known/signature-agent-card';

export interface AgentCardFacts {
  baseUrl: string;
  /** security.txt's Contact (a mailto: or https URI). */
  contact: string;
  /** The User-Agent of our own (signed) requests. */
  userAgent: string;
  key: ProbeKey;
  /** The politeness bounds the scanner keeps. */
  concurrencyPerSite: number;
  maxRequestsPerScan: number;
  scansPerDomain: { points: number; durationS: number };
  /** Paths every scan asks for, besides each agent's home page and robots.txt. */
  knownPaths: readonly string[];
}

export interface SignatureAgentCard {
  client_id: string;
  client_name: string;
  client_uri: string;
  contacts: string[];
  jwks_uri?: string;
  jwks?: ReturnType<typeof keyDirectory>;
  web_bot_auth: {
    'expected-user-agent': string;
    'rfc9309-compliance': boolean;
    trigger: 'fetcher' | 'crawler';
    purpose: string;
    'targeted-content': string;
    'rate-control': string;
    'rate-expectation': string;
    'known-urls': string[];
  };
}

export function signatureAgentCard(f: AgentCardFacts): SignatureAgentCard {
  const base = f.baseUrl.replace(/\/+$/, '');
  // §3.1.2: jwks_uri MUST be https. A service on plain http (local runs) lists its key inline (§3.1.3); never both (§3.1.2).
  const keys = base.startsWith('https://') ? { jwks_uri: `${base}${KEY_DIRECTORY_PATH}` } : { jwks: keyDirectory(f.key) };
  return {
    // §3.1.1: the URL the card is fetched from, exactly.
    client_id: `${base}${AGENT_CARD_PATH}`,
    client_name: 'agent-readiness',
    client_uri: `${base}/methodology.md`,
    contacts: [f.contact],
    ...keys,
    web_bot_auth: {
      // Only our own requests carry our User-Agent and signature; the agents' requests we replay carry theirs, unsigned (methodology, probe disclosure).
      'expected-user-agent': f.userAgent.split(' ')[0]!,
      // We read robots.txt to report it, not to obey it: a scan asks for the home page whatever it says.
      'rfc9309-compliance': false,
      trigger: 'fetcher',
      purpose: 'measurement: how a site answers AI agents\' requests, reported to whoever asked for the scan; nothing fetched is used for training or search',
      'targeted-content': 'robots.txt, the home page and the well-known discovery files listed in known-urls',
      'rate-control': `a site can ask to be excluded (Contact: ${f.contact}); a domain is scanned at most ${f.scansPerDomain.points} times in a burst, then once every ${f.scansPerDomain.durationS} s, whoever asks`,
      'rate-expectation': `max=${f.concurrencyPerSite} concurrent requests per network and site; max=${f.maxRequestsPerScan} requests per scan; scans per domain: burst ${f.scansPerDomain.points}, then 1 per ${f.scansPerDomain.durationS} s`,
      'known-urls': ['/', '/robots.txt', ...f.knownPaths],
    },
  };
}
