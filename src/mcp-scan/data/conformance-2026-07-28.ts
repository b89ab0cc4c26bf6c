/**
 * The 37 required server scenarios of the MCP conformance suite's frozen
 * requirements for the 2026-07-28 revision, each with what the suite needs
 * and how the scanner decides it without ever calling a tool.
 *
 * Source: github.com/modelcontextprotocol/conformance, `requirements/2026-07-28.yaml`
 * (frozen; anchored at @modelcontextprotocol/conformance@0.2.0-alpha.10), scenarios under
 * `src/scenarios/server/`, read at commit c321dd32035556e6769d3724a8ee97d87c3faaac
 * (2026-08-07, "bump version to 0.2.0-alpha.11"; the freeze landed in 232a9014, PR #447).
 *
 * decision:
 *  - `mapped`: decided from evidence the scan already gathers (see conformance.ts);
 *  - `not-applicable`: needs the suite's everything-server fixtures (tools, prompts,
 *    resources with fixed names) or a localhost server, so it says nothing about a product server;
 *  - `not-verified`: needs a request the scanner does not send (a tool call, concurrent streams,
 *    resources/read). Mapped scenarios also come out not-verified when the evidence cannot decide.
 * The scanner's only additions for this are resources/list and prompts/list, sent last, only
 * for a declared capability and only with request budget left (gather.ts).
 * Order is the requirements file's order; the report keeps it.
 */

export const CONFORMANCE_MAP_VERSION = '1.0.0';
export const CONFORMANCE_SUITE = 'modelcontextprotocol/conformance';
export const CONFORMANCE_REQUIREMENTS = '2026-07-28';
export const CONFORMANCE_SOURCE = {
  repository: 'https://github.com/modelcontextprotocol/conformance',
  path: 'requirements/2026-07-28.yaml',
  commit: 'c321dd32035556e6769d3724a8ee97d87c3faaac',
  anchor: '@modelcontextprotocol/conformance@0.2.0-alpha.10',
} as const;

export type ScenarioDecision = 'mapped' | 'not-applicable' | 'not-verified';

export interface ScenarioEntry {
  id: string;
  /** The scenario's file in the suite, under src/scenarios/server/. */
  source: string;
  /** What the suite needs from the server to run it. */
  needs: string;
  decision: ScenarioDecision;
  /** How we decide it, in words; shown as the detail when nothing more specific applies. */
  basis: string;
  /** Our own check ids the decision reads, if any. */
  checks: readonly string[];
}

const fixtureTool = (id: string, tool: string, what: string): ScenarioEntry => ({
  id, source: 'tools.ts', decision: 'not-applicable', checks: [],
  needs: `tools/call of the fixture tool \`${tool}\`, which must ${what}.`,
  basis: `Needs the suite's everything-server fixture tool \`${tool}\` and a tool call; a product server has no such tool and the scanner never calls tools.`,
});

const fixturePrompt = (id: string, prompt: string): ScenarioEntry => ({
  id, source: 'prompts.ts', decision: 'not-applicable', checks: [],
  needs: `prompts/get of the fixture prompt \`${prompt}\`.`,
  basis: `Needs the suite's fixture prompt \`${prompt}\`; a product server has no such prompt.`,
});

const fixtureResource = (id: string, uri: string, what: string): ScenarioEntry => ({
  id, source: 'resources.ts', decision: 'not-applicable', checks: [],
  needs: `resources/read of the fixture resource \`${uri}\` (${what}).`,
  basis: `Needs the suite's fixture resource \`${uri}\`; a product server has no such resource.`,
});

/** The 14 multi-round-trip (SEP-2322) scenarios: each drives a fixture tool or prompt through tools/call or prompts/get. */
const mrtr = (id: string, fixture: string, what: string): ScenarioEntry => ({
  id, source: 'input-required-result.ts', decision: 'not-applicable', checks: [],
  needs: `${what} (SEP-2322), through the fixture \`${fixture}\`.`,
  basis: `Needs the suite's fixture \`${fixture}\` and a tool call or prompts/get of it; a product server has no such fixture and the scanner never calls tools.`,
});

const ELICIT = 'test_input_required_result_elicitation';

