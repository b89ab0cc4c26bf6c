// How a scanned domain is shown to people: the report page, the report mail and the CLI.
import { domainToUnicode } from 'node:url';

/**
 * An internationalised domain as its owner typed it ("bücher.de"), with the ASCII form DNS
 * uses ("xn--bcher-kva.de") always beside it: a name in look-alike letters shows its true
 * spelling there, so nothing we show or send lends a spoof the look of another site.
 * `ascii` is null when the two spellings are the same.
 */
export function displayDomain(domain: string): { name: string; ascii: string | null } {
  if (!/(^|\.)xn--/i.test(domain)) return { name: domain, ascii: null };
  const unicode = domainToUnicode(domain);
  return unicode && unicode !== domain ? { name: unicode, ascii: domain } : { name: domain, ascii: null };
}

/** One line of plain text: "bücher.de (xn--bcher-kva.de)", or the domain alone. */
export function domainInText(domain: string): string {
  const shown = displayDomain(domain);
  return shown.ascii ? `${shown.name} (${shown.ascii})` : shown.name;
}
