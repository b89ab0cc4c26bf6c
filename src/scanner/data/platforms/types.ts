/**
 * The shape of the per-platform fix table (one module per platform, listed in index.ts). The
 * report, the CLI and /methodology.md all derive their platform fixes from this one table.
 */
export type PlatformRole = 'edge' | 'host' | 'origin' | 'cms' | 'plugin';

/** What a fix may name: the agents the failing check concerns (tokens such as ChatGPT-User). */
export interface FixContext { agents: readonly string[] }

export interface FixEntry {
  /** The platform's own name for the setting or file. */
  setting: string;
  text: string;
  /** The vendor's documentation page for that setting. */
  docUrl: string;
  snippet?: string;
}

/** Origin servers: the snippet's parts by where they go, so a test can load them into the real server. */
export interface OriginSnippet { parts: Readonly<Record<string, string>> }

export interface PlatformEntry {
  id: string;
  name: string;
  role: PlatformRole;
  /** Fingerprint vendor ids (fingerprints-v1.x) whose markers attribute this platform. */
  vendors?: readonly string[];
  /** A `server` response header naming it. */
  server?: RegExp;
  fixes: Readonly<Record<string, (ctx: FixContext) => FixEntry>>;
  /** The edge rule that would make the edge agree with robots.txt, in the platform's words. */
  edgeRule?: {
    docUrl: string; allow(tokens: readonly string[]): string; deny(tokens: readonly string[]): string;
    /** The platform's own way to answer these agents 402 with a price (grading by intent, intent.ts), where it has one. */
    charge?: { docUrl: string; text(tokens: readonly string[]): string };
  };
  /** A robots.txt block the platform adds to the owner's file, by its documented marker lines (robots-managed.ts). */
  managedRobots?: ManagedRobotsEntry;
}

/**
 * A platform's managed robots.txt: the comment lines that open and close the block it adds, as its
 * documentation prints them (matched whole, ignoring case and runs of spaces), and the setting that
 * turns it off or changes it.
 */
export interface ManagedRobotsEntry {
  begin: string;
  end: string;
  /** Where the vendor documents the markers and the setting. */
  docUrl: string;
  setting: string;
  /** What to do there about `agents`, whose robots.txt verdict the managed lines decide. */
  fix(agents: readonly string[]): string;
}

/** `"A", "B" and "C"` for prose. */
export function listed(tokens: readonly string[]): string {
  if (tokens.length <= 1) return tokens[0] ?? '';
  return `${tokens.slice(0, -1).join(', ')} and ${tokens[tokens.length - 1]}`;
}

/** A user-agent condition in Cloudflare's Rules language. */
export function cfExpression(tokens: readonly string[]): string {
  return tokens.map((t) => `(http.user_agent contains "${t}")`).join(' or ');
}
