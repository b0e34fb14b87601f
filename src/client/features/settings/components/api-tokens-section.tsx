/** Settings → API tokens (issue 26). Placeholder until it lands. */
export function ApiTokensSection() {
  return null;
}
