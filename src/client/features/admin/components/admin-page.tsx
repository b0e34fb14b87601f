import { PageHeader } from '../../../components/ui/misc';
import { useDocumentTitle } from '../../../lib/use-document-title';

export function AdminPage() {
  useDocumentTitle('Admin Panel');
  return <PageHeader title="Admin Dashboard" subtitle="System overview" />;
}
