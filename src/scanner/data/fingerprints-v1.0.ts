/**
 * fingerprints-v1.0: how to recognise an edge vendor on a response, and whether
 * that response is the vendor's challenge, deny or rate-limit page.
 *
 * Facts come from shared/research/domain-facts.md §2.1 (vendor docs and the
 * open-source detectors it cites); the selection and wording are ours.
 * Presence markers only attribute a vendor: a CDN's presence is not a block.
 * Header markers are matched on named mitigation headers only (never on
 * every header: CSP values that mention a vendor are not evidence).
 * Strings are matched case-insensitively; header values are regex sources.
 */
export interface MarkerSet {
  /** [header name, regex source for its value ('' = any value)] */
  headers?: ReadonlyArray<readonly [string, string]>;
  /** Set-Cookie name prefixes. */
  cookies?: readonly string[];
  /** Body substrings (any one). */
  body?: readonly string[];
  /** Body substrings that must all be present (from fingerprints-v1.1). */
  bodyAll?: readonly string[];
  /**
   * From fingerprints-v1.2, markers read the page as a browser renders it (src/scanner/rendered.ts)
   * instead of its bytes: `text` on what a reader sees, title included; `markup` on the page
   * written out canonically (`<title>just a moment...</title>`, `id="px-captcha"`). Any one of
   * `text` or `markup` matches; or every one of `textAll` and `markupAll` together.
   */
  text?: readonly string[];
  markup?: readonly string[];
  textAll?: readonly string[];
  markupAll?: readonly string[];
  /** A regular expression the rendered text must match as well, with textAll and markupAll (v1.2). */
  textPattern?: string;
  /** Rendered text that vetoes the set: a page saying one of these is not of this set's kind (v1.2). */
  unless?: readonly string[];
  /** Body markers count only on pages at most this large (interstitials are small). */
  bodyMaxBytes?: number;
  /** Markers count only with one of these statuses. */
  statuses?: readonly number[];
}

export interface VendorFingerprint {
  id: string;
  name: string;
  presence: MarkerSet;
  challenge?: MarkerSet[];
  deny?: MarkerSet[];
  rateLimit?: MarkerSet[];
}

