// outreachEligible (design/verdicts.md): an internal safety flag saying a follow-up would
// reach the site's own people. It says nothing about the site's quality.
export interface OutreachFacts {
  archived: boolean;
  ephemeral: boolean;
  headline: string;
  excluded: boolean;
  leadEmail: string;
  domain: string;
}

export function outreachEligible(f: OutreachFacts): boolean {
  if (!f.archived || f.ephemeral || f.excluded || f.headline === 'unknown') return false;
  const at = f.leadEmail.lastIndexOf('@');
  if (at < 0) return false;
  const emailDomain = f.leadEmail.slice(at + 1).toLowerCase().replace(/\.$/, '');
  const domain = f.domain.toLowerCase();
  return emailDomain === domain || emailDomain.endsWith(`.${domain}`);
}
