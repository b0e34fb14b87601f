import { PageHeader } from '../../../components/ui/misc';
import { useDocumentTitle } from '../../../lib/use-document-title';

export function NotificationsPage() {
  useDocumentTitle('Notifications');
  return <PageHeader title="Notifications" />;
}
