/**
 * What the edges of the real vendors send, reduced to the markers that matter
 * (shared/research/domain-facts.md §2.1). Each function returns one edge
 * response; `presence` headers are what every response of a site behind the
 * vendor carries, mitigated or not. Values are fixed so runs are identical.
 */
export interface EdgeResponse {
  status: number;
  headers?: Record<string, string>;
  cookies?: string[];
  body?: string;
  /** A redirect target (sets Location). */
  location?: string;
}

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

export const cloudflare = {
  presence: { server: 'cloudflare', 'cf-ray': '8f00000000000001-FRA', 'cf-cache-status': 'DYNAMIC' } as Record<string, string>,
  challenge: (status = 403): EdgeResponse => ({ status, headers: { 'cf-mitigated': 'challenge', 'content-type': 'text/html; charset=UTF-8' }, body: page('Just a moment...', '<script>window._cf_chl_opt={cvId:"3"};</script><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script>') }),
  /** A managed challenge served with 200 (no cf-mitigated header; body markers only). */
  challenge200: (): EdgeResponse => ({ status: 200, headers: { 'content-type': 'text/html' }, body: page('Just a moment...', '<div id="challenge-form"></div><script>window._cf_chl_opt={};</script>') }),
  block1020: (): EdgeResponse => ({ status: 403, headers: { 'content-type': 'text/html' }, body: page('Attention Required! | Cloudflare', '<div id="cf-error-details"><h1>Sorry, you have been blocked</h1><span>Error code: 1020</span></div>') }),
  rateLimit1015: (): EdgeResponse => ({ status: 429, headers: { 'content-type': 'text/html', 'retry-after': '60' }, body: page('Access denied | rate limited', '<span>Error code: 1015</span> You are being rate limited') }),
};

export const akamai = {
  presence: { server: 'AkamaiGHost' } as Record<string, string>,
  presenceCookies: ['_abck=0~-1~x; Path=/', 'bm_sz=abc; Path=/'],
  block: (): EdgeResponse => ({ status: 403, headers: { 'content-type': 'text/html' }, body: '<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n You don\'t have permission to access "http&#58;&#47;&#47;site&#47;" on this server.<P>\nReference&#32;&#35;18&#46;2f3c1b17&#46;1700000000&#46;abcdef\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;2f3c1b17</P>\n</BODY>\n</HTML>\n' }),
  /** Bot Manager behavioural challenge answered with 200 and a small page. */
  challenge200: (): EdgeResponse => ({ status: 200, headers: { 'content-type': 'text/html' }, body: page('', '<div id="sec-if-cpt-container" class="behavioral-content"><script src="/_sec/cp_challenge/ak-challenge-4-3.js"></script></div>') }),
};

export const imperva = {
  presence: { 'x-iinfo': '10-1234567-0 0NNN RT(1700000000000 0) q(0 -1 -1 -1) r(0 -1)', 'x-cdn': 'Imperva' } as Record<string, string>,
  presenceCookies: ['visid_incap_123=abc; Path=/', 'incap_ses_1_123=def; Path=/'],
  /** The small interstitial that loads _Incapsula_Resource, with status 200. */
  interstitial200: (): EdgeResponse => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html><head><META NAME="robots" CONTENT="noindex,nofollow"><script src="/_Incapsula_Resource?SWJIYLWA=5074a744e2e3d891814e9a2dace20bd4,719d34d31c8e3a6e6fffd425f7e032f3"></script></head><body></body></html>' }),
  block: (): EdgeResponse => ({ status: 403, headers: { 'content-type': 'text/html' }, body: page('Request unsuccessful', 'Request unsuccessful. Incapsula incident ID: 1234000010000000001-0000000000000001') }),
};

export const datadome = {
  presence: { 'x-datadome': 'protected' } as Record<string, string>,
  challenge: (): EdgeResponse => ({ status: 403, headers: { 'x-datadome': 'protected', 'x-dd-b': '1', 'content-type': 'text/html' }, cookies: ['datadome=abc; Path=/'], body: '<html><head><title>example.com</title></head><body><script>var dd={"rt":"c","cid":"AHrlqAAA","hsh":"ABC","t":"fe","host":"geo.captcha-delivery.com"}</script><script src="https://ct.captcha-delivery.com/c.js"></script><iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=AHrlqAAA"></iframe></body></html>' }),
};

export const human = {
  presenceCookies: ['_pxhd=abc:def; Path=/'],
  challenge: (): EdgeResponse => ({ status: 403, headers: { 'content-type': 'text/html' }, body: page('Access to this page has been denied', '<div id="px-captcha"></div><p>Press &amp; Hold to confirm you are a human (and not a bot).</p><script>window._pxAppId="PXabc123";</script>') }),
  block: (): EdgeResponse => ({ status: 403, headers: { 'content-type': 'text/html' }, body: page('Access denied', 'Access to this page has been denied because we believe you are using automation tools to browse the website. <a href="https://www.perimeterx.com/whywasiblocked">why</a>') }),
};

