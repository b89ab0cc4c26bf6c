/**
 * Evidence anyone can replay: the exact request a probe sent, as data and as one line of
 * `curl` that repeats it (same method, URL, headers, redirect limit). Every argument is
 * single-quoted for a POSIX shell, so a URL or header value taken from a site (follow-ups
 * come from its llms.txt, robots.txt or Link headers) can never break out of its quotes.
 */

/** Single-quotes a word for sh/bash/zsh: `'` becomes `'\''`. */
export function shellQuote(word: string): string {
  // The regex only when there is a quote to escape: this runs for every header of every probe.
  return word.includes("'") ? `'${word.replace(/'/g, `'\\''`)}'` : `'${word}'`;
}

/** A header value or URL on one line: line breaks (never sent, but kept out of the command) become spaces. */
const oneLine = (s: string, by: string): string => (s.includes('\n') || s.includes('\r') ? s.replace(/[\r\n]+/g, by) : s);

/** The probes' own header names, cased once (every probe sends some of these). */
const CASED: ReadonlyMap<string, string> = new Map(
  ['user-agent', 'accept', 'accept-language', 'accept-encoding', 'signature', 'signature-input', 'signature-agent'].map((n) => [n, caseHeader(n)]),
);

const headerCase = (name: string): string => CASED.get(name) ?? caseHeader(name);

/**
 * Header names as HTTP/1.1 writes them conventionally (user-agent -> User-Agent). A loop, not a
 * regex replace with a callback: this runs for every header of every probe, at a third the cost.
 */
function caseHeader(name: string): string {
  let out = '';
  let up = true;
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    out += up ? c.toUpperCase() : c;
    up = c === '-';
  }
  return out;
}

/**
 * One line of curl repeating the request: `-sS -i` shows the status and headers, `-L
 * --max-redirs 5` follows redirects as the scanner does, `--compressed` decodes what
 * Accept-Encoding asked for. Host is implied by the URL, so it is not repeated.
 */
export function curlCommand(method: string, url: string, headers: Readonly<Record<string, string>>): string {
  const parts = ['curl', '-sS', '-i', '-L', '--max-redirs', '5', '--compressed'];
  if (method !== 'GET') parts.push('-X', shellQuote(method));
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'host') continue;
    parts.push('-H', shellQuote(`${headerCase(name)}: ${oneLine(value, ' ')}`));
  }
  parts.push(shellQuote(oneLine(url, '')));
  return parts.join(' ');
}
