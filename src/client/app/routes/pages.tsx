import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';
import { DashboardPage } from '../../features/dashboard/components/dashboard-page';
import { InvitationPanel } from '../../features/teams/components/invitation-panel';
import { useDocumentTitle } from '../../lib/use-document-title';

export function DashboardRoute() {
  return <DashboardPage top={<InvitationPanel />} />;
}

export function NotFoundRoute() {
  useDocumentTitle('Page not found');
  return (
    <div>
      <PageHeader title="Page not found" />
      <EmptyState title="Page not found" message="The page you are looking for does not exist." />
    </div>
  );
}
