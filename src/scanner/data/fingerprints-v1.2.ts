/**
 * fingerprints-v1.2: the markers of fingerprints-v1.1, read on the page as a browser renders it
 * (src/scanner/rendered.ts) instead of on its bytes, and corrected on captured pages
 * (test/fixtures/edges/, fidelity captured-*). What changed against v1.1:
 *   - every body marker that decides an outcome is a `text` marker (a sentence a reader sees,
 *     title included) or a `markup` marker (a tag, attribute or script in canonical form), so a
 *     block page with its lines re-wrapped, its indentation changed, its text entity-encoded,
 *     its tags upper-cased, its attributes unquoted or its whitespace minified reads as the
 *     template does (test/scanner/edge-mutations.test.ts). v1.1 listed Akamai's and HUMAN's
 *     entity-encoded spellings one by one; they are now one marker each;
 *   - Anubis's challenge is known by its script ids wherever they sit in the tag;
  *   - AWS WAF's challenge and CloudFront's deny text are read only on pages of at most 60 KB, as
 *     every other vendor's are, so a long ordinary page is never parsed for them;
 *   - Cloudflare: /cdn-cgi/challenge-platform/h/ alone no longer means a challenge (ordinary pages
 *     load .../h/b/scripts/jsd/ through it; a challenge loads .../orchestrate/), and the 2019
 *     captcha page titled "Attention Required!" is a challenge by its captcha form, not a block;
 *   - Imperva: the 2017 incident page is a block although it loads the challenge script; the older
 *     inline JavaScript challenge and the captcha page ("Additional security check is required")
 *     are challenges;
 *   - F5: a blocking page whose words a site rewrote or translated is known by its title or its
 *     support ID;
 *   - six vendors whose block pages were captured: Indus Guard, Nexusguard, NGUARDX, Red Shield,
 *     ConfigServer Security & Firewall, HAProxy.
 * Presence markers that are script code (HUMAN's app id) stay byte markers: code is not
 * rendered, and presence never decides an outcome.
 * fingerprints-v1.0 and v1.1 stay loadable so archived reports keep the name of the set that
 * judged them.
 */
import type { VendorFingerprint } from './fingerprints-v1.0.ts';

/** Interstitials are small; a long article that quotes one is not one. */
const PAGE = 60_000;
/** Deny pages are smaller still. */
const DENY_PAGE = 25_000;

