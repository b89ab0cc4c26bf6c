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

/**
 * One line of curl repeating the request: `-sS -i` shows the status and headers, `-L
 * --max-redirs 5` follows redirects as the scanner does, `--compressed` decodes what
 * Accept-Encoding asked for. Host is implied by the URL, so it is not repeated; curl writes it
 * (and no Connection) itself, so a replay differs from the probe in those two lines only.
 */
export function curlCommand(method: string, url: string, headers: Readonly<Record<string, string>>): string {
  const parts = ['curl', '-sS', '-i', '-L', '--max-redirs', '5', '--compressed'];
  if (method !== 'GET') parts.push('-X', shellQuote(method));
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'host') continue;
    // The name as it was sent: curl sends -H names in the case given, so the replay matches byte for byte.
    parts.push('-H', shellQuote(`${name}: ${oneLine(value, ' ')}`));
  }
  // curl adds `Accept: */*` of its own unless told not to; an agent that sends none (PerplexityBot) sends none.
  if (!Object.keys(headers).some((n) => n.toLowerCase() === 'accept')) parts.push('-H', shellQuote('Accept:'));
  parts.push(shellQuote(oneLine(url, '')));
  return parts.join(' ');
}
