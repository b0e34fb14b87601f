/** The cells of a table's header row: a `<th scope="col">` per label, all of one class. */
export function ColumnHeaders({ labels, className }: { labels: readonly string[]; className: string }) {
  return (
    <>
      {labels.map((label) => (
        <th key={label} scope="col" className={className}>
          {label}
        </th>
      ))}
    </>
  );
}