export const FINGERPRINTS_V1_0: readonly VendorFingerprint[] = [
  {
    id: 'cloudflare', name: 'Cloudflare',
    presence: { headers: [['server', '^cloudflare'], ['cf-ray', ''], ['cf-cache-status', '']], cookies: ['__cf_bm', '__cfduid', 'cf_clearance'] },
    challenge: [
      { headers: [['cf-mitigated', '^challenge$']] },
      // Not the bare /cdn-cgi/challenge-platform/ prefix: Bot Management injects .../scripts/jsd/ into ordinary pages.
      { body: ['<title>Just a moment...</title>', 'window._cf_chl_opt', '/cdn-cgi/challenge-platform/h/'] },
    ],
    rateLimit: [{ body: ['error code: 1015', 'error 1015'], statuses: [429, 403] }],
    deny: [{ body: ['<title>Attention Required! | Cloudflare</title>', 'Sorry, you have been blocked', 'cf-error-details', 'error code: 1020', 'error code: 1010', 'error code: 1005', 'error code: 1006'] }],
  },
  {
    id: 'akamai', name: 'Akamai',
    presence: { headers: [['server', '^AkamaiGHost'], ['akamai-cache-status', ''], ['x-akamai-transformed', '']], cookies: ['_abck', 'bm_sz', 'ak_bmsc', 'bm_sv'] },
    challenge: [{ body: ['sec-if-cpt', 'behavioral-content', 'bazadebezolkohpepadr'], bodyMaxBytes: 20_000 }],
    deny: [{ body: ['errors.edgesuite.net', 'Reference&#32;&#35;18&#46;', 'Reference #18.'] }],
  },
  {
    id: 'imperva', name: 'Imperva',
    presence: { headers: [['x-iinfo', ''], ['x-cdn', '(Incapsula|Imperva)']], cookies: ['visid_incap_', 'incap_ses_', 'reese84', '___utmvc'] },
    challenge: [{ body: ['/_Incapsula_Resource'], bodyMaxBytes: 8_000 }],
    deny: [{ body: ['Incapsula incident ID', 'Request unsuccessful. Incapsula'] }],
  },
  {
    id: 'datadome', name: 'DataDome',
    presence: { headers: [['x-datadome', ''], ['x-datadome-cid', ''], ['server', '^DataDome']], cookies: ['datadome'] },
    challenge: [
      { headers: [['x-dd-b', '^[12]$']] },
      { body: ['geo.captcha-delivery.com/captcha', 'geo.captcha-delivery.com/interstitial', 'ct.captcha-delivery.com'], bodyMaxBytes: 50_000 },
    ],
  },
  {
    id: 'human', name: 'HUMAN (PerimeterX)',
    presence: { cookies: ['_px3', '_pxhd', '_pxvid', '_pxff_cc'], body: ['window._pxAppId', 'client.perimeterx.net', 'client.px-cloud.net'] },
    // Interstitials are small; an article that quotes "Press & Hold" is not one.
    challenge: [{ body: ['id="px-captcha"', 'Press &amp; Hold', 'Press & Hold', 'captcha.px-cdn.net'], bodyMaxBytes: 50_000 }],
    deny: [{ body: ['we believe you are using automation tools', 'perimeterx.com/whywasiblocked'] }],
  },
  {
    id: 'aws-waf', name: 'AWS WAF',
    presence: { headers: [['x-amz-cf-id', ''], ['via', 'cloudfront'], ['x-amzn-waf-action', '']], cookies: ['aws-waf-token', 'AWSALB'] },
    challenge: [
      { headers: [['x-amzn-waf-action', '^(challenge|captcha)$']] },
      { body: ['gokuProps', 'awsWafCookieDomainList', 'captcha.awswaf.com'], statuses: [202, 405, 403, 200] },
    ],
    deny: [{ headers: [['x-blocked-by-waf', '']] }, { body: ['The request could not be satisfied'], statuses: [403] }],
  },
  {
    id: 'vercel', name: 'Vercel',
    presence: { headers: [['server', '^Vercel'], ['x-vercel-id', ''], ['x-vercel-cache', '']] },
    challenge: [{ headers: [['x-vercel-mitigated', '^challenge$']] }, { body: ['<title>Vercel Security Checkpoint</title>', '/vercel/security/'], bodyMaxBytes: 50_000 }],
    deny: [{ headers: [['x-vercel-mitigated', '^deny$']] }],
  },
  {
    id: 'fastly', name: 'Fastly',
    presence: { headers: [['x-served-by', '^cache-'], ['x-fastly-request-id', ''], ['fastly-debug-digest', ''], ['x-sigsci-requestid', ''], ['x-sigsci-agentresponse', '']] },
    // Next-Gen WAF blocks with 406 by default; that is already a block by status.
    deny: [{ headers: [['x-sigsci-agentresponse', '^(406|403)$']] }],
  },
  {
    id: 'sucuri', name: 'Sucuri',
    presence: { headers: [['server', '^Sucuri'], ['x-sucuri-id', ''], ['x-sucuri-cache', '']] },
    deny: [{ headers: [['x-sucuri-block', '']] }, { body: ['Sucuri WebSite Firewall - Access Denied', 'sucuri-firewall-block.css', 'GoDaddy Security - Access Denied'] }],
  },
  {
    id: 'kasada', name: 'Kasada',
    presence: { cookies: ['KP_UIDz'], headers: [['x-kpsdk-ct', '']] },
    challenge: [{ headers: [['x-kpsdk-ct', '']], statuses: [429] }],
  },
  {
    id: 'azure-front-door', name: 'Azure Front Door',
    presence: { headers: [['x-azure-ref', '']] },
    deny: [{ body: ['The request is blocked.'], statuses: [403] }],
  },
];
