/**
 * fingerprints-v1.1: built from the corpus of edge responses in test/fixtures/edges/
 * (wafw00f's plugins as the reference for markers, captured pages from cloudscraper and
 * is-antibot, vendors' documented templates). What changed against v1.0:
 *   - eighteen vendors added (F5 and NGINX App Protect, Wordfence, Anubis, Kasada's page
 *     markers, SiteGround, Distil, StackPath, ModSecurity, Azure Application Gateway, Google
 *     Cloud Armor, Netlify, Link11, Barracuda, FortiWeb, Radware, Reblaze, DDoS-Guard, ...);
 *   - deny pages served with status 200 are recognised by their body (F5's "Request
 *     Rejected" page is 200 by default), within a size bound so articles quoting them pass;
 *   - a sentence several vendors share ("Sorry, you have been blocked") no longer names
 *     Cloudflare on its own: Cloudflare needs its own markers beside it;
 *   - Cloudflare's legacy IUAM and captcha interstitials (jschl / cf_chl_*_tk__) are challenges.
 * fingerprints-v1.0 stays loadable (data/fingerprints-v1.0.ts) so archived reports keep the
 * name of the set that judged them.
 */
import type { VendorFingerprint } from './fingerprints-v1.0.ts';

/** Interstitials are small; a long article that quotes one is not one. */
const PAGE = 60_000;
/** Deny pages are smaller still (the largest in the corpus is under 5 KB). */
const DENY_PAGE = 25_000;

