import { PageHeader } from '../../../components/ui/misc';
import { useDocumentTitle } from '../../../lib/use-document-title';

export function ProjectsPage() {
  useDocumentTitle('Projects');
  return <PageHeader title="Projects" subtitle="Manage and track your team's projects" />;
}
