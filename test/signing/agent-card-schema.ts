/**
 * A JSON Schema of the Signature Agent Card, written here from the text of
 * draft-meunier-webbotauth-registry-04 (editor's copy with the -04 changelog,
 * github.com/thibmeu/draft-meunier-webbotauth-registry, draft-meunier-webbotauth-registry.txt), one
 * rule per sentence it rests on, so that our card is checked against the draft and not against
 * our own openapi.yaml. The draft publishes no schema of its own (Appendix A "Test Vectors": TODO).
 * Unknown parameters stay allowed: "Parameters for which the value is unknown MUST be ignored" (§3),
 * and likewise for web_bot_auth members (§3.2).
 */
const httpsUrl = { type: 'string', format: 'uri', pattern: '^https://' } as const;

export const SIGNATURE_AGENT_CARD_04 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'urn:agent-readiness:test:draft-meunier-webbotauth-registry-04:signature-agent-card',
  // §3: "A Signature Agent Card is a JSON object"; "There MUST be at least one parameter set."
  type: 'object',
  minProperties: 1,
  // §3 / §3.1.1: "a card resolved through its client_id MUST carry client_id" (ours is served at its client_id).
  required: ['client_id'],
  properties: {
    // §3.1.1: client_id "is an HTTPS URL that, when dereferenced, returns the Signature Agent Card".
    client_id: httpsUrl,
    // §3.1: client_name "A friendly name"; client_uri "A URL of a web page describing the Signature Agent";
    // logo_uri "A URL referencing a logo"; contacts "An array of URIs providing reliable communication channels".
    client_name: { type: 'string', minLength: 1 },
    client_uri: { type: 'string', format: 'uri' },
    logo_uri: { type: 'string', format: 'uri' },
    contacts: { type: 'array', items: { type: 'string', format: 'uri' } },
    // §3.1.2: "The URI scheme MUST be https."
    jwks_uri: httpsUrl,
    // §3.1.3: "a JWK Set as defined in Section 5 of [JWK]" (RFC 7517 §5: a "keys" array of JWKs, each with "kty", §4.1).
    jwks: { type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: { type: 'object', required: ['kty'], properties: { kty: { type: 'string' } } } } } },
    // §3.2: "The web_bot_auth parameter is a JSON object carrying bot-specific metadata."
    web_bot_auth: {
      type: 'object',
      properties: {
        // §3.2.1: "one or more User-Agent strings ... or prefix matches".
        'expected-user-agent': { anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: { type: 'string' } }] },
        // §3.2.2: "the product token used for robots.txt directives".
        'rfc9309-product-token': { type: 'string' },
        // §3.2.3: "a boolean indicating whether the agent claims compliance" (-04 changelog: "Make rfc9309-compliance a boolean").
        'rfc9309-compliance': { type: 'boolean' },
        // §3.2.4: "Valid values: fetcher ... crawler".
        trigger: { enum: ['fetcher', 'crawler'] },
        // §3.2.5: "describes the intended use of collected data" (open: "TODO: consider an array").
        purpose: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        // §3.2.6: "Its format is arbitrary UTF-8 encoded string."
        'targeted-content': { type: 'string' },
        // §3.2.7, §3.2.8: free text for now ("TODO: specify a format").
        'rate-control': { type: 'string' },
        'rate-expectation': { type: 'string' },
        // §3.2.9: "lists predictable endpoints" (absolute URLs, relative paths, or * wildcards).
        'known-urls': { type: 'array', items: { type: 'string', minLength: 1 } },
        // §3.2.10: "The URI scheme MUST be https."
        ips_uri: httpsUrl,
      },
    },
  },
  // §3.1.2: "A Signature Agent Card MUST NOT contain both jwks_uri and jwks."
  not: { required: ['jwks_uri', 'jwks'] },
} as const;
