import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

export interface ComingSoonProps {
  title: string;
}

export function ComingSoon({ title }: ComingSoonProps) {
  return (
    <div>
      <PageHeader title={title} />
      <EmptyState title="Coming soon" message={`${title} is coming soon. We're working on it.`} />
    </div>
  );
}