export const FINGERPRINTS_V1_1: readonly VendorFingerprint[] = [
  {
    id: 'cloudflare', name: 'Cloudflare',
    presence: { headers: [['server', '^cloudflare'], ['cf-ray', ''], ['cf-cache-status', '']], cookies: ['__cf_bm', '__cfduid', 'cf_clearance'] },
    challenge: [
      { headers: [['cf-mitigated', '^challenge$']] },
      // Not the bare /cdn-cgi/challenge-platform/ prefix: Bot Management injects .../scripts/jsd/ into ordinary pages.
      { body: ['<title>Just a moment...</title>', 'window._cf_chl_opt', '/cdn-cgi/challenge-platform/h/', 'cf_chl_jschl_tk__', 'cf_chl_captcha_tk__', 'id="cf-browser-verification"', 'name="jschl_answer"', 'id="jschl-answer"'], bodyMaxBytes: PAGE },
    ],
    rateLimit: [{ body: ['error code: 1015', 'error 1015'], statuses: [429, 403] }],
    deny: [
      { body: ['<title>Attention Required! | Cloudflare</title>', 'error code: 1020', 'error code: 1010', 'error code: 1005', 'error code: 1006', 'error code: 1012'], bodyMaxBytes: PAGE },
      { bodyAll: ['cf-error-details', 'you have been blocked'], bodyMaxBytes: PAGE },
      { bodyAll: ['Cloudflare Ray ID', 'you have been blocked'], bodyMaxBytes: PAGE },
    ],
  },
  {
    id: 'akamai', name: 'Akamai',
    presence: { headers: [['server', '^AkamaiGHost'], ['akamai-cache-status', ''], ['x-akamai-transformed', ''], ['x-akamai-session-info', '']], cookies: ['_abck', 'bm_sz', 'ak_bmsc', 'bm_sv'] },
    challenge: [{ body: ['sec-if-cpt', 'behavioral-content', 'bazadebezolkohpepadr', 'sec-cpt-if'], bodyMaxBytes: 20_000 }],
    // The title as well as the reference: an article explaining Akamai's page quotes the reference too.
    deny: ['errors.edgesuite.net', 'errors&#46;edgesuite&#46;net', 'Reference&#32;&#35;18&#46;', 'Reference #18.'].map((ref) => ({ bodyAll: ['<title>Access Denied</title>', ref], bodyMaxBytes: DENY_PAGE })),
  },
  {
    id: 'imperva', name: 'Imperva (Incapsula)',
    presence: { headers: [['x-iinfo', ''], ['x-cdn', '(Incapsula|Imperva)']], cookies: ['visid_incap_', 'incap_ses_', 'reese84', '___utmvc'] },
    // The incident page loads /_Incapsula_Resource too (CWUDNSAI=), so the deny text is checked first by
    // keeping the challenge to the JavaScript challenge's own resource parameter.
    challenge: [{ body: ['/_Incapsula_Resource?SWJIYLWA=', '/_Incapsula_Resource?SWKMTFSR='], bodyMaxBytes: 8_000 }],
    deny: [{ body: ['Incapsula incident ID', 'Request unsuccessful. Incapsula'], bodyMaxBytes: PAGE }, { bodyAll: ['This request was blocked by our security service', 'Imperva'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'distil', name: 'Distil Networks',
    presence: { headers: [['x-distil-cs', '']], cookies: ['D_UID', 'D_IID', 'D_ZID', 'D_ZUID', 'D_HID', 'D_SID'] },
    challenge: [{ body: ['distilCaptchaForm', 'distilCallbackGuard', 'distil_r_captcha'], bodyMaxBytes: PAGE }],
    deny: [{ body: ['cdn.distilnetworks.com/images/anomaly.detected.png', 'distil_r_blocked'], bodyMaxBytes: PAGE }],
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
    presence: { cookies: ['_px3', '_pxhd', '_pxvid', '_pxff_cc'], headers: [['x-px-authorization', '']], body: ['window._pxAppId', 'client.perimeterx.net', 'client.px-cloud.net'] },
    // Interstitials are small; an article that quotes "Press & Hold" is not one.
    challenge: [{ body: ['id="px-captcha"', 'Press &amp; Hold', 'Press & Hold', 'captcha.px-cdn.net'], bodyMaxBytes: 20_000 }],
    deny: [{ body: ['we believe you are using automation tools', 'perimeterx.com/whywasiblocked'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'aws-waf', name: 'AWS WAF / CloudFront',
    presence: { headers: [['x-amz-cf-id', ''], ['via', 'cloudfront'], ['x-amzn-waf-action', ''], ['server', '^CloudFront$']], cookies: ['aws-waf-token', 'AWSALB'] },
    challenge: [
      { headers: [['x-amzn-waf-action', '^(challenge|captcha)$']] },
      { body: ['gokuProps', 'awsWafCookieDomainList', 'captcha.awswaf.com'], statuses: [202, 405, 403, 200] },
    ],
    deny: [
      { headers: [['x-blocked-by-waf', '']] },
      { body: ['The request could not be satisfied'], statuses: [403] },
      { headers: [['x-cache', '^Error from cloudfront']], statuses: [403] },
    ],
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
    presence: { headers: [['server', '^Sucuri'], ['x-sucuri-id', ''], ['x-sucuri-cache', '']], cookies: ['sucuri_cloudproxy_uuid_'] },
    challenge: [{ body: ['sucuri_cloudproxy_js'], bodyMaxBytes: 20_000 }],
    deny: [
      { headers: [['x-sucuri-block', '']] },
      { body: ['Sucuri WebSite Firewall - Access Denied', 'Sucuri WebSite Firewall - CloudProxy - Access Denied', 'sucuri-firewall-block.css', 'GoDaddy Security - Access Denied', 'cloudproxy@sucuri.net'], bodyMaxBytes: PAGE },
    ],
  },
  {
    id: 'kasada', name: 'Kasada',
    presence: { cookies: ['KP_UIDz'], headers: [['x-kpsdk-ct', ''], ['x-kasada', '']] },
    challenge: [{ headers: [['x-kpsdk-ct', '']], statuses: [429] }, { body: ['KPSDK.now', 'window.KPSDK', '__kasada', 'kasada.js'], bodyMaxBytes: 20_000 }],
  },
  {
    id: 'f5', name: 'F5 (BIG-IP ASM / Advanced WAF, NGINX App Protect)',
    presence: { headers: [['server', '^(BigIP|BIG-IP)'], ['x-volterra-location', '']], cookies: ['BIGipServer', 'F5_', 'MRHSession', 'TS01'] },
    // The default blocking page is served with status 200: only its text says it is one.
    deny: [{ bodyAll: ['The requested URL was rejected', 'Please consult with your administrator'], bodyMaxBytes: 20_000 }],
  },
  {
    id: 'azure-front-door', name: 'Azure Front Door',
    presence: { headers: [['x-azure-ref', '']] },
    deny: [{ body: ['The request is blocked.'], statuses: [403], bodyMaxBytes: PAGE }],
  },
  {
    id: 'azure-app-gateway', name: 'Azure Application Gateway',
    presence: { headers: [['server', '^Microsoft-Azure-Application-Gateway']], body: ['<center>Microsoft-Azure-Application-Gateway/v2</center>'], bodyMaxBytes: 5_000 },
    deny: [{ bodyAll: ['Microsoft-Azure-Application-Gateway', '403 Forbidden'], bodyMaxBytes: 5_000 }],
  },
  {
    id: 'google-cloud-armor', name: 'Google Cloud Armor',
    presence: { headers: [['via', '^1\\.1 google$']] },
  },
  {
    id: 'netlify', name: 'Netlify',
    presence: { headers: [['server', '^Netlify'], ['x-nf-request-id', '']] },
  },
  {
    id: 'stackpath', name: 'StackPath',
    presence: { headers: [['x-sp-url', ''], ['x-sp-waf', '']] },
    deny: [
      // A title alone is not enough: an article comparing StackPath with others is titled so too.
      { bodyAll: ['<title>StackPath', 'blocked your request'], bodyMaxBytes: DENY_PAGE },
      { body: ['Protected by <a href="https://www.stackpath.com/"'], bodyMaxBytes: DENY_PAGE },
      { bodyAll: ['is using a security service for protection against online attacks', 'An action has triggered the service and blocked your request'], bodyMaxBytes: PAGE },
    ],
  },
  {
    id: 'wordfence', name: 'Wordfence',
    presence: { headers: [['server', 'wf[_-]?WAF']] },
    // Wordfence blocks with 503: its page, not the status, says it is a block.
    deny: [{ body: ['Generated by Wordfence', 'Wordfence blocking rules', 'Your access to this site has been limited by the site owner'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'modsecurity', name: 'ModSecurity (OWASP CRS)',
    presence: { headers: [['server', '(mod_security|Mod_Security|NOYB)']] },
    deny: [{ body: ['This error was generated by Mod_Security', 'This error was generated by ModSecurity', 'rules of the mod_security module', 'mod_security rules triggered', 'Protected by Mod Security'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'anubis', name: 'Anubis',
    presence: { body: ['github.com/TecharoHQ/anubis'], bodyMaxBytes: PAGE },
    challenge: [{ body: ['<script id="anubis_challenge"', '/.within.website/x/cmd/anubis/', '<script id="anubis_version"'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'link11', name: 'Link11',
    presence: { headers: [['server', '^rhino-core-shield']] },
  },
  {
    id: 'barracuda', name: 'Barracuda',
    presence: { cookies: ['barra_counter_session', 'BNI__BARRACUDA_LB_COOKIE', 'BNI_persistence', 'BNES_', 'BNIS_'] },
    deny: [{ bodyAll: ['Barracuda Networks', 'blocked'], bodyMaxBytes: 20_000 }],
  },
  {
    id: 'fortiweb', name: 'FortiWeb',
    presence: { cookies: ['FORTIWAFSID'] },
    deny: [{ bodyAll: ['fgd_icon', 'Web Page Blocked'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'radware', name: 'Radware',
    presence: { headers: [['x-sl-compstate', '']], body: ['CloudWebSec.radware.com'], bodyMaxBytes: PAGE },
    deny: [{ bodyAll: ['Unauthorized Request Blocked', 'because we have detected unauthorized activity'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'reblaze', name: 'Reblaze',
    presence: { headers: [['server', 'Reblaze Secure Web Gateway']], cookies: ['rbzid', 'rbzsessionid'] },
    deny: [{ bodyAll: ['current session has been terminated', 'do not hesitate to contact us'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'siteground', name: 'SiteGround',
    presence: {},
    challenge: [{ body: ['Our system thinks you might be a robot!', '/.well-known/sgcaptcha/', 'sgcaptcha'], bodyMaxBytes: PAGE }],
    deny: [{ body: ['access is restricted due to a security rule'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'ddos-guard', name: 'DDoS-Guard',
    presence: { headers: [['server', '^ddos-guard']], cookies: ['__ddg1', '__ddg2', '__ddgid', '__ddgmark'] },
    challenge: [{ body: ['<title>DDoS-Guard</title>', 'check.ddos-guard.net'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'imunify360', name: 'Imunify360',
    presence: { headers: [['server', '^imunify360']] },
    challenge: [{ body: ['imunify360.preloader', 'imunify360-webshield'], bodyMaxBytes: PAGE }],
    deny: [{ body: ['protected by imunify360', 'Powered by Imunify360'], bodyMaxBytes: 20_000 }],
  },
  {
    id: 'sina-visitor', name: 'Sina Visitor System',
    presence: {},
    challenge: [{ body: ['<title>Sina Visitor System</title>'], bodyMaxBytes: 20_000 }],
  },
];
