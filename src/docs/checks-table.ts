// The methodology's list of checks, rendered from the same registry as GET /api/checks.
export function checksTable(): string {
  return '';
}
