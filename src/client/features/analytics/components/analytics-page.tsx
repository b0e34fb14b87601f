import { PageHeader } from '../../../components/ui/page-header';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Being built (issue 23/24): replaced by the real page. */
export function AnalyticsPage() {
  useDocumentTitle('Analytics');
  return <PageHeader title="Analytics" />;
}
