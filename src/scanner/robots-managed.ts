/**
 * Managed robots.txt: a block an edge adds to the owner's file (Cloudflare prepends one when its
 * "Instruct AI bot traffic with robots.txt" setting is on). Found only by the marker comment lines
 * the vendor documents (data/platforms/, `managedRobots`), never guessed from the agents a block
 * names. The agents "whose verdict comes from the managed part" are those for whom the file says
 * something else once the managed lines are taken out: an agent the owner's own rules already
 * disallow is not one of them, and neither is an agent that merely falls under a `*` group.
 */
import { PLATFORMS } from './data/platforms/index.ts';
import { readRobots, robotsSays, type RobotsFile } from './robots.ts';
import type { RosterAgent } from './roster.ts';

/** At most this many managed lines are carried in the report (Cloudflare's block is about fifty). */
export const MANAGED_LINES_SHOWN = 200;

export interface ManagedBlock {
  /** Platform id (data/platforms/), such as `cloudflare`. */
  vendor: string;
  vendorName: string;
  /** 1-based, inclusive: the first and last line the vendor added (its comments above the begin marker included). */
  firstLine: number;
  lastLine: number;
  /** The begin and end marker lines (1-based); `endLine` null when the file ends before an end marker. */
  beginLine: number;
  endLine: number | null;
}

interface Markers { vendor: string; vendorName: string; begin: string; end: string }

const squash = (line: string) => line.trim().replace(/\s+/g, ' ').toLowerCase();

const MARKERS: readonly Markers[] = PLATFORMS.flatMap((p) => (p.managedRobots ? [{ vendor: p.id, vendorName: p.name, begin: squash(p.managedRobots.begin), end: squash(p.managedRobots.end) }] : []));

/** The managed block of a parsed file, or null when no documented marker opens one. */
export function findManagedBlock(file: RobotsFile): ManagedBlock | null {
  if (file.state !== 'parsed') return null;
  const lines = file.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Cheap first: only a comment line can be a marker.
    if (!line.trimStart().startsWith('#')) continue;
    const marker = MARKERS.find((m) => squash(line) === m.begin);
    if (!marker) continue;
    let end: number | null = null;
    for (let j = i + 1; j < lines.length; j++) {
      if (squash(lines[j]!) === marker.end) {
        end = j;
        break;
      }
    }
    // The vendor prepends its block: comment and blank lines from the top of the file down to the
    // begin marker are its own (Cloudflare's Content Signals Policy). A rule above it means the
    // marker stands inside the owner's file, and only the marked lines are the vendor's.
    const onlyCommentsAbove = lines.slice(0, i).every((l) => l.trim() === '' || l.trimStart().startsWith('#'));
    // Without an end marker the block runs to the file's last non-blank line.
    let last = lines.length;
    while (end === null && last > i + 1 && lines[last - 1]!.trim() === '') last--;
    return {
      vendor: marker.vendor, vendorName: marker.vendorName,
      firstLine: onlyCommentsAbove ? 1 : i + 1,
      lastLine: end === null ? last : end + 1,
      beginLine: i + 1,
      endLine: end === null ? null : end + 1,
    };
  }
  return null;
}

/** The file with the managed lines blanked (line numbers kept), as the owner's rules alone say it. */
export function ownerPart(file: RobotsFile, block: ManagedBlock): RobotsFile {
  const lines = file.lines.map((l, i) => (i + 1 >= block.firstLine && i + 1 <= block.lastLine ? '' : l));
  return readRobots({ ok: true, status: 200, contentType: 'text/plain', body: lines.join('\n'), edgeOutcome: 'pass' });
}

/** Roster agents (in roster order) for whom the managed lines change what the file says about `/`. */
export function managedAgents(file: RobotsFile, block: ManagedBlock, roster: readonly RosterAgent[]): string[] {
  const owner = ownerPart(file, block);
  return roster.filter((a) => robotsSays(file, a).says !== robotsSays(owner, a).says).map((a) => a.token);
}

/** The managed lines as served, at most MANAGED_LINES_SHOWN of them. */
export function managedLines(file: RobotsFile, block: ManagedBlock): string[] {
  return file.lines.slice(block.firstLine - 1, Math.min(block.lastLine, block.firstLine - 1 + MANAGED_LINES_SHOWN));
}

/** The vendor's setting for its managed block (data/platforms/). */
export function managedSetting(vendor: string): { name: string; setting: string; docUrl: string; fix(agents: readonly string[]): string } | undefined {
  const p = PLATFORMS.find((x) => x.id === vendor);
  return p?.managedRobots ? { name: p.name, setting: p.managedRobots.setting, docUrl: p.managedRobots.docUrl, fix: p.managedRobots.fix } : undefined;
}
