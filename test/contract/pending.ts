// (operationId, status) pairs of openapi.yaml that no test exercises yet because their
// issue has not landed. This list only shrinks: the coverage check fails when a pair here
// is exercised (take it out) or when a pair is neither exercised nor listed. It is empty:
// every declared pair is exercised by a test through conforms().
export const pending: ReadonlyArray<readonly [string, string]> = [];
