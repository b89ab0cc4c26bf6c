// The mailbox an address delivers to, as the daily mail cap counts it. Strangers type the
// address we mail, so one inbox must not get a fresh budget per spelling:
//   - the domain's case folds, and an internationalised domain counts in its DNS (punycode)
//     spelling, a trailing dot dropped (RFC 5321 section 2.4: domains are case-insensitive);
//   - a sub-address folds: `ada+tag` counts as `ada` (RFC 5233's "+" separator, the one Gmail,
//     Outlook.com, iCloud, Fastmail and Proton deliver to the base mailbox). A host where "+"
//     is an ordinary character of distinct mailboxes would see them share one budget, the safe
//     direction for a cap; a local part that starts with "+" is left whole;
//   - Gmail ignores dots in its local parts, and googlemail.com is gmail.com (Google's help,
//     "Dots don't matter in Gmail addresses"), so `a.d.a@googlemail.com` counts as `ada@gmail.com`;
//   - Yahoo's disposable addresses are `<base>-<keyword>@yahoo.com` (Yahoo Help, "Create and
//     manage disposable email addresses"): one base per account, every keyword delivered to the
//     same inbox, so on Yahoo's domains `base-news` counts as `base` (Yahoo IDs have no "-" of
//     their own, so no two accounts fold together);
//   - the local part's case folds. RFC 5321 allows a host to treat it as significant, but the
//     providers people type deliver `Ada@` and `ada@` to one inbox, and the cap counted
//     addresses case-insensitively before mailboxes; where a host does not, two mailboxes share
//     one budget, again the safe direction.
// The mail itself still goes to the address as typed; only the count uses this key.
import { domainToASCII } from 'node:url';

const GMAIL = new Set(['gmail.com', 'googlemail.com']);
/** yahoo.com and its country domains (yahoo.co.uk, yahoo.fr, …), ymail.com, rocketmail.com. */
const YAHOO = /^(?:yahoo\.(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})|ymail\.com|rocketmail\.com)$/;

export function mailboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return address.trim().toLowerCase();
  let local = address.slice(0, at).trim().toLowerCase();
  const rawDomain = address.slice(at + 1).trim().toLowerCase().replace(/\.+$/, '');
  const domain = domainToASCII(rawDomain) || rawDomain;
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL.has(domain)) return `${local.replaceAll('.', '')}@gmail.com`;
  const dash = local.indexOf('-');
  if (dash > 0 && YAHOO.test(domain)) local = local.slice(0, dash);
  return `${local}@${domain}`;
}
