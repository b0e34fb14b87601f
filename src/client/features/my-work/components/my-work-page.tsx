import { PageHeader } from '../../../components/ui/page-header';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Being built (issue 23/24): replaced by the real page. */
export function MyWorkPage() {
  useDocumentTitle('My work');
  return <PageHeader title="My work" />;
}
