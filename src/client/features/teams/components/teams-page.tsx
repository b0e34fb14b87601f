import { PageHeader } from '../../../components/ui/misc';
import { useDocumentTitle } from '../../../lib/use-document-title';

export function TeamsPage() {
  useDocumentTitle('Teams');
  return <PageHeader title="Teams" subtitle="Manage your teams and collaborate with members" />;
}
