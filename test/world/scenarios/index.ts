// Every scenario of the world, in a stable order.
import type { Scenario } from '../site.ts';
import { BASIC_SCENARIOS } from './basics.ts';
import { SPECIAL_SCENARIOS, UNREACHABLE_SCENARIOS } from './special.ts';
import { VENDOR_SCENARIOS } from './vendors.ts';
import { CAUSE_SCENARIOS } from './causes.ts';
import { STANDARDS_SCENARIOS } from './standards.ts';
import { FILE_SCENARIOS } from './files.ts';
import { WATCH_SCENARIOS } from './watches.ts';
import { ARRIVAL_SCENARIOS } from './arrivals.ts';
import { ROBOTS_REQUESTER_SCENARIOS } from './robots-requesters.ts';
import { DISCOVERY_2026_12_SCENARIOS } from './discovery-2026-12.ts';
import { INTENT_SCENARIOS } from './intents.ts';
import { PARTY_SCENARIOS } from './parties.ts';
import { DNS_SCENARIOS } from './dns.ts';
import { A2A_SIGNED_SCENARIOS } from './a2a-signed.ts';
import { PAGES_PER_AGENT_SCENARIOS } from './pages-per-agent.ts';

export const SCENARIOS: readonly Scenario[] = [...BASIC_SCENARIOS, ...VENDOR_SCENARIOS, ...CAUSE_SCENARIOS, ...STANDARDS_SCENARIOS, ...FILE_SCENARIOS, ...ARRIVAL_SCENARIOS, ...ROBOTS_REQUESTER_SCENARIOS, ...DISCOVERY_2026_12_SCENARIOS, ...DNS_SCENARIOS, ...A2A_SIGNED_SCENARIOS, ...INTENT_SCENARIOS, ...PARTY_SCENARIOS, ...PAGES_PER_AGENT_SCENARIOS, ...SPECIAL_SCENARIOS, ...WATCH_SCENARIOS, ...UNREACHABLE_SCENARIOS];