export const SERVER_SCENARIOS: readonly ScenarioEntry[] = [
  {
    id: 'server-stateless', source: 'stateless.ts', decision: 'mapped', checks: ['mcp.protocol.modern'],
    needs: 'The SEP-2575 stateless lifecycle: server/discover, result _meta, version and header errors (400/-32020/-32022), HTTP 404 for unknown methods, and fixture diagnostic tools (test_missing_capability, test_logging_tool, test_trigger_tool_change).',
    basis: 'Fail when the server does not answer server/discover (the first check, sep-2575-server-implements-discover, fails); otherwise not verified, since the remaining checks need fixture tools and error probes we do not send.',
  },
  {
    id: 'completion-complete', source: 'utils.ts', decision: 'not-applicable', checks: [],
    needs: 'completion/complete for argument `arg1` of the fixture prompt `test_prompt_with_arguments`.',
    basis: 'Needs the suite\'s fixture prompt `test_prompt_with_arguments`; a product server has no such prompt.',
  },
  {
    id: 'tools-list', source: 'tools.ts', decision: 'mapped',
    checks: ['mcp.tools.list', 'mcp.tools.names', 'mcp.tools.descriptions', 'mcp.tools.input_schema'],
    needs: 'tools/list at the 2026-07-28 wire: a tools array, each tool with name (1-64 chars, ^[A-Za-z0-9_./-]+$), description and inputSchema.',
    basis: 'From our tools/list evidence: fail on a failed listing or a tool without name, description or inputSchema, or with a name the suite rejects; pass when the listing is sound and the server speaks 2026-07-28.',
  },
  fixtureTool('tools-call-simple-text', 'test_simple_text', 'return one text content item'),
  fixtureTool('tools-call-image', 'test_image_content', 'return one image content item'),
  fixtureTool('tools-call-audio', 'test_audio_content', 'return one audio content item'),
  fixtureTool('tools-call-embedded-resource', 'test_embedded_resource', 'return one embedded resource'),
  fixtureTool('tools-call-mixed-content', 'test_multiple_content_types', 'return text, image and resource content'),
  fixtureTool('tools-call-error', 'test_error_handling', 'return an isError result'),
  fixtureTool('tools-call-with-progress', 'test_tool_with_progress', 'send progress notifications'),
  {
    id: 'server-sse-multiple-streams', source: 'sse-multiple-streams.ts', decision: 'not-verified', checks: [],
    needs: 'Several concurrent POST requests (tools/list), each answered with JSON or its own SSE stream (SEP-1699).',
    basis: 'The scanner sends its requests one at a time and never opens concurrent streams.',
  },
  {
    id: 'resources-list', source: 'resources.ts', decision: 'mapped', checks: [],
    needs: 'resources/list: a resources array, each with uri and name.',
    basis: 'Not applicable without a declared resources capability; otherwise from our resources/list (sent only when declared): fail on an error or an item without uri or name; pass when sound and the server speaks 2026-07-28.',
  },
  fixtureResource('resources-read-text', 'test://static-text', 'text contents'),
  fixtureResource('resources-read-binary', 'test://static-binary', 'blob contents'),
  fixtureResource('resources-templates-read', 'test://template/{id}/data', 'template substitution'),
  {
    id: 'sep-2164-resource-not-found', source: 'resources.ts', decision: 'not-verified', checks: [],
    needs: 'resources/read of an unknown URI answered with an error (-32602 with the uri in data), never an empty contents array.',
    basis: 'Needs a resources/read request, which the scanner does not send.',
  },
  {
    id: 'prompts-list', source: 'prompts.ts', decision: 'mapped', checks: [],
    needs: 'prompts/list: a prompts array, each with name and description.',
    basis: 'Not applicable without a declared prompts capability; otherwise from our prompts/list (sent only when declared): fail on an error or an item without name or description; pass when sound and the server speaks 2026-07-28.',
  },
  fixturePrompt('prompts-get-simple', 'test_simple_prompt'),
  fixturePrompt('prompts-get-with-args', 'test_prompt_with_arguments'),
  fixturePrompt('prompts-get-embedded-resource', 'test_prompt_with_embedded_resource'),
  fixturePrompt('prompts-get-with-image', 'test_prompt_with_image'),
  {
    id: 'dns-rebinding-protection', source: 'dns-rebinding.ts', decision: 'not-applicable', checks: [],
    needs: 'A localhost server URL: requests with a foreign Host/Origin must get HTTP 4xx, localhost ones must succeed.',
    basis: 'The scenario covers localhost servers only (the suite fails any non-localhost URL); the scanner only scans public https endpoints.',
  },
  {
    id: 'caching', source: 'caching.ts', decision: 'mapped', checks: [],
    needs: 'SEP-2549 ttlMs (integer >= 0) and cacheScope (public|private) on tools/list, prompts/list, resources/list, resources/templates/list and resources/read results.',
    basis: 'From our tools/list, resources/list and prompts/list results: fail when one lacks ttlMs/cacheScope or carries invalid values; otherwise not verified, since resources/templates/list and resources/read are not requested.',
  },
  mrtr('input-required-result-basic-elicitation', ELICIT, 'An InputRequiredResult asking for elicitation, completed on retry'),
  mrtr('input-required-result-basic-sampling', 'test_input_required_result_sampling', 'An InputRequiredResult asking for sampling'),
  mrtr('input-required-result-basic-list-roots', 'test_input_required_result_list_roots', 'An InputRequiredResult asking for roots/list'),
  mrtr('input-required-result-request-state', 'test_input_required_result_request_state', 'requestState echoed across rounds'),
  mrtr('input-required-result-multiple-input-requests', 'test_input_required_result_multiple_inputs', 'Several input requests in one result'),
  mrtr('input-required-result-multi-round', 'test_input_required_result_multi_round', 'More than one round trip'),
  mrtr('input-required-result-missing-input-response', ELICIT, 'A new InputRequiredResult when inputResponses miss keys'),
  mrtr('input-required-result-non-tool-request', 'test_input_required_result_prompt', 'An InputRequiredResult on prompts/get'),
  mrtr('input-required-result-result-type', ELICIT, 'An explicit resultType field'),
  {
    id: 'input-required-result-unsupported-methods', source: 'input-required-result.ts', decision: 'mapped', checks: ['mcp.tools.list'],
    needs: 'tools/list and prompts/list never answered with an InputRequiredResult (resultType "input_required").',
    basis: 'Fail when our tools/list or prompts/list result is an InputRequiredResult; pass when both were observed at the 2026-07-28 wire and neither is; otherwise not verified.',
  },
  mrtr('input-required-result-tampered-state', 'test_input_required_result_tampered_state', 'Rejection of a tampered requestState'),
  mrtr('input-required-result-capability-check', 'test_input_required_result_capabilities', 'Input requests limited to declared client capabilities'),
  mrtr('input-required-result-ignore-extra-params', ELICIT, 'Extra inputResponses keys ignored'),
  mrtr('input-required-result-validate-input', ELICIT, 'Invalid inputResponses rejected or re-requested'),
];
