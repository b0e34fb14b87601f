import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

interface PanelProps {
  id: string;
  title: string;
  icon: ReactNode;
  children: ReactNode;
}

/** A titled dashboard section; the heading names the region for screen readers. */
export function Panel({ id, title, icon, children }: PanelProps) {
  const headingId = `dashboard-${id}-title`;
  return (
    <Card className="flex flex-col p-4 sm:p-5">
      <section aria-labelledby={headingId} className="flex flex-1 flex-col">
        <h2 id={headingId} className="mb-4 flex items-center gap-2 text-base font-semibold">
          <span className="text-brand-600 dark:text-indigo-300" aria-hidden>
            {icon}
          </span>
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

interface ListPanelProps<T> extends Omit<PanelProps, 'children'> {
  items: T[];
  /** The quiet line shown when there is nothing to list. */
  empty: string;
  listClassName?: string;
  /** One `<li>` an item. */
  children: (item: T) => ReactNode;
}

/** A panel that lists items, or says that there are none. */
export function ListPanel<T>({ items, empty, listClassName = 'space-y-3', children, ...panel }: ListPanelProps<T>) {
  return (
    <Panel {...panel}>
      {items.length === 0 ? (
        <PanelEmpty>{empty}</PanelEmpty>
      ) : (
        <ul className={listClassName}>{items.map((item) => children(item))}</ul>
      )}
    </Panel>
  );
}

/** The quiet line a panel shows when it has nothing to list. */
function PanelEmpty({ children }: { children: ReactNode }) {
  return (
    <p className="flex flex-1 items-center justify-center rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
      {children}
    </p>
  );
}
