/** /notes/:id: one note in the collaborative editor (issue 25). Placeholder until the editor lands. */
export function NotePage() {
  return <h1>Note</h1>;
}