export const FINGERPRINTS_V1_2: readonly VendorFingerprint[] = [
  {
    id: 'cloudflare', name: 'Cloudflare',
    presence: { headers: [['server', '^cloudflare'], ['cf-ray', ''], ['cf-cache-status', '']], cookies: ['__cf_bm', '__cfduid', 'cf_clearance'] },
    challenge: [
      { headers: [['cf-mitigated', '^challenge$']] },
      // Not /cdn-cgi/challenge-platform/h/ alone: Bot Management injects .../h/b/scripts/jsd/ into ordinary
      // pages; a challenge page loads .../orchestrate/. The 2019 captcha page is titled like the block page
      // ("Attention Required!") and is told apart by its captcha form.
      {
        markup: ['<title>Just a moment...</title>', 'window._cf_chl_opt', '/orchestrate/chl_page/', '/orchestrate/jsch/', '/orchestrate/managed/', '/orchestrate/captcha/',
          'cf_chl_jschl_tk__', 'cf_chl_captcha_tk__', 'id="cf-browser-verification"', 'name="jschl_answer"', 'id="jschl-answer"', '/cdn-cgi/l/chk_captcha', 'cf-captcha-container', 'data-translate="challenge_headline"'],
        bodyMaxBytes: PAGE,
      },
      // The form and script of a challenge are tags and code, never text an article could quote, so they
      // count on a page of any size (a site's customised challenge page of 253 KB among the captures).
      { markup: ['name="jschl_answer"', 'window._cf_chl_opt', '/cdn-cgi/l/chk_captcha'] },
    ],
    rateLimit: [{ text: ['error code: 1015', 'error 1015'], statuses: [429, 403] }],
    deny: [
      { markup: ['<title>Attention Required! | Cloudflare</title>'], text: ['error code: 1020', 'error code: 1010', 'error code: 1005', 'error code: 1006', 'error code: 1012'], bodyMaxBytes: PAGE },
      { markupAll: ['cf-error-details'], textAll: ['you have been blocked'], bodyMaxBytes: PAGE },
      { textAll: ['Cloudflare Ray ID', 'you have been blocked'], bodyMaxBytes: PAGE },
    ],
  },
  {
    id: 'akamai', name: 'Akamai',
    presence: { headers: [['server', '^AkamaiGHost'], ['akamai-cache-status', ''], ['x-akamai-transformed', ''], ['x-akamai-session-info', '']], cookies: ['_abck', 'bm_sz', 'ak_bmsc', 'bm_sv'] },
    challenge: [{ markup: ['sec-if-cpt', 'behavioral-content', 'bazadebezolkohpepadr', 'sec-cpt-if'], bodyMaxBytes: 20_000 }],
    // The title as well as the reference: an article explaining Akamai's page quotes the reference too.
    deny: ['errors.edgesuite.net', 'Reference #18.'].map((ref) => ({ markupAll: ['<title>Access Denied</title>'], textAll: [ref], bodyMaxBytes: DENY_PAGE })),
  },
  {
    id: 'imperva', name: 'Imperva (Incapsula)',
    presence: { headers: [['x-iinfo', ''], ['x-cdn', '(Incapsula|Imperva)']], cookies: ['visid_incap_', 'incap_ses_', 'reese84', '___utmvc'] },
    // The incident page loads /_Incapsula_Resource too (CWUDNSAI=), so the challenge is kept to the
    // JavaScript challenge's own resource parameters.
    challenge: [
      // The 2017 incident page loads the SWJIYLWA script as well: the incident text says it is a block.
      { markup: ['/_Incapsula_Resource?SWJIYLWA=', '/_Incapsula_Resource?SWKMTFSR='], unless: ['Incapsula incident ID'], bodyMaxBytes: 8_000 },
      // The older JavaScript challenge digests the incap_ses_ cookies into ___utmvc in an inline script.
      { markup: ['content.incapsula.com/jsTest.html'], markupAll: ['incap_ses_', '___utmvc'], bodyMaxBytes: 20_000 },
      { textAll: ['Additional security check is required', 'Incapsula'], bodyMaxBytes: PAGE },
    ],
    deny: [{ text: ['Incapsula incident ID', 'Request unsuccessful. Incapsula'], bodyMaxBytes: PAGE }, { textAll: ['This request was blocked by our security service', 'Imperva'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'distil', name: 'Distil Networks',
    presence: { headers: [['x-distil-cs', '']], cookies: ['D_UID', 'D_IID', 'D_ZID', 'D_ZUID', 'D_HID', 'D_SID'] },
    challenge: [{ markup: ['distilCaptchaForm', 'distilCallbackGuard', 'distil_r_captcha'], bodyMaxBytes: PAGE }],
    deny: [{ markup: ['cdn.distilnetworks.com/images/anomaly.detected.png', 'distil_r_blocked'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'datadome', name: 'DataDome',
    presence: { headers: [['x-datadome', ''], ['x-datadome-cid', ''], ['server', '^DataDome']], cookies: ['datadome'] },
    challenge: [
      { headers: [['x-dd-b', '^[12]$']] },
      { markup: ['geo.captcha-delivery.com/captcha', 'geo.captcha-delivery.com/interstitial', 'ct.captcha-delivery.com'], bodyMaxBytes: 50_000 },
    ],
  },
  {
    id: 'human', name: 'HUMAN (PerimeterX)',
    presence: { cookies: ['_px3', '_pxhd', '_pxvid', '_pxff_cc'], headers: [['x-px-authorization', '']], body: ['window._pxAppId', 'client.perimeterx.net', 'client.px-cloud.net'] },
    // Interstitials are small; an article that quotes "Press & Hold" is not one.
    challenge: [{ markup: ['id="px-captcha"', 'captcha.px-cdn.net'], text: ['Press & Hold'], bodyMaxBytes: 20_000 }],
    deny: [{ text: ['we believe you are using automation tools'], markup: ['perimeterx.com/whywasiblocked'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'aws-waf', name: 'AWS WAF / CloudFront',
    presence: { headers: [['x-amz-cf-id', ''], ['via', 'cloudfront'], ['x-amzn-waf-action', ''], ['server', '^CloudFront$']], cookies: ['aws-waf-token', 'AWSALB'] },
    challenge: [
      { headers: [['x-amzn-waf-action', '^(challenge|captcha)$']] },
      { markup: ['gokuProps', 'awsWafCookieDomainList', 'captcha.awswaf.com'], statuses: [202, 405, 403, 200], bodyMaxBytes: PAGE },
    ],
    deny: [
      { headers: [['x-blocked-by-waf', '']] },
      { text: ['The request could not be satisfied'], statuses: [403], bodyMaxBytes: PAGE },
      { headers: [['x-cache', '^Error from cloudfront']], statuses: [403] },
    ],
  },
  {
    id: 'vercel', name: 'Vercel',
    presence: { headers: [['server', '^Vercel'], ['x-vercel-id', ''], ['x-vercel-cache', '']] },
    challenge: [{ headers: [['x-vercel-mitigated', '^challenge$']] }, { markup: ['<title>Vercel Security Checkpoint</title>', '/vercel/security/'], bodyMaxBytes: 50_000 }],
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
    challenge: [{ markup: ['sucuri_cloudproxy_js'], bodyMaxBytes: 20_000 }],
    deny: [
      { headers: [['x-sucuri-block', '']] },
      { text: ['Sucuri WebSite Firewall - Access Denied', 'Sucuri WebSite Firewall - CloudProxy - Access Denied', 'GoDaddy Security - Access Denied', 'cloudproxy@sucuri.net'], markup: ['sucuri-firewall-block.css'], bodyMaxBytes: PAGE },
    ],
  },
  {
    id: 'kasada', name: 'Kasada',
    presence: { cookies: ['KP_UIDz'], headers: [['x-kpsdk-ct', ''], ['x-kasada', '']] },
    challenge: [{ headers: [['x-kpsdk-ct', '']], statuses: [429] }, { markup: ['KPSDK.now', 'window.KPSDK', '__kasada', 'kasada.js'], bodyMaxBytes: 20_000 }],
  },
  {
    id: 'f5', name: 'F5 (BIG-IP ASM / Advanced WAF, NGINX App Protect)',
    presence: { headers: [['server', '^(BigIP|BIG-IP)'], ['x-volterra-location', '']], cookies: ['BIGipServer', 'F5_', 'MRHSession', 'TS01'] },
    // The default blocking page is served with status 200: only its text says it is one.
    deny: [
      { textAll: ['The requested URL was rejected', 'Please consult with your administrator'], bodyMaxBytes: 20_000 },
      // Sites rewrite the page's words and keep its title, or its "support ID ...: <number of up to twenty digits>".
      { markupAll: ['<title>Request Rejected</title>'], textAll: ['support ID'], bodyMaxBytes: 5_000 },
      { textAll: ['support ID'], textPattern: 'support id[^:\\d]{0,40}:\\s*\\d{15,20}', bodyMaxBytes: 5_000 },
    ],
  },
  {
    id: 'azure-front-door', name: 'Azure Front Door',
    presence: { headers: [['x-azure-ref', '']] },
    deny: [{ text: ['The request is blocked.'], statuses: [403], bodyMaxBytes: PAGE }],
  },
  {
    id: 'azure-app-gateway', name: 'Azure Application Gateway',
    presence: { headers: [['server', '^Microsoft-Azure-Application-Gateway']], text: ['Microsoft-Azure-Application-Gateway/v2'], bodyMaxBytes: 5_000 },
    deny: [{ textAll: ['Microsoft-Azure-Application-Gateway', '403 Forbidden'], bodyMaxBytes: 5_000 }],
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
      { markupAll: ['<title>StackPath'], textAll: ['blocked your request'], bodyMaxBytes: DENY_PAGE },
      { markupAll: ['href="https://www.stackpath.com/"'], textAll: ['Protected by StackPath'], bodyMaxBytes: DENY_PAGE },
      { textAll: ['is using a security service for protection against online attacks', 'An action has triggered the service and blocked your request'], bodyMaxBytes: PAGE },
    ],
  },
  {
    id: 'wordfence', name: 'Wordfence',
    presence: { headers: [['server', 'wf[_-]?WAF']] },
    // Wordfence blocks with 503: its page, not the status, says it is a block.
    deny: [{ text: ['Generated by Wordfence', 'Wordfence blocking rules', 'Your access to this site has been limited by the site owner'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'modsecurity', name: 'ModSecurity (OWASP CRS)',
    presence: { headers: [['server', '(mod_security|Mod_Security|NOYB)']] },
    deny: [{ text: ['This error was generated by Mod_Security', 'This error was generated by ModSecurity', 'rules of the mod_security module', 'mod_security rules triggered', 'Protected by Mod Security'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'anubis', name: 'Anubis',
    presence: { markup: ['github.com/TecharoHQ/anubis'], bodyMaxBytes: PAGE },
    challenge: [{ markup: ['id="anubis_challenge"', '/.within.website/x/cmd/anubis/', 'id="anubis_version"'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'link11', name: 'Link11',
    presence: { headers: [['server', '^rhino-core-shield']] },
  },
  {
    id: 'barracuda', name: 'Barracuda',
    presence: { cookies: ['barra_counter_session', 'BNI__BARRACUDA_LB_COOKIE', 'BNI_persistence', 'BNES_', 'BNIS_'] },
    deny: [{ textAll: ['Barracuda Networks', 'blocked'], bodyMaxBytes: 20_000 }],
  },
  {
    id: 'fortiweb', name: 'FortiWeb',
    presence: { cookies: ['FORTIWAFSID'] },
    deny: [{ markupAll: ['fgd_icon'], textAll: ['Web Page Blocked'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'radware', name: 'Radware',
    presence: { headers: [['x-sl-compstate', '']], markup: ['CloudWebSec.radware.com'], bodyMaxBytes: PAGE },
    deny: [{ textAll: ['Unauthorized Request Blocked', 'because we have detected unauthorized activity'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'reblaze', name: 'Reblaze',
    presence: { headers: [['server', 'Reblaze Secure Web Gateway']], cookies: ['rbzid', 'rbzsessionid'] },
    deny: [{ textAll: ['current session has been terminated', 'do not hesitate to contact us'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'siteground', name: 'SiteGround',
    presence: {},
    challenge: [{ text: ['Our system thinks you might be a robot!'], markup: ['/.well-known/sgcaptcha/', 'sgcaptcha'], bodyMaxBytes: PAGE }],
    deny: [{ text: ['access is restricted due to a security rule'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'ddos-guard', name: 'DDoS-Guard',
    presence: { headers: [['server', '^ddos-guard']], cookies: ['__ddg1', '__ddg2', '__ddgid', '__ddgmark'] },
    challenge: [{ markup: ['<title>DDoS-Guard</title>', 'check.ddos-guard.net'], bodyMaxBytes: PAGE }],
  },
  {
    id: 'imunify360', name: 'Imunify360',
    presence: { headers: [['server', '^imunify360']] },
    challenge: [{ markup: ['imunify360.preloader', 'imunify360-webshield'], bodyMaxBytes: PAGE }],
    deny: [{ text: ['protected by imunify360', 'Powered by Imunify360'], bodyMaxBytes: 20_000 }],
  },
  {
    id: 'indusguard', name: 'Indus Guard',
    presence: { headers: [['server', '^IF_WAF']] },
    deny: [{ text: ['This website is secured against online attacks. Your request was blocked due to suspicious behavior'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'nexusguard', name: 'Nexusguard',
    presence: {},
    // An empty page whose iframe loads the vendor's block page.
    deny: [{ markup: ['speresources.nexusguard.com/wafpage'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'nguardx', name: 'NGUARDX',
    presence: { headers: [['server', '^NGUARDX']] },
    deny: [{ text: ['Your request to this object is blocked due to security rules'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'redshield', name: 'Red Shield',
    presence: {},
    deny: [{ markup: ['mailto:support@red-shield.net'], bodyMaxBytes: DENY_PAGE }, { textAll: ['Your request has been blocked for security purposes', 'Support ID'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'configserver-csf', name: 'ConfigServer Security & Firewall (cPanel)',
    presence: {},
    deny: [{ text: ["Your connection to this server has been blocked in this server's firewall"], markup: ['csf_small.png'], bodyMaxBytes: DENY_PAGE }],
  },
  {
    id: 'haproxy', name: 'HAProxy',
    presence: {},
    // HAProxy's built-in answer to a deny rule: a few dozen bytes, whatever the status it is given.
    deny: [{ text: ['Request forbidden by administrative rules.'], bodyMaxBytes: 1_000 }],
  },
  {
    id: 'sina-visitor', name: 'Sina Visitor System',
    presence: {},
    challenge: [{ markup: ['<title>Sina Visitor System</title>'], bodyMaxBytes: 20_000 }],
  },
];