export const awsWaf = {
  presence: { via: '1.1 0123456789abcdef.cloudfront.net (CloudFront)', 'x-amz-cf-id': 'fixed-cf-id-0001', 'x-cache': 'Miss from cloudfront' } as Record<string, string>,
  challenge: (): EdgeResponse => ({ status: 202, headers: { 'x-amzn-waf-action': 'challenge', 'content-type': 'text/html' }, body: page('', '<script>window.gokuProps = {"key":"AQID","iv":"A6weaQ","context":"x"};</script><script src="https://abc.edge.sdk.awswaf.com/abc/challenge.js"></script>') }),
  captcha: (): EdgeResponse => ({ status: 405, headers: { 'x-amzn-waf-action': 'captcha', 'content-type': 'text/html' }, body: page('', '<script src="https://captcha.awswaf.com/abc/jsapi.js"></script>') }),
  block: (): EdgeResponse => ({ status: 403, headers: { 'content-type': 'text/html', 'x-cache': 'Error from cloudfront' }, body: page('ERROR: The request could not be satisfied', '<h1>403 ERROR</h1><h2>The request could not be satisfied.</h2>Request blocked.') }),
};

export const vercel = {
  presence: { server: 'Vercel', 'x-vercel-id': 'fra1::abcde-1700000000000-000000000001', 'x-vercel-cache': 'MISS' } as Record<string, string>,
  challenge: (): EdgeResponse => ({ status: 429, headers: { 'x-vercel-mitigated': 'challenge', 'content-type': 'text/html' }, body: page('Vercel Security Checkpoint', '<script src="/.well-known/vercel/security/static/challenge.v2.min.js"></script>') }),
  deny: (): EdgeResponse => ({ status: 403, headers: { 'x-vercel-mitigated': 'deny', 'content-type': 'text/plain' }, body: 'Forbidden' }),
  /** Deployment Protection: a redirect to the sign-in page. */
  login: (to: string): EdgeResponse => ({ status: 307, location: to, headers: { 'content-type': 'text/plain' }, body: 'Redirecting...' }),
};

export const fastly = {
  presence: { 'x-served-by': 'cache-fra-etou8220021-FRA', via: '1.1 varnish', 'x-fastly-request-id': 'fixed0000000001' } as Record<string, string>,
  block406: (): EdgeResponse => ({ status: 406, headers: { 'content-type': 'text/html', 'x-sigsci-agentresponse': '406' }, body: page('Not Acceptable', '<h1>406 Not Acceptable</h1>') }),
  rateLimit: (): EdgeResponse => ({ status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '30' }, body: 'Too Many Requests' }),
};

export const sucuri = {
  presence: { server: 'Sucuri/Cloudproxy', 'x-sucuri-id': '18014' } as Record<string, string>,
  block: (): EdgeResponse => ({ status: 403, headers: { 'x-sucuri-block': 'BNP001', 'content-type': 'text/html' }, body: page('Sucuri WebSite Firewall - Access Denied', '<link rel="stylesheet" href="https://cdn.sucuri.net/sucuri-firewall-block.css">Access Denied - Sucuri Website Firewall') }),
  /** A deny page served with 200 (body markers only). */
  block200: (): EdgeResponse => ({ status: 200, headers: { 'content-type': 'text/html' }, body: page('Sucuri WebSite Firewall - Access Denied', 'Access Denied - Sucuri Website Firewall. Block ID: BNP001') }),
};

export const kasada = {
  /** Kasada's proof-of-work page: 429 with x-kpsdk-* headers is a challenge, not a rate limit. */
  challenge: (): EdgeResponse => ({ status: 429, headers: { 'x-kpsdk-ct': '0a1b2c3d', 'content-type': 'text/html' }, body: '<html><head><script src="/149e9513-01fa-4fb0-aad4-566afd725d1b/2d206a39-8ed7-437e-a3be-862e0f06eea3/ips.js"></script></head><body></body></html>' }),
};

export const azureFrontDoor = {
  presence: { 'x-azure-ref': '20261122T000000Z-0000000000000001' } as Record<string, string>,
  block: (): EdgeResponse => ({ status: 403, headers: { 'content-type': 'text/html' }, body: '<html><body><h2>The request is blocked.</h2><p>20261122T000000Z-0000000000000001</p></body></html>' }),
};

export const f5 = {
  /** BIG-IP ASM / NGINX App Protect default blocking page: served with status 200, only its text says so. */
  requestRejected200: (): EdgeResponse => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, cookies: ['TS01a2b3c4=01abcdef; Path=/'], body: '<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 7183054963294027311<br><br><a href=\'javascript:history.back();\'>[Go Back]</a></body></html>' }),
};

export const payPerCrawl = {
  /** Cloudflare pay per crawl: 402 with the price header (standards-2026.md §2.6). */
  offer: (): EdgeResponse => ({ status: 402, headers: { 'crawler-price': 'USD 0.01', 'content-type': 'text/plain' }, body: 'Payment required' }),
};
