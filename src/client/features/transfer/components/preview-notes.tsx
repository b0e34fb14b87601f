import type { ReactNode } from 'react';
import { TEXT } from './transfer-text';

/** A dry run's outcome: what will be created, and what the import noticed on the way. */
export function PreviewNotes({ summary, warnings }: { summary: string; warnings: readonly string[] }) {
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3 dark:border-slate-700 dark:bg-slate-800/60">
      <p className="font-medium">{summary}</p>
      {warnings.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold">{TEXT.warnings}</h3>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700 dark:text-slate-200">
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** An import dialog's live region: the dry run's outcome once there is one (`children`), else a line asking for it. */
export function PreviewStatus({ className, children }: { className: string; children: ReactNode }) {
  return (
    <div role="status" aria-live="polite" className={className}>
      {children ?? <p className="text-slate-600 dark:text-slate-300">{TEXT.previewFirst}</p>}
    </div>
  );
}
