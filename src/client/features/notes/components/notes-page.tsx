/** /notes: the team's notes (issue 25). Placeholder until the notes list lands. */
export function NotesPage() {
  return <h1>Notes</h1>;
}
