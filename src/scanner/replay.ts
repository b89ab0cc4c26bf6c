/**
 * Evidence anyone can replay: the exact request a probe sent, as data and as one line of
 * `curl` that repeats it (same method, URL, headers, redirect limit). Every argument is
 * single-quoted for a POSIX shell, so a URL or header value taken from a site (follow-ups
 * come from its llms.txt, robots.txt or Link headers) can never break out of its quotes.
 */

/** Single-quotes a word for sh/bash/zsh: `'` becomes `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Header names as HTTP/1.1 writes them conventionally (user-agent -> User-Agent). A loop, not a
 * regex replace with a callback: this runs for every header of every probe, at a third the cost.
 */
function headerCase(name: string): string {
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
    parts.push('-H', shellQuote(`${headerCase(name)}: ${value.replace(/[\r\n]+/g, ' ')}`));
  }
  parts.push(shellQuote(url.replace(/[\r\n]+/g, '')));
  return parts.join(' ');
}
