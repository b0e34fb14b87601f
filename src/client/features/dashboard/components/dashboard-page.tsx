import type { ReactNode } from 'react';
import { PageHeader } from '../../../components/ui/misc';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The dashboard. `top` is the invitation panel, composed in by the route. */
export function DashboardPage({ top }: { top?: ReactNode }) {
  useDocumentTitle('Dashboard');
  return (
    <div>
      <PageHeader title="Welcome back!" subtitle="Here's what's happening with your team today." />
      {top}
    </div>
  );
}
