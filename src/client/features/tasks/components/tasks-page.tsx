import { PageHeader } from '../../../components/ui/misc';
import { useDocumentTitle } from '../../../lib/use-document-title';

export function TasksPage() {
  useDocumentTitle('Tasks');
  return <PageHeader title="Tasks" subtitle="Manage and track your team's tasks" />;
}
